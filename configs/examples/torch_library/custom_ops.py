# Python custom operators made with torch.library.custom_op (PyTorch 2.4 and
# later), in the shape of PyTorch's "Python Custom Operators" tutorial: one
# operator with only its kernel, one with register_fake and register_autograd.
#
# Try: dispatchtool trace --op tour::scale --arg meta configs/examples/torch_library/custom_ops.py
# (the tour's step 9, docs/tutorial.md; oracle.torch-*.custom_op_calls imports
# this file into the real torch and compares what its calls do).
import numpy as np
import torch
from torch import Tensor


@torch.library.custom_op("tour::scale", mutates_args=())
def scale(x: Tensor, factor: float) -> Tensor:
    # Computed by numpy: autograd sees none of it.
    return torch.from_numpy(np.asarray(x.detach().cpu().numpy() * factor))


@torch.library.custom_op("tour::shift", mutates_args=())
def shift(x: Tensor, by: float) -> Tensor:
    return x + by


@shift.register_fake
def _(x, by):
    # Only the output's shape, dtype and device: what torch.compile traces with.
    return torch.empty_like(x)


def shift_backward(ctx, grad):
    # d(x + by)/dx is 1: the gradient passes through; `by` is a float, no gradient.
    return grad, None


shift.register_autograd(shift_backward)
