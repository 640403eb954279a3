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

TEST_CASE("register()'s duplicates error is the release's text (measured: 2.14 fixed the spelling)") {
  for (const char* rel : {"torch-1.13", "torch-2.6"}) {
    Registry reg = python_dispatcher_registry(profile(rel));
    CHECK(python_dispatcher_register(reg, {"CPU", "XLA", "CPU"}).error().message ==
          "Overriden is not allowed but found duplicates in ['CPU', 'XLA', 'CPU'].");
  }
  Registry reg = python_dispatcher_registry(profile("torch-2.14"));
  CHECK(python_dispatcher_register(reg, {"CPU", "XLA", "CPU"}).error().message ==
        "Overridden is not allowed but found duplicates in ['CPU', 'XLA', 'CPU'].");
  // {keys} is replaced once, by the repr: braces in the keys stay as they are.
  CHECK(python_dispatcher_register(reg, {"{keys}", "{keys}"}).error().message ==
        "Overridden is not allowed but found duplicates in ['{keys}', '{keys}'].");
}

TEST_CASE("python_dispatcher_registry: the demo operator, as PythonDispatcher's constructor defines it") {
  const Registry reg = python_dispatcher_registry(profile("torch-1.13"));
  REQUIRE(reg.operators().size() == 1);
  const Operator* op = reg.find(kPythonDispatcherOp);
  REQUIRE(op != nullptr);
  REQUIRE(op->def.has_value());
  CHECK(op->def->printed == "__test__::foo(Tensor x) -> Tensor");
  CHECK(op->def->debug == "registered at /dev/null:0");
  CHECK(op->kernels.empty());
}

TEST_CASE("register(): an fn_KEY kernel per key, with the signature Python infers") {
  Registry reg = python_dispatcher_registry(profile("torch-1.13"));
  REQUIRE(python_dispatcher_register(reg, {"CPU", "Autograd"}).has_value());
  const Operator& op = *reg.find(kPythonDispatcherOp);
  const Kernel* cpu = op.get(*reg.profile().find("CPU"));
  REQUIRE(cpu != nullptr);
  CHECK(cpu->debug == "fn_CPU");
  CHECK(*cpu->signature == "(Tensor _0) -> Tensor _0");
  CHECK(op.get(*reg.profile().find("Autograd"))->debug == "fn_Autograd");
  CHECK(python_dispatcher_register(reg, {}).has_value());  // register([]) does nothing
  CHECK(op.kernels.size() == 2);
}

TEST_CASE("python_list_repr: Python's repr() of a list of str") {
  CHECK(python_list_repr({}) == "[]");
  CHECK(python_list_repr({"CPU", "XLA"}) == "['CPU', 'XLA']");
  CHECK(python_list_repr({"it's"}) == "[\"it's\"]");
  CHECK(python_list_repr({"a\nb\t'\""}) == "['a\\nb\\t\\'\"']");
}

TEST_CASE("register_call_keys: a --register value as the list register() gets") {
  CHECK(register_call_keys("CPU,XLA") == std::vector<std::string>{"CPU", "XLA"});
  CHECK(register_call_keys(" CPU , Autograd ") == std::vector<std::string>{"CPU", "Autograd"});
  CHECK(register_call_keys("").empty());
  CHECK(register_call_keys("CPU,") == std::vector<std::string>{"CPU", ""});
  CHECK(register_call_keys(",") == std::vector<std::string>{"", ""});
}

}  // namespace dt::test
