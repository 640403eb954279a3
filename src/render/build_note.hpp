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

// Where the estimate's kernels of `build` come from and what it lacks, one
// sentence ending "...; a profile exported from a cuda build
// (dispatchtool-export) is exact." `subject`: what the sentence is about
// ("PyTorch's CUDA kernels here", "the CUDA and SparseCUDA rows").
std::string build_estimate_sentence(std::string_view subject, BuildAsked build);

// The note of a table, registrations or explain output over `ops`: empty
// unless the library is a GPU build's estimate and one of `ops` has a kernel
// on one of the build's keys (among `only`, explain's keys, when given); it
// names those keys.
std::string build_library_note(const Profile& p, const std::vector<const Operator*>& ops, BuildAsked build,
                               const std::vector<KeyId>* only = nullptr);

}  // namespace dt
