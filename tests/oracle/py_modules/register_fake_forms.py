# torch.library.register_fake on operators custom_op did not make, for
# tests/oracle/py_reader_oracle.py: imported into the real torch 2.6 and 2.14
# and read by dispatchtool; the dumps of every operator must agree. torch 2.14
# registers the fake as lib.impl(op, fn, "Meta") on the lib= Library (or on one
# torch/library.py makes); torch 2.6 on a Library of torch._library.fake_impl's.
import torch
from torch.library import Library, register_fake

lib = Library("pyr_fake", "DEF")
lib.define("with_lib(Tensor x) -> Tensor")
lib.define("without_lib(Tensor x) -> Tensor")
lib.define("decorated(Tensor x, int n) -> Tensor")
lib.define("overloaded.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)")
lib.define("packet(Tensor x) -> Tensor")
lib.define("abstract(Tensor x) -> Tensor")
lib.define("abstract_decorated(Tensor x) -> Tensor")
lib.impl("with_lib", lambda x: x, "CPU")

torch.library.register_fake("pyr_fake::with_lib", lambda x: torch.empty_like(x), lib=lib)
register_fake("pyr_fake::without_lib", lambda x: torch.empty_like(x))


@torch.library.register_fake("pyr_fake::decorated")
def decorated_fake(x, n):
    return torch.empty_like(x)


torch.library.register_fake(torch.ops.pyr_fake.overloaded.out, lambda x, *, out: out)
torch.library.register_fake(torch.ops.pyr_fake.packet.default, lambda x: x, lib=lib)


# impl_abstract: register_fake's name before 2.4, still there (deprecated) in 2.6 and 2.14.
torch.library.impl_abstract("pyr_fake::abstract", lambda x: torch.empty_like(x), lib=lib)


@torch.library.impl_abstract("pyr_fake::abstract_decorated")
def abstract_fake(x):
    return torch.empty_like(x)
