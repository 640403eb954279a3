// The C++ reader: TORCH_LIBRARY / TORCH_LIBRARY_FRAGMENT /
// TORCH_LIBRARY_IMPL blocks (and their STABLE_ forms) of a C++ source, read
// statically (preprocessed as a compiler would, readers/cpp_preprocessor.hpp;
// nothing compiled) into the TOML contract's blocks. What it reads, and how
// each form maps, is docs/input-format.md's "C++ sources". What it sees but
// cannot read statically (a loop, a non-literal name, an unknown handle, a
// block macro whose header was not found) is a located warning, never a
// silent drop or a guess.
#pragma once

#include <string_view>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "readers/cpp_options.hpp"
#include "readers/readers.hpp"

namespace dt {

Expected<Blocks, Diagnostic> read_cpp(const Profile& profile, FileName file, std::string_view text,
                                      const CppOptions& options = {});

}  // namespace dt
