// PythonDispatcher as a registry builder: the demo operator and register()'s checks (spec E.3).
#include "helpers.hpp"
#include "registry/python_dispatcher.hpp"

namespace dt::test {

TEST_CASE("spec E.3: PythonDispatcher checks and messages") {
  Registry reg = python_dispatcher_registry(profile("torch-1.13"));
  CHECK(python_dispatcher_register(reg, {"CPU", "CPU"}).error().message ==
        "Overriden is not allowed but found duplicates in ['CPU', 'CPU'].");
  CHECK(python_dispatcher_register(reg, {"CompositeImplicitAutograd", "CompositeExplicitAutograd"}).error().message ==
        "Registration to both CompositeImplicitAutograd and CompositeExplicitAutograd is not allowed.");
  CHECK(python_dispatcher_register(reg, {"CPU", "CUDA"}).error().message ==
        "CUDA is not supported, please select a dispatch key in ['CPU', 'AutogradCPU', 'FPGA', "
        "'AutogradOther', 'XLA', 'AutogradXLA', 'Lazy', 'AutogradLazy', 'CompositeExplicitAutograd', "
        "'Autograd', 'CompositeImplicitAutograd'].");
  // Keys before the unsupported one stay registered.
  CHECK(reg.find(kPythonDispatcherOp)->get(*reg.profile().find("CPU")) != nullptr);
}

}  // namespace dt::test
