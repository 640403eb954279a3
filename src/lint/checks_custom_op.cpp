// lint checks on torch.library.custom_op operators (check.hpp): a custom op
// without register_fake, whose calls on Meta / fake tensors raise, and one
// without register_autograd, whose backward raises. What the real releases do
// is measured ([torch_library] no_fake_error / no_autograd_error,
// tools/gen_torch_library.py) and compared call by call by the
// oracle.torch-*.custom_op_calls tests.
#include <fmt/format.h>

#include <algorithm>

#include "base/operator_name.hpp"
#include "lint/check.hpp"

namespace dt::lint {

namespace {

// The active kernel of the custom op on `key` when it is custom_op's own with that role.
const Kernel* custom_op_kernel(const CheckContext& c, const Operator& op, std::string_view key, CustomOpKernel role) {
  const auto k = c.p.find(key);
  if (!k) return nullptr;
  const Kernel* kern = active(op, *k);
  return kern != nullptr && kern->custom_op == role ? kern : nullptr;
}

}  // namespace

void check_custom_op_no_fake(const CheckContext& c, std::vector<Finding>& out) {
  for (const Operator* op : c.ops) {
    if (!op->def) continue;
    const Kernel* fake = custom_op_kernel(c, *op, "Meta", CustomOpKernel::FakeUnset);
    if (fake == nullptr) continue;
    Finding f = finding_at(
        fake->where,
        fmt::format("custom op {} has no fake impl (register_fake): a call on a Meta or fake tensor (torch.compile, "
                    "torch.export) raises RuntimeError: {}",
                    op->name, custom_op_text(c.p.torch_library().no_fake_error, *op)),
        op->name, "Meta");
    f.fix = fmt::format("add @{}.register_fake (or torch.library.register_fake(\"{}\")) with a function that "
                        "returns empty tensors of the outputs' shapes; in TOML: register_fake = true",
                        op->def->custom_op_function, OperatorName::without_overload(op->name));
    out.push_back(std::move(f));
  }
}

void check_custom_op_no_autograd(const CheckContext& c, std::vector<Finding>& out) {
  for (const Operator* op : c.ops) {
    if (!op->def || !op->def->differentiable) continue;
    const Schema& s = op->def->schema;
    const Kernel* kern = custom_op_kernel(c, *op, "Autograd", CustomOpKernel::AutogradUnset);
    // register_autograd takes it, and there is a gradient to take: a Tensor in, a Tensor out.
    const auto tensor = [](const SchemaArgument& a) { return a.type.starts_with("Tensor"); };
    if (kern == nullptr || !register_autograd_takes(s, c.p.torch_library().autograd_views) ||
        std::none_of(s.arguments.begin(), s.arguments.end(), tensor) ||
        std::none_of(s.returns.begin(), s.returns.end(), tensor))
      continue;
    Finding f = finding_at(kern->where,
                           fmt::format("custom op {} has no autograd formula (register_autograd): a call with an "
                                       "input that requires grad records a backward, and backward through its "
                                       "floating-point outputs raises RuntimeError: {}",
                                       op->name, custom_op_text(c.p.torch_library().no_autograd_error, *op)),
                           op->name, "Autograd");
    f.fix = fmt::format("add {}.register_autograd(backward, setup_context=...) returning the inputs' gradients "
                        "(in TOML: register_autograd = true); an operator nothing differentiates through can keep "
                        "this informational finding or suppress it",
                        op->def->custom_op_function);
    out.push_back(std::move(f));
  }
}

}  // namespace dt::lint
