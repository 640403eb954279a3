# torch.utils.rename_privateuse1_backend, then registrations by the device's
# new name (for tests/oracle/py_reader_oracle.py), as an out-of-tree backend's
# Python package does: torch.library.impl with the name as device type, a
# custom_op with device_types, register_kernel, and Library.impl on
# PrivateUse1 itself.
import torch
from torch import Tensor
from torch.library import Library

torch.utils.rename_privateuse1_backend("pyrdev")

lib = Library("pyr_pu1", "FRAGMENT")
lib.define("by_key(Tensor x) -> Tensor")
lib.impl("by_key", lambda x: x, "PrivateUse1")
lib.define("by_name(Tensor x) -> Tensor")
torch.library.impl("pyr_pu1::by_name", "pyrdev", lambda x: x)
lib.define("by_name_deco(Tensor x) -> Tensor")


@torch.library.impl("pyr_pu1::by_name_deco", ["cpu", "pyrdev"])
def _by_name_deco(x):
    return x


@torch.library.custom_op("pyr_pu1::co", mutates_args=(), device_types="pyrdev")
def co(x: Tensor) -> Tensor:
    return x.clone()


@torch.library.custom_op("pyr_pu1::co_later", mutates_args=())
def co_later(x: Tensor) -> Tensor:
    return x.clone()


@co_later.register_kernel("pyrdev")
def _(x):
    return x.clone()
