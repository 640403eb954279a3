// What torchgen reads from a native_functions.yaml schema to decide where
// kernels are registered (torchgen/model.py FunctionSchema): the name, the
// kind (SchemaKind), the number of returns and whether it takes
// TensorOptions. A shallow reading of the text: the schema itself is parsed
// and checked by the registry when the definition is compiled.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"

namespace dt {

// torchgen/model.py SchemaKind.
enum class SchemaKind : std::uint8_t { Functional, Inplace, Out, Mutable, Scratch };

struct NativeSchema {
  std::string ns = "aten";  // "ns::" prefix of the name, if any
  std::string name;         // "add.out" (no namespace)
  std::string base;         // "add" (BaseOperatorName.base: no trailing "_", no dunder "i")
  SchemaKind kind = SchemaKind::Functional;
  std::size_t returns = 0;
  bool tensor_options = false;  // kwarg-only ScalarType? dtype, Layout? layout, Device? device, bool? pin_memory
  // FunctionSchema.signature() as text: the functions of one group
  // (functional, inplace, mutable, out=) share it — the base name without
  // "_" or "_functional", the arguments but out= and TensorOptions ones,
  // annotations and return names dropped.
  std::string signature;
  // is_view_op's parts: a return aliasing an input without writing it
  // (Tensor(a)), or an argument whose alias set after the call is a wildcard (a -> *).
  bool view_return = false;
  bool wildcard = false;
  [[nodiscard]] std::string qualified() const { return ns + "::" + name; }
};

// Errors: a message without location (the caller locates it at the schema).
Expected<NativeSchema, Diagnostic> analyse_native_schema(std::string_view schema);

}  // namespace dt
