// What backward does through a simulated call's outputs when an argument
// requires grad: from the first autograd step of the call (an autograd kernel,
// the boxed 2.x autograd fallback, or none) and the schema's returns and alias
// annotations. The fallback's rules are basicAutogradNotImplementedFallbackImpl's
// (torch/csrc/autograd/autograd_not_implemented_fallback.cpp, mode "warn").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "registry/model.hpp"
#include "resolve/call.hpp"

namespace dt {

enum class Backward : std::uint8_t {
  Unknown,              // the call raises, or Python / unmodelled machinery takes over
  NoInputRequiresGrad,  // no argument requires grad: nothing records a graph
  NoTensorOutputs,      // the operator returns no Tensor: nothing to backpropagate through
  AutogradKernel,       // an autograd kernel or a CompositeImplicitAutograd decomposition ran: it decides
  Warn,                 // the boxed autograd fallback (2.x, mode "warn") ran with an input that requires
                        // grad: backward warns; a gradient flows only through the torch operators the
                        // kernel computes with (an opaque kernel's outputs get WarnNotImplemented: none)
  WarnThroughAlias,     // the fallback hooked an aliased output that is a requires_grad input:
                        // backward warns there, and the gradient reaches that input unchanged
  NoGraph,              // nothing recorded: backward from the outputs raises (no grad_fn)
  ThroughAlias,         // nothing recorded, the output is a requires_grad input: no warning,
                        // the gradient reaches that input unchanged
  NoFormula,            // custom_op's autograd kernel without register_autograd recorded a
                        // backward that raises RuntimeError
};
const char* to_string(Backward b);

// Why backward does what it does: which rule decided it. backward_why
// (render/trace_does.hpp) words each (the trace's backward line, JSON's "why").
enum class BackwardCause : std::uint8_t {
  CallDoesNotReturn,             // the call raises, or Python / unmodelled machinery takes over
  NoInputRequiresGrad,           // no argument requires grad
  NoTensorOutputs,               // the schema returns no Tensor
  CustomOpGradModeOff,           // custom_op's autograd kernel ran with grad mode off
  CustomOpNoFormula,             // custom_op's autograd kernel without register_autograd
  CustomOpFormula,               // custom_op's autograd kernel with register_autograd
  KernelRecorded,                // an autograd kernel ran
  FallbackHooksAlias,            // the fallback hooked an output that is a requires_grad input
  FallbackMutatedOutput,         // the fallback gave a mutated output no grad_fn
  FallbackDependsOnKernel,       // the fallback redispatched: the kernel decides
  FallbackNoTensorRequiresGrad,  // the fallback recorded nothing: no Tensor or Tensor[] requires grad
  FallbackGradModeOff,           // the fallback recorded nothing with grad mode off
  NoAutogradRan,                 // no autograd kernel or fallback ran
};

struct BackwardResult {
  Backward what = Backward::Unknown;
  BackwardCause cause = BackwardCause::CallDoesNotReturn;
  std::string key;  // the autograd key whose kernel or fallback ran ("" if none)
  std::string alias_set;  // the output's alias set, where the cause names it
  // FallbackNoTensorRequiresGrad, FallbackGradModeOff, NoAutogradRan: the
  // output is a requires_grad input (the gradient reaches it unchanged).
  bool output_is_input = false;
};

// The call's first autograd step.
struct AutogradSeen {
  enum Kind : std::uint8_t { None, Kernel, Fallback };
  Kind kind = None;
  std::string key;       // the runtime key it ran on
  bool records = false;    // Fallback: a Tensor or Tensor[] input required grad with grad mode on
  bool grad_mode = true;   // grad mode when it ran
  CustomOpKernel custom_op = CustomOpKernel::None;  // Kernel: torch.library.custom_op's autograd kernel
};

BackwardResult backward_of(const Operator& op, const std::vector<BoundArgument>& original, const AutogradSeen& seen);

// The alias set of a schema type ("Tensor(a!)" -> "a"; "" without one), and
// whether it is written to ('!').
std::string alias_set(std::string_view type, bool* writes = nullptr);
// FunctionSchema::hasAnyAliasInfo: an alias annotation on an argument or a return.
bool has_alias_info(const Schema& s);
// Whether any tensor of the argument requires grad.
bool requires_grad(const BoundArgument& a);

}  // namespace dt
