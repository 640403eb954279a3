// A release's own source tree (`--build-source DIR`, a PyTorch checkout of
// that release): the hand-written C++ registrations a GPU build compiles on
// its keys and a CPU build does not (TORCH_LIBRARY_IMPL(quantized,
// QuantizedCUDA, m) in aten/src/ATen/native/quantized/cudnn, symm_mem's and
// c10d's CUDA kernels), read with the C++ reader under the build's macros.
// No yaml holds them, so --build alone cannot know them (docs/library.md).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/io.hpp"
#include "keys/profile.hpp"
#include "readers/readers.hpp"

namespace dt {

// The macros a `build` compiles PyTorch's sources with, as its CMake sets
// them for the release wheels (USE_CUDA, AT_CUDNN_ENABLED(), CUDART_VERSION,
// ...): NAME or NAME(PARAMS), and the value.
const std::vector<std::pair<std::string_view, std::string_view>>& build_source_defines(std::string_view build);

struct BuildSourceRead {
  Blocks blocks;               // impls and fallbacks on the build's keys, the definitions the library lacks
  std::size_t files_read = 0;  // the files that name one of the build's keys and a library macro
  // The reader's warnings in them (a registration not read, a schema left
  // out); dispatchtool import with the build's -D flags shows them.
  std::size_t warnings = 0;
};

// Reads every C++ source (.cpp .cc .cu .mm; not headers, not tests) under
// DIR/aten/src/ATen and DIR/torch/csrc that names one of `build`'s keys,
// with build_source_defines(build); kernels are located relative to DIR.
// `in_library` is the CPU library's: what it has is the CPU build's own,
// compiled there too, and left out. Errors: a build with no keys of its own
// ("cpu"), DIR that is not a PyTorch source tree, a file that cannot be
// read, a reader's error.
Expected<BuildSourceRead, Diagnostic> build_source_registrations(const Profile& profile, std::string_view build,
                                                                 const std::string& dir, const FileSystem& fs,
                                                                 const InLibrary& in_library);

}  // namespace dt
