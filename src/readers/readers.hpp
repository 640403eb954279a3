// The readers: registrations where users write them — C++ (TORCH_LIBRARY
// blocks), Python (torch.library) and yaml (native_functions.yaml, backend
// yaml for gen_backend_stubs) — translated into the TOML contract
// (docs/input-format.md), the registry's input model. A layer of its own:
// it knows the profile's keys and names, nothing of the registry or of
// resolution. The loader (registry/loader.hpp) compiles the blocks
// read_blocks() reads from every file that is not TOML, and a TOML file's
// blocks in the same model (toml_file.hpp); `dispatchtool import` prints
// the same blocks as TOML (render_toml).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "readers/cpp_options.hpp"
#include "readers/toml_writer.hpp"

namespace dt {

enum class SourceKind : std::uint8_t { Toml, Cpp, Python, NativeYaml, BackendYaml };
const char* to_string(SourceKind k);  // "TOML" | "C++" | "Python" | "native_functions.yaml" | "backend yaml"

// The extensions read as C++ (detect_source; the messages that list them):
// sources, CUDA and HIP sources, Objective-C++, headers and inline files.
inline constexpr std::array<std::string_view, 12> kCppExtensions = {
    ".cpp", ".cc", ".cxx", ".cu", ".cuh", ".hip", ".mm", ".h", ".hh", ".hpp", ".hxx", ".inl"};
// kCppExtensions joined by spaces: ".cpp .cc .cxx .cu .cuh .hip .mm .h .hh .hpp .hxx .inl".
std::string cpp_extension_list();

// What a file is: by extension (.toml; .cpp .cc .cxx .cu .mm .h .hpp; .py;
// .yaml .yml), then for yaml by content (a top-level `backend:` key is a
// gen_backend_stubs file, else native_functions.yaml); anything else
// (standard input, no extension) is TOML.
SourceKind detect_source(std::string_view path, std::string_view text);

// What one file registers, as the readers read it.
struct Blocks {
  std::vector<TomlBlock> blocks;
  // Registrations the reader saw but could not read statically (a macro of
  // the user's, a loop, an #if branch): located warnings, never a guess.
  std::vector<Diagnostic> warnings;
};

// The operators that registrations the readers could not read name (each
// warning's `op`: a comma-separated list), as views into `warnings`: a def
// of theirs may be there, so neither lint nor the loader calls their kernels
// dangling.
std::unordered_set<std::string_view> unread_operators(const std::vector<Diagnostic>& warnings);

class PyProject;

// Whether the profile's operator library has a kernel of `op` on `key`, or
// (key empty) a definition of `op` (an OpLibrary's has(), from the layers
// above; the readers do not see the library).
using InLibrary = std::function<bool(std::string_view op, std::string_view key)>;

// `file`: the name locations carry (as given on the command line). `kind`
// is not Toml. `cpp`: how a C++ file is compiled (its -D, -I flags and how
// its includes are read). `python`: the run's Python files
// (readers/python_project.hpp), so that a Python file's imports of another
// file read resolve (nullptr: each file alone). `in_library`: the
// operators the profile's library defines, which a native_functions.yaml's
// aten functions do not define again (empty: no library; then none of
// aten's is defined, as with --no-library). Errors: FILE:LINE:COL
// diagnostics for input the reader cannot read at all.
Expected<Blocks, Diagnostic> read_blocks(const Profile& profile, SourceKind kind, FileName file, std::string_view text,
                                         const CppOptions& cpp = {}, PyProject* python = nullptr,
                                         const InLibrary& in_library = {});

}  // namespace dt
