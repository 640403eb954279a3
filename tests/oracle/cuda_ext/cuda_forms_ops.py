# The Python half of tests/oracle/cuda_ext/cuda_forms.cu, as a CUDA project's
# ops module writes it (written for this test): fakes by qualified name, an
# autograd formula with a setup_context, a CPU kernel from Python beside the
# C++ CUDA one, and a fake registered through a helper of the file.
import torch


@torch.library.register_fake("cuda_ext::scale_out")
def _(out, x, a):
    return None


def _scale_backward(ctx, grad):
    return grad * ctx.a, None


def _scale_setup(ctx, inputs, output):
    ctx.a = inputs[1]


torch.library.register_autograd("cuda_ext::scale", _scale_backward, setup_context=_scale_setup)


@torch.library.register_kernel("cuda_ext::scale", "cpu")
def _(x, a):
    return x * a


def fake_like_input(name):
    torch.library.register_fake("cuda_ext::" + name)(lambda x: torch.empty_like(x))


fake_like_input("fast_only")
torch.library.register_fake("cuda_ext::rows", lambda x: x.new_empty(x.shape[:1]))
