// The Python reader: torch.library registrations in a .py file, read
// statically (nothing is run) into the TOML contract (docs/input-format.md,
// "Python sources"): Library objects and their define / impl / fallback /
// _register_fake, torch.library.define / impl, custom_op and triton_op (the
// schema inferred from the annotations as the release's infer_schema does),
// the register_* functions, fallthrough_kernel. The module's statements are
// interpreted as far as they can be known: functions of the files read are
// inlined where they are called, literal loops unrolled, conditions decided
// where they can be (every branch read, with a warning, where they cannot);
// what cannot be read is a located warning, never a guess.
#pragma once

#include <string_view>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "readers/readers.hpp"

namespace dt {

class PyProject;

// `project`: the run's Python files, for imports between them (nullptr: this
// file alone).
Expected<Blocks, Diagnostic> read_python(const Profile& profile, FileName file, std::string_view text,
                                         PyProject* project = nullptr);

}  // namespace dt
