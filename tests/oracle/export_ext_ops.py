"""A stand-in for a user's extension, for the dispatchtool-export round trips
(export_roundtrip.py): importing it registers, through torch.library and the
C++ library objects Python exposes (torch 1.13, 2.6 and 2.14 alike),

* a DEF library `dtexport` with three operators: one with CPU and Meta
  kernels, one CompositeImplicitAutograd, one with no kernel at all;
* a PrivateUse1 kernel for aten::add.Tensor (a backend extension adding to
  PyTorch's own operator);
* a fallthrough backend fallback for PrivateUse1 (which the exported profile
  must carry as a [[fallback]]: it shows in every operator's table).

The objects stay alive as long as the module (the registrations with them).
"""
import torch

NAMESPACE = "dtexport"
OPERATORS = ["dtexport::scale", "dtexport::plus_one", "dtexport::declared"]


def _scale(x, s=2.0):
    return x * s


def _plus_one(x):
    return x + 1


def _add_privateuse1(a, b, alpha=1):
    return a


lib = torch.library.Library(NAMESPACE, "DEF")
lib.define("scale(Tensor x, float s=2.0) -> Tensor")
lib.impl("scale", _scale, "CPU")
lib.impl("scale", _scale, "Meta")
lib.define("plus_one(Tensor x) -> Tensor")
lib.impl("plus_one", _plus_one, "CompositeImplicitAutograd")
lib.define("declared(Tensor(a!) x) -> Tensor(a!)")

aten = torch.library.Library("aten", "IMPL")
aten.impl("add.Tensor", _add_privateuse1, "PrivateUse1")

fallback = torch._C._dispatch_library("IMPL", "_", "PrivateUse1")
fallback.fallback_fallthrough()
