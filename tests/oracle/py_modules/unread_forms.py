# What cannot be read statically is a located warning at its site and the run
# goes on (for tests/oracle/py_reader_oracle.py): a dtype default imported from
# a module the tool is not given (the op is skipped); next to it, a
# decorator wrapper defined in this file, float8 dtype defaults and ops read
# in full.
import functools

import torch
from torch import Tensor
from torch.library import Library

from pyr_external import e4m3_dtype, no_variants

lib = Library("pyr_unread", "FRAGMENT")


@torch.library.custom_op("pyr_unread::quant", mutates_args=())  # dispatchtool: warns pyr_unread::quant: not read
def quant(x: Tensor, dtype: torch.dtype = e4m3_dtype) -> Tensor:
    return x.to(dtype)


@torch.library.custom_op("pyr_unread::fp8", mutates_args=())
def fp8(x: Tensor, dtype: torch.dtype = torch.float8_e5m2, fallback: torch.dtype | None = torch.bfloat16) -> Tensor:
    return x.to(dtype)


def kernel(name, key="CPU"):
    """A decorator factory of this file: defines the op and registers the wrapped function."""

    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args):
            return fn(*args)

        lib.define(name + "(Tensor x) -> Tensor")
        lib.impl(name, inner, key)
        return inner

    return wrap


@kernel("deco_cpu")
def deco_cpu(x):
    return x


@kernel("deco_meta", key="Meta")
def deco_meta(x):
    return x


lib.define("after(Tensor x, ScalarType d=float8_e4m3fn) -> Tensor")


def define_variant(name):
    lib.define(name + "(Tensor x) -> Tensor")


def define_variants(names):
    for n in names:
        define_variant(n)


# A loop over a value from a module the tool is not given: its body calls a
# function of this file that registers two calls down. Real torch runs it
# (here zero times); the tool cannot, and says so at the call.
for v in no_variants:
    define_variants([v])  # dispatchtool: warns in a loop over `no_variants`
