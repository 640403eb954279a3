# The literals real projects pass to custom_op / triton_op / Library.define,
# for tests/oracle/py_reader_oracle.py (torch 2.6 and 2.14): mutates_args as a
# set, an empty dict, a tuple, a list; tags through torch._C.Tag; names from
# module constants and f-strings; adjacent string literals in a schema.
import torch
from torch import Tensor
from torch.library import Library, triton_op

NS = "pyr_lit"
SUFFIX = "_v2"
lib = Library(NS, "FRAGMENT")
lib.define(f"fixed{SUFFIX}(Tensor x) -> Tensor", tags=[torch._C.Tag.needs_fixed_stride_order])
lib.define("joined(Tensor x, "
           "float scale=1.) -> Tensor", tags=(torch.Tag.pointwise, torch._C.Tag.core))
lib.define(NS + "::qualified(Tensor x) -> Tensor")


@torch.library.custom_op(f"{NS}::set_mut", mutates_args={"out"})
def set_mut(x: Tensor, out: Tensor) -> None:
    out.copy_(x)


@torch.library.custom_op("pyr_lit::dict_mut", mutates_args={})
def dict_mut(x: Tensor, n: int = -0, eps: float = 1e-6, mode: str = "even") -> Tensor:
    return x.clone()


@torch.library.custom_op("pyr_lit::list_mut", mutates_args=["a", "b"], device_types=["cpu"])
def list_mut(a: Tensor, b: Tensor, c: Tensor = None) -> None:
    pass


@triton_op("pyr_lit::tri", mutates_args={})
def tri(x: Tensor, y: Tensor) -> Tensor:
    return x + y


@triton_op("pyr_lit::tri_mut", mutates_args={"out"})
def tri_mut(x: Tensor, out: Tensor) -> None:
    out.copy_(x)


def tri_call_fn(x: Tensor, n: int = 3) -> Tensor:
    return x


torch.library.triton_op("pyr_lit::tri_call", tri_call_fn, mutates_args=())
