#include "resolve/chain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "resolve/backward.hpp"
#include "resolve/python_resolve.hpp"

namespace dt {

const char* to_string(Next n) {
  switch (n) {
    case Next::Redispatch:
      return "redispatch";
    case Next::FreshCall:
      return "fresh call";
    case Next::Ends:
      return "end";
    case Next::Error:
      return "error";
    case Next::TorchDispatch:
      return "torch_dispatch";
    case Next::NotSimulated:
      return "not simulated";
  }
  return "end";
}

const char* to_string(CallError e) {
  switch (e) {
    case CallError::None:
      return "none";
    case CallError::CouldNotRun:
      return "could_not_run";
    case CallError::NoTensorArguments:
      return "no_tensor_arguments";
    case CallError::AmbiguousAutogradOther:
      return "ambiguous_autogradother";
    case CallError::InvariantAssert:
      return "invariant_assert";
    case CallError::FallthroughExecuted:
      return "fallthrough_executed";
    case CallError::NamedNotSupported:
      return "named_not_supported";
    case CallError::PythonTlsAssert:
      return "python_tls_assert";
    case CallError::PythonNoInterpreter:
      return "python_no_interpreter";
    case CallError::PyDispatcherAttributeError:
      return "python_dispatcher_attribute_error";
    case CallError::PyDispatcherNoKernel:
      return "python_dispatcher_no_kernel";
    case CallError::PyDispatcherAmbiguous:
      return "python_dispatcher_ambiguous";
    case CallError::Loop:
      return "loop";
    case CallError::MetaNotImplemented:
      return "meta_not_implemented";
    case CallError::FunctionalizeAlias:
      return "functionalize_alias";
    case CallError::ZeroTensorMutable:
      return "zerotensor_mutable";
    case CallError::NoFakeImpl:
      return "no_fake_impl";
  }
  return "none";
}


namespace {

constexpr int kMaxSteps = 64;


// The functionality keys whose standard kernels the chain knows, by name
// (the names are c10's in every release; a profile without one has 0 bits).
struct Roles {
  explicit Roles(const KeysetAlgebra& ks)
      : autograd(autograd_keyset(ks)),
        ad_inplace(ks.named("ADInplaceOrView")),
        backend_select(ks.named("BackendSelect")),
        python(ks.named("Python")),
        snapshot(ks.named("PythonTLSSnapshot")),
        named(ks.named("Named")),
        functionalize(ks.named("Functionalize")),
        python_dispatcher(ks.named("PythonDispatcher")),
        math_bits(ks.named("Conjugate") | ks.named("Negative") | ks.named("ZeroTensor")) {
    const Profile& p = ks.profile();
    for (const auto& [b, k] : p.autocast_keys()) autocast |= p.key(k).bits;
    for (const char* name :
         {"Tracer", "Batched", "BatchedNestedTensor", "DeferredInit", "Fake", "PreDispatch",
          "TESTING_ONLY_GenericWrapper", "TESTING_ONLY_GenericMode", "FuncTorchBatched", "FuncTorchGradWrapper",
          "FuncTorchDynamicLayerBackMode", "FuncTorchDynamicLayerFrontMode", "FuncTorchVmapMode", "VmapMode"})
      unmodelled |= ks.named(name);
  }
  KeySet autograd, ad_inplace, backend_select, python, snapshot, named, functionalize, python_dispatcher, math_bits;
  KeySet autocast, unmodelled;
};

class Simulator {
 public:
  Simulator(const RuntimeTable& t, const KeysetAlgebra& ks, CallInput in)
      : t_(t), ks_(ks), p_(ks.profile()), roles_(ks), in_(std::move(in)), original_(in_.args) {}

  CallTrace run() {
    CallStep step = fresh_call();
    for (int n = 0; n < kMaxSteps; ++n) {
      look_up(step);
      decide(step);
      const Next next = step.next;
      const KeySet redispatch = step.next_keyset;
      out_.steps.push_back(std::move(step));
      if (next == Next::Redispatch) {
        step = CallStep{};
        step.tls = in_.tls;
        step.keyset = redispatch;
        step.python_dispatcher = std::exchange(to_python_, false);
      } else if (next == Next::FreshCall) {
        step = fresh_call();
      } else {
        out_.result.how = next;
        out_.backward = backward();
        return std::move(out_);
      }
    }
    fail(CallError::Loop, "");
    return std::move(out_);
  }

 private:
  // DispatchKeyExtractor::getDispatchKeySetBoxed + computeDispatchKeySet.
  CallStep fresh_call() {
    CallStep s;
    s.fresh = true;
    s.tls = in_.tls;
    s.arguments = arguments_keyset(ks_, in_.args) | in_.extra;
    s.unmasked = ks_.minus(s.arguments | s.tls.included, s.tls.excluded);
    s.mask = t_.mask(s.arguments);
    s.mask_backend = t_.per_backend() ? static_cast<int>(ks_.backend_index(s.arguments)) : -1;
    s.keyset = s.unmasked & s.mask;
    return s;
  }

  void look_up(CallStep& s) {
    s.picked = ks_.highest(s.keyset);
    if (s.python_dispatcher) return python_look_up(s);
    s.answer = answer_key(t_, s.picked.slot);
    s.entry = s.answer.entry;
    s.stale = s.answer.stale;
    if (s.stale) s.fresh_entry = s.answer.dumped;
    s.pytorch = t_.from_pytorch(s.entry);
  }

  void fail(CallError e, std::string key) {
    out_.result.how = Next::Error;
    out_.result.error = e;
    out_.result.key = std::move(key);
  }
  void fail(CallError e, const HighestKey& h) {
    fail(e, h.name);
    out_.result.key_id = h.key;
  }

  BackwardResult backward() const {
    if (out_.result.how != Next::Ends) return BackwardResult{};  // Backward::Unknown, BackwardCause::CallDoesNotReturn
    return backward_of(
        t_.op(), original_,
        AutogradSeen{autograd_, autograd_key_, fallback_records_, grad_mode_at_autograd_, autograd_custom_op_});
  }

  bool in(KeySet roles, KeyId functionality) const {
    const KeySet b = ks_.functionality(p_.key(functionality).bits);
    return !b.empty() && roles.has_all(b);
  }

  void decide(CallStep& s) {
    if (s.python_dispatcher) return python_resolved(s);
    const Entry& e = s.entry;
    if (!e.valid() || e.why == Provenance::AmbiguousAutogradOther || e.fallthrough()) return error_step(s);
    const KeyId f = s.picked.functionality;
    switch (e.why) {
      case Provenance::DefaultBackend:
        return end(s, {Does::DefaultBackendRuns, p_.name_of(e.source)});
      case Provenance::Math:
      case Provenance::Nested:
      case Provenance::Batched:
        if (in(roles_.autograd, f)) note_autograd(AutogradSeen::Kernel, s);
        return end(s, {Does::DecomposeRuns, p_.name_of(e.source)});
      default:
        break;
    }
    if (in(roles_.autograd, f)) return autograd_step(s);
    if (in(roles_.ad_inplace, f)) {
      s.assumed = !s.pytorch;
      below(s, {Does::ADInplaceOrView, {}});
      in_.tls.excluded |= roles_.autograd | roles_.ad_inplace;
      return;
    }
    if (!s.pytorch && e.kernel != nullptr && e.kernel->redispatches) return declared_redispatch(s, f);
    if (!s.pytorch && e.kernel != nullptr && e.kernel->custom_op == CustomOpKernel::FakeUnset) {
      s.next = Next::Error;
      s.does = {Does::CustomOpFakeUnset, {}};
      return fail(CallError::NoFakeImpl, s.picked);
    }
    if (!s.pytorch) return end(s, {e.fallback != nullptr ? Does::YourFallbackRuns : Does::YourKernelRuns, {}});
    pytorch_step(s, f);
  }

  // The inputs' kernel declared `redispatches = true`: an autocast kernel
  // casts and calls the operator again with its autocast key excluded (as
  // PyTorch's autocast kernels do, ExcludeDispatchKeyGuard); any other kernel
  // redispatches below its key (c10::Dispatcher::redispatch with
  // ks & FULL_AFTER(key)).
  void declared_redispatch(CallStep& s, KeyId f) {
    if (roles_.autocast.has_any(ks_.functionality(p_.key(f).bits))) {
      in_.tls.excluded |= ks_.functionality(p_.key(f).bits);
      s.next = Next::FreshCall;
      s.does = {Does::YourAutocastRecalls, p_.name_of(f)};
      return;
    }
    below(s, {Does::YourKernelRedispatches, s.picked.name});
  }

  void error_step(CallStep& s) {
    const Entry& e = s.entry;
    s.next = Next::Error;
    if (e.why == Provenance::AmbiguousAutogradOther) {
      s.does = {Does::AmbiguousAutogradOther, {}};
      return fail(CallError::AmbiguousAutogradOther, s.picked);
    }
    if (e.valid()) {
      s.does = {Does::FallthroughRaises, {}};
      return fail(CallError::FallthroughExecuted, s.picked);
    }
    const auto& keys = p_.runtime_keys();
    for (std::size_t slot = 1; slot < keys.size(); ++slot)
      if (t_.entry(slot).valid()) out_.result.available.push_back(keys[slot]);
    if (t_.visibly_stale()) {
      s.does = {Does::StaleTableAsserts, {}};
      return fail(CallError::InvariantAssert, s.picked);
    }
    s.does = {s.picked.key == kUndefined ? Does::NoKernelUndefined : Does::NoKernel, {}};
    fail(s.picked.key == kUndefined ? CallError::NoTensorArguments : CallError::CouldNotRun, s.picked);
  }

  void end(CallStep& s, StepDoes does) {
    s.next = Next::Ends;
    s.does = std::move(does);
  }

  // Redispatch with the key set restricted to the keys below the step's key.
  void below(CallStep& s, StepDoes does, KeyId below_key = kUndefined) {
    s.next = Next::Redispatch;
    s.does = std::move(does);
    s.next_keyset = s.keyset & ks_.full_after(below_key == kUndefined ? s.picked.key : below_key);
  }

  // The first autograd step of the call decides what backward does.
  void note_autograd(AutogradSeen::Kind a, const CallStep& s) {
    if (autograd_ != AutogradSeen::None) return;
    autograd_ = a;
    autograd_key_ = p_.display_name(s.picked.key, t_.resolver().registry().privateuse1_name);
    // _foreach_tensor visits Tensor and Tensor[] arguments: a Tensor?[] is a generic list.
    const bool any_rg = std::any_of(original_.begin(), original_.end(), [](const BoundArgument& b) {
      return b.kind != DispatchArgKind::OptionalTensorList && requires_grad(b);
    });
    fallback_records_ = a == AutogradSeen::Fallback && any_rg && in_.tls.grad_mode;
    grad_mode_at_autograd_ = in_.tls.grad_mode;
    if (a == AutogradSeen::Kernel && !s.pytorch && s.entry.kernel != nullptr)
      autograd_custom_op_ = s.entry.kernel->custom_op;
  }

  void autograd_step(CallStep& s) {
    if (s.entry.fallback != nullptr && s.pytorch) return autograd_fallback(s);
    note_autograd(AutogradSeen::Kernel, s);
    if (const Kernel* k = s.entry.kernel; !s.pytorch && k != nullptr &&
                                          (k->custom_op == CustomOpKernel::Autograd ||
                                           k->custom_op == CustomOpKernel::AutogradUnset))
      return custom_op_autograd(s, k->custom_op == CustomOpKernel::Autograd);
    // VariableType (gen_variable_type.py): AutoDispatchBelowADInplaceOrView, then
    // redispatch(ks & after_autograd_keyset); after_autograd_keyset = FULL_AFTER(AutogradOther).
    s.assumed = !s.pytorch;
    const bool fallback = s.entry.fallback != nullptr;
    const Does does = fallback ? (in_.tls.grad_mode ? Does::AutogradFallbackRecords : Does::AutogradFallbackGradOff)
                               : (in_.tls.grad_mode ? Does::AutogradKernelRecords : Does::AutogradKernelGradOff);
    below(s, {does, {}}, *p_.find("AutogradOther"));
    in_.tls.excluded |= roles_.autograd | roles_.ad_inplace;
  }

  // torch.library.custom_op's autograd kernel (torch/_library/autograd.py,
  // make_autograd_impl): with grad mode on and an input that requires grad it
  // runs an autograd.Function whose backward is register_autograd's (or raises
  // without one); either way it redispatches with keyset & after_autograd_keyset
  // under _AutoDispatchBelowAutograd (autograd keys excluded, not ADInplaceOrView).
  void custom_op_autograd(CallStep& s, bool formula) {
    const bool any_rg = std::any_of(original_.begin(), original_.end(), requires_grad);
    const Does records = !in_.tls.grad_mode ? Does::CustomOpAutogradGradOff
                         : !any_rg          ? Does::CustomOpAutogradNoRequiresGrad
                         : formula          ? Does::CustomOpAutogradFormula
                                            : Does::CustomOpAutogradNoFormula;
    s.assumed = false;
    below(s, {records, {}}, *p_.find("AutogradOther"));
    in_.tls.excluded |= roles_.autograd;
  }

  // 2.x: the autograd keys' backend fallback is a boxed kernel
  // (basicAutogradNotImplementedFallbackImpl): with an input that requires grad
  // and grad mode on, it hooks the outputs that require grad (a kernel made of
  // torch operators recorded their graph) and sets a WarnNotImplemented grad_fn
  // on the others; it
  // redispatches with ks & after_autograd_keyset and no guard (the thread-local
  // state is unchanged, unlike VariableType's AutoDispatchBelowADInplaceOrView).
  void autograd_fallback(CallStep& s) {
    note_autograd(AutogradSeen::Fallback, s);
    const Does records = fallback_records_    ? Does::BoxedAutogradHooks
                         : !in_.tls.grad_mode ? Does::BoxedAutogradGradOff
                                              : Does::BoxedAutogradNoRequiresGrad;
    below(s, {records, {}}, *p_.find("AutogradOther"));
  }

  void pytorch_step(CallStep& s, KeyId f) {
    const bool fallback = s.entry.fallback != nullptr;
    const ProfileQuirks& q = p_.quirks();
    if (fallback && !q.meta_fallback_error.empty() && s.picked.name == "Meta") {
      s.next = Next::Error;
      s.does = {Does::MetaFallbackRaises, {}};
      return fail(CallError::MetaNotImplemented, s.picked);
    }
    if (in(roles_.backend_select, f)) return backend_select(s);
    if (in(roles_.snapshot, f)) {
      snapshot_ = true;
      return below(s, {Does::SnapshotSaves, {}});
    }
    if (in(roles_.python, f)) return python(s);
    if (in(roles_.python_dispatcher, f) && fallback) {
      s.next = Next::Redispatch;
      s.next_keyset = ks_.minus(s.keyset, roles_.python_dispatcher);
      s.does = {Does::PythonDispatcherFallback, {}};
      to_python_ = true;
      return;
    }
    if (in(roles_.math_bits, f) && fallback) {
      if (p_.name_of(f) == "ZeroTensor" && mutable_zerotensor()) {
        s.next = Next::Error;
        s.does = {Does::ZeroTensorMutable, {}};
        return fail(CallError::ZeroTensorMutable, s.picked);
      }
      materialize(f);
      return below(s, {Does::MathBitsMaterialize, p_.name_of(f)});
    }
    if (in(roles_.named, f) && fallback) {
      s.next = Next::Error;
      s.does = {Does::NamedNotSupported, {}};
      return fail(CallError::NamedNotSupported, s.picked);
    }
    if (in(roles_.functionalize, f)) {
      if (fallback && t_.op().def && has_alias_info(t_.op().def->schema) && !q.functionalize_alias_error.empty()) {
        s.next = Next::Error;
        s.does = {Does::FunctionalizeAlias, {}};
        return fail(CallError::FunctionalizeAlias, s.picked);
      }
      unwrap();
      in_.tls.excluded |= roles_.functionalize;
      s.next = Next::FreshCall;
      s.does = {Does::Functionalize, {}};
      return;
    }
    if (roles_.autocast.has_any(ks_.functionality(p_.key(f).bits)) && !fallback) {
      in_.tls.excluded |= ks_.functionality(p_.key(f).bits);
      s.next = Next::FreshCall;
      s.does = {Does::AutocastRecalls, p_.name_of(f)};
      return;
    }
    if (in(roles_.unmodelled, f)) {
      s.next = Next::NotSimulated;
      s.does = {Does::NotSimulated, p_.name_of(f)};
      return;
    }
    end(s, {fallback ? Does::PyTorchFallbackRuns : Does::KernelComputes, {}});
  }

  void backend_select(CallStep& s) {
    // RegisterBackendSelect.cpp (torchgen gen.py): the key of the TensorOptions,
    // with the tensor arguments' keys when there are some.
    const KeySet options = p_.key(*p_.find(p_.backends().front())).bits;
    const KeySet args = arguments_keyset(ks_, in_.args) | in_.extra;
    s.next = Next::Redispatch;
    if (args.empty()) {
      s.next_keyset = options;
      s.does = {Does::BackendSelectFactory, {}};
    } else {
      s.next_keyset =
          ks_.minus(options | args | in_.tls.included, in_.tls.excluded) & ks_.full_after(*p_.find("BackendSelect"));
      s.does = {Does::BackendSelectCombines, {}};
    }
  }

  void python(CallStep& s) {
    if (!snapshot_ && p_.quirks().python_fallback_asserts_without_snapshot) {
      s.next = Next::Error;
      s.does = {Does::PythonNeedsSnapshot, {}};
      return fail(CallError::PythonTlsAssert, s.picked);
    }
    const bool subclass = std::any_of(in_.args.begin(), in_.args.end(), [](const BoundArgument& a) {
      return std::any_of(a.items.begin(), a.items.end(),
                         [](const auto& t) { return t && t->python && !t->functional; });
    });
    if (in_.tls.python_mode || subclass) {
      s.next = Next::TorchDispatch;
      out_.result.torch_dispatch = in_.tls.python_mode ? "mode" : "subclass";
      s.does = {in_.tls.python_mode ? Does::TorchDispatchMode : Does::TorchDispatchSubclass, {}};
      return;
    }
    s.next = Next::Error;
    s.does = {Does::PythonNoInterpreter, {}};
    fail(CallError::PythonNoInterpreter, s.picked);
  }

  // The Python dispatcher: resolve_key over the current registrations, then
  // callBoxedForDispatchKey runs the key's kernel, or its backend fallback.
  void python_look_up(CallStep& s) {
    const Registry& reg = t_.resolver().registry();
    const bool unnamed = s.picked.backend < 0 && p_.key(s.picked.functionality).kind == KeyKind::BuildingBlock;
    const PyResolved r = unnamed ? PyResolved{PyResolveError::AttributeError, kUndefined, nullptr, nullptr}
                                 : python_resolve_key(reg, t_.op(), s.picked.key);
    py_error_ = r.error;
    if (r.kernel != nullptr) {
      const AliasRule a = p_.key(r.key).alias;
      const Provenance why = a == AliasRule::None                           ? Provenance::Kernel
                             : a == AliasRule::CEA || a == AliasRule::CEANF ? Provenance::DefaultBackend
                             : a == AliasRule::CIANested                    ? Provenance::Nested
                             : a == AliasRule::CIA                          ? Provenance::Math
                             : a == AliasRule::Autograd                     ? Provenance::Autograd
                                                                            : Provenance::Batched;
      s.entry = Entry{why, r.kernel, nullptr, r.key};
    } else if (r.fallback != nullptr) {
      s.entry = Entry{Provenance::BackendFallback, nullptr, r.fallback, r.key};
    }
    s.pytorch = t_.from_pytorch(s.entry);
  }

  void python_resolved(CallStep& s) {
    const Entry& e = s.entry;
    if (py_error_ != PyResolveError::None) {
      s.next = Next::Error;
      s.does = {py_error_ == PyResolveError::AttributeError ? Does::PyAttributeError : Does::PyNoKernel, {}};
      const CallError err = py_error_ == PyResolveError::AttributeError ? CallError::PyDispatcherAttributeError
                            : py_error_ == PyResolveError::Ambiguous    ? CallError::PyDispatcherAmbiguous
                                                                        : CallError::PyDispatcherNoKernel;
      return fail(err, s.picked);
    }
    if (e.kernel != nullptr) {
      if (!s.pytorch) return end(s, {Does::PyRunsYourKernel, {}});
      s.next = Next::NotSimulated;
      s.does = {Does::PyRunsPyTorchKernel, {}};
      return;
    }
    if (e.fallthrough()) {
      s.next = Next::Error;
      s.does = {Does::PyRunsFallthrough, {}};
      return fail(CallError::FallthroughExecuted, s.picked);
    }
    if (!s.pytorch) return end(s, {Does::PyRunsYourFallback, {}});
    const KeyId f = ks_.highest(p_.key(e.source).bits).functionality;
    // A redispatching fallback gets the key set callBoxedForDispatchKey computed afresh.
    const KeySet fresh = fresh_call().keyset;
    if (in(roles_.snapshot, f)) snapshot_ = true;
    if (in(roles_.math_bits, f)) materialize(f);
    if (in(roles_.snapshot | roles_.math_bits, f)) {
      s.next = Next::Redispatch;
      s.next_keyset = fresh & ks_.full_after(e.source);
      s.does = {Does::PyFallbackRedispatches, p_.name_of(f)};
      return;
    }
    pytorch_step(s, f);
  }

  // MathOpFallback / ZeroTensor fallback: flagged Tensor and Tensor[] arguments
  // (not Tensor?[]) are replaced by at::clone(arg), then redispatch below the key.
  void materialize(KeyId f) {
    const std::string& name = p_.name_of(f);
    for (auto& a : in_.args) {
      if (a.kind == DispatchArgKind::OptionalTensorList) continue;
      for (auto& t : a.items) {
        if (!t) continue;
        bool& flag = name == "Conjugate" ? t->conj : name == "Negative" ? t->neg : t->zerotensor;
        if (!flag) continue;
        flag = false;
        t->inference = in_.tls.inference_mode;
      }
    }
  }

  // A zero tensor bound to an argument the schema writes to (alias annotation with '!').
  bool mutable_zerotensor() const {
    if (!t_.op().def) return false;
    for (const auto& a : in_.args) {
      bool writes = false;
      for (const auto& sa : t_.op().def->schema.arguments)
        if (sa.name == a.name && !alias_set(sa.type, &writes).empty() && writes &&
            std::any_of(a.items.begin(), a.items.end(), [](const auto& t) { return t && t->zerotensor; }))
          return true;
    }
    return false;
  }

  void unwrap() {
    for (auto& a : in_.args)
      for (auto& t : a.items)
        if (t) t->functional = false;
  }

  const RuntimeTable& t_;
  const KeysetAlgebra& ks_;
  const Profile& p_;
  Roles roles_;
  CallInput in_;
  const std::vector<BoundArgument> original_;  // the arguments as given (before unwrapping / materializing)
  CallTrace out_;
  AutogradSeen::Kind autograd_ = AutogradSeen::None;
  std::string autograd_key_;
  bool fallback_records_ = false;
  bool grad_mode_at_autograd_ = true;
  CustomOpKernel autograd_custom_op_ = CustomOpKernel::None;
  bool snapshot_ = false;   // PythonTLSSnapshot's fallback ran (tls_on_entry is set)
  bool to_python_ = false;  // the next step is resolved by the Python dispatcher
  PyResolveError py_error_ = PyResolveError::None;
};

}  // namespace

CallTrace trace_call(const RuntimeTable& table, const KeysetAlgebra& ks, CallInput in) {
  return Simulator(table, ks, std::move(in)).run();
}

}  // namespace dt
