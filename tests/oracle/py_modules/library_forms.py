# torch.library's Library forms, for tests/oracle/py_reader_oracle.py: imported
# into the real torch 2.6 and 2.14, and read by dispatchtool (no Python run);
# the dumps of every operator must agree.
import torch
import torch.library as L
from torch import library
from torch.library import Library, fallthrough_kernel, impl

NS = "pyr_lib"

lib = torch.library.Library(NS, "DEF")
lib.define("plain(Tensor x) -> Tensor")
lib.define("aliased.overload(Tensor x, Scalar alpha=1) -> Tensor", alias_analysis="CONSERVATIVE")
lib.define("tagged(Tensor(a!) x) -> Tensor(a!)", tags=(torch.Tag.inplace_view,))
lib.define("split(Tensor x, "  # implicit concatenation, over lines
           "int n) -> Tensor")
lib.define("""triple(Tensor x) -> Tensor""")
lib.define(r"raw(Tensor x) -> Tensor")
lib.define("catch_all(Tensor x) -> Tensor")


def plain_cpu(x):
    return x


lib.impl("plain", plain_cpu, "CPU")
lib.impl("plain", fallthrough_kernel, "AutogradCPU")
lib.impl("aliased.overload", lambda x, alpha=1: x, "CompositeImplicitAutograd")
lib.impl("catch_all", plain_cpu)
lib.impl(op_name="split", fn=plain_cpu, dispatch_key="Meta")


@impl(lib, "triple", "CUDA")
def triple_cuda(x):
    return x


@torch.library.impl("pyr_lib::raw", "cpu")
def raw_cpu(x):
    return x


torch.library.impl("pyr_lib::raw", ["cuda", "default"], lambda x: x)


@L.impl("pyr_lib::split", "AutogradCPU", lib=lib)
def split_autograd(x, n):
    return x


cpu = Library(NS, "IMPL", "CPU")
cpu.impl("triple", plain_cpu)
cpu.impl("tagged", lambda x: x)

frag = library.Library("pyr_frag", "FRAGMENT")
frag.define("f(Tensor x) -> Tensor")
frag.impl("f", fallthrough_kernel, "AutogradCUDA")
torch.library.define("pyr_frag::g", "(Tensor x, float y=0.5) -> Tensor", tags=torch.Tag.pointwise)
torch.library.define("pyr_frag::h", "(Tensor x) -> Tensor", lib=frag)
torch.library.impl("pyr_frag::h", "xpu", lambda x: x, lib=frag)
torch.library.impl("pyr_frag::g", "Meta", plain_cpu)

fb = torch.library.Library("_", "IMPL")
fb.fallback(lambda *a, **k: None, "PrivateUse2")
fb.fallback(fallthrough_kernel, "PrivateUse3")


def not_called():
    lib.impl("plain", plain_cpu, "CUDA")  # read as a warning: not at module level


if False:
    lib.define("never(Tensor x) -> Tensor")
