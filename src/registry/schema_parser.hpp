// Internal: the schema parser behind parse_schema() and comparable_type()
// (schema.hpp). It produces printed text directly: a type is printed while it
// is parsed; a type tree (schema_type_tree.hpp) is built only where c10's
// Union and Optional rules need one.
//
// PyTorch sources mirrored (2.x, with 1.13's and 2.6's differences as the
// profile's SchemaGrammar gives them):
//   torch/csrc/jit/frontend/function_schema_parser.cpp  (declarations: schema_parser.cpp;
//                                                        default values: schema_defaults.cpp)
//   torch/csrc/jit/frontend/schema_type_parser.cpp      (types, alias annotations: schema_types.cpp)
//   torch/csrc/jit/frontend/lexer.h                     (tokens, keywords, strings: schema_lexer.cpp)
//   torch/csrc/jit/frontend/parse_string_literal.h      (escape sequences: schema_defaults.cpp)
//   aten/src/ATen/core/function_schema.h                (Argument's operator<<, checkSchema)
//   c10/core/Device.cpp                                 (device strings: schema_defaults.cpp)
// Errors say what torch says ("expected ident but found ')' here"), where it
// would say it.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "registry/schema.hpp"
#include "registry/schema_lexer.hpp"
#include "registry/schema_type_tree.hpp"

namespace dt::schema_detail {

// What the default-value parser needs to know about an argument's type.
struct TypeShape {
  Kind kind = Kind::Any;        // outermost (of the fake type: ScalarType is Int)
  Kind inner = Kind::Any;       // element of a List or Optional
  bool real_int = false;        // outermost is really IntType
  bool inner_real_int = false;  // List element is really IntType
  bool scalar_type = false;     // really ScalarType or an Optional of it (dtype names)
  bool inner_scalar_type = false;
};

inline TypeShape wrap(Kind kind, const TypeShape& inner) {
  return {kind, inner.kind, false, inner.real_int, kind == Kind::Optional && inner.scalar_type, inner.scalar_type};
}

// Real: the top-level type as printed in a schema (alias annotations, list
// sizes, ScalarType). Fake: the type as compared (none of those); nested
// types (inside Dict, tuples, ...) are always printed fake, like PyTorch.
enum class Mode : std::uint8_t { Real, Fake };

// Alias sets of one annotation, in written order without duplicates.
class AliasSets {
 public:
  static constexpr std::size_t kMax = 8;
  [[nodiscard]] bool add(std::string_view set) {
    if (contains(set)) return true;
    if (size_ == kMax) return false;
    sets_[size_++] = set;
    return true;
  }
  [[nodiscard]] bool contains(std::string_view set) const {
    return std::find(sets_.begin(), sets_.begin() + static_cast<std::ptrdiff_t>(size_), set) !=
           sets_.begin() + static_cast<std::ptrdiff_t>(size_);
  }
  [[nodiscard]] bool same_sets(const AliasSets& other) const {
    if (size_ != other.size_) return false;
    for (std::size_t i = 0; i < size_; ++i)
      if (!other.contains(sets_[i])) return false;
    return true;
  }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  void append_to(std::string& out) const {
    for (std::size_t i = 0; i < size_; ++i) {
      if (i > 0) out += '|';
      out += sets_[i];
    }
  }

 private:
  std::array<std::string_view, kMax> sets_{};
  std::size_t size_ = 0;
};

// c10::AliasInfo as far as printing needs it: its own annotation as
// AliasInfo's operator<< prints it ("(a!)", "($0! -> )", "()" for a list's
// container without sets), and that of the type it contains (a list's
// element), which Argument's operator<< prints before the "[]".
struct AliasInfo {
  std::string own;
  bool has_before = false;
  bool write = false;
  std::optional<std::string> contained;
};

// A default value as parseSingleConstant reads it.
struct Value {
  enum class Tag : std::uint8_t { None, Bool, Int, Double, Complex, String } tag = Tag::None;
  bool b = false;
  std::int64_t i = 0;
  double d = 0;  // Double; the imaginary part of a Complex (whose real part is 0)
  std::string s;
  std::size_t offset = 0;  // where it was written
};

// One parse: parse_schema() or parse_type_only(), then take_error() after a
// failure (every parse_* member returns false at the first error).
class Parser {
 public:
  explicit Parser(std::string_view text, SchemaParseOptions opt = {});

  [[nodiscard]] bool parse_schema(Schema& s);
  // A type on its own, as in SchemaArgument::type.
  [[nodiscard]] bool parse_type_only(Mode mode, std::string& out);
  [[nodiscard]] SchemaError take_error() { return std::move(error_); }

 private:
  // -- tokens --
  [[nodiscard]] const Token& cur() const { return lex_.cur(); }
  [[nodiscard]] std::string_view text(const Token& t) const { return lex_.text(t); }
  void advance() { lex_.advance(); }
  [[nodiscard]] bool is_punct(char c) const { return cur().kind == Tok::Punct && cur().punct == c; }
  [[nodiscard]] bool is_word(std::string_view w) const { return cur().kind == Tok::Ident && text(cur()) == w; }
  [[nodiscard]] bool is_name() const { return cur().kind == Tok::Ident && !is_keyword(text(cur())); }
  bool accept(char c);

  // -- errors (each returns false) --
  // torch's words at a token; a hint of the tool's own, if any, follows in
  // parentheses. A token torch's lexer cannot read fails first, as torch's
  // lexer reads one token ahead.
  bool fail_at(const Token& t, std::string message, std::string_view hint = {});
  bool fail_at_offset(std::size_t offset, std::string message, std::string_view hint = {});
  bool fail(std::string message, std::string_view hint = {}) { return fail_at(cur(), std::move(message), hint); }
  // Lexer::expect: "expected WHAT but found 'TOKEN' here".
  bool fail_expected(std::string_view what, std::string_view hint = {});
  bool expect(char c, std::string_view hint = {});
  bool expect_name(std::string_view hint = {});

  // -- declaration (schema_parser.cpp) --
  bool parse_name(Schema& s);
  bool parse_arguments(Schema& s);
  bool parse_returns(Schema& s);
  bool expect_end(const Schema& s);
  // FunctionSchema::checkSchema: no positional argument without a default
  // after one with a default (lists excepted).
  bool check_defaults(const Schema& s);
  // Type, name and default of one argument or return.
  bool parse_argument(SchemaArgument& arg, bool is_return);

  // -- types (schema_types.cpp) --
  // parseArgument's type: a type plus the argument-level sized list "[N]",
  // printed (Real) as Argument's operator<< prints it.
  bool parse_argument_type(Mode mode, std::string& out, TypeShape& shape, std::optional<std::int64_t>& size);
  // parseFakeAndRealType: a primary type, its alias annotation, then any
  // number of "[]" (each with an alias annotation) and "?". `plain` is the
  // type without annotations (c10's str()), `alias` its annotation (when
  // wanted: with a null `alias` they are parsed and dropped). With `tree`,
  // also builds the type's tree (for Union members).
  bool parse_type(Mode mode, std::string& plain, TypeShape& shape, std::optional<AliasInfo>* alias,
                  TypeNode* tree = nullptr);
  // The type before any "[]" or "?"; `alias_allowed`: whether an alias
  // annotation may follow it. `known` (in: build the tree; out: `node` was
  // built, as it always is for a Union or Scalar).
  bool parse_primary_type(Mode mode, std::string& out, TypeShape& shape, bool& alias_allowed, TypeNode& node,
                          bool& known);
  // Future(T), RRef(T) or Await(T).
  bool parse_wrapper(std::string& out, TypeShape& shape, TypeNode* tree);
  // Dict(K, V).
  bool parse_dict(std::string& out, TypeShape& shape, TypeNode* tree);
  // parseBaseType: a type name of the release's grammar, or a type variable.
  bool parse_base_type(Mode mode, std::string& out, TypeShape& shape, TypeNode& node, bool& known);
  // "(T1, T2)"; "()" is the empty tuple.
  bool parse_tuple(std::string& out, TypeNode* tree);
  // Union(T1, T2, ...), normalised as c10's UnionType::create does
  // (TypeAlgebra::make_union); `node` is the Union, or an Optional.
  bool parse_union(std::string& out, TypeShape& shape, TypeNode& node);
  // __torch__.torch.classes.<namespace>.<class>
  bool parse_class(std::string& out);
  // An alias annotation: (a), (a!), (a|b), (a -> *), (*), or a bare '!' (a
  // fresh set "$N", written to). Stored in `alias` when not null.
  bool parse_alias(std::optional<AliasInfo>* alias);
  // set ('|' set)*, each set a name or the wildcard '*' (after which no name
  // may follow); empty only in a printed schema ("($0! -> )").
  bool parse_alias_sets(AliasSets& sets);
  // A "[]" (or "[N]") after a type whose annotation is `alias`: the list's own
  // annotation follows; the element's, if any, becomes the one it contains.
  bool list_alias(std::optional<AliasInfo>* alias);

  // -- default values (schema_defaults.cpp; function_schema_parser.cpp's parseDefaultValue) --
  bool parse_default(const TypeShape& shape, std::optional<std::int64_t> size, std::string& out);
  // [v1, v2, ...], or for a sized list "int[2] x=1" a single value repeated.
  bool parse_default_list(const TypeShape& shape, std::optional<std::int64_t> size, std::string& out);
  // convertToList: the elements must all be of the list's element kind.
  bool check_list_elements(const TypeShape& shape, const std::vector<Value>& values, std::size_t at);
  // parseSingleConstant: True, False, None, a string, a number (complex when
  // it ends in 'j' or the type is complex, a float when the type is float or
  // it has a '.' or an 'e', else an int), or a word standing for a value.
  bool parse_constant(const TypeShape& shape, Value& v);
  // In a printed schema, a complex default as printComplex writes it
  // ("0.+1.j"), starting at the current number; false (nothing read) if it is none.
  bool parse_printed_complex(Value& v);
  // c10::Device's constructor from the decoded string: the printed device.
  bool parse_device(std::string_view device, std::size_t at, std::string& out);
  // parseStringLiteral: strips the quotes and decodes \\ \' \" \a \b \f \n
  // \v \t, backslash-newline and three-digit octal escapes. (\r is not among
  // them in PyTorch, nor are \x and \u.)
  bool decode_string(const Token& t, std::string& out);

  // Counts a nesting level for as long as it lives.
  class DepthGuard {
   public:
    explicit DepthGuard(std::size_t& depth) : depth_(depth) { ++depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    ~DepthGuard() { --depth_; }

   private:
    std::size_t& depth_;
  };

  Lexer lex_;
  SchemaParseOptions opt_;
  const SchemaGrammar& grammar_;
  bool type_variables_ = true;  // the grammar's, for this schema's name
  SchemaError error_;
  std::size_t fresh_sets_ = 0;                 // bare '!' annotations so far: the next is "$N"
  std::vector<std::size_t> argument_offsets_;  // where each argument starts (checkSchema's errors)
  std::vector<bool> argument_lists_;           // whether each argument's type is a list (checkSchema)
  std::size_t type_depth_ = 0;                 // types being parsed inside each other (limits::kSchemaTypeDepth)
  std::size_t default_elements_ = 0;  // elements sized-list defaults expanded to (limits::kSchemaDefaultElements)
  TypeAlgebra types_;                 // Union normalisation, with its work budget (limits::kSchemaUnionWork)
};

// std::stoll on a number token's text: its leading digits (an optional '-'
// first); nullopt where std::stoll throws ("stoll": no digits, out of range).
std::optional<std::int64_t> stoll_prefix(std::string_view text);

// IValue's operator<< for a double: integral values as "1.", the rest with 17
// significant digits ("0.10000000000000001", "1e+20").
void append_double(std::string& out, double d);

}  // namespace dt::schema_detail
