#include "resolve/backward.hpp"

#include <algorithm>

namespace dt {

const char* to_string(Backward b) {
  switch (b) {
    case Backward::Unknown:
      return "unknown";
    case Backward::NoInputRequiresGrad:
      return "no_input_requires_grad";
    case Backward::NoTensorOutputs:
      return "no_tensor_outputs";
    case Backward::AutogradKernel:
      return "autograd_kernel";
    case Backward::Warn:
      return "warn";
    case Backward::WarnThroughAlias:
      return "warn_through_alias";
    case Backward::NoGraph:
      return "no_graph";
    case Backward::ThroughAlias:
      return "through_alias";
    case Backward::NoFormula:
      return "no_formula";
  }
  return "unknown";
}

// The alias set of a schema type ("Tensor(a!)" -> "a"; "" without one) and
// whether it is written to ('!').
std::string alias_set(std::string_view type, bool* writes) {
  const auto at = type.find("Tensor(");
  if (at == std::string_view::npos) return {};
  const auto open = at + std::string_view("Tensor").size();
  const auto close = type.find(')', open);
  std::string set;
  bool bang = false;
  for (char c : type.substr(open + 1, close == std::string_view::npos ? std::string_view::npos : close - open - 1)) {
    if (c == '!')
      bang = true;
    else if (c != ' ')
      set += c;
  }
  if (writes != nullptr) *writes = bang;
  return set;
}

// FunctionSchema::hasAnyAliasInfo: an alias annotation on an argument or a return.
bool has_alias_info(const Schema& s) {
  const auto annotated = [](const SchemaArgument& a) { return !alias_set(a.type).empty(); };
  return std::any_of(s.arguments.begin(), s.arguments.end(), annotated) ||
         std::any_of(s.returns.begin(), s.returns.end(), annotated);
}

bool requires_grad(const BoundArgument& a) {
  return std::any_of(a.items.begin(), a.items.end(), [](const auto& t) { return t && t->requires_grad; });
}

BackwardResult backward_of(const Operator& op, const std::vector<BoundArgument>& original, const AutogradSeen& seen) {
  BackwardResult b;
  b.key = seen.key;
  const auto result = [&](Backward what, BackwardCause cause) {
    b.what = what;
    b.cause = cause;
    return b;
  };
  if (std::none_of(original.begin(), original.end(), requires_grad))
    return result(Backward::NoInputRequiresGrad, BackwardCause::NoInputRequiresGrad);
  const Schema* schema = op.def ? &op.def->schema : nullptr;
  const SchemaArgument* out = nullptr;
  if (schema != nullptr)
    for (const auto& r : schema->returns)
      if (r.type.find("Tensor") != std::string::npos) {
        out = &r;
        break;
      }
  if (schema != nullptr && out == nullptr) return result(Backward::NoTensorOutputs, BackwardCause::NoTensorOutputs);
  const bool custom_op =
      seen.custom_op == CustomOpKernel::Autograd || seen.custom_op == CustomOpKernel::AutogradUnset;
  if (seen.kind == AutogradSeen::Kernel && custom_op && !seen.grad_mode)
    return result(Backward::NoGraph, BackwardCause::CustomOpGradModeOff);
  if (seen.kind == AutogradSeen::Kernel && seen.custom_op == CustomOpKernel::AutogradUnset)
    return result(Backward::NoFormula, BackwardCause::CustomOpNoFormula);
  if (seen.kind == AutogradSeen::Kernel && custom_op)
    return result(Backward::AutogradKernel, BackwardCause::CustomOpFormula);
  if (seen.kind == AutogradSeen::Kernel) return result(Backward::AutogradKernel, BackwardCause::KernelRecorded);
  // An output annotated with an input's alias set is that input (as the annotation promises).
  bool writes = false;
  b.alias_set = out != nullptr ? alias_set(out->type, &writes) : std::string();
  bool aliased_rg = false;
  if (!b.alias_set.empty())
    for (const auto& a : schema->arguments)
      if (alias_set(a.type) == b.alias_set)
        for (const auto& bound : original)
          if (bound.name == a.name && requires_grad(bound)) aliased_rg = true;
  if (seen.kind == AutogradSeen::Fallback && seen.records) {
    if (aliased_rg) return result(Backward::WarnThroughAlias, BackwardCause::FallbackHooksAlias);
    if (writes) return result(Backward::NoGraph, BackwardCause::FallbackMutatedOutput);
    return result(Backward::Warn, BackwardCause::FallbackDependsOnKernel);
  }
  b.output_is_input = aliased_rg;
  const BackwardCause cause = seen.kind != AutogradSeen::Fallback ? BackwardCause::NoAutogradRan
                              : seen.grad_mode                    ? BackwardCause::FallbackNoTensorRequiresGrad
                                                                  : BackwardCause::FallbackGradModeOff;
  return result(aliased_rg ? Backward::ThroughAlias : Backward::NoGraph, cause);
}

}  // namespace dt
