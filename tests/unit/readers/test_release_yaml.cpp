// build_registrations: what --build adds from the release's own yaml.
#include "readers/release_yaml.hpp"

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("embedded_yaml: the releases' native_functions.yaml, as copied from their torchgen") {
  std::vector<std::string> names;
  for (const EmbeddedYaml& y : embedded_yaml()) {
    names.emplace_back(y.profile);
    CHECK(y.text.find("- func: abs(Tensor self) -> Tensor") != std::string_view::npos);
    CHECK(y.text == read_text(std::string(DT_SOURCE_DIR) + "/" + std::string(y.path)));
  }
  CHECK(names == std::vector<std::string>{"torch-2.14", "torch-2.6"});
}

TEST_CASE("build_registrations: the build's keys only") {
  auto cuda = build_registrations(profile("torch-2.14"), "cuda");
  REQUIRE(cuda);
  const std::string text = render_toml(cuda->blocks, "cuda");
  CHECK(text.find("op = \"aten::abs.out\"\nkey = \"CUDA\"") != std::string::npos);
  CHECK(text.find("key = \"SparseCUDA\"") != std::string::npos);
  CHECK(text.find("key = \"CPU\"") == std::string::npos);
  CHECK(text.find("key = \"Meta\"") == std::string::npos);
  CHECK(text.find("[[def]]") == std::string::npos);
  CHECK(text.find("registered at aten/src/ATen/native/native_functions.yaml:") != std::string::npos);
  auto mps = build_registrations(profile("torch-2.14"), "mps");
  REQUIRE(mps);
  const std::string mps_text = render_toml(mps->blocks, "mps");
  CHECK(mps_text.find("key = \"MPS\"") != std::string::npos);
  CHECK(mps_text.find("key = \"CUDA\"") == std::string::npos);
  CHECK(build_registrations(profile("torch-2.14"), "cpu").value().blocks.empty());
  auto bad = build_registrations(profile("torch-2.14"), "tpu");
  REQUIRE(!bad);
  CHECK(bad.error().message == "unknown build 'tpu' (builds: cpu, cuda, mps, xpu, mtia)");
  auto old = build_registrations(profile("torch-1.13"), "cuda");
  REQUIRE(!old);
  CHECK(old.error().message.find("has no native_functions.yaml") != std::string::npos);
}

}  // namespace dt::test
