// The schema c10 infers (infer_schema) from an operator's own C++ function,
// at::_ops::NAME::call, whose type torchgen derives from the schema: a kernel
// made from it (autocast's WrapFunction<..., decltype(ATEN_FN(op)), ...>, as
// the autocast KERNEL macros register it) carries this inferred schema.
// Checked against every autocast kernel of PyTorch's own library (unit test).
#pragma once

#include <string>

#include "registry/schema.hpp"

namespace dt {

// "(Tensor _0, int[] _1) -> Tensor _0": each argument's C++ type as c10 names
// it back (alias annotations and list sizes dropped but std::array's,
// defaults and names dropped, _0, _1, ... in order), then the returns.
std::string ops_call_signature(const Schema& schema);

}  // namespace dt
