// C++'s old dispatch key spellings, which no release's parseDispatchKey
// reads: c10/core/DispatchKey.h's enum aliases kept "for backwards
// compatibility" (DefaultBackend = CompositeExplicitAutograd, Autocast =
// AutocastCUDA, CPUTensorId = CPU, ...; CatchAll = Undefined), and Math, the name
// CompositeImplicitAutograd had before PyTorch renamed it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "keys/profile.hpp"

namespace dt {

// (old spelling, its key): Math, CatchAll, then the header's backwards-compatibility aliases.
const std::vector<std::pair<std::string_view, std::string_view>>& old_key_names();

// c10's parseDispatchKey refusing a name that is no key (every release says
// "could not parse dispatch key: NAME"), followed by the tool's `hint`
// (unknown_key_hint, Profile::suggest_key).
std::string unknown_key_message(std::string_view name, std::string_view hint);

// What to say after unknown_key_message's words: for an old spelling whose
// key `p` has, which key to write and why; otherwise " (did you mean 'X'?)"
// among `candidates`.
std::string unknown_key_hint(const Profile& p, std::string_view name, const std::vector<std::string_view>& candidates);

}  // namespace dt
