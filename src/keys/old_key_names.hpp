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

// What to say after "unknown dispatch key 'NAME'": for an old spelling whose
// key `p` has, which key to write and why; otherwise " (did you mean 'X'?)"
// among `candidates`.
std::string unknown_key_hint(const Profile& p, std::string_view name, const std::vector<std::string_view>& candidates);

}  // namespace dt
