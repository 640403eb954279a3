#include "resolve/backward.hpp"

#include <fmt/format.h>

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
  if (std::none_of(original.begin(), original.end(), requires_grad)) {
    b.what = Backward::NoInputRequiresGrad;
    b.why = "no argument requires grad: nothing records a graph";
    return b;
  }
  const Schema* schema = op.def ? &op.def->schema : nullptr;
  const SchemaArgument* out = nullptr;
  if (schema != nullptr)
    for (const auto& r : schema->returns)
      if (r.type.find("Tensor") != std::string::npos) {
        out = &r;
        break;
      }
  if (schema != nullptr && out == nullptr) {
    b.what = Backward::NoTensorOutputs;
    b.why = "the operator returns no Tensor: there is nothing to backpropagate through";
    return b;
  }
  const bool custom_op =
      seen.custom_op == CustomOpKernel::Autograd || seen.custom_op == CustomOpKernel::AutogradUnset;
  if (seen.kind == AutogradSeen::Kernel && custom_op && !seen.grad_mode) {
    b.what = Backward::NoGraph;
    b.why = fmt::format("custom_op's {} kernel records nothing with grad mode off: the outputs do not require grad, "
                        "and backward from them raises",
                        seen.key);
    return b;
  }
  if (seen.kind == AutogradSeen::Kernel && seen.custom_op == CustomOpKernel::AutogradUnset) {
    b.what = Backward::NoFormula;
    b.why = fmt::format("custom_op's {} kernel recorded a backward, and without register_autograd it has no formula",
                        seen.key);
    return b;
  }
  if (seen.kind == AutogradSeen::Kernel && custom_op) {
    b.what = Backward::AutogradKernel;
    b.why = fmt::format("custom_op's {} kernel ran: backward computes what register_autograd's function returns",
                        seen.key);
    return b;
  }
  if (seen.kind == AutogradSeen::Kernel) {
    b.what = Backward::AutogradKernel;
    b.why = fmt::format("the {} kernel ran: what backward computes is what it recorded", seen.key);
    return b;
  }
  // An output annotated with an input's alias set is that input (as the annotation promises).
  bool writes = false;
  const std::string set = out != nullptr ? alias_set(out->type, &writes) : std::string();
  bool aliased_rg = false;
  if (!set.empty())
    for (const auto& a : schema->arguments)
      if (alias_set(a.type) == set)
        for (const auto& bound : original)
          if (bound.name == a.name && requires_grad(bound)) aliased_rg = true;
  if (seen.kind == AutogradSeen::Fallback && seen.records) {
    if (aliased_rg) {
      b.what = Backward::WarnThroughAlias;
      b.why = fmt::format("the {} fallback hooks the output (it is a requires_grad input, alias set '{}'): "
                          "backward warns when it gets there, and the gradient reaches that input unchanged",
                          seen.key, set);
    } else if (writes) {
      b.what = Backward::NoGraph;
      b.why = fmt::format("the {} fallback gives a mutated (Tensor({}!)) output no grad_fn: backward from it "
                          "raises (it does not require grad)",
                          seen.key, set);
    } else {
      b.what = Backward::Warn;
      b.why = fmt::format("the {} fallback redispatches with the thread-local state unchanged, so it depends on "
                          "the kernel: a kernel that computes with torch operators records their graph: the "
                          "gradient flows, and the fallback's hook on the outputs warns in backward; an opaque "
                          "kernel (numpy, a raw C++ or CUDA kernel, detached tensors) returns outputs that do not "
                          "require grad: the fallback gives them a WarnNotImplemented grad_fn, backward warns and "
                          "computes no gradient for the inputs through this operator",
                          seen.key);
    }
    return b;
  }
  b.what = aliased_rg ? Backward::ThroughAlias : Backward::NoGraph;
  const std::string cause =
      seen.kind == AutogradSeen::Fallback
          ? (seen.grad_mode ? fmt::format("the {} fallback records nothing: no Tensor or Tensor[] argument requires "
                                          "grad (it does not look into a Tensor?[])",
                                          seen.key)
                            : fmt::format("the {} fallback records nothing with grad mode off", seen.key))
          : "no autograd kernel or fallback ran (the autograd keys were not in the key set, or their fallback is "
            "a fallthrough)";
  b.why = aliased_rg ? cause + ": the output is a requires_grad input, so the gradient reaches it unchanged"
                     : cause + ": the outputs do not require grad, and backward from them raises";
  return b;
}

}  // namespace dt
