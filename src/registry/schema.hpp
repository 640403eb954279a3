// Operator schemas: parsing and printing PyTorch FunctionSchema strings such as
//   aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
// and PyTorch's check of a def schema against the schema inferred from a C++
// kernel signature.
//
// The parser follows torch/csrc/jit/frontend/function_schema_parser.cpp and
// schema_type_parser.cpp as a def (torch.library's define, C++'s m.def) runs
// them, with each release's differences from its profile (keys/schema_grammar.hpp);
// the printer follows FunctionSchema's and Argument's operator<<
// (ATen/core/function_schema{.h,_inl.h}), so that print_schema(parse_schema(s))
// is what _dispatch_dump prints for a def of s. The known differences are
// listed at parse_schema.
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
#include <vector>

#include "base/expected.hpp"
#include "base/operator_name.hpp"
#include "keys/schema_grammar.hpp"

namespace dt {

struct SchemaArgument {
  // The type as PyTorch prints it, alias annotations included: "Tensor(a!)",
  // "int[2]", "Scalar?", "Tensor?[]", "Dict(str, Tensor)", "Tensor($0! -> )"
  // (a bare "Tensor!"), "Tensor?(a)[]" (written "Tensor(a)?[]"). Such text
  // parses back with SchemaParseOptions::printed. "Dimname" is kept as
  // written (see SchemaPrintOptions).
  std::string type;
  // May be empty (returns; inferred kernel schemas use _0, _1, ...).
  std::string name;
  // Normalised default text as PyTorch prints it: "1", "[1, 2]", "None",
  // "\"mean\"", "0.5", "1.", "True", "0.+1.j", "cuda:0". Never set for returns.
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
  // (A measured grammar's type list decides instead.)
  bool dimname = true;
  // The release's grammar (the profile's); null: SchemaGrammar's defaults.
  const SchemaGrammar* grammar = nullptr;
  // The text is a schema as print_schema prints it (a stored schema read
  // back): alias annotations where PyTorch prints them ("Tensor?(a)[]",
  // "Tensor($0! -> )", "Tensor[]()[]"), complex and device defaults as
  // printed; every type the tool knows and type variables are accepted.
  bool printed = false;
};

struct SchemaPrintOptions {
  // PyTorch 1.13 parses Dimname as str and prints it as "str"; newer
  // releases print "Dimname".
  bool dimname_as_str = false;
};

// Parses a named ("ns::name.overload(...) -> ...", "name(...) -> ...") or a
// nameless ("(...) -> ...") schema. Accepts what the release's def accepts
// (the grammar of `opt`) and refuses the rest with PyTorch's words, with
// these deliberate differences:
//   - alias sets print in the order written (PyTorch prints them in hash-set
//     order, which is why its own dumps show "Tensor(b|a)");
//   - custom class types (__torch__.torch.classes.ns.Name) are not checked
//     for registration (PyTorch refuses a class no torch::class_ registered);
//   - SymFloat (no release's parser has it) and SymBool (2.14's only) are
//     types in every release: c10 infers them from a kernel's C++ types, and
//     an input cannot tell such an inferred schema from a written one;
//   - a hexadecimal number is refused (PyTorch's lexer reads "0x10" as a
//     number, which its integer conversion reads as 0).
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
