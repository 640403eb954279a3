# torch.library.custom_op and the register_* functions, for
# tests/oracle/py_reader_oracle.py (torch 2.6 and 2.14): schemas inferred from
# the annotations.
from typing import List, Optional, Sequence, Tuple

import torch
from torch import Tensor
from torch.library import custom_op, register_fake

OPS = "pyr_co"


@torch.library.custom_op("pyr_co::scale", mutates_args=(), device_types="cpu")
def scale(x: torch.Tensor, factor: float, n: int = 2, name: str = "s") -> torch.Tensor:
    return x * factor


@scale.register_kernel("cuda")
def _(x, factor, n=2, name="s"):
    return x * factor


@scale.register_fake
def _(x, factor, n=2, name="s"):
    return torch.empty_like(x)


@custom_op("pyr_co::fill_", mutates_args=["x"])
def fill_(x: Tensor, value: float, others: Optional[Tensor] = None) -> None:
    x.fill_(value)


torch.library.register_vmap("pyr_co::fill_", lambda info, dims, x, value, others=None: (None, None))


@custom_op("pyr_co::many", mutates_args="unknown", device_types=["cpu", "cuda"])
def many(xs: List[Tensor], ys: Sequence[Tensor], sizes: Sequence[int], flag: bool,
         dt: torch.dtype, dev: torch.device = torch.device("cpu"),
         eps: float = 1e-05, big: float = 1e16, neg: int = -3, o: Optional[Sequence[int]] = None,
         *, k: Optional[float] = None) -> Tuple[Tensor, Tensor]:
    return xs[0], xs[0]


def pair_impl(x: torch.Tensor, y: torch.Tensor) -> Tuple[torch.Tensor]:
    return (x + y,)


pair = torch.library.custom_op("pyr_co::pair", pair_impl, mutates_args=())
scale.register_autograd(lambda ctx, g: (g, None, None, None), setup_context=lambda ctx, inputs, output: None)
register_fake("pyr_co::pair", lambda x, y: (torch.empty_like(x),))


@torch.library.custom_op("pyr_co::explicit", mutates_args=(), schema="(Tensor x, SymInt n) -> Tensor")
def explicit(x, n):
    return x.clone()


torch.library.register_kernel("pyr_co::explicit", "cuda", lambda x, n: x.clone())


@torch.library.custom_op("pyr_co::nums", mutates_args=())
def nums(a: int, b: float, c: bool, e: Sequence[float], d: Optional[int] = None, dev: Optional[torch.device] = None) -> int:
    return a


@torch.library.custom_op("pyr_co::opt_list", mutates_args=())
def opt_list(ys: Sequence[Optional[Tensor]], o: Optional[Tensor] = None) -> List[Tensor]:
    return []


# A dtype default (infer_schema writes "ScalarType dtype=float32"): the schema
# the tool infers must be one its parser takes, in each release.
@torch.library.custom_op("pyr_co::cast", mutates_args=())
def cast(x: Tensor, dtype: torch.dtype = torch.float, acc: Optional[torch.dtype] = torch.bfloat16,
         f8: torch.dtype = torch.float8_e4m3fn, c: torch.dtype = torch.cdouble) -> Tensor:
    return x.to(dtype)
