// What the tool says when the operator library is --build's estimate of a
// GPU build (issue 28): which rows are the estimate's and what it lacks, in
// table, registrations and explain (readable and JSON "library_note") and in
// trace's note. A build's keys: readers/release_yaml.hpp's build_backends().
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "registry/model.hpp"

namespace dt {

// The build the library was opened as: --build's name ("", "cpu": the
// package's own) and --build-source's tree ("" when none was read).
struct BuildAsked {
  std::string_view name;
  std::string_view source;
};

// Where the estimate's kernels of `build` come from and what it lacks, ending
// "...; a profile exported from a cuda build (dispatchtool-export) is exact."
// `subject`: what the sentence is about ("PyTorch's CUDA kernels here", "the
// CUDA and SparseCUDA rows"). With a source tree, `origin` (the library's:
// how many files were read, the C++ reader's warnings there) follows.
std::string build_estimate_sentence(std::string_view subject, BuildAsked build, std::string_view origin = {});

// Why a library without `build`'s kernels answers nothing true of them:
// "{subject} ... it is a build without CUDA kernels (ORIGIN): a cuda build
// registers its own ... For them: --build cuda (...), or --profile DIR
// exported from a cuda build with dispatchtool-export (exact)."
// --build is offered where the profile has its release's yaml (torch-2.6, torch-2.14).
std::string cpu_library_sentence(std::string_view subject, std::string_view build, std::string_view origin,
                                 const Profile& p);

// Whether the registry's operator library has kernels of `key` (on
// aten::add.Tensor, which every backend implements).
bool library_has_backend(const Registry& reg, std::string_view key);

// The note of a table, registrations or explain output over `ops`. With a
// GPU build's estimate: when one of `ops` has a kernel on one of the build's
// keys (among `asked`, when given: explain's keys, --keys, every key for
// --all-keys), naming those keys. Without one: when `asked` holds a GPU
// build's keys, the library has no kernels of that backend (a CPU
// package's), and a row there of one of PyTorch's operators is the
// library's or none (not the files' kernel or fallback), saying that those
// rows are not that build's. Else empty.
std::string build_library_note(const Registry& reg, const std::vector<const Operator*>& ops, BuildAsked build,
                               const std::vector<KeyId>* asked = nullptr);

}  // namespace dt
