// Simulates a call of an operator (dispatcher-notes G.1, G.2, G.3, G.5): the call's key set (arguments,
// thread-local state, the operator's fallthrough mask), the highest priority
// key, its runtime table entry, and then what that kernel does next -- the
// chain of redispatches and fresh calls PyTorch's standard kernels make --
// until a kernel that computes the result, an error, or a kernel whose
// behaviour is not simulated.
#pragma once

#include <string>
#include <vector>

#include "resolve/backward.hpp"
#include "resolve/call.hpp"
#include "resolve/key_call.hpp"
#include "resolve/runtime_table.hpp"

namespace dt {

// What happens after a step's kernel runs.
enum class Next : std::uint8_t {
  Redispatch,     // the kernel redispatches with a smaller key set (no TLS, no mask re-applied)
  FreshCall,      // the kernel calls the operator again (key set recomputed from the arguments and TLS)
  Ends,           // the kernel computes the result: the chain ends here
  Error,          // the call raises
  TorchDispatch,  // Python's __torch_dispatch__ takes over
  NotSimulated,   // a kernel whose behaviour the tool does not model (functorch, tracing, ...)
};
const char* to_string(Next n);

// What a step's kernel does, as data: a tag and the key it names. The
// sentence is the renderer's (render/trace_does.hpp), as c10 returns a tag
// and formats at the edge.
enum class Does : std::uint8_t {
  Nothing,
  // PyTorch's kernels found through an alias key
  DefaultBackendRuns,  // key: CompositeExplicitAutograd(NonFunctional)
  DecomposeRuns,       // key: CompositeImplicitAutograd, its Nested or batched variant
  // the inputs' kernels
  YourKernelRuns,
  YourFallbackRuns,
  YourAutocastRecalls,     // key: the autocast key excluded (redispatches = true)
  YourKernelRedispatches,  // key: the step's key (redispatches = true)
  CustomOpFakeUnset,       // custom_op's fake kernel without register_fake
  // errors of the lookup
  AmbiguousAutogradOther,
  FallthroughRaises,
  StaleTableAsserts,
  NoKernelUndefined,
  NoKernel,
  // autograd
  AutogradKernelRecords,  // grad mode on
  AutogradKernelGradOff,
  AutogradFallbackRecords,  // the inputs' autograd backend fallback, as PyTorch's autograd kernels
  AutogradFallbackGradOff,
  CustomOpAutogradGradOff,
  CustomOpAutogradNoRequiresGrad,
  CustomOpAutogradFormula,
  CustomOpAutogradNoFormula,
  BoxedAutogradHooks,  // 2.x's boxed autograd fallback, mode "warn"
  BoxedAutogradGradOff,
  BoxedAutogradNoRequiresGrad,
  ADInplaceOrView,
  // PyTorch's other kernels and fallbacks
  MetaFallbackRaises,
  SnapshotSaves,
  PythonDispatcherFallback,
  ZeroTensorMutable,
  MathBitsMaterialize,  // key: Conjugate, Negative or ZeroTensor
  NamedNotSupported,
  FunctionalizeAlias,
  Functionalize,
  AutocastRecalls,  // key: the autocast key excluded
  NotSimulated,     // key: the machinery's
  PyTorchFallbackRuns,
  KernelComputes,
  BackendSelectFactory,
  BackendSelectCombines,
  PythonNeedsSnapshot,
  TorchDispatchMode,
  TorchDispatchSubclass,
  PythonNoInterpreter,
  // the Python dispatcher
  PyAttributeError,
  PyNoKernel,
  PyRunsYourKernel,
  PyRunsPyTorchKernel,
  PyRunsFallthrough,
  PyRunsYourFallback,
  PyFallbackRedispatches,  // key: the fallback's
};

struct StepDoes {
  Does what = Does::Nothing;
  std::string key;  // the key the sentence names, as the profile names it
};

struct CallStep {
  // How the key set was formed. A fresh call: arguments, TLS and the mask;
  // a redispatch: the previous key set restricted by the previous kernel.
  bool fresh = false;
  KeySet arguments;       // fresh: the union of the arguments' key sets (and --keyset)
  ThreadLocalState tls;   // the thread-local state when the kernel is looked up
  KeySet unmasked;        // fresh: (arguments | included) - excluded
  KeySet mask;            // fresh: the operator's non-fallthrough mask used
  int mask_backend = -1;  // fresh: which per-backend mask (-1: the global one)
  KeySet keyset;          // what is looked up
  HighestKey picked;
  Entry entry;  // the runtime table's entry
  bool stale = false;
  Entry fresh_entry;     // what the dumps show, when the runtime entry is stale
  KeyAnswer answer;      // what a call on the picked key does (key_call.hpp; not for the Python dispatcher)
  bool pytorch = false;  // PyTorch's own kernel or fallback (else the input files')
  bool assumed = false;  // the inputs' kernel: what it does next is PyTorch's convention for the key
  // Resolved by the Python dispatcher (python_resolve.hpp), not looked up in
  // the runtime table: `entry` is what callBoxedForDispatchKey runs.
  bool python_dispatcher = false;
  Next next = Next::Ends;
  StepDoes does;           // what the kernel does (render/trace_does.hpp words it)
  KeySet next_keyset;      // Redispatch: the key set of the next step
};

// Error classes of a call (docs/json.md "trace").
enum class CallError : std::uint8_t {
  None,
  CouldNotRun,                 // NotImplementedError "Could not run ... backend"
  NoTensorArguments,           // NotImplementedError "There were no tensor arguments ..."
  AmbiguousAutogradOther,      // internal assert from ambiguous_autogradother_kernel
  InvariantAssert,             // checkInvariants() saw a stale runtime table
  FallthroughExecuted,         // a fallthrough kernel was called
  NamedNotSupported,           // the Named fallback
  PythonTlsAssert,             // the Python fallback without PythonTLSSnapshot having run
  PythonNoInterpreter,         // the Python fallback with no Python tensor and no mode
  PyDispatcherAttributeError,  // the Python dispatcher cannot name the key (AttributeError)
  PyDispatcherNoKernel,        // RuntimeError("could not find kernel") from resolve_key
  PyDispatcherAmbiguous,       // RuntimeError("ambiguous autogradother kernel") from resolve_key
  Loop,                        // the simulation did not end (a guard)
  MetaNotImplemented,          // 2.x: the Meta backend fallback's NotImplementedError
  FunctionalizeAlias,          // the Functionalize fallback refuses an alias-annotated schema
  ZeroTensorMutable,           // the ZeroTensor fallback refuses a zero tensor as a mutable argument
  NoFakeImpl,                  // custom_op's fake kernel without register_fake (RuntimeError)
};
const char* to_string(CallError e);

struct CallResult {
  Next how = Next::Ends;  // Ends, Error, TorchDispatch or NotSimulated
  CallError error = CallError::None;
  std::string key;             // the key named by the error ("AutogradMeta", "Unknown")
  KeyId key_id = kUndefined;   // its runtime key (kUndefined when not one)
  std::string torch_dispatch;  // "mode" or "subclass"
  // CouldNotRun / NoTensorArguments: the runtime keys with a valid entry, table order.
  std::vector<KeyId> available;
};

struct CallTrace {
  std::vector<CallStep> steps;
  CallResult result;
  BackwardResult backward;
};

struct CallInput {
  std::vector<BoundArgument> args;
  KeySet extra;  // --keyset: added to the arguments' key set
  ThreadLocalState tls;
};

CallTrace trace_call(const RuntimeTable& table, const KeysetAlgebra& ks, CallInput in);

}  // namespace dt
