// static_init_head: TORCH_LIBRARY's expansion written out by a project's own
// macro (IPEX's IPEX_TORCH_LIBRARY_IMPL), read through read_cpp as the block
// it registers; oracle.torch-2.14.cpp_reader_project compiles the same shape
// (tests/oracle/cpp_ext/project_forms.cpp).
#include "readers/cpp_reader.hpp"

#include "cpp_reader_helpers.hpp"

namespace dt::test {

TEST_CASE("static_init_head: TORCH_LIBRARY's expansion written out is a library block") {
  const std::string init =
      "at::Tensor f(const at::Tensor& x);\n"
      "static const torch::detail::TorchLibraryInit s(torch::Library::IMPL, &init_t, \"t\",\n"
      "    std::make_optional(c10::DispatchKey::CPU), __FILE__, __LINE__);\n";
  const Blocks b = read_cpp_ok(init + "void init_t(torch::Library& lib) {\n  lib.impl(\"f\", &f);\n}\n");
  REQUIRE(b.blocks.size() == 1);
  CHECK(b.warnings.empty());
  const std::string t = render_toml(b.blocks, "t");
  CHECK(t.find("namespace = \"t\"") != std::string::npos);
  CHECK(t.find("kind = \"IMPL\"") != std::string::npos);
  CHECK(t.find("dispatch_key = \"CPU\"") != std::string::npos);
  CHECK(t.find("op = \"f\"") != std::string::npos);
  // A FRAGMENT with std::nullopt; 2.6's form of the function (dispatch_key_allowlist_check ? &INIT : lambda).
  CHECK(read_cpp_ok("static const torch::detail::TorchLibraryInit s(torch::Library::FRAGMENT, &g, \"t\", std::nullopt, "
             "__FILE__, __LINE__);\nvoid g(torch::Library& m) { m.def(\"h(Tensor x) -> Tensor\"); }\n")
            .blocks.size() == 1);
  CHECK(read_cpp_ok("static const torch::detail::TorchLibraryInit s(torch::Library::IMPL, (c10::impl::"
             "dispatch_key_allowlist_check(c10::DispatchKey::CPU) ? &g : [](torch::Library&) -> void {}), \"t\", "
             "std::make_optional(c10::DispatchKey::CPU), __FILE__, __LINE__);\nvoid g(torch::Library& m) { "
             "m.impl(\"f\", &f); }\n")
            .blocks.size() == 1);
  // Its function defined elsewhere: a located warning, nothing guessed.
  const Blocks w = read_cpp_ok(init + "int x;\nvoid init_t(torch::Library& lib) {\n  lib.impl(\"f\", &f);\n}\n");
  CHECK(w.blocks.empty());
  REQUIRE(w.warnings.size() == 1);
  CHECK(format(w.warnings[0]).starts_with("ops.cpp:2:29: warning: a torch::detail::TorchLibraryInit written out"));
  CHECK(w.warnings[0].message.find("the definition of init_t does not follow it") != std::string::npos);
}

}  // namespace dt::test
