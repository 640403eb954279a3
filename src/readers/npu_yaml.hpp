// torch_npu's backend yaml (`backend: NPU`: npu_native_functions.yaml, or
// the file its codegen merges with op-plugin's per-release yaml) into the
// TOML contract: the registrations torch_npu's torchnpugen/gen_backend_stubs.py
// generates for it (RegisterNPU.cpp, RegisterAutogradNPU.cpp,
// CustomRegisterSchema.cpp, QuantizedRegister.cpp, NestedTensorRegister.cpp,
// RegisterSparseNPU.cpp). NPU is PrivateUse1 there: every key is
// PrivateUse1's (docs/input-format.md, "torch_npu's yaml").
#pragma once

#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "readers/native_yaml.hpp"
#include "readers/readers.hpp"
#include "readers/yaml_tree.hpp"

namespace dt {

// `doc`'s root is a mapping whose `backend` is NPU; `fns`: the release's
// native functions (read_native_functions).
Expected<Blocks, Diagnostic> read_npu_yaml(const Profile& profile, const YamlDoc& doc,
                                           const std::vector<NativeFunctionInfo>& fns);

// CustomRegisterSchema's rewrite of a custom operator's schema before its
// m.def: more than one out= argument become `Tensor[] out` returning
// `(Tensor, ...)`, and every argument named `self` is named `input`.
// `schema` is torchgen's printing ("name.overload(args) -> returns").
std::string npu_custom_schema(std::string_view schema);

}  // namespace dt
