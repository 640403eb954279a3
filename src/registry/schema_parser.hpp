// Internal: the schema parser behind parse_schema() and comparable_type()
// (schema.hpp). It produces normalised text directly: a type is printed while
// it is parsed; a type tree (schema_type_tree.hpp) is built only where c10's
// Union and Optional rules need one.
//
// PyTorch sources mirrored (1.13):
//   torch/csrc/jit/frontend/function_schema_parser.cpp  (declarations: schema_parser.cpp;
//                                                        default values: schema_defaults.cpp)
//   torch/csrc/jit/frontend/schema_type_parser.cpp      (types, alias annotations: schema_types.cpp)
//   torch/csrc/jit/frontend/lexer.h                     (tokens, keywords, strings: schema_lexer.cpp)
//   torch/csrc/jit/frontend/parse_string_literal.h      (escape sequences: schema_defaults.cpp)
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
  Kind kind = Kind::Any;        // outermost
  Kind inner = Kind::Any;       // element of a List or Optional
  bool real_int = false;        // outermost is really IntType
  bool inner_real_int = false;  // List element is really IntType
  bool scalar_type = false;     // outermost is ScalarType
  bool inner_scalar_type = false;  // element of an Optional is ScalarType
};

inline TypeShape wrap(Kind kind, const TypeShape& inner) {
  return {kind, inner.kind, false, inner.real_int, false, inner.scalar_type};
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

// A default value as parseSingleConstant reads it.
struct Value {
  enum class Tag : std::uint8_t { None, Bool, Int, Double, String } tag = Tag::None;
  bool b = false;
  std::int64_t i = 0;
  double d = 0;
  std::string s;
  std::size_t offset = 0;  // where it was written
};

inline constexpr std::int64_t kMaxListSize = 65535;

// One parse: parse_schema() or parse_type_only(), then take_error() after a
// failure (every parse_* member returns false at the first error).
class Parser {
 public:
  explicit Parser(std::string_view text, SchemaParseOptions opt = {}) : lex_(text), opt_(opt) {}

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
  bool fail_at(const Token& t, std::string message);
  bool fail_at_offset(std::size_t offset, std::string message);
  bool fail(std::string message) { return fail_at(cur(), std::move(message)); }
  bool fail_expected(std::string_view what);
  bool expect(char c, std::string_view what);
  [[nodiscard]] std::string found() const;

  // -- declaration (schema_parser.cpp) --
  // ns::name.overload, every part an identifier.
  bool parse_name(Schema& s);
  bool name_token(std::string_view what);
  bool parse_arguments(Schema& s);
  bool parse_returns(Schema& s);
  bool parse_return(Schema& s);
  bool expect_end(const Schema& s);
  // Type, name and default of one argument or return.
  bool parse_argument(SchemaArgument& arg, bool is_return);

  // -- types (schema_types.cpp) --
  // A type plus the argument-level sized list "[N]" (only allowed there).
  bool parse_argument_type(Mode mode, std::string& out, TypeShape& shape, std::optional<std::int64_t>& size);
  // schema_type_parser.cpp's parseFakeAndRealType: a primary type, its alias
  // annotation, then any number of "[]" (each with an alias annotation) and "?".
  // With `tree`, also builds the type's tree (for Union members).
  bool parse_type(Mode mode, std::string& out, TypeShape& shape, TypeNode* tree = nullptr);
  // The type before any "[]" or "?"; `alias_allowed`: whether an alias
  // annotation may follow it. `known` (in: build the tree; out: `node` was
  // built, as it always is for a Union or Scalar).
  bool parse_primary_type(Mode mode, std::string& out, TypeShape& shape, bool& alias_allowed, TypeNode& node,
                          bool& known);
  // Future(T) or RRef(T).
  bool parse_future_or_rref(std::string& out, TypeShape& shape, TypeNode* tree);
  // Dict(K, V).
  bool parse_dict(std::string& out, TypeShape& shape, TypeNode* tree);
  // Lower-case words that are no known type are type variables ("t").
  bool parse_type_variable(std::string& out);
  // "(T1, T2)"; "()" is the empty tuple.
  bool parse_tuple(std::string& out, TypeNode* tree);
  // Union(T1, T2, ...), normalised as c10's UnionType::create does
  // (TypeAlgebra::make_union); `node` is the Union, or an Optional.
  bool parse_union(std::string& out, TypeShape& shape, TypeNode& node);
  // __torch__.torch.classes.<namespace>.<class>
  bool parse_class(std::string& out);
  // An alias annotation such as (a), (a!), (a|b), (a -> *), (*): the sets
  // before and after the call, and whether the argument is written to.
  // Appended to `out` in normalised form, or checked and dropped if null.
  bool parse_alias(std::string* out);
  // set ('|' set)*, each set a name or the wildcard '*' (which must come last).
  bool parse_alias_sets(AliasSets& sets);

  // -- default values (schema_defaults.cpp; function_schema_parser.cpp's parseDefaultValue) --
  bool parse_default(const TypeShape& shape, std::optional<std::int64_t> size, std::string_view type, std::string& out);
  // [v1, v2, ...], or for a sized list "int[2] x=1" a single value repeated.
  bool parse_default_list(const TypeShape& shape, std::optional<std::int64_t> size, std::string_view type,
                          std::string& out);
  // convertToList: the elements must all be of the list's element kind.
  bool check_list_elements(const TypeShape& shape, const std::vector<Value>& values, std::string_view type);
  // parseSingleConstant: True, False, None, a string, a number (an int
  // unless the type is float or it has a '.' or an 'e'), or one of the words
  // standing for enum values.
  // scalar_type: the argument is a ScalarType (or ScalarType?): the release's dtype names are values too.
  bool parse_constant(Kind kind, Value& v, bool scalar_type = false);
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
  SchemaError error_;
  std::size_t type_depth_ = 0;        // types being parsed inside each other (limits::kSchemaTypeDepth)
  std::size_t default_elements_ = 0;  // elements sized-list defaults expanded to (limits::kSchemaDefaultElements)
  TypeAlgebra types_;                 // Union normalisation, with its work budget (limits::kSchemaUnionWork)
};

}  // namespace dt::schema_detail
