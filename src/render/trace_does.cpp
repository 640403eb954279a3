// does_text and backward_why (trace_does.hpp): one sentence per tag, the
// tag's key put in.
#include "render/trace_does.hpp"

#include <fmt/format.h>

namespace dt {

std::string does_text(const StepDoes& d) {
  const std::string& k = d.key;
  switch (d.what) {
    case Does::Nothing:
      return "";
    case Does::DefaultBackendRuns:
      return fmt::format("the {} kernel runs for this backend; the operators it calls are fresh calls", k);
    case Does::DecomposeRuns:
      return fmt::format(
          "the {} kernel runs: it decomposes the operator into other operators, each a fresh call (autograd and the "
          "backends work through those)",
          k);
    case Does::YourKernelRuns:
      return "your kernel runs";
    case Does::YourFallbackRuns:
      return "your backend fallback runs";
    case Does::YourAutocastRecalls:
      return fmt::format(
          "your autocast kernel (redispatches = true) casts the arguments and calls the operator again with {} "
          "excluded",
          k);
    case Does::YourKernelRedispatches:
      return fmt::format("your kernel (redispatches = true) redispatches below {} (key set & FULL_AFTER({}))", k, k);
    case Does::CustomOpFakeUnset:
      return "custom_op's fake kernel raises RuntimeError: register_fake gave the operator no fake impl";
    case Does::AmbiguousAutogradOther:
      return "ambiguous_autogradother_kernel raises an internal assert";
    case Does::FallthroughRaises:
      return "fallthrough_kernel raises: a fallthrough must be masked out before lookup";
    case Does::StaleTableAsserts:
      return "no kernel; reporting the error, checkInvariants() finds the runtime table stale and asserts";
    case Does::NoKernelUndefined:
      return "no kernel for Undefined: no tensor arguments reached the dispatcher";
    case Does::NoKernel:
      return "no kernel and no fallback: the call raises NotImplementedError";
    case Does::AutogradKernelRecords:
    case Does::AutogradKernelGradOff:
    case Does::AutogradFallbackRecords:
    case Does::AutogradFallbackGradOff: {
      const bool fallback = d.what == Does::AutogradFallbackRecords || d.what == Does::AutogradFallbackGradOff;
      const bool records = d.what == Does::AutogradKernelRecords || d.what == Does::AutogradFallbackRecords;
      return fmt::format(
          "{} {} and redispatches below autograd (key set & after_autograd_keyset, AutoDispatchBelowADInplaceOrView)",
          fallback ? "the autograd backend fallback" : "the autograd kernel",
          records ? "records the backward (a grad_fn) if an input requires grad"
                  : "records no backward (grad mode is off)");
    }
    case Does::CustomOpAutogradGradOff:
    case Does::CustomOpAutogradNoRequiresGrad:
    case Does::CustomOpAutogradFormula:
    case Does::CustomOpAutogradNoFormula: {
      const char* records =
          d.what == Does::CustomOpAutogradGradOff          ? "grad mode is off: it records nothing"
          : d.what == Does::CustomOpAutogradNoRequiresGrad ? "no input requires grad: it records nothing"
          : d.what == Does::CustomOpAutogradFormula
              ? "an input requires grad: it records an autograd.Function whose backward is register_autograd's"
              : "an input requires grad: it records an autograd.Function whose backward raises (no "
                "register_autograd)";
      return fmt::format(
          "custom_op's autograd kernel: {}; it redispatches below autograd (key set & after_autograd_keyset, "
          "_AutoDispatchBelowAutograd)",
          records);
    }
    case Does::BoxedAutogradHooks:
    case Does::BoxedAutogradGradOff:
    case Does::BoxedAutogradNoRequiresGrad: {
      const char* records =
          d.what == Does::BoxedAutogradHooks
              ? "an input requires grad: after the kernel it hooks the outputs that require grad and gives the "
                "others a WarnNotImplemented grad_fn (backward warns either way)"
          : d.what == Does::BoxedAutogradGradOff ? "grad mode is off: it records nothing"
                                                 : "no input requires grad: it records nothing";
      return fmt::format(
          "the autograd backend fallback (a boxed kernel, mode \"warn\"): {}; it redispatches below autograd (key "
          "set & after_autograd_keyset, no guard)",
          records);
    }
    case Does::ADInplaceOrView:
      return "ADInplaceOrView kernel: bumps version counters / sets up views, then redispatches below "
             "ADInplaceOrView (AutoDispatchBelowADInplaceOrView)";
    case Does::MetaFallbackRaises:
      return "the Meta backend fallback raises NotImplementedError: no Meta kernel (or fake impl) is registered";
    case Does::SnapshotSaves:
      return "saves the thread-local state for Python (MaybeSetTLSOnEntryGuard) and redispatches below "
             "PythonTLSSnapshot";
    case Does::PythonDispatcherFallback:
      return "the PythonDispatcher fallback hands the call to Python (torch/_ops.py), which resolves the highest "
             "key below it afresh";
    case Does::ZeroTensorMutable:
      return "the ZeroTensor fallback refuses a zero tensor passed as a mutable (Tensor(a!)) argument";
    case Does::MathBitsMaterialize:
      return fmt::format(
          "the {} fallback materializes the flagged Tensor and Tensor[] arguments (at::clone) and redispatches "
          "below {}",
          k, k);
    case Does::NamedNotSupported:
      return "named tensors are not supported by this operator";
    case Does::FunctionalizeAlias:
      return "the Functionalize fallback refuses an operator whose schema has alias annotations";
    case Does::Functionalize:
      return "functionalization unwraps the functional arguments and calls the operator again with Functionalize "
             "excluded (AutoDispatchSkipFunctionalize)";
    case Does::AutocastRecalls:
      return fmt::format("the autocast kernel casts the arguments and calls the operator again with {} excluded", k);
    case Does::NotSimulated:
      return fmt::format("{} machinery (not simulated)", k);
    case Does::PyTorchFallbackRuns:
      return "PyTorch's backend fallback runs";
    case Does::KernelComputes:
      return "the kernel computes the result";
    case Does::BackendSelectFactory:
      return "BackendSelect picks the backend from the factory's dtype/layout/device (trace assumes torch's "
             "defaults: strided, cpu) and redispatches to it (no TLS, no mask)";
    case Does::BackendSelectCombines:
      return "BackendSelect combines the TensorOptions' key (trace assumes cpu) with the tensor arguments' and "
             "redispatches below BackendSelect";
    case Does::PythonNeedsSnapshot:
      return "the Python fallback needs the state PythonTLSSnapshot saves, and it did not run";
    case Does::TorchDispatchMode:
      return "the active TorchDispatchMode's __torch_dispatch__ handles the call";
    case Does::TorchDispatchSubclass:
      return "the tensor subclass's __torch_dispatch__ handles the call";
    case Does::PythonNoInterpreter:
      return "no argument has a Python interpreter and no mode is active";
    case Does::PyAttributeError:
      return "Python cannot name this key (OpOverload.__getattr__ raises AttributeError)";
    case Does::PyNoKernel:
      return "resolve_key finds no kernel for this key";
    case Does::PyRunsYourKernel:
      return "the Python dispatcher runs your kernel (callBoxedForDispatchKey)";
    case Does::PyRunsPyTorchKernel:
      return "the Python dispatcher runs PyTorch's kernel (callBoxedForDispatchKey); not simulated further";
    case Does::PyRunsFallthrough:
      return "callBoxedForDispatchKey runs a fallthrough kernel, which raises";
    case Does::PyRunsYourFallback:
      return "the Python dispatcher runs your backend fallback";
    case Does::PyFallbackRedispatches:
      return fmt::format(
          "the Python dispatcher runs the {} fallback, which redispatches below {} (with the key set computed "
          "afresh, PythonDispatcher still in it)",
          k, k);
  }
  return "";
}

std::string backward_why(const BackwardResult& b) {
  const std::string& k = b.key;
  std::string cause;
  switch (b.cause) {
    case BackwardCause::CallDoesNotReturn:
      return "the call does not return here (an error, Python, or machinery not simulated)";
    case BackwardCause::NoInputRequiresGrad:
      return "no argument requires grad: nothing records a graph";
    case BackwardCause::NoTensorOutputs:
      return "the operator returns no Tensor: there is nothing to backpropagate through";
    case BackwardCause::CustomOpGradModeOff:
      return fmt::format(
          "custom_op's {} kernel records nothing with grad mode off: the outputs do not require grad, and backward "
          "from them raises",
          k);
    case BackwardCause::CustomOpNoFormula:
      return fmt::format("custom_op's {} kernel recorded a backward, and without register_autograd it has no formula",
                         k);
    case BackwardCause::CustomOpFormula:
      return fmt::format("custom_op's {} kernel ran: backward computes what register_autograd's function returns", k);
    case BackwardCause::KernelRecorded:
      return fmt::format("the {} kernel ran: what backward computes is what it recorded", k);
    case BackwardCause::FallbackHooksAlias:
      return fmt::format(
          "the {} fallback hooks the output (it is a requires_grad input, alias set '{}'): backward warns when it "
          "gets there, and the gradient reaches that input unchanged",
          k, b.alias_set);
    case BackwardCause::FallbackMutatedOutput:
      return fmt::format(
          "the {} fallback gives a mutated (Tensor({}!)) output no grad_fn: backward from it raises (it does not "
          "require grad)",
          k, b.alias_set);
    case BackwardCause::FallbackDependsOnKernel:
      return fmt::format(
          "the {} fallback redispatches with the thread-local state unchanged, so it depends on the kernel: a kernel "
          "that computes with torch operators records their graph: the gradient flows, and the fallback's hook on the "
          "outputs warns in backward; an opaque kernel (numpy, a raw C++ or CUDA kernel, detached tensors) returns "
          "outputs that do not require grad: the fallback gives them a WarnNotImplemented grad_fn, backward warns and "
          "computes no gradient for the inputs through this operator",
          k);
    case BackwardCause::FallbackNoTensorRequiresGrad:
      cause = fmt::format(
          "the {} fallback records nothing: no Tensor or Tensor[] argument requires grad (it does not look into a "
          "Tensor?[])",
          k);
      break;
    case BackwardCause::FallbackGradModeOff:
      cause = fmt::format("the {} fallback records nothing with grad mode off", k);
      break;
    case BackwardCause::NoAutogradRan:
      cause =
          "no autograd kernel or fallback ran (the autograd keys were not in the key set, or their fallback is a "
          "fallthrough)";
      break;
  }
  return cause + (b.output_is_input ? ": the output is a requires_grad input, so the gradient reaches it unchanged"
                                    : ": the outputs do not require grad, and backward from them raises");
}

}  // namespace dt
