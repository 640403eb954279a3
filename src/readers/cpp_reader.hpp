// The C++ reader: TORCH_LIBRARY / TORCH_LIBRARY_FRAGMENT /
// TORCH_LIBRARY_IMPL blocks (and their STABLE_ forms) of a C++ source, read
// statically (no preprocessor, no compiler) into the TOML contract's blocks.
// What it reads, and how each form maps, is docs/input-format.md's "C++
// sources". What it sees but cannot read statically (a registration in a
// macro of the user's, a loop, an #if branch, a non-literal name, an unknown
// handle) is a located warning, never a silent drop or a guess.
#pragma once

#include <string_view>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "readers/readers.hpp"

namespace dt {

Expected<Blocks, Diagnostic> read_cpp(const Profile& profile, FileName file, std::string_view text);

}  // namespace dt
