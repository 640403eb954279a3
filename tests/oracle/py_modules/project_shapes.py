# Shapes of real projects' ops modules (for tests/oracle/py_reader_oracle.py):
# impls in a loop with f-string names (torchao's @impl(lib, f"op_{n}bit",
# "Meta")), a Library with a key and @impl without one, the call-then-apply
# torch.library.impl, custom_op over another custom op's _init_fn (xformers),
# registrations in a staticmethod called at module level (vLLM's
# register_ops_once), a Library from an lru_cache'd function, a fake
# registered under a run-time hasattr guard (sglang's register_fake_if_exists:
# a located warning), infer_schema + define with a tuple[Tensor, List[Tensor]]
# return.
import functools
from typing import Optional, List
import torch
from torch.library import Library, impl

lib = Library("pyr_shapes", "FRAGMENT")
meta_lib = Library("pyr_shapes", "IMPL", "Meta")

for n in range(1, 4):
    lib.define(f"op_{n}bit(Tensor x) -> Tensor")

    @impl(lib, f"op_{n}bit", "Meta")
    def _(x):
        return x

lib.define("nokey(Tensor x) -> Tensor")


@impl(meta_lib, "nokey")
def _nokey(x):
    return x


lib.define("cth(Tensor x) -> Tensor")
torch.library.impl("pyr_shapes::cth", "CompositeExplicitAutograd")(lambda x: x)


@torch.library.custom_op("pyr_shapes::base", mutates_args=(), device_types="cuda")
def base(x: torch.Tensor) -> torch.Tensor:
    return x


second = torch.library.custom_op("pyr_shapes::second", base._init_fn, mutates_args=(), device_types=["cuda"])


class Ops:
    @staticmethod
    def register_ops_once():
        for name in ["a1", "a2"]:
            lib.define(name + "(Tensor x) -> Tensor")
            lib.impl(name, lambda x: x, "CPU")


Ops.register_ops_once()


@functools.lru_cache
def get_lib():
    return Library("pyr_shapes_c", "FRAGMENT")


get_lib().define("cached(Tensor x) -> Tensor")


def register_fake_if_exists(name):
    def deco(fn):
        if hasattr(torch.ops.pyr_shapes, name):
            torch.library.register_fake(f"pyr_shapes::{name}")(fn)
        return fn
    return deco


@register_fake_if_exists("cth")  # dispatchtool: warns depends at run time on the condition
def _cth_fake(x):
    return x


def f_seq(x: torch.Tensor, xs: List[torch.Tensor], opt: Optional[List[int]] = None, s: float = 1e-6) -> tuple[torch.Tensor, List[torch.Tensor]]:
    return x, xs


schema = torch.library.infer_schema(f_seq, mutates_args=())
lib.define("seq" + schema)
