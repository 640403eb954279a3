// The key listing (render/keys.hpp).
#include <algorithm>

#include "helpers.hpp"
#include "render/keys.hpp"

namespace dt::test {

TEST_CASE("render_key_names: every name a registration may use, in enum order") {
  const Profile& p = profile("torch-1.13");
  std::string out;
  render_key_names(p, out);
  CHECK(out.rfind("Undefined\nDense\nFPGA\n", 0) == 0);
  CHECK(static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n')) == p.key_names().size());
  CHECK(out.find("\nAutogradCPU\n") != std::string::npos);
  CHECK(out.find("EndOfFunctionalityKeys") == std::string::npos);  // a marker, not a key
  CHECK(out.ends_with("\nCompositeExplicitAutogradNonFunctional\n"));
}

TEST_CASE("render_keys: runtime keys with row, kind and PyTorch's fallbacks, building blocks, aliases") {
  std::string out;
  render_keys(Registry(profile("torch-1.13")), out);
  CHECK(out.rfind("profile torch-1.13: PyTorch 1.13", 0) == 0);
  CHECK(out.find("\n106 runtime keys (dispatch-table rows, lowest priority first):\n"
                 "   ROW  KEY                             KIND            PARSEABLE  CORE BACKEND FALLBACK\n"
                 "     0  Undefined                       undefined       yes        \n"
                 "     1  CPU                             per-backend     yes        \n") != std::string::npos);
  CHECK(out.find("\n    76  AutogradCPU                     per-backend     yes        fallthrough registered at "
                 "./aten/src/ATen/core/VariableFallbackKernel.cpp:39\n") != std::string::npos);
  CHECK(out.find("\n\nper-backend functionality keys (registrable, never a table row: a runtime key is one of them on one backend, CPU = Dense on CPU):\n  Dense\n") != std::string::npos);
  CHECK(out.find("\n\nalias keys (what each covers, in table order):\n  Autograd (16 keys): AutogradOther, "
                 "AutogradCPU, ") != std::string::npos);
}

TEST_CASE("render_keys: the files' renamed PrivateUse1 and their fallbacks") {
  const LoadResult l = must_load("torch-main", {{"npu.toml",
                                                "privateuse1_backend = \"npu\"\n"
                                                "[[fallback]]\nkey = \"npu\"\nkernel = \"npu::cpu_fallback\"\n"
                                                "[[fallback]]\nkey = \"Sparse\"\nkernel = \"sparse_fb\"\n"}});
  std::string out;
  render_keys(l.registry, out);
  CHECK(out.find("\nPrivateUse1 is renamed 'npu' (privateuse1_backend, npu.toml:1:23): its keys are shown under "
                 "that name\n") != std::string::npos);
  CHECK(out.find("KIND            PARSEABLE  BACKEND FALLBACK (PyTorch's or the files')\n") != std::string::npos);
  CHECK(out.find("  npu                             per-backend     yes        npu::cpu_fallback  (npu.toml:3:7)\n") !=
        std::string::npos);
  CHECK(out.find("AutogradNpu ") != std::string::npos);
  CHECK(out.find(" PrivateUse1 ") == std::string::npos);
  CHECK(out.find("  (a fallback on Sparse, which fills no row: sparse_fb  (npu.toml:6:7))\n") != std::string::npos);
  // torch-main's own fallbacks have no known line: no <src>/<n> placeholders.
  CHECK(out.find("<src>") == std::string::npos);
  CHECK(out.find("PyTorch's own fallback (aten/src/ATen/core/MetaFallbackKernel.cpp)") != std::string::npos);
}

}  // namespace dt::test
