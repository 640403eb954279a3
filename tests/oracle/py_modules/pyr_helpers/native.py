# Operators defined in one module (standing in for a C++ extension's
# TORCH_LIBRARY block, or a Library.define elsewhere) that pyr_helpers.extension
# registers fakes, autograd formulas and kernels on, as extension projects'
# ops.py files do.
from torch.library import Library

native = Library("pyr_native", "DEF")
native.define("muladd(Tensor a, Tensor b, float c) -> Tensor")
native.define("mul(Tensor a, Tensor b) -> Tensor")
native.define("add_out(Tensor a, Tensor b, Tensor(a!) out) -> ()")
native.define("vmapped(Tensor a) -> Tensor")
native.define("kernel_cpu(Tensor a) -> Tensor")
native.define("kernel_any(Tensor a) -> Tensor")
native.define("dispatch_rule(Tensor a) -> Tensor")
native.define("private_fake(Tensor a) -> Tensor")
native.define("abstract(Tensor a) -> Tensor")
native.define("overloaded(Tensor a) -> Tensor")
native.define("overloaded.out(Tensor a, *, Tensor(a!) out) -> Tensor(a!)")
native.impl("muladd", lambda a, b, c: a * b + c, "CPU")
native.impl("mul", lambda a, b: a * b, "CPU")
