# register_fake / register_autograd / register_kernel / register_vmap /
# register_torch_dispatch / Library._register_fake / impl_abstract on
# operators another module defined (pyr_helpers.native), by qualified name and
# by OpOverload, with and without lib=, as call and decorator.
import torch
from torch.library import Library

from pyr_helpers import native  # noqa: F401  (defines the operators first)


@torch.library.register_fake("pyr_native::muladd")
def _(a, b, c):
    return torch.empty_like(a)


def _backward(ctx, grad):
    a, b = ctx.saved_tensors
    return grad * b, grad * a, None


def _setup_context(ctx, inputs, output):
    a, b, c = inputs
    ctx.save_for_backward(a, b)


torch.library.register_autograd("pyr_native::muladd", _backward, setup_context=_setup_context)

torch.library.register_fake("pyr_native::mul", lambda a, b: torch.empty_like(a))
mine = Library("pyr_native", "FRAGMENT")
torch.library.register_autograd("pyr_native::mul", lambda ctx, g: (g, g), lib=mine)
torch.library.register_vmap("pyr_native::vmapped", lambda info, dims, a: (a, 0))
torch.library.register_kernel("pyr_native::kernel_cpu", "cpu", lambda a: a)


@torch.library.register_kernel("pyr_native::kernel_any", None)
def _any(a):
    return a


class Mode(torch.utils._python_dispatch.TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


torch.library.register_torch_dispatch("pyr_native::dispatch_rule", Mode, lambda mode, func, types, args, kwargs: None)
mine._register_fake("private_fake", lambda a: torch.empty_like(a))
torch.library.impl_abstract("pyr_native::abstract", lambda a: torch.empty_like(a), lib=mine)
torch.library.register_fake(torch.ops.pyr_native.overloaded.out, lambda a, *, out: out)
torch.library.register_fake(torch.ops.pyr_native.overloaded.default, lambda a: torch.empty_like(a), lib=mine)
