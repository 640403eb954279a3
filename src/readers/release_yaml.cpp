// build_registrations (release_yaml.hpp).
#include "readers/release_yaml.hpp"

#include <fmt/format.h>

#include "readers/native_yaml.hpp"

namespace dt {

const std::vector<std::pair<std::string_view, std::vector<std::string_view>>>& build_backends() {
  // torchgen/gen.py: CUDA's keys are generated unless the build is CPU-only;
  // MPS_KEYS with --mps, XPU_KEYS with --xpu, MTIA with --mtia.
  static const std::vector<std::pair<std::string_view, std::vector<std::string_view>>> builds = {
      {"cpu", {}},
      {"cuda", {"CUDA", "SparseCUDA", "SparseCsrCUDA", "QuantizedCUDA", "NestedTensorCUDA"}},
      {"mps", {"MPS", "SparseMPS", "SparseCsrMPS"}},
      {"xpu", {"XPU", "SparseXPU", "SparseCsrXPU", "NestedTensorXPU"}},
      {"mtia", {"MTIA"}},
  };
  return builds;
}

Expected<Blocks, Diagnostic> build_registrations(const Profile& profile, std::string_view build) {
  const std::vector<std::string_view>* keys = nullptr;
  std::string names;
  for (const auto& [name, k] : build_backends()) {
    names += fmt::format("{}{}", names.empty() ? "" : ", ", name);
    if (name == build) keys = &k;
  }
  if (keys == nullptr) return unexpected(make_error(fmt::format("unknown build '{}' (builds: {})", build, names)));
  const EmbeddedYaml* yaml = nullptr;
  for (const EmbeddedYaml& y : embedded_yaml())
    if (y.profile == profile.name()) yaml = &y;
  if (yaml == nullptr)
    return unexpected(
        make_error(fmt::format("profile {} has no native_functions.yaml of its release "
                               "(configs/yaml/ has those of torch-2.6 and torch-2.14)",
                               profile.name())));
  NativeYamlOptions o;
  for (std::string_view k : *keys) o.keys.emplace_back(k);
  o.debug_file = "aten/src/ATen/native/native_functions.yaml";
  if (o.keys.empty()) return Blocks{};
  DT_TRY(read, read_native_yaml(profile, FileName(yaml->path), yaml->text, o));
  for (TomlBlock& b : read.blocks) b.note = fmt::format("the {} build of {}", build, profile.name());
  return read;
}

}  // namespace dt
