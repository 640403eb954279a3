// does_text (trace_does.hpp): one sentence per tag, the tag's key put in.
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

}  // namespace dt
