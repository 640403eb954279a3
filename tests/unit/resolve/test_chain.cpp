// The simulated call (resolve/chain.hpp): key sets, the picked keys, and
// what PyTorch's standard kernels do next. The source of each rule (torch
// 1.13's headers, codegen and fallbacks) is cited per case.
#include "base/text.hpp"
#include "call_helpers.hpp"

namespace dt::test {

namespace {

std::string keys(const Traced& t) { return join(t.keys(), " > "); }

std::string set(const Traced& t, KeySet s) { return join(t.ks.names(s, ""), ", "); }

std::unique_ptr<Traced> aten(const std::string& op, std::vector<std::string> args, TlsOptions tls = {}) {
  CallSpec c;
  c.library = true;
  c.op = op;
  c.args = std::move(args);
  c.tls = std::move(tls);
  return traced(c);
}

std::unique_ptr<Traced> mine(const std::vector<std::string>& regs, std::vector<std::string> args, TlsOptions tls = {},
                             const std::string& schema = "f(Tensor x) -> Tensor") {
  CallSpec c;
  c.files = {{"t.toml", op_file(schema, regs)}};
  c.op = "t::f";
  c.args = std::move(args);
  c.tls = std::move(tls);
  return traced(c);
}

}  // namespace

TEST_CASE("aten::add.Tensor with a tensor that requires grad: VariableType, then the CPU kernel") {
  auto t = aten("aten::add.Tensor", {"cpu,requires_grad", "cpu"});
  CHECK(keys(*t) == "AutogradCPU > CPU");
  const CallStep& first = t->trace.steps[0];
  CHECK(first.fresh);
  CHECK(set(*t, first.unmasked) == "CPU, BackendSelect, ADInplaceOrView, AutogradCPU");
  CHECK(set(*t, first.keyset) == "CPU, AutogradCPU");  // BackendSelect, ADInplaceOrView: fallthrough
  CHECK(first.pytorch);
  CHECK(first.next == Next::Redispatch);
  // gen_variable_type.py: redispatch with ks & after_autograd_keyset, under
  // AutoDispatchBelowADInplaceOrView (LegacyTypeDispatch.h:104-110).
  CHECK(set(*t, first.next_keyset) == "CPU");
  const CallStep& cpu = t->last();
  CHECK_FALSE(cpu.fresh);
  CHECK(
      join(t->ks.functionality_names(cpu.tls.excluded), ",") ==
      "ADInplaceOrView,AutogradOther,AutogradFunctionality,AutogradNestedTensor,AutocastCPU,AutocastXPU,AutocastCUDA");
  CHECK(t->trace.result.how == Next::Ends);
  CHECK(std::string(cpu.entry.debug()) == "registered at ./build/aten/src/ATen/RegisterCPU.cpp:30798");
}

TEST_CASE("an in-place op: VariableType, then ADInplaceOrView below itself, then the backend") {
  auto t = aten("aten::add_.Tensor", {"cpu,requires_grad", "cpu"});
  CHECK(keys(*t) == "AutogradCPU > ADInplaceOrView > CPU");
  // VariableType redispatches with ks & after_autograd_keyset (DispatchKeySet.h:701-702,
  // FULL_AFTER(AutogradOther)): ADInplaceOrView stays, and a redispatch re-applies no TLS
  // (Dispatcher.h:602-612), so the ADInplaceOrView kernel runs although
  // AutoDispatchBelowADInplaceOrView has excluded it for fresh calls.
  CHECK(set(*t, t->trace.steps[0].next_keyset) == "CPU, ADInplaceOrView");
  // ADInplaceOrViewType (generated): redispatch with ks & after_ADInplaceOrView_keyset
  // (DispatchKeySet.h:705-707).
  CHECK(t->trace.steps[1].next == Next::Redispatch);
  CHECK(set(*t, t->trace.steps[1].next_keyset) == "CPU");
  // The same set as c10's FULL_AFTER(ADInplaceOrView) restricted to the call's keys.
  CHECK(
      t->trace.steps[1].next_keyset.without(t->ks.full_after(*profile("torch-1.13").find("ADInplaceOrView"))).empty());
}

TEST_CASE("inference mode: no autograd kernel runs, no_grad changes no key") {
  TlsOptions inference;
  inference.inference_mode = true;
  CHECK(keys(*aten("aten::add.Tensor", {"cpu", "cpu"}, inference)) == "CPU");
  TlsOptions no_grad;
  no_grad.no_grad = true;
  auto t = aten("aten::add.Tensor", {"cpu,requires_grad", "cpu"}, no_grad);
  CHECK(keys(*t) == "AutogradCPU > CPU");
  CHECK(t->trace.steps[0].does.what == Does::AutogradKernelGradOff);
}

TEST_CASE("autocast: the autocast kernel calls the operator again with its key excluded") {
  TlsOptions ac;
  ac.autocast = {"cpu"};
  auto t = aten("aten::mm", {"cpu", "cpu"}, ac);
  // autocast_mode.cpp WrapFunction_: ExcludeDispatchKeyGuard(AutocastCPU), then a fresh call.
  CHECK(keys(*t) == "AutocastCPU > AutogradCPU > CPU");
  CHECK(t->trace.steps[0].next == Next::FreshCall);
  CHECK(t->trace.steps[1].fresh);
  CHECK(join(t->ks.functionality_names(t->last().tls.excluded), ",").find("AutocastCPU") != std::string::npos);
  CHECK(keys(*aten("aten::mm", {"cpu", "cpu"})) == "AutogradCPU > CPU");
}

TEST_CASE("BackendSelect: a factory without tensor arguments goes to the default backend, even with Meta included") {
  TlsOptions meta;
  meta.include = {"Meta"};
  auto t = aten("aten::empty.memory_format", {}, meta);
  // torchgen gen.py:915-935: DispatchKeySet(computeDispatchKey(dtype, layout, device)), no TLS.
  CHECK(keys(*t) == "BackendSelect > CPU");
  // Without BackendSelect's kernel the Meta include wins: the highest backend bit
  // is Meta, so AutogradFunctionality is AutogradMeta (VariableType), then Meta.
  // Measured in 1.13: torch.add(cpu requiring grad, cpu) under
  // _add_meta_to_tls_dispatch_include() gives a meta tensor with an AddBackward0.
  CHECK(keys(*aten("aten::add.Tensor", {"cpu", "cpu"}, meta)) == "AutogradMeta > Meta");
}

TEST_CASE("errors: Could not run, no tensor arguments, a Dense bit without backend") {
  auto meta = mine({"CPU"}, {"meta"});
  CHECK(keys(*meta) == "AutogradMeta");  // 1.13 has no AutogradMeta fallback
  CHECK(meta->trace.result.error == CallError::CouldNotRun);
  CHECK(meta->trace.result.key == "AutogradMeta");
  auto none = mine({"CPU"}, {"[]"}, {}, "f(Tensor[] xs) -> Tensor");
  CHECK(keys(*none) == "Undefined");
  CHECK(none->trace.result.error == CallError::NoTensorArguments);
  // The available keys are the runtime table's valid rows (listAllDispatchKeys).
  CHECK(none->trace.result.available.front() == *profile("torch-1.13").find("CPU"));
  CallSpec leak;  // a leaked Dense include (trace.md 2.3): the CPU slot, named 'Unknown'
  leak.files = {{"t.toml", op_file("f(Tensor[] xs) -> Tensor", {"Meta"})}};
  leak.op = "t::f";
  leak.args = {"[]"};
  leak.tls.include = {"Dense"};
  auto l = traced(leak);
  CHECK(keys(*l) == "Unknown");
  CHECK(l->trace.result.key == "Unknown");
}

TEST_CASE("the AutogradOther ambiguity raises, a stale table turns an error into the invariant assert") {
  auto amb = mine({"CompositeImplicitAutograd", "MkldnnCPU"}, {"mkldnn_cpu"});
  CHECK(keys(*amb) == "AutogradOther");
  CHECK(amb->trace.result.error == CallError::AmbiguousAutogradOther);
  // CIA then SparseCPU: AutogradOther is stale (the math kernel runs, not the ambiguity).
  auto stale = mine({"CompositeImplicitAutograd", "SparseCPU"}, {"sparse_csr_cpu"});
  CHECK(stale->trace.steps[0].stale);
  CHECK(std::string(stale->trace.steps[0].entry.debug()) == "py:CompositeImplicitAutograd");
  // Measured in 1.13: with the Meta key below autograd the math kernel runs (no error).
  TlsOptions below;
  below.exclude = {"Autograd"};
  auto math = mine({"CompositeImplicitAutograd", "SparseCPU"}, {"meta"}, below);
  CHECK(keys(*math) == "Meta");
  CHECK(math->trace.result.how == Next::Ends);
  // CEA, CIA, SparseCPU, called with a Meta tensor: AutogradMeta has no entry,
  // and reporting the error runs checkInvariants (OperatorEntry::reportError),
  // which finds stale rows and asserts. Measured in 1.13: "expected_k.
  // _equalsBoxedAndUnboxed(dispatchTable_[idx]) INTERNAL ASSERT FAILED at
  // ./aten/src/ATen/core/dispatch/OperatorEntry.cpp":459".
  auto err = mine({"CompositeExplicitAutograd", "CompositeImplicitAutograd", "SparseCPU"}, {"meta"});
  CHECK(keys(*err) == "AutogradMeta");
  CHECK(err->trace.result.error == CallError::InvariantAssert);
  auto nested = mine({"NestedTensorCPU", "CompositeImplicitAutograd", "CompositeExplicitAutograd"}, {"nested_cpu"});
  CHECK(nested->trace.result.error == CallError::InvariantAssert);
}

TEST_CASE("an autograd kernel of the inputs: PyTorch's convention assumed, composite kernels end the chain") {
  auto t = mine({"AutogradCPU", "CPU"}, {"cpu"});
  CHECK(keys(*t) == "AutogradCPU > CPU");
  CHECK(t->trace.steps[0].assumed);
  CHECK_FALSE(t->trace.steps[0].pytorch);
  auto m = mine({"CompositeImplicitAutograd"}, {"xla"});
  CHECK(keys(*m) == "AutogradXLA");
  CHECK(m->trace.result.how == Next::Ends);
  CHECK(m->trace.steps[0].entry.why == Provenance::Math);
}

TEST_CASE("Python: PythonTLSSnapshot redispatches below itself, then __torch_dispatch__") {
  auto sub = mine({"CPU"}, {"cpu,python"});
  CHECK(keys(*sub) == "PythonTLSSnapshot > Python");
  CHECK(sub->trace.result.how == Next::TorchDispatch);
  CHECK(sub->trace.result.torch_dispatch == "subclass");
  TlsOptions mode;
  mode.python_mode = true;
  CHECK(mine({"CPU"}, {"cpu"}, mode)->trace.result.torch_dispatch == "mode");
  TlsOptions no_snapshot;
  no_snapshot.exclude = {"PythonTLSSnapshot"};
  // PythonFallbackKernel.cpp: TORCH_INTERNAL_ASSERT(tls_on_entry.has_value()).
  CHECK(mine({"CPU"}, {"cpu,python"}, no_snapshot)->trace.result.error == CallError::PythonTlsAssert);
  TlsOptions disabled;
  disabled.exclude = {"Python,PythonTLSSnapshot"};  // _DisableTorchDispatch: a wrapper dispatches like the device
  CHECK(keys(*mine({"CUDA"}, {"cuda,python"}, disabled)) == "CUDA");
}

TEST_CASE("Conjugate and ZeroTensor fallbacks redispatch below themselves, Named raises") {
  auto conj = mine({"CPU"}, {"cpu,conj"});
  CHECK(keys(*conj) == "Conjugate > CPU");  // MathBitsFallback.h:78/124
  auto zero = mine({"CPU"}, {"cpu,zerotensor"});
  CHECK(keys(*zero) == "ZeroTensor > CPU");
  auto named = mine({"CPU"}, {"cpu,named"});
  CHECK(keys(*named) == "Named");
  CHECK(named->trace.result.error == CallError::NamedNotSupported);
}

TEST_CASE("Functionalize: unwrap, then a fresh call with Functionalize excluded") {
  TlsOptions func;
  func.include = {"Functionalize"};
  auto t = mine({"CPU", "AutogradCPU"}, {"cpu,functional"}, func);
  // Functionalize is below the autograd keys (DispatchKey.h), so the AutogradCPU
  // kernel runs first (measured in 1.13: a functional CPU tensor under
  // _enable_functionalization runs the AutogradCPU kernel). Assuming it follows
  // VariableType's convention, the Functionalize fallback then unwraps and calls
  // afresh (FunctionalizeFallbackKernel.cpp:291) with Functionalize excluded.
  CHECK(keys(*t) == "AutogradCPU > Functionalize > CPU");
  CHECK(t->trace.steps[0].assumed);
  CHECK_FALSE(t->trace.steps[1].fresh);
  CHECK(t->trace.steps[2].fresh);
}

TEST_CASE("the Python dispatcher resolves the key in Python, over the current registrations") {
  TlsOptions pd;
  pd.include = {"PythonDispatcher"};
  auto t = mine({"CompositeImplicitAutograd", "AutogradCPU"}, {"cpu"}, pd);
  CHECK(keys(*t) == "PythonDispatcher > AutogradCPU");
  CHECK(t->last().python_dispatcher);
  CHECK(std::string(t->last().entry.debug()) == "py:AutogradCPU");
  // CIA then CEA: AutogradCPU is stale (the math kernel, not a fallthrough), so it stays in
  // the mask; Python's fresh resolve_key picks AutogradCPU's fallthrough fallback, which raises.
  auto stale = mine({"CompositeImplicitAutograd", "CompositeExplicitAutograd"}, {"cpu"}, pd);
  CHECK(keys(*stale) == "PythonDispatcher > AutogradCPU");
  CHECK(stale->trace.result.error == CallError::FallthroughExecuted);
  // QuantizedMeta is a key 1.13's Python cannot name.
  CHECK(mine({"CPU"}, {"quantized_meta,inference"}, pd)->trace.result.error == CallError::PyDispatcherAttributeError);
  auto missing = mine({"CPU"}, {"meta"}, pd);
  CHECK(missing->trace.result.error == CallError::PyDispatcherNoKernel);
}

TEST_CASE("functorch and tracing are not simulated") {
  CallSpec c;
  c.files = {{"t.toml", op_file("f(Tensor x) -> Tensor", {"CPU"})}};
  c.op = "t::f";
  c.args = {"cpu"};
  c.tls.include = {"FuncTorchDynamicLayerFrontMode"};
  auto t = traced(c);
  CHECK(keys(*t) == "FuncTorchDynamicLayerFrontMode");
  CHECK(t->trace.result.how == Next::NotSimulated);
}

TEST_CASE("--keyset adds raw keys to the arguments") {
  CallSpec c;
  c.files = {{"t.toml", op_file("f(Tensor x) -> Tensor", {"CPU", "XLA"})}};
  c.op = "t::f";
  c.keyset = "XLA";
  auto t = traced(c);
  CHECK(keys(*t) == "XLA");
}

// ---------------------------------------------------------------------------
// 2.x (the profiles measured from Debian's torch 2.6.0 and 2.14.1).

namespace {

std::unique_ptr<Traced> mine2(const std::string& prof, const std::vector<std::string>& regs,
                              std::vector<std::string> args, TlsOptions tls = {},
                              const std::string& schema = "f(Tensor x) -> Tensor", const std::string& pu1 = "") {
  CallSpec c;
  c.prof = prof;
  std::string file = op_file(schema, regs);
  if (!pu1.empty()) file.insert(file.find('\n') + 1, "privateuse1_backend = \"" + pu1 + "\"\n");
  c.files = {{"t.toml", file}};
  c.op = "t::f";
  c.args = std::move(args);
  c.tls = std::move(tls);
  return traced(c);
}

}  // namespace

TEST_CASE("2.x: the autograd fallback is a boxed kernel that redispatches below autograd, TLS unchanged") {
  for (const char* prof : {"torch-2.6", "torch-2.14"}) {
    CAPTURE(prof);
    auto t = mine2(prof, {"CPU"}, {"cpu"});
    CHECK(keys(*t) == "AutogradCPU > CPU");
    const CallStep& ag = t->trace.steps[0];
    CHECK(ag.entry.fallback != nullptr);
    CHECK(ag.pytorch);
    CHECK(ag.next == Next::Redispatch);
    // No AutoDispatchBelowADInplaceOrView: the thread-local state is as it was.
    CHECK(t->last().tls.excluded == ag.tls.excluded);
    CHECK(t->trace.result.how == Next::Ends);
  }
  // 1.13: a fallthrough, masked out before lookup.
  CHECK(keys(*mine({"CPU"}, {"cpu,requires_grad"})) == "CPU");
}

TEST_CASE("2.x: the Meta fallback raises NotImplementedError, 1.13 has none (Could not run AutogradMeta)") {
  auto t = mine2("torch-2.14", {"CPU"}, {"meta"});
  CHECK(keys(*t) == "AutogradMeta > Meta");
  CHECK(t->trace.result.error == CallError::MetaNotImplemented);
  // 2.6: no AutogradMeta kernel either, but its fallback is boxed too.
  CHECK(mine2("torch-2.6", {"CPU"}, {"meta"})->trace.result.error == CallError::MetaNotImplemented);
  auto old = mine({"CPU"}, {"meta"});
  CHECK(old->trace.result.error == CallError::CouldNotRun);
  CHECK(old->trace.result.key == "AutogradMeta");
}

TEST_CASE("custom_op: the fake kernel raises without register_fake, unless the operator is mutable and returns nothing") {
  auto call = [](const std::string& schema, const std::string& extra, const std::string& arg) {
    CallSpec c;
    c.prof = "torch-2.14";
    c.files = {{"co.toml", custom_op_file("co::g", schema, extra)}};
    c.op = "co::g";
    c.args = {arg};
    return traced(c);
  };
  auto t = call("(Tensor x) -> Tensor", "", "meta");
  CHECK(keys(*t) == "AutogradMeta > Meta");
  CHECK(t->trace.result.error == CallError::NoFakeImpl);
  CHECK(t->trace.steps.front().does.what == Does::CustomOpAutogradNoRequiresGrad);
  CHECK(call("(Tensor x) -> Tensor", "register_fake = true\n", "meta")->trace.result.how == Next::Ends);
  // can_generate_trivial_fake_impl: mutable, no returns.
  CHECK(call("(Tensor x) -> ()", "mutates_args = [\"x\"]\n", "meta")->trace.result.how == Next::Ends);
  CHECK(call("(Tensor x) -> ()", "", "meta")->trace.result.error == CallError::NoFakeImpl);
  CHECK(call("(Tensor x) -> Tensor", "mutates_args = [\"x\"]\n", "meta")->trace.result.error ==
        CallError::NoFakeImpl);
  // The fake kernel is Meta's only: a CPU call runs custom_op's CompositeExplicitAutograd kernel.
  CHECK(call("(Tensor x) -> Tensor", "", "cpu")->trace.result.how == Next::Ends);
}

TEST_CASE("functionalization refuses alias-annotated schemas (1.13: an internal assert, 2.x: a RuntimeError)") {
  TlsOptions func;
  func.include = {"Functionalize"};
  for (const char* prof : {"torch-1.13", "torch-2.6", "torch-2.14"}) {
    CAPTURE(prof);
    auto t = mine2(prof, {"CPU"}, {"cpu,functional"}, func, "f(Tensor(a!) x) -> ()");
    CHECK(t->trace.result.error == CallError::FunctionalizeAlias);
    CHECK(t->trace.result.key == "Functionalize");
    // Without alias annotations the fallback unwraps and calls again.
    auto plain = mine2(prof, {"CPU"}, {"cpu,functional"}, func);
    CHECK(plain->trace.result.how == Next::Ends);
  }
}

TEST_CASE("2.x: AutogradPrivateUse1 has a fallback in 2.14 only") {
  TlsOptions pu1;
  pu1.include = {"PrivateUse1"};
  auto old = mine2("torch-2.6", {"CPU"}, {"cpu"}, pu1, "f(Tensor x) -> Tensor", "foo");
  CHECK(old->trace.result.error == CallError::CouldNotRun);
  CHECK(old->trace.result.key == "AutogradPrivateUse1");
  auto now = mine2("torch-2.14", {"CPU"}, {"cpu"}, pu1, "f(Tensor x) -> Tensor", "foo");
  CHECK(keys(*now) == "AutogradPrivateUse1 > PrivateUse1");
  CHECK(now->trace.result.error == CallError::CouldNotRun);
}

TEST_CASE("the Python fallback without PythonTLSSnapshot: asserts in 1.13 and 2.6, dispatches in 2.14") {
  TlsOptions no_snapshot;
  no_snapshot.exclude = {"PythonTLSSnapshot"};
  CHECK(mine2("torch-2.6", {"CPU"}, {"cpu,python"}, no_snapshot)->trace.result.error == CallError::PythonTlsAssert);
  auto t = mine2("torch-2.14", {"CPU"}, {"cpu,python"}, no_snapshot);
  CHECK(t->trace.result.how == Next::TorchDispatch);
  CHECK(t->trace.result.torch_dispatch == "subclass");
}

}  // namespace dt::test
