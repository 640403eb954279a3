// explain (render/explain.hpp): computeDispatchTableEntryWithDebug in words.
#include "helpers.hpp"
#include "registry/python_dispatcher.hpp"
#include "render/explain.hpp"

namespace dt::test {
namespace {

std::string explain(const std::string& prof, const std::vector<std::string>& keys, const std::string& key,
                    bool color = false) {
  Registry reg = python_dispatcher_registry(profile(prof));
  REQUIRE(python_dispatcher_register(reg, keys).has_value());
  std::string out;
  render_explain(Resolver(reg), *reg.find(kPythonDispatcherOp), *reg.profile().find(key), HumanStyle{color}, out);
  return out;
}

}  // namespace

// The example of docs/usage.md.
TEST_CASE("explain: every step, why the decomposition is skipped, and what a fallthrough means") {
  CHECK(
      explain("torch-1.13", {"CPU", "CompositeImplicitAutograd"}, "AutogradCPU") ==
      "__test__::foo(Tensor x) -> Tensor\n"
      "AutogradCPU resolves __test__::foo like computeDispatchTableEntryWithDebug (torch-1.13):\n"
      "  1     a kernel registered on AutogradCPU itself?                      no\n"
      "  2.1   does CompositeExplicitAutogradNonFunctional cover AutogradCPU?  no\n"
      "  2.2   does CompositeExplicitAutograd cover AutogradCPU?               no\n"
      "  2.3a  does CompositeImplicitAutogradNestedTensor cover AutogradCPU?   no\n"
      "  2.3b  does CompositeImplicitAutograd cover AutogradCPU?               yes, and it has a kernel: "
      "fn_CompositeImplicitAutograd\n"
      "        but it is not used: the operator has a kernel on CPU (has_backend_kernel)\n"
      "  2.4   does Autograd cover AutogradCPU?                                yes, but no kernel is registered on it\n"
      "  3     a backend fallback registered for AutogradCPU?                  yes: fallthrough registered at "
      "./aten/src/ATen/core/VariableFallbackKernel.cpp:39  (PyTorch's own)\n"
      "result: AutogradCPU: fallthrough registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39 [backend "
      "fallback]\n"
      "A fallthrough: at run time AutogradCPU is masked out of this operator's dispatch key set, so a call "
      "continues at the next key below it.\n");
}

TEST_CASE("explain: custom_op's fake and autograd kernels without register_fake / register_autograd raise") {
  const LoadResult loaded =
      must_load("torch-2.14", {{"co.toml", custom_op_file("co::f", "(Tensor x) -> Tensor", "function = \"my_f\"\n")}});
  const Registry& reg = loaded.registry;
  auto closing = [&](const char* key) {
    std::string out;
    render_explain(Resolver(reg), *reg.find("co::f"), *reg.profile().find(key), HumanStyle{false}, out);
    return out.substr(out.find("\n", out.find("result: ")) + 1);
  };
  CHECK(closing("Meta") ==
        "Calls that dispatch to Meta run custom_op's fake kernel, which raises without register_fake:\n"
        "  RuntimeError: There was no fake impl registered for <CustomOpDef(co::f)>. This is necessary for "
        "torch.compile/export/fx tracing to work. Please use `my_f.register_fake` to add an fake impl.\n");
  CHECK(closing("AutogradCPU") ==
        "custom_op's Autograd kernel records a backward (with grad mode on and an input that requires grad) and "
        "redispatches to the backend below; without register_autograd, backward through its outputs raises:\n"
        "  RuntimeError: Trying to backward through co.f.default but no autograd formula was registered. Please use "
        "register_autograd to add one.\n");
}

TEST_CASE("explain: the walk stops at the step that decides") {
  const std::string out = explain("torch-1.13", {"CPU", "CompositeImplicitAutograd"}, "XLA");
  CHECK(out.find("  2.3b  does CompositeImplicitAutograd cover XLA?               yes, and it has a kernel: "
                 "fn_CompositeImplicitAutograd\nresult: XLA: fn_CompositeImplicitAutograd [math kernel]\n") !=
        std::string::npos);
  CHECK(out.find("2.4") == std::string::npos);
}

TEST_CASE("explain: a missing entry, with the error a call raises") {
  const std::string out = explain("torch-1.13", {"CPU"}, "XLA");
  CHECK(out.find("  3     a backend fallback registered for XLA?                  no\n"
                 "result: missing (no row in the table)\n"
                 "No kernel: a call that dispatches to XLA raises NotImplementedError \"Could not run '__test__::foo' "
                 "with arguments from the 'XLA' backend. ... '__test__::foo' is only available for these backends: "
                 "[CPU, BackendSelect, ") != std::string::npos);
}

TEST_CASE("explain: keys without a table row, and colours") {
  CHECK(explain("torch-1.13", {"CPU"}, "Autograd") ==
        "Autograd is not a runtime key: it has no row in the dispatch table\n");
  const std::string coloured = explain("torch-1.13", {"CPU"}, "CPU", true);
  CHECK(coloured.rfind("\x1b[1m__test__::foo(Tensor x) -> Tensor\x1b[0m\n", 0) == 0);
  CHECK(coloured.find("\x1b[32myes: fn_CPU\x1b[0m") != std::string::npos);  // the step taken
  CHECK(coloured.find("result: \x1b[1mCPU: fn_CPU [kernel]\x1b[0m\n") != std::string::npos);
}

}  // namespace dt::test
