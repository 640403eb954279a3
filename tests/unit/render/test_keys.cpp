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

TEST_CASE("render_keys: runtime keys with row, kind and PyTorch's fallbacks; building blocks; aliases") {
  std::string out;
  render_keys(profile("torch-1.13"), out);
  CHECK(out.rfind("profile torch-1.13: PyTorch 1.13", 0) == 0);
  CHECK(out.find("\n106 runtime keys (dispatch-table rows, lowest priority first):\n"
                 "   ROW  KEY                             KIND            PARSEABLE  CORE BACKEND FALLBACK\n"
                 "     0  Undefined                       undefined       yes        \n"
                 "     1  CPU                             per-backend     yes        \n") != std::string::npos);
  CHECK(out.find("\n    76  AutogradCPU                     per-backend     yes        fallthrough registered at "
                 "./aten/src/ATen/core/VariableFallbackKernel.cpp:39\n") != std::string::npos);
  CHECK(out.find("\n\nbuilding blocks (registrable, never a table row):\n  Dense\n") != std::string::npos);
  CHECK(out.find("\n\nalias keys (what each covers, in table order):\n  Autograd (16 keys): AutogradOther, "
                 "AutogradCPU, ") != std::string::npos);
}

}  // namespace dt::test
