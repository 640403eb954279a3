# Registration helpers of the shapes real projects write (a helper that
# infers the schema and defines, implements and fakes an op on a Library; a
# decorator factory; an op named after its function), written for the
# oracle. Nothing here registers at import: the callers in pyr_helpers.ops do.
import functools
from typing import Callable, List, Optional

import torch
from torch.library import Library, infer_schema

helper_lib = Library("pyr_help", "FRAGMENT")


def direct_register(
    op_name: str,
    op_func: Callable,
    mutates_args: Optional[List[str]] = None,
    fake_impl: Optional[Callable] = None,
    target_lib: Optional[Library] = None,
    dispatch_key: Optional[str] = None,
    tags: tuple = (),
):
    lib = target_lib or helper_lib
    key = "CPU" if dispatch_key is None else dispatch_key
    lib.define(op_name + infer_schema(op_func, mutates_args=mutates_args or []), tags=tags)
    lib.impl(op_name, op_func, dispatch_key=key)
    if fake_impl is not None:
        lib._register_fake(op_name, fake_impl)


def register_op(fn=None, *, op_name=None, mutates_args=None, fake_impl=None):
    """A decorator factory: @register_op, @register_op(), @register_op(op_name=..., ...)."""

    def decorator(op_func):
        name = op_name or op_func.__name__
        direct_register(name, op_func, mutates_args=mutates_args or [],
                        fake_impl=fake_impl if fake_impl is not None else (lambda *a, **k: None))
        return op_func

    if fn is not None:
        return decorator(fn)
    return decorator


def named_after(lib, composite=True):
    """The op is named after the function, one leading underscore dropped."""
    key = "CompositeImplicitAutograd" if composite else "CompositeExplicitAutograd"

    def decorator(fn):
        op_name = fn.__name__
        if op_name[0] == "_":
            op_name = op_name[1:]
        lib.define(op_name + infer_schema(fn, mutates_args={}))
        lib.impl(op_name, fn, key)
        return getattr(getattr(torch.ops, lib.ns), op_name)

    return decorator


def meta_for(lib, op_name):
    def decorator(fn):
        lib.impl(op_name, fn, "Meta")
        return fn

    return decorator


def fake_for(name):
    def decorator(func):
        return torch.library.register_fake(f"{name}")(func)

    return decorator


class OpWrapper:
    """A class that registers when its property is read (eagerly, in the decorator)."""

    def __init__(self, op_name, op_func, mutates_args):
        self.op_name = op_name
        self.op_func = op_func
        self.mutates_args = mutates_args
        self._impl = None

    @property
    def real_impl(self):
        if self._impl is None:
            direct_register(op_name=self.op_name, op_func=self.op_func, mutates_args=self.mutates_args,
                            fake_impl=self.fake_impl, dispatch_key="CompositeExplicitAutograd")
            self._impl = self.op_func
        return self._impl

    @property
    def fake_impl(self):
        def fake(*args, **kwargs):
            return None
        return fake


def wrapped_op(fn=None, *, op_name=None, mutates_args=None, eager=True):
    def decorator(op_func):
        wrapper = OpWrapper(op_name=op_name or op_func.__name__, op_func=op_func, mutates_args=mutates_args or [])
        return wrapper.real_impl if eager else wrapper

    return decorator(fn) if fn is not None else decorator


aux_lib = Library("pyr_help_aux", "FRAGMENT")
register_aux = functools.partial(direct_register, target_lib=aux_lib)
