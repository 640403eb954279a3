# The Python half of tests/oracle/cpp_ext/py_ops.cpp: fakes, autograd
# formulas and kernels registered from Python on operators C++ defines, as
# pytorch/extension-cpp's ops.py does (register_fake and register_autograd by
# qualified name, a setup_context; a helper of the file that registers; a
# fake on an overload through torch.ops; a Python kernel with
# torch.library.impl).
import torch
from torch import Tensor


@torch.library.register_fake("pyr_cppext::mymuladd")
def _(a, b, c):
    torch._check(a.shape == b.shape)
    return torch.empty_like(a)


def _backward(ctx, grad):
    a, b = ctx.saved_tensors
    grad_a = grad * b if ctx.needs_input_grad[0] else None
    grad_b = grad * a if ctx.needs_input_grad[1] else None
    return grad_a, grad_b, None


def _setup_context(ctx, inputs, output):
    a, b, c = inputs
    ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b if ctx.needs_input_grad[0] else None)


torch.library.register_autograd("pyr_cppext::mymuladd", _backward, setup_context=_setup_context)


def register_fakes(*names):
    for name in names:
        torch.library.register_fake(f"pyr_cppext::{name}")(lambda a, b, *rest: torch.empty_like(a))


register_fakes("mymul", "myadd_out")
torch.library.register_fake(torch.ops.pyr_cppext.scaled.out, lambda a, s, *, out: out)
torch.library.impl("pyr_cppext::scaled", "Meta", lambda a, s: torch.empty_like(a))
