// The releases' own native_functions.yaml (configs/yaml/<profile>/, copied
// from each release's torchgen by tools/gen_release_yaml.py, embedded at build
// time), and what `--build BACKEND` adds to a profile's library from it: the
// library of a CUDA (MPS, XPU, MTIA) build, which no CPU package has
// (docs/library.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "readers/readers.hpp"

namespace dt {

struct EmbeddedYaml {
  std::string_view profile;  // "torch-2.14"
  std::string_view path;     // "configs/yaml/torch-2.14/native_functions.yaml"
  std::string_view text;
};
const std::vector<EmbeddedYaml>& embedded_yaml();

// The builds --build accepts ("cpu", "cuda", "mps", "xpu", "mtia") and the
// dispatch keys whose Register<KEY>.cpp each adds to a CPU build (gen.py).
const std::vector<std::pair<std::string_view, std::vector<std::string_view>>>& build_backends();

// What building `build` adds to the CPU library of `profile`: the
// registrations its native_functions.yaml makes on the build's keys (kernels
// "registered at aten/src/ATen/native/native_functions.yaml:LINE"); none for
// "cpu". Errors: an unknown build, a profile without an embedded yaml.
Expected<Blocks, Diagnostic> build_registrations(const Profile& profile, std::string_view build);

}  // namespace dt
