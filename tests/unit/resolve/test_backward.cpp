// What backward does through a simulated call's outputs (resolve/backward.hpp):
// the rules of 2.x's boxed autograd fallback (basicAutogradNotImplementedFallbackImpl,
// mode "warn") against 1.13's fallthrough, as measured in the real builds
// (tools/gen_profile_runtime.py; tests/oracle/trace_oracle.py checks them call by call).
#include "call_helpers.hpp"
#include "resolve/backward.hpp"

namespace dt::test {

namespace {

std::unique_ptr<Traced> call(const std::string& prof, const std::string& schema, std::vector<std::string> args,
                             TlsOptions tls = {}, const std::vector<std::string>& regs = {"CPU"}) {
  CallSpec c;
  c.prof = prof;
  c.files = {{"t.toml", op_file(schema, regs)}};
  c.op = "t::f";
  c.args = std::move(args);
  c.tls = std::move(tls);
  return traced(c);
}

Backward outcome(const std::string& prof, const std::string& schema, std::vector<std::string> args,
                 TlsOptions tls = {}, const std::vector<std::string>& regs = {"CPU"}) {
  return call(prof, schema, std::move(args), std::move(tls), regs)->trace.backward.what;
}

const std::string kPlain = "f(Tensor x) -> Tensor";

}  // namespace

TEST_CASE("2.x: the autograd fallback warns in backward and gives no gradient, 1.13 records nothing") {
  for (const char* prof : {"torch-2.6", "torch-2.14"}) {
    CAPTURE(prof);
    auto t = call(prof, kPlain, {"cpu,requires_grad"});
    CHECK(t->trace.backward.what == Backward::Warn);
    CHECK(t->trace.backward.key == "AutogradCPU");
  }
  // 1.13: AutogradCPU's fallback is a fallthrough, masked out: no graph, backward raises.
  CHECK(outcome("torch-1.13", kPlain, {"cpu,requires_grad"}) == Backward::NoGraph);
}

TEST_CASE("the fallback records nothing without an input that requires grad, or with grad mode off") {
  CHECK(outcome("torch-2.14", kPlain, {"cpu"}) == Backward::NoInputRequiresGrad);
  TlsOptions no_grad;
  no_grad.no_grad = true;
  auto t = call("torch-2.14", kPlain, {"cpu,requires_grad"}, no_grad);
  CHECK(t->trace.backward.what == Backward::NoGraph);
  CHECK(t->trace.backward.cause == BackwardCause::FallbackGradModeOff);
}

TEST_CASE("alias-annotated outputs: the aliased requires_grad input is hooked, mutated outputs get no grad_fn") {
  CHECK(outcome("torch-2.14", "f(Tensor(a!) x) -> Tensor(a!)", {"cpu,requires_grad"}) == Backward::WarnThroughAlias);
  CHECK(outcome("torch-2.6", "f(Tensor(a) x) -> Tensor(a)", {"cpu,requires_grad"}) == Backward::WarnThroughAlias);
  CHECK(outcome("torch-2.14", "f(Tensor(a!) x) -> ()", {"cpu,requires_grad"}) == Backward::NoTensorOutputs);
  // The mutated argument does not require grad, the other does: no grad_fn on the output.
  CHECK(outcome("torch-2.14", "f(Tensor(a!) x, Tensor y) -> Tensor(a!)", {"cpu", "cpu,requires_grad"}) ==
        Backward::NoGraph);
  // 1.13: nothing records; the output is the input, so its gradient is its own.
  CHECK(outcome("torch-1.13", "f(Tensor(a!) x) -> Tensor(a!)", {"cpu,requires_grad"}) == Backward::ThroughAlias);
}

TEST_CASE("an autograd kernel decides, an error leaves backward unknown") {
  CHECK(outcome("torch-2.14", kPlain, {"cpu,requires_grad"}, {}, {"CPU", "AutogradCPU"}) ==
        Backward::AutogradKernel);
  CHECK(outcome("torch-2.14", kPlain, {"cpu,requires_grad"}, {}, {"CompositeImplicitAutograd"}) ==
        Backward::AutogradKernel);
  CHECK(outcome("torch-2.14", kPlain, {"meta,requires_grad"}) == Backward::Unknown);
}

TEST_CASE("custom_op's autograd kernel: no formula without register_autograd, nothing recorded with grad mode off") {
  auto op = [](const std::string& extra, std::vector<std::string> args, TlsOptions tls = {}) {
    CallSpec c;
    c.prof = "torch-2.14";
    c.files = {{"co.toml", custom_op_file("co::g", "(Tensor x, Tensor y) -> Tensor", extra)}};
    c.op = "co::g";
    c.args = std::move(args);
    c.tls = std::move(tls);
    return traced(c)->trace.backward;
  };
  const BackwardResult none = op("", {"cpu,requires_grad", "cpu"});
  CHECK(none.what == Backward::NoFormula);
  CHECK(none.key == "AutogradCPU");
  CHECK(op("register_autograd = true\n", {"cpu", "cpu,requires_grad"}).what == Backward::AutogradKernel);
  CHECK(op("", {"cpu", "cpu"}).what == Backward::NoInputRequiresGrad);
  TlsOptions no_grad;
  no_grad.no_grad = true;
  for (const char* extra : {"", "register_autograd = true\n"}) {
    const BackwardResult off = op(extra, {"cpu,requires_grad", "cpu"}, no_grad);
    CHECK(off.what == Backward::NoGraph);
    CHECK(off.cause == BackwardCause::CustomOpGradModeOff);
  }
}

TEST_CASE("alias sets and hasAnyAliasInfo") {
  bool writes = false;
  CHECK(alias_set("Tensor(a!)", &writes) == "a");
  CHECK(writes);
  CHECK(alias_set("Tensor(b)[]", &writes) == "b");
  CHECK_FALSE(writes);
  CHECK(alias_set("Tensor?").empty());
  CHECK(alias_set("Dict(str, Tensor)").empty());
}

}  // namespace dt::test
