// PythonDispatcher's dispatchTable() and registrations() views (spec E.3).
#include "helpers.hpp"
#include "registry/python_dispatcher.hpp"
#include "render/python_dispatcher_view.hpp"

namespace dt::test {

namespace {

std::string pd_table(const std::string& prof, const std::vector<std::vector<std::string>>& calls) {
  Registry reg = python_dispatcher_registry(profile(prof));
  for (const auto& c : calls) REQUIRE(python_dispatcher_register(reg, c).has_value());
  std::string raw, out;
  render_table_raw(Resolver(reg), *reg.find(kPythonDispatcherOp), KeyFilter{}, raw);
  render_table_python_dispatcher(profile(prof), raw, out);
  return out;
}

}  // namespace

TEST_CASE("spec E.3: PythonDispatcher register([CPU, XLA, CompositeImplicitAutograd])") {
  CHECK(pd_table("torch-1.13", {{"CPU", "XLA", "CompositeImplicitAutograd"}}) ==
        "\nComputed Dispatch Table\n"
        "key             kernel\n"
        "---------------------------\n"
        "CPU             fn_CPU [kernel]\n"
        "XLA             fn_XLA [kernel]\n"
        "Lazy            fn_CompositeImplicitAutograd [math kernel]\n"
        "FPGA            fn_CompositeImplicitAutograd [math kernel]\n"
        "AutogradOther   fn_CompositeImplicitAutograd [math kernel]\n"
        "AutogradCPU     fallthrough [backend fallback]\n"
        "AutogradXLA     fallthrough [backend fallback]\n"
        "AutogradLazy    fn_CompositeImplicitAutograd [math kernel]\n");
  // "In main the two fallback rows read `AutogradCPU     [backend fallback]`."
  const std::string m = pd_table("torch-main", {{"CPU", "XLA", "CompositeImplicitAutograd"}});
  CHECK(m.find("AutogradCPU     [backend fallback]\n") != std::string::npos);
  CHECK(m.find("AutogradXLA     [backend fallback]\n") != std::string::npos);
}

TEST_CASE("spec E.3: registrations() view, inactive quirk") {
  Registry reg = python_dispatcher_registry(profile("torch-1.13"));
  REQUIRE(python_dispatcher_register(reg, {"CPU", "CompositeImplicitAutograd"}));
  REQUIRE(python_dispatcher_register(reg, {"CPU"}));
  std::string raw, out;
  render_registrations_raw(reg, *reg.find(kPythonDispatcherOp), KeyFilter{}, raw);
  render_registrations_python_dispatcher(reg.profile(), raw, out);
  CHECK(out ==
        "\nRegistered Kernels\n"
        "key             kernel\n"
        "---------------------------\n"
        "CPU             fn_CPU\n"
        "CPU (inactive)  (inactive):\n"
        "CompositeImplicitAutograd[alias] fn_CompositeImplicitAutograd\n");
  CHECK(reg.warnings().size() == 1);
}

TEST_CASE("dispatchTable(): PythonDispatcher's keys only, fallback paths masked as its regex does") {
  const std::string raw =
      "Undefined: u [math kernel]\n"
      "CPU: fn_CPU [kernel]\n"
      "CUDA: c [kernel]\n"
      "XLA: registered at a/XlaFallbackKernel.cpp:3 [backend fallback]\n"
      "Lazy: k registered at FallbackKernel.cpp [x] [kernel]\n";
  std::string out;
  render_table_python_dispatcher(profile("torch-1.13"), raw, out);
  CHECK(out ==
        "\nComputed Dispatch Table\n"
        "key             kernel\n"
        "---------------------------\n"
        "CPU             fn_CPU [kernel]\n"
        "XLA             [backend fallback]\n"
        "Lazy            k [kernel]\n");
}

}  // namespace dt::test
