# Callers of pyr_helpers.registry's helpers, at module level, as real ops
# modules call theirs (keyword and positional arguments, defaults, a partial,
# decorator factories, a class that registers, a name rebound after its
# registration).
import torch
from torch import Tensor
from torch.library import Library

from pyr_helpers.registry import (direct_register, fake_for, meta_for, named_after, register_aux, register_op,
                                  wrapped_op)
from . import registry


def scale_out(x: Tensor, out: Tensor, factor: float = 1.0) -> None:
    out.copy_(x * factor)


def scale_out_fake(x, out, factor=1.0):
    return None


def pair(x: Tensor, n: int = 2) -> tuple[Tensor, Tensor]:
    return x, x


def norm(x: Tensor, w: Tensor | None, eps: float = 1e-6) -> Tensor:
    return x


direct_register(op_name="scale_out", op_func=scale_out, mutates_args=["out"], fake_impl=scale_out_fake)
direct_register("pair", pair, dispatch_key="CompositeExplicitAutograd", tags=(torch.Tag.needs_fixed_stride_order,))
registry.direct_register("norm", norm, None, lambda x, w, eps=1e-6: x)
register_aux(op_name="norm_aux", op_func=norm, fake_impl=scale_out_fake)

local_lib = Library("pyr_help_local", "FRAGMENT")
direct_register("norm_local", norm, target_lib=local_lib)


def graph_break(x: Tensor) -> Tensor:
    return x


direct_register("graph_break", graph_break)


def graph_break(*args):  # rebinds the name after its registration  # noqa: F811
    return None


@register_op
def plain(x: Tensor) -> Tensor:
    return x


@register_op(mutates_args=["q"])
def inplace(q: Tensor, k: Tensor) -> None:
    q.add_(k)


@register_op(op_name="renamed", fake_impl=lambda x, y: x)
def _renamed_impl(x: Tensor, y: Tensor) -> Tensor:
    return x + y


def called_form(x: Tensor) -> Tensor:
    return x


called_form = register_op(called_form, mutates_args=[])


@wrapped_op(mutates_args=["out"])
def wrapped(x: Tensor, out: Tensor) -> None:
    out.copy_(x)


@wrapped_op
def wrapped_plain(x: Tensor) -> Tensor:
    return x


quant_lib = Library("pyr_help_quant", "FRAGMENT")
by_name = named_after(quant_lib)


@by_name
def _quantize(x: Tensor, scale: float) -> Tensor:
    return x


@named_after(quant_lib, False)
def dequantize_non_decomposed(x: Tensor, scale: float) -> Tensor:
    return x


@meta_for(quant_lib, "dequantize_non_decomposed")
def _dequantize_meta(x, scale):
    return torch.empty_like(x)


quant_lib.define("packed(Tensor x) -> Tensor")


@fake_for("pyr_help_quant::packed")
def _packed_fake(x):
    return torch.empty_like(x)


def register_more():
    direct_register("from_function", pair)


register_more()
