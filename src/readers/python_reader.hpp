// The Python reader: torch.library registrations in a .py file, read
// statically (nothing is run) into the TOML contract (docs/input-format.md,
// "Python sources"): Library objects and their define / impl / fallback,
// torch.library.define / impl, custom_op (its schema inferred from the
// annotations as the release's infer_schema does) and the register_*
// functions, fallthrough_kernel. Module-level statements only; every other
// registration-like call is a located warning, never a guess.
#pragma once

#include <string_view>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "readers/readers.hpp"

namespace dt {

Expected<Blocks, Diagnostic> read_python(const Profile& profile, FileName file, std::string_view text);

}  // namespace dt
