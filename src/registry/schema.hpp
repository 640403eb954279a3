// Operator schemas: parsing and printing PyTorch FunctionSchema strings such as
//   aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
// and PyTorch's check of a def schema against the schema inferred from a C++
// kernel signature.
//
// The parser follows torch/csrc/jit/frontend/function_schema_parser.cpp and
// schema_type_parser.cpp (PyTorch 1.13); the printer follows FunctionSchema's
// and Argument's operator<< (ATen/core/function_schema{.h,_inl.h}), so that
// print_schema(parse_schema(s)) is what str(torch._C.parse_schema(s)) prints.
// The known differences are listed at parse_schema.
//
// Parsing: schema_parser.cpp (declarations), schema_types.cpp (types),
// schema_defaults.cpp (default values), on the tokens of schema_lexer.cpp
// (internal headers schema_parser.hpp, schema_lexer.hpp). Printing:
// schema_print.cpp; comparing: schema_compare.cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/expected.hpp"
#include "base/operator_name.hpp"

namespace dt {

struct SchemaArgument {
  // Normalised type text, alias annotations included, as PyTorch prints it:
  // "Tensor(a!)", "int[2]", "Scalar?", "Tensor?[]", "Dict(str, Tensor)".
  // "Dimname" is kept as written (see SchemaPrintOptions).
  std::string type;
  // May be empty (returns; inferred kernel schemas use _0, _1, ...).
  std::string name;
  // Normalised default text as PyTorch prints it: "1", "[1, 2]", "None",
  // "\"mean\"", "0.5", "1.", "True". Never set for returns.
  std::optional<std::string> default_value;
  bool kwarg_only = false;  // after the '*' marker; never set for returns

  friend bool operator==(const SchemaArgument&, const SchemaArgument&) = default;
};

struct Schema {
  std::string ns;        // "" when unqualified ("aten" in "aten::add")
  std::string name;      // "" for a nameless schema "(Tensor x) -> Tensor"
  std::string overload;  // "" when none
  std::vector<SchemaArgument> arguments;
  std::vector<SchemaArgument> returns;
  bool is_vararg = false;  // "..." ends the arguments
  bool is_varret = false;  // "..." ends the returns
  // The returns were written in parentheses. Informational only: printing
  // decides on parentheses by PyTorch's rule, not by this flag.
  bool returns_parenthesised = false;

  friend bool operator==(const Schema&, const Schema&) = default;
};

// The schema's name: ns, name and overload.
OperatorName operator_name(const Schema& s);

struct SchemaError {
  std::size_t offset = 0;  // byte index into the parsed text
  std::string message;     // e.g. "expected '->' after the argument list, found 'Tensor'"
};

struct SchemaParseOptions {
  // Whether "Dimname" is a type: 1.13 and 2.6 parse it (as str); 2.14
  // refuses it ("unknown type specifier"), as the release's profile says.
  bool dimname = true;
  // The names a ScalarType / ScalarType? default may be written with besides
  // float and long (function_schema_parser.cpp's str2dtype: the release's
  // torch.<attr> dtypes, "float8_e5m2" -> 23): the profile's
  // [torch_library.python.dtypes], attribute -> str() name, sorted by
  // attribute. nullptr (1.13): none.
  const std::vector<std::pair<std::string, std::string>>* dtypes = nullptr;
};

struct SchemaPrintOptions {
  // PyTorch 1.13 parses Dimname as str and prints it as "str"; newer
  // releases print "Dimname".
  bool dimname_as_str = false;
};

// Parses a named ("ns::name.overload(...) -> ...", "name(...) -> ...") or a
// nameless ("(...) -> ...") schema. Accepts what PyTorch 1.13's
// torch._C.parse_schema accepts, with these deliberate differences:
//   - alias sets print in the order written (PyTorch prints them in hash-set
//     order, which is why its own dumps show "Tensor(b|a)");
//   - "Tensor(a)?[]" and "Tensor(a)[][]" print as written (PyTorch prints
//     "Tensor?(a)[]" and "Tensor[]()[]", which it cannot parse back);
//   - the legacy bare write marker "Tensor!" is rejected;
//   - "double" and "int64_t" are rejected with a hint (1.13 takes them for
//     type variables; later releases reject them);
//   - SymFloat and SymBool (later releases) are accepted;
//   - list sizes, integers and device indices must be well-formed numbers
//     (PyTorch reads "int[1.5]" as "int[1]", "0x10" as 0 and wraps device
//     indices above 127); list sizes are limited to 65535;
//   - complex default values are rejected;
//   - custom class types (__torch__.torch.classes.ns.Name) are not checked
//     for registration.
// Union and Optional types follow c10's rules (schema_type_tree.hpp), torch
// 1.13's printing of a Union that holds Scalar ("Union(, str, Scalar)")
// included.
Expected<Schema, SchemaError> parse_schema(std::string_view text, const SchemaParseOptions& opt = {});

// "ns::name.overload(args) -> returns" ("(args) -> returns" when nameless).
std::string print_schema(const Schema& s, const SchemaPrintOptions& opt = {});
// "(args) -> returns" only.
std::string print_arguments_and_returns(const Schema& s, const SchemaPrintOptions& opt = {});

// The type as PyTorch compares and names it in findSchemaDifferences
// (Argument::type()->str()): alias annotations and list sizes dropped,
// ScalarType/Layout/MemoryFormat/SymInt/ConstQuantizerPtr -> int,
// Dimname -> str. "Tensor(a!)[]" -> "Tensor[]", "ScalarType?" -> "int?".
// Returns the text unchanged if it is not a valid type.
std::string comparable_type(std::string_view type);

// FunctionSchema::cloneWithRealTypes: SymInt, SymFloat and SymBool become
// int, float and bool (in lists and optionals too), and defaults print as for
// those types ("SymInt[2] p=[0, 0]" becomes "int[2] p=0"); nothing else changes.
// The schema-mismatch message prints the def this way for kernels that are
// not SymInt kernels.
Schema with_real_types(Schema s);

// PyTorch's check of a def schema against the schema inferred from a kernel
// signature (c10::findSchemaDifferences, aten/src/ATen/core/op_registration/
// infer_schema.cpp). Returns the "reason" text, e.g.
// "The number of arguments is different. 2 vs 1.", or nullopt when the two
// are compatible. Only argument/return counts and types (comparable_type)
// are compared; names, defaults, alias annotations, kwarg-only markers and
// varargs are not.
std::optional<std::string> schema_mismatch_reason(const Schema& expected, const Schema& inferred);

}  // namespace dt
