// Operator schema parser and printer; see schema.hpp.
//
// PyTorch sources mirrored here (1.13):
//   torch/csrc/jit/frontend/function_schema_parser.cpp  (declarations, defaults)
//   torch/csrc/jit/frontend/schema_type_parser.cpp      (types, alias annotations)
//   torch/csrc/jit/frontend/lexer.h                     (tokens, keywords, strings)
//   torch/csrc/jit/frontend/parse_string_literal.h      (escape sequences)
//   ATen/core/function_schema{.h,_inl.h}, alias_info.h   (printing)
//   c10/util/StringUtil.h printQuotedString, ivalue.cpp  (printing defaults)
//   aten/src/ATen/core/op_registration/infer_schema.cpp  (findSchemaDifferences)
//
// The parser produces normalised text directly: a type is printed while it is
// parsed, so no type tree is built.
#include "registry/schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <utility>

namespace dt {
namespace {

// ---- characters and words --------------------------------------------------

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Words PyTorch's lexer turns into keyword tokens. They can be neither names
// nor types ("None" and "NoneType" are types, True/False/None default values).
bool is_keyword(std::string_view w) {
  static constexpr std::array<std::string_view, 28> kKeywords = {
      "Ellipsis", "False", "None", "NoneType", "True",  "and",    "as",     "assert", "break",  "class",
      "continue", "def",   "del",  "elif",     "else",  "for",    "global", "if",     "import", "in",
      "is",       "not",   "or",   "pass",     "raise", "return", "while",  "with"};
  return std::find(kKeywords.begin(), kKeywords.end(), w) != kKeywords.end();
}

// ---- lexer -----------------------------------------------------------------

enum class Tok : std::uint8_t { End, Newline, Ident, Number, String, Arrow, Dots, Punct, Invalid };

struct Token {
  Tok kind = Tok::End;
  char punct = 0;  // the character, for Tok::Punct
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Splits the schema into tokens like torch's Lexer: blanks, "# comments" and
// backslash-newlines are skipped; line breaks are blanks inside brackets and
// may otherwise only end the text. Trivially copyable, so peeking is a copy.
class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) { advance(); }

  [[nodiscard]] const Token& cur() const { return cur_; }
  [[nodiscard]] std::string_view text(const Token& t) const { return src_.substr(t.begin, t.end - t.begin); }
  [[nodiscard]] std::string_view src() const { return src_; }

  [[nodiscard]] Token peek() const {
    Lexer copy = *this;
    copy.advance();
    return copy.cur_;
  }

  void advance() {
    skip_blanks(depth_ > 0);
    if (pos_ < src_.size() && src_[pos_] == '\n') {
      const std::size_t newline = pos_;
      skip_blanks(true);
      if (pos_ < src_.size()) {  // more text after the line break
        pos_ = newline + 1;
        cur_ = {Tok::Newline, 0, newline, newline + 1};
        return;
      }
    }
    cur_ = lex();
  }

 private:
  void skip_blanks(bool newlines) {
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      if (is_blank(c) || (c == '\n' && newlines)) {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else if (c == '\\' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '\n') {
        pos_ += 2;
      } else {
        return;
      }
    }
  }

  [[nodiscard]] char at(std::size_t i) const { return i < src_.size() ? src_[i] : '\0'; }

  Token lex() {
    const std::size_t begin = pos_;
    if (pos_ >= src_.size()) return {Tok::End, 0, begin, begin};
    const char c = src_[pos_];
    if (is_ident_start(c)) {
      while (is_ident_char(at(pos_))) ++pos_;
      // "Tensör": the error is the 'ö', not an unknown type 'Tens'.
      if (static_cast<unsigned char>(at(pos_)) >= 0x80) return {Tok::Invalid, 0, pos_, pos_ + 1};
      return {Tok::Ident, 0, begin, pos_};
    }
    if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) return lex_number();
    if (c == '"' || c == '\'') return lex_string();
    if (c == '-' && at(pos_ + 1) == '>') {
      pos_ += 2;
      return {Tok::Arrow, 0, begin, pos_};
    }
    if (c == '.' && at(pos_ + 1) == '.' && at(pos_ + 2) == '.') {
      pos_ += 3;
      return {Tok::Dots, 0, begin, pos_};
    }
    static constexpr std::string_view kPunct = "()[],*?!|=:.-";
    if (kPunct.find(c) != std::string_view::npos) {
      if (c == '(' || c == '[') ++depth_;
      if ((c == ')' || c == ']') && depth_ > 0) --depth_;
      ++pos_;
      return {Tok::Punct, c, begin, pos_};
    }
    return {Tok::Invalid, 0, begin, begin + 1};
  }

  // The decimal part of what strtod accepts: 12, 1.5, 1., .5, 1e-5, 2.5E3.
  Token lex_number() {
    const std::size_t begin = pos_;
    while (is_digit(at(pos_))) ++pos_;
    if (at(pos_) == '.') {
      ++pos_;
      while (is_digit(at(pos_))) ++pos_;
    }
    if (at(pos_) == 'e' || at(pos_) == 'E') {
      std::size_t p = pos_ + 1;
      if (at(p) == '+' || at(p) == '-') ++p;
      if (is_digit(at(p))) {
        pos_ = p;
        while (is_digit(at(pos_))) ++pos_;
      }
    }
    return {Tok::Number, 0, begin, pos_};
  }

  // '...', "...", '''...''' or """...""" with backslash escapes (decoded
  // later); only triple-quoted strings may span lines.
  Token lex_string() {
    const std::size_t begin = pos_;
    const char quote = src_[pos_];
    const std::size_t quote_len = (at(pos_ + 1) == quote && at(pos_ + 2) == quote) ? 3 : 1;
    std::size_t end = pos_ + quote_len;
    auto closes = [&](std::size_t i) {
      return i + quote_len <= src_.size() && std::all_of(src_.begin() + static_cast<std::ptrdiff_t>(i),
                                                         src_.begin() + static_cast<std::ptrdiff_t>(i + quote_len),
                                                         [quote](char ch) { return ch == quote; });
    };
    while (end < src_.size() && !closes(end)) {
      if (src_[end] == '\n' && quote_len != 3) break;
      if (src_[end] == '\\') ++end;
      ++end;
    }
    if (end >= src_.size() || !closes(end)) return {Tok::Invalid, 0, begin, begin + 1};
    pos_ = end + quote_len;
    return {Tok::String, 0, begin, pos_};
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  int depth_ = 0;  // open '(' and '['
  Token cur_;
};

// ---- types -----------------------------------------------------------------

// The type kinds that matter here, in c10::TypeKind order (Union members are
// sorted by it). Kinds are those of PyTorch's "fake" types: ScalarType,
// Layout, MemoryFormat and SymInt are Int, Dimname is String.
enum class Kind : std::uint8_t {
  Any,
  AnyEnum,
  Tensor,
  Storage,
  Tuple,
  List,
  Dict,
  Number,
  Float,
  Complex,
  Future,
  RRef,
  Int,
  None,
  String,
  Generator,
  Quantizer,
  Bool,
  Optional,
  Var,
  Device,
  Stream,
  Class,
  Capsule,
  QScheme,
  AnyClass,
  Union,
};

struct BaseType {
  std::string_view name;  // as written
  std::string_view real;  // as printed in a schema
  std::string_view fake;  // as compared and printed inside other types
  Kind kind;
  bool real_int = false;  // really IntType (affects how int-list defaults print)
};

// schema_type_parser.cpp's parseBaseType table, plus Tensor.
constexpr std::array<BaseType, 27> kBaseTypes = {{
    {"Tensor", "Tensor", "Tensor", Kind::Tensor},
    {"Scalar", "Scalar", "Scalar", Kind::Number},
    {"int", "int", "int", Kind::Int, true},
    {"SymInt", "SymInt", "int", Kind::Int},
    {"ScalarType", "ScalarType", "int", Kind::Int},
    {"Layout", "Layout", "int", Kind::Int},
    {"MemoryFormat", "MemoryFormat", "int", Kind::Int},
    {"ConstQuantizerPtr", "int", "int", Kind::Int, true},
    {"float", "float", "float", Kind::Float},
    {"SymFloat", "SymFloat", "float", Kind::Float},
    {"bool", "bool", "bool", Kind::Bool},
    {"SymBool", "SymBool", "bool", Kind::Bool},
    {"complex", "complex", "complex", Kind::Complex},
    {"str", "str", "str", Kind::String},
    {"Dimname", "Dimname", "str", Kind::String},
    {"Device", "Device", "Device", Kind::Device},
    {"Generator", "Generator", "Generator", Kind::Generator},
    {"Storage", "Storage", "Storage", Kind::Storage},
    {"Stream", "Stream", "Stream", Kind::Stream},
    {"Capsule", "Capsule", "Capsule", Kind::Capsule},
    {"Any", "Any", "Any", Kind::Any},
    {"AnyClassType", "AnyClassType", "AnyClassType", Kind::AnyClass},
    {"AnyEnumType", "AnyEnumType", "AnyEnumType", Kind::AnyEnum},
    {"QScheme", "QScheme", "QScheme", Kind::QScheme},
    {"Quantizer", "Quantizer", "Quantizer", Kind::Quantizer},
    {"None", "NoneType", "NoneType", Kind::None},
    {"NoneType", "NoneType", "NoneType", Kind::None},
}};

const BaseType* find_base_type(std::string_view name) {
  for (const BaseType& t : kBaseTypes)
    if (t.name == name) return &t;
  return nullptr;
}

// What the default-value parser needs to know about an argument's type.
struct TypeShape {
  Kind kind = Kind::Any;        // outermost
  Kind inner = Kind::Any;       // element of a List or Optional
  bool real_int = false;        // outermost is really IntType
  bool inner_real_int = false;  // List element is really IntType
};

TypeShape wrap(Kind kind, const TypeShape& inner) { return {kind, inner.kind, false, inner.real_int}; }

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

// ---- default values --------------------------------------------------------

struct Value {
  enum class Tag : std::uint8_t { None, Bool, Int, Double, String } tag = Tag::None;
  bool b = false;
  std::int64_t i = 0;
  double d = 0;
  std::string s;
  std::size_t offset = 0;  // where it was written
};

// IValue's operator<< for doubles: integral values as "1.", the rest with 17
// significant digits ("0.10000000000000001", "1e+20").
void append_double(std::string& out, double d) {
  constexpr double kTwo63 = 9223372036854775808.0;
  if (std::isfinite(d) && d == std::trunc(d) && d >= -kTwo63 && d < kTwo63) {
    fmt::format_to(std::back_inserter(out), "{}.", static_cast<std::int64_t>(d));
  } else {
    fmt::format_to(std::back_inserter(out), "{:.17g}", d);
  }
}

// c10::printQuotedString, including its octal escapes of bytes outside
// printable ASCII (computed on a signed char, as PyTorch does).
void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "\\'";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      default:
        if (c > 0x1f && c < 0x7f) {
          out += c;
        } else {
          int v = static_cast<signed char>(c);  // NOLINT(bugprone-signed-char-misuse): as PyTorch does
          std::array<char, 3> digits{};
          digits[2] = static_cast<char>('0' + v % 8);
          v /= 8;
          digits[1] = static_cast<char>('0' + v % 8);
          v /= 8;
          digits[0] = static_cast<char>('0' + v);
          out += '\\';
          out.append(digits.data(), digits.size());
        }
    }
  }
  out += '"';
}

void append_value(std::string& out, const Value& v, bool quote_strings) {
  switch (v.tag) {
    case Value::Tag::None:
      out += "None";
      break;
    case Value::Tag::Bool:
      out += v.b ? "True" : "False";
      break;
    case Value::Tag::Int:
      fmt::format_to(std::back_inserter(out), "{}", v.i);
      break;
    case Value::Tag::Double:
      append_double(out, v.d);
      break;
    case Value::Tag::String:
      if (quote_strings) {
        append_quoted(out, v.s);
      } else {
        out += v.s;
      }
      break;
  }
}

// c10::Device's string syntax: a device type, optionally ":index".
bool is_valid_device(std::string_view text) {
  static constexpr std::array<std::string_view, 19> kDeviceTypes = {
      "cpu",  "cuda", "ipu", "xpu",  "mkldnn", "opengl", "opencl", "ideep", "hip",          "ve",
      "fpga", "ort",  "xla", "lazy", "vulkan", "mps",    "meta",   "hpu",   "privateuseone"};
  const std::size_t colon = text.find(':');
  const std::string_view type = text.substr(0, colon);
  if (std::find(kDeviceTypes.begin(), kDeviceTypes.end(), type) == kDeviceTypes.end()) return false;
  if (colon == std::string_view::npos) return true;
  const std::string_view index = text.substr(colon + 1);
  if (index.empty() || index.size() > 3 || !std::all_of(index.begin(), index.end(), is_digit)) return false;
  if (index.size() > 1 && index[0] == '0') return false;
  int value = 0;
  std::from_chars(index.data(), index.data() + index.size(), value);
  return value <= 127;  // c10::DeviceIndex is an int8_t
}

// ---- parser ----------------------------------------------------------------

constexpr std::int64_t kMaxListSize = 65535;

class Parser {
 public:
  explicit Parser(std::string_view text) : lex_(text) {}

  [[nodiscard]] bool parse_schema(Schema& s) {
    if (!is_punct('(') && !parse_name(s)) return false;
    if (!is_punct('(')) {
      if (cur().kind == Tok::End) return fail("expected an argument list after the operator name");
      return fail_expected("'(' after the operator name");
    }
    if (!parse_arguments(s)) return false;
    if (cur().kind != Tok::Arrow) return fail_expected("'->' after the argument list");
    advance();
    if (!parse_returns(s)) return false;
    return expect_end(s);
  }

  // A type on its own, as in SchemaArgument::type.
  [[nodiscard]] bool parse_type_only(Mode mode, std::string& out) {
    TypeShape shape;
    std::optional<std::int64_t> size;
    if (!parse_argument_type(mode, out, shape, size)) return false;
    return cur().kind == Tok::End || fail_expected("the end of the type");
  }

  [[nodiscard]] SchemaError take_error() { return std::move(error_); }

 private:
  // -- tokens --
  [[nodiscard]] const Token& cur() const { return lex_.cur(); }
  [[nodiscard]] std::string_view text(const Token& t) const { return lex_.text(t); }
  void advance() { lex_.advance(); }
  [[nodiscard]] bool is_punct(char c) const { return cur().kind == Tok::Punct && cur().punct == c; }
  [[nodiscard]] bool is_word(std::string_view w) const { return cur().kind == Tok::Ident && text(cur()) == w; }
  [[nodiscard]] bool is_name() const { return cur().kind == Tok::Ident && !is_keyword(text(cur())); }
  bool accept(char c) {
    if (!is_punct(c)) return false;
    advance();
    return true;
  }

  // -- errors --
  bool fail_at(const Token& t, std::string message) {
    error_.offset = t.begin;
    error_.message = std::move(message);
    if (t.kind == Tok::Invalid) {
      const char c = lex_.src()[t.begin];
      if (c == '"' || c == '\'') {
        error_.message = "unterminated string literal";
      } else if (c > 0x20 && c < 0x7f) {
        error_.message = fmt::format("unexpected character '{}'", c);
      } else if (const auto u = static_cast<unsigned char>(c); u >= 0xc2 && u <= 0xf4) {
        // A UTF-8 sequence: quote the whole character.
        const std::size_t n = u < 0xe0 ? 2 : u < 0xf0 ? 3 : 4;
        error_.message =
            fmt::format("unexpected character '{}' (names and types are ASCII)", lex_.src().substr(t.begin, n));
      } else {
        error_.message = fmt::format("unexpected byte 0x{:02x}", static_cast<unsigned char>(c));
      }
    }
    return false;
  }
  bool fail(std::string message) { return fail_at(cur(), std::move(message)); }
  bool fail_expected(std::string_view what) { return fail(fmt::format("expected {}, found {}", what, found())); }
  bool expect(char c, std::string_view what) {
    if (accept(c)) return true;
    return fail_expected(fmt::format("'{}' {}", c, what));
  }

  [[nodiscard]] std::string found() const {
    switch (cur().kind) {
      case Tok::End:
        return "end of input";
      case Tok::Newline:
        return "a line break";
      case Tok::String:
        return "a string literal";
      default:
        return fmt::format("'{}'", text(cur()));
    }
  }

  // -- declaration --

  // ns::name.overload, every part an identifier.
  bool parse_name(Schema& s) {
    if (!name_token("an operator name")) return false;
    std::string_view first = text(cur());
    advance();
    if (accept(':')) {
      if (!expect(':', "after the namespace")) return false;
      if (!name_token("an operator name after '::'")) return false;
      s.ns = first;
      first = text(cur());
      advance();
    }
    s.name = first;
    if (cur().kind == Tok::Number && text(cur()).starts_with('.'))  // "add.1" lexes as add, .1
      return fail_at_offset(cur().begin + 1,
                            fmt::format("expected an overload name after '.', found '{}'", text(cur()).substr(1)));
    if (accept('.')) {
      if (!name_token("an overload name after '.'")) return false;
      s.overload = text(cur());
      advance();
    }
    return true;
  }

  bool name_token(std::string_view what) {
    if (is_name()) return true;
    if (cur().kind == Tok::Ident) return fail(fmt::format("expected {}, found the keyword '{}'", what, text(cur())));
    return fail_expected(what);
  }

  bool parse_arguments(Schema& s) {
    advance();  // '('
    bool kwarg_only = false;
    if (!is_punct(')')) {
      bool first = true;
      do {
        if (!first && is_punct(')')) return fail("expected an argument after ','");
        first = false;
        if (s.is_vararg) return fail("'...' must be the last element of the argument list");
        if (accept('*')) {
          kwarg_only = true;
        } else if (cur().kind == Tok::Dots) {
          advance();
          s.is_vararg = true;
        } else {
          SchemaArgument& arg = s.arguments.emplace_back();
          if (!parse_argument(arg, /*is_return=*/false)) return false;
          arg.kwarg_only = kwarg_only;
        }
      } while (accept(','));
    }
    return expect(')', "to close the argument list");
  }

  bool parse_returns(Schema& s) {
    if (cur().kind == Tok::Dots) {
      advance();
      s.is_varret = true;
      return true;
    }
    if (!is_punct('(')) return parse_return(s);
    advance();
    s.returns_parenthesised = true;
    if (!is_punct(')')) {
      bool first = true;
      do {
        if (!first && is_punct(')')) return fail("expected a return after ','");
        first = false;
        if (s.is_varret) return fail("'...' must be the last element of the return list");
        if (cur().kind == Tok::Dots) {
          advance();
          s.is_varret = true;
        } else if (!parse_return(s)) {
          return false;
        }
      } while (accept(','));
    }
    return expect(')', "to close the return list");
  }

  bool parse_return(Schema& s) {
    if (cur().kind == Tok::End) return fail("expected a return type after '->'");
    if (is_punct('*')) return fail("'*' (keyword-only marker) is only allowed among the arguments");
    return parse_argument(s.returns.emplace_back(), /*is_return=*/true);
  }

  bool expect_end(const Schema& s) {
    switch (cur().kind) {
      case Tok::End:
        return true;
      case Tok::Newline:
        return fail("unexpected line break after the schema");
      default:
        break;
    }
    if (is_punct(',') && !s.returns_parenthesised)
      return fail("unexpected ',' after the return type; several returns need parentheses: '-> (A a, B b)'");
    return fail(fmt::format("unexpected {} after the schema", found()));
  }

  // Type, name and default of one argument or return.
  bool parse_argument(SchemaArgument& arg, bool is_return) {
    TypeShape shape;
    std::optional<std::int64_t> size;
    if (!parse_argument_type(Mode::Real, arg.type, shape, size)) return false;
    if (is_return) {
      if (is_name()) {
        arg.name = text(cur());
        advance();
      }
      if (is_punct('=')) return fail("a return cannot have a default value");
      return true;
    }
    if (!is_name()) {
      if (cur().kind == Tok::Ident)
        return fail(fmt::format("'{}' is a keyword and cannot be an argument name", text(cur())));
      return fail_expected(fmt::format("an argument name after the type '{}'", arg.type));
    }
    arg.name = text(cur());
    advance();
    if (accept('=')) {
      std::string value;
      if (!parse_default(shape, size, arg.type, value)) return false;
      arg.default_value = std::move(value);
    }
    return true;
  }

  // -- types --

  // A type plus the argument-level sized list "[N]" (only allowed there).
  bool parse_argument_type(Mode mode, std::string& out, TypeShape& shape, std::optional<std::int64_t>& size) {
    if (!parse_type(mode, out, shape)) return false;
    if (!accept('[')) return true;
    const Token& n = cur();
    const std::string_view digits = text(n);
    std::int64_t value = -1;
    if (n.kind == Tok::Number && std::all_of(digits.begin(), digits.end(), is_digit)) {
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (ec != std::errc{} || value > kMaxListSize)
        return fail(fmt::format("list size {} is too large (at most {})", digits, kMaxListSize));
    } else {
      return fail_expected("a list size (a non-negative integer) or ']'");
    }
    advance();
    if (!expect(']', "to close the list size")) return false;
    size = value;
    if (mode == Mode::Real) {
      fmt::format_to(std::back_inserter(out), "[{}]", value);
    } else {
      out += "[]";
    }
    shape = wrap(Kind::List, shape);
    if (!parse_alias(mode == Mode::Real ? &out : nullptr)) return false;
    if (accept('?')) {
      out += '?';
      shape = wrap(Kind::Optional, shape);
    }
    return true;
  }

  // schema_type_parser.cpp's parseFakeAndRealType: a primary type, its alias
  // annotation, then any number of "[]" (each with an alias annotation) and "?".
  bool parse_type(Mode mode, std::string& out, TypeShape& shape) {
    bool alias_allowed = true;
    if (is_punct('(')) {
      if (!parse_tuple(out)) return false;
      shape = {Kind::Tuple};
      alias_allowed = false;
    } else if (cur().kind != Tok::Ident) {
      return fail_expected("a type");
    } else if (const std::string_view word = text(cur()); word == "Future" || word == "RRef") {
      advance();
      out += word;
      if (!expect('(', fmt::format("after '{}'", word))) return false;
      out += '(';
      TypeShape inner;
      if (!parse_type(Mode::Fake, out, inner)) return false;
      if (!expect(')', fmt::format("to close the {} type", word))) return false;
      out += ')';
      shape = {word == "Future" ? Kind::Future : Kind::RRef};
      alias_allowed = false;
    } else if (word == "Dict") {
      advance();
      out += "Dict(";
      TypeShape inner;
      if (!expect('(', "after 'Dict'") || !parse_type(Mode::Fake, out, inner)) return false;
      if (!expect(',', "between the key and value types of the Dict")) return false;
      out += ", ";
      if (!parse_type(Mode::Fake, out, inner) || !expect(')', "to close the Dict type")) return false;
      out += ')';
      shape = {Kind::Dict};
    } else if (word == "Union") {
      if (!parse_union(out, shape)) return false;
    } else if (word == "__torch__") {
      if (!parse_class(out)) return false;
      shape = {Kind::Class};
      alias_allowed = false;
    } else if (const BaseType* base = find_base_type(word)) {
      advance();
      out += mode == Mode::Real ? base->real : base->fake;
      shape = {base->kind, Kind::Any, base->real_int};
    } else if (!parse_type_variable(out)) {
      return false;
    } else {
      shape = {Kind::Var};
    }
    if (alias_allowed && !parse_alias(mode == Mode::Real ? &out : nullptr)) return false;
    for (;;) {
      if (is_punct('[') && lex_.peek().kind == Tok::Punct && lex_.peek().punct == ']') {
        advance();
        advance();
        out += "[]";
        shape = wrap(Kind::List, shape);
        if (!parse_alias(mode == Mode::Real ? &out : nullptr)) return false;
      } else if (accept('?')) {
        if (alias_allowed && is_punct('(')) return fail("an alias annotation goes before the '?', as in 'Tensor(a!)?'");
        out += '?';
        shape = wrap(Kind::Optional, shape);
      } else {
        return true;
      }
    }
  }

  // Lower-case words that are no known type are type variables ("t").
  bool parse_type_variable(std::string& out) {
    const std::string_view word = text(cur());
    if (is_keyword(word)) return fail(fmt::format("expected a type, found the keyword '{}'", word));
    if (word == "double") return fail("unknown type 'double'; a C++ double is 'float' in a schema");
    if (word == "int64_t") return fail("unknown type 'int64_t'; a C++ int64_t is 'int' (or 'SymInt') in a schema");
    if (word == "List" || word == "Optional" || word == "Tuple") {
      static constexpr std::string_view kHints[] = {"T[]", "T?", "(T1, T2)"};
      const std::size_t i = word == "List" ? 0 : word == "Optional" ? 1 : 2;
      return fail(fmt::format("unknown type '{}'; write '{}' in a schema", word, kHints[i]));
    }
    if (!(word[0] >= 'a' && word[0] <= 'z')) return fail(fmt::format("unknown type '{}'", word));
    out += word;
    advance();
    return true;
  }

  // "(T1, T2)"; "()" is the empty tuple.
  bool parse_tuple(std::string& out) {
    advance();
    out += '(';
    if (!is_punct(')')) {
      bool first = true;
      do {
        if (!first) out += ", ";
        first = false;
        TypeShape inner;
        if (!parse_type(Mode::Fake, out, inner)) return false;
      } while (accept(','));
    }
    if (!expect(')', "to close the tuple type")) return false;
    out += ')';
    return true;
  }

  // Union(T1, T2, ...): PyTorch's UnionType deduplicates its members, splits
  // optional members into T and NoneType, sorts by type kind and turns a
  // Union of T and NoneType into T?.
  bool parse_union(std::string& out, TypeShape& shape) {
    const Token union_token = cur();
    advance();
    if (!expect('(', "after 'Union'")) return false;
    std::vector<std::pair<Kind, std::string>> members;
    do {
      std::string member;
      TypeShape inner;
      if (!parse_type(Mode::Fake, member, inner)) return false;
      if (inner.kind == Kind::Optional) {
        member.pop_back();  // the '?'
        members.emplace_back(inner.inner, std::move(member));
        members.emplace_back(Kind::None, "NoneType");
      } else {
        members.emplace_back(inner.kind, std::move(member));
      }
    } while (accept(','));
    if (!expect(')', "to close the Union type")) return false;
    std::sort(members.begin(), members.end());
    members.erase(std::unique(members.begin(), members.end()), members.end());
    if (members.size() < 2) return fail_at(union_token, "a Union needs at least two different types");
    if (members.size() == 2 && (members[0].first == Kind::None || members[1].first == Kind::None)) {
      const auto& other = members[0].first == Kind::None ? members[1] : members[0];
      out += other.second;
      out += '?';
      shape = {Kind::Optional, other.first};
      return true;
    }
    out += "Union(";
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i > 0) out += ", ";
      out += members[i].second;
    }
    out += ')';
    shape = {Kind::Union};
    return true;
  }

  // __torch__.torch.classes.<namespace>.<class>
  bool parse_class(std::string& out) {
    static constexpr std::string_view kSyntax = "'__torch__.torch.classes.<namespace>.<class>'";
    out += text(cur());
    advance();
    for (const std::string_view part : {"torch", "classes", "", ""}) {
      if (!is_punct('.')) return fail(fmt::format("expected {} for a custom class type", kSyntax));
      advance();
      if (!is_name() || (!part.empty() && text(cur()) != part))
        return fail(fmt::format("expected {} for a custom class type", kSyntax));
      out += '.';
      out += text(cur());
      advance();
    }
    return true;
  }

  // An alias annotation such as (a), (a!), (a|b), (a -> *), (*): the sets
  // before and after the call, and whether the argument is written to.
  // Appended to `out` in normalised form, or checked and dropped if null.
  bool parse_alias(std::string* out) {
    if (is_punct('!'))
      return fail("a bare '!' alias annotation is not supported; name the alias set, as in 'Tensor(a!)'");
    if (!accept('(')) return true;
    AliasSets before;
    AliasSets after;
    if (!parse_alias_sets(before)) return false;
    const bool write = accept('!');
    bool has_after = false;
    if (cur().kind == Tok::Arrow) {
      advance();
      if (!parse_alias_sets(after)) return false;
      has_after = true;
    }
    if (!expect(')', "to close the alias annotation")) return false;
    if (out != nullptr) {
      *out += '(';
      before.append_to(*out);
      if (write) *out += '!';
      if (has_after && !before.same_sets(after)) {
        *out += " -> ";
        after.append_to(*out);
      }
      *out += ')';
    }
    return true;
  }

  // set ('|' set)*, each set a name or the wildcard '*' (which must come last).
  bool parse_alias_sets(AliasSets& sets) {
    bool wildcard = false;
    do {
      bool added = true;
      if (accept('*')) {
        added = sets.add("*");
        wildcard = true;
      } else if (wildcard && cur().kind == Tok::Ident) {
        return fail("no alias set may follow the wildcard '*'");
      } else if (is_name()) {
        added = sets.add(text(cur()));
        advance();
      } else {
        return fail_expected("an alias set name or '*'");
      }
      if (!added) return fail(fmt::format("too many alias sets (at most {})", AliasSets::kMax));
    } while (accept('|'));
    return true;
  }

  // -- default values (function_schema_parser.cpp's parseDefaultValue) --

  bool parse_default(const TypeShape& shape, std::optional<std::int64_t> size, std::string_view type,
                     std::string& out) {
    switch (shape.kind) {
      case Kind::Tensor:
      case Kind::Generator:
        if (!is_word("None"))
          return fail(fmt::format("the default value of a '{}' argument can only be None, found {}", type, found()));
        advance();
        out = "None";
        return true;
      case Kind::String:
      case Kind::Optional:
      case Kind::Number:
      case Kind::Int:
      case Kind::Bool:
      case Kind::Float: {
        Value v;
        if (!parse_constant(shape.kind, v)) return false;
        const bool quote = shape.kind == Kind::String || (shape.kind == Kind::Optional && shape.inner == Kind::String);
        append_value(out, v, quote);
        return true;
      }
      case Kind::Device: {
        if (cur().kind != Tok::String) return fail_expected("a device string such as \"cpu\"");
        std::string device;
        if (!decode_string(cur(), device)) return false;
        if (!is_valid_device(device)) return fail(fmt::format("invalid device string '{}'", device));
        advance();
        out = std::move(device);
        return true;
      }
      case Kind::List:
        return parse_default_list(shape, size, type, out);
      case Kind::Complex:
        return fail("default values of type 'complex' are not supported");
      default:
        return fail(fmt::format("an argument of type '{}' cannot have a default value", type));
    }
  }

  // [v1, v2, ...], or for a sized list "int[2] x=1" a single value repeated.
  bool parse_default_list(const TypeShape& shape, std::optional<std::int64_t> size, std::string_view type,
                          std::string& out) {
    if (cur().kind == Tok::Ident && !is_keyword(text(cur())))
      return fail(fmt::format("invalid default value '{}' for a list of type '{}'", text(cur()), type));
    std::vector<Value> values;
    if (size && !is_punct('[')) {
      if (!parse_constant(shape.inner, values.emplace_back())) return false;
      if (!check_list_elements(shape, values, type)) return false;
      const Value v = values.front();
      values.assign(static_cast<std::size_t>(*size), v);
    } else {
      if (!expect('[', fmt::format("to start the default list of '{}'", type))) return false;
      if (!is_punct(']')) {
        do {
          if (!parse_constant(shape.inner, values.emplace_back())) return false;
        } while (accept(','));
      }
      if (!expect(']', "to close the default list")) return false;
      if (!check_list_elements(shape, values, type)) return false;
    }
    // Argument's operator<<: int lists whose values are all the same print
    // as that one value ("int[2] stride=1").
    if (shape.inner_real_int && values.size() > 1 &&
        std::all_of(values.begin(), values.end(), [&](const Value& e) { return e.i == values[0].i; })) {
      append_value(out, values[0], false);
      return true;
    }
    out += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out += ", ";
      append_value(out, values[i], false);
    }
    out += ']';
    return true;
  }

  // convertToList: the elements must all be of the list's element kind.
  bool check_list_elements(const TypeShape& shape, const std::vector<Value>& values, std::string_view type) {
    Value::Tag tag{};
    std::string_view what;
    switch (shape.inner) {
      case Kind::Int:
        tag = Value::Tag::Int;
        what = "an integer";
        break;
      case Kind::Float:
        tag = Value::Tag::Double;
        what = "a float";
        break;
      case Kind::Bool:
        tag = Value::Tag::Bool;
        what = "True or False";
        break;
      default:
        return fail_at_offset(
            values.empty() ? cur().begin : values[0].offset,
            fmt::format("default lists are only supported for int, float and bool lists, not '{}'", type));
    }
    for (const Value& v : values)
      if (v.tag != tag)
        return fail_at_offset(v.offset, fmt::format("expected {} in the default list of '{}'", what, type));
    return true;
  }

  bool fail_at_offset(std::size_t offset, std::string message) {
    Token t;
    t.begin = offset;
    return fail_at(t, std::move(message));
  }

  // parseSingleConstant: True, False, None, a string, a number (an int
  // unless the type is float or it has a '.' or an 'e'), or one of the words
  // standing for enum values.
  bool parse_constant(Kind kind, Value& v) {
    v.offset = cur().begin;
    if (cur().kind == Tok::String) {
      if (!decode_string(cur(), v.s)) return false;
      v.tag = Value::Tag::String;
      advance();
      return true;
    }
    if (cur().kind == Tok::Ident) {
      const std::string_view word = text(cur());
      static constexpr std::array<std::pair<std::string_view, std::int64_t>, 5> kEnumWords = {{
          {"float", 6},              // at::kFloat
          {"long", 4},               // at::kLong
          {"strided", 0},            // at::kStrided
          {"Mean", 1},               // at::Reduction::Mean
          {"contiguous_format", 0},  // c10::MemoryFormat::Contiguous
      }};
      if (word == "True" || word == "False") {
        v.tag = Value::Tag::Bool;
        v.b = word == "True";
      } else if (word == "None") {
        v.tag = Value::Tag::None;
      } else if (const auto* it =
                     std::find_if(kEnumWords.begin(), kEnumWords.end(), [&](const auto& e) { return e.first == word; });
                 it != kEnumWords.end()) {
        v.tag = Value::Tag::Int;
        v.i = it->second;
      } else {
        return fail(
            fmt::format("invalid default value '{}' (expected a number, True, False, None, a string, or one of "
                        "float, long, strided, Mean, contiguous_format)",
                        word));
      }
      advance();
      return true;
    }
    const bool negative = accept('-');
    if (cur().kind != Tok::Number) return fail_expected(negative ? "a number after '-'" : "a default value");
    const std::string_view number = text(cur());
    if (kind == Kind::Float || number.find_first_of(".e") != std::string_view::npos) {
      double d = 0;
      const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), d);
      if (ec != std::errc{} || ptr != number.data() + number.size() ||
          (d != 0 && std::fabs(d) < std::numeric_limits<double>::min()))
        return fail(fmt::format("the number {} is out of range for a float", number));
      v.tag = Value::Tag::Double;
      v.d = negative ? -d : d;
    } else {
      // Like std::stoll, reads the leading digits ("1E3" is 1).
      std::uint64_t magnitude = 0;
      const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), magnitude);
      constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
      if (ec != std::errc{} || magnitude > kMax + (negative ? 1 : 0))
        return fail(fmt::format("the integer {}{} is out of range", negative ? "-" : "", number));
      v.tag = Value::Tag::Int;
      v.i = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
    }
    advance();
    return true;
  }

  // parseStringLiteral: strips the quotes and decodes \\ \' \" \a \b \f \n
  // \v \t, backslash-newline and three-digit octal escapes. (\r is not among
  // them in PyTorch, nor are \x and \u.)
  bool decode_string(const Token& t, std::string& out) {
    const std::string_view lit = text(t);
    const std::size_t quote_len = (lit.size() >= 6 && lit[1] == lit[0] && lit[2] == lit[0]) ? 3 : 1;
    const std::string_view body = lit.substr(quote_len, lit.size() - 2 * quote_len);
    const std::size_t body_offset = t.begin + quote_len;
    out.clear();
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (body[i] != '\\') {
        out += body[i];
        continue;
      }
      const char e = i + 1 < body.size() ? body[i + 1] : '\0';
      char decoded = e;
      std::size_t length = 2;
      switch (e) {
        case '\\':
        case '\'':
        case '"':
        case '\n':
          break;
        case 'a':
          decoded = '\a';
          break;
        case 'b':
          decoded = '\b';
          break;
        case 'f':
          decoded = '\f';
          break;
        case 'n':
          decoded = '\n';
          break;
        case 'v':
          decoded = '\v';
          break;
        case 't':
          decoded = '\t';
          break;
        case 'x':
          return fail_at_offset(body_offset + i, "unsupported escape sequence '\\x' (hex escapes are not supported)");
        case 'u':
        case 'U':
          return fail_at_offset(
              body_offset + i,
              fmt::format("unsupported escape sequence '\\{}' (unicode escapes are not supported)", e));
        default: {
          int octal = 0;
          const bool ok = i + 3 < body.size() && std::all_of(body.begin() + static_cast<std::ptrdiff_t>(i + 1),
                                                             body.begin() + static_cast<std::ptrdiff_t>(i + 4),
                                                             [](char c) { return c >= '0' && c <= '7'; });
          if (ok) octal = (body[i + 1] - '0') * 64 + (body[i + 2] - '0') * 8 + (body[i + 3] - '0');
          if (!ok || octal >= 256) {
            return fail_at_offset(body_offset + i,
                                  fmt::format("ill-formed escape sequence '\\{}' (expected one of \\\\ \\' \\\" \\a "
                                              "\\b \\f \\n \\v \\t or three octal digits)",
                                              e >= 0x20 && e < 0x7f ? std::string(1, e) : std::string()));
          }
          decoded = static_cast<char>(octal);
          length = 4;
        }
      }
      out += decoded;
      i += length - 1;
    }
    return true;
  }

  Lexer lex_;
  SchemaError error_;
};

// ---- printing --------------------------------------------------------------

void append_type(std::string& out, std::string_view type, const SchemaPrintOptions& opt) {
  static constexpr std::string_view kDimname = "Dimname";
  if (!opt.dimname_as_str || type.find(kDimname) == std::string_view::npos) {
    out += type;
    return;
  }
  for (std::size_t i = 0; i < type.size();) {
    const bool starts_word = i == 0 || !is_ident_char(type[i - 1]);
    const std::size_t end = i + kDimname.size();
    if (starts_word && type.substr(i, kDimname.size()) == kDimname &&
        (end >= type.size() || !is_ident_char(type[end]))) {
      out += "str";
      i = end;
    } else {
      out += type[i++];
    }
  }
}

void append_argument(std::string& out, const SchemaArgument& a, const SchemaPrintOptions& opt) {
  append_type(out, a.type, opt);
  if (!a.name.empty()) {
    out += ' ';
    out += a.name;
  }
  if (a.default_value) {
    out += '=';
    out += *a.default_value;
  }
}

// FunctionSchema's operator<< from the '(' on.
void append_arguments_and_returns(std::string& out, const Schema& s, const SchemaPrintOptions& opt) {
  out += '(';
  bool seen_kwarg_only = false;
  for (std::size_t i = 0; i < s.arguments.size(); ++i) {
    if (i > 0) out += ", ";
    if (s.arguments[i].kwarg_only && !seen_kwarg_only) {
      out += "*, ";
      seen_kwarg_only = true;
    }
    append_argument(out, s.arguments[i], opt);
  }
  if (s.is_vararg) {
    if (!s.arguments.empty()) out += ", ";
    out += "...";
  }
  out += ") -> ";

  // No parentheses around a single return (unless its text starts with '(',
  // a tuple type) or around a lone "...".
  const std::size_t n = s.returns.size();
  bool paren = !((n == 1 && !s.is_varret) || (n == 0 && s.is_varret));
  if (n == 1 && !s.is_varret && s.returns[0].type.starts_with('(')) paren = true;
  if (paren) out += '(';
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    append_argument(out, s.returns[i], opt);
  }
  if (s.is_varret) {
    if (n > 0) out += ", ";
    out += "...";
  }
  if (paren) out += ')';
}

}  // namespace

Expected<Schema, SchemaError> parse_schema(std::string_view text) {
  Parser parser(text);
  Schema schema;
  if (!parser.parse_schema(schema)) return unexpected(parser.take_error());
  return schema;
}

OperatorName operator_name(const Schema& s) { return OperatorName{s.ns, s.name, s.overload}; }

std::string print_schema(const Schema& s, const SchemaPrintOptions& opt) {
  std::string out;
  out.reserve(128);
  append_qualified_name(out, s.ns, s.name, s.overload);
  append_arguments_and_returns(out, s, opt);
  return out;
}

std::string print_arguments_and_returns(const Schema& s, const SchemaPrintOptions& opt) {
  std::string out;
  out.reserve(128);
  append_arguments_and_returns(out, s, opt);
  return out;
}

std::string comparable_type(std::string_view type) {
  Parser parser(type);
  std::string out;
  if (!parser.parse_type_only(Mode::Fake, out)) return std::string(type);
  return out;
}

Schema with_real_types(Schema s) {
  const auto real = [](std::string& type) {
    std::string out;
    for (std::size_t i = 0; i < type.size();) {
      if (!is_ident_start(type[i])) {
        out += type[i++];
        continue;
      }
      std::size_t j = i;
      while (j < type.size() && is_ident_char(type[j])) ++j;
      const std::string_view word(type.data() + i, j - i);
      out += word == "SymInt" ? "int" : word == "SymFloat" ? "float" : word == "SymBool" ? "bool" : word;
      i = j;
    }
    type = std::move(out);
  };
  for (auto& a : s.arguments) real(a.type);
  for (auto& r : s.returns) real(r.type);
  // Defaults print by type: "SymInt[2] p=0" prints "p=[0, 0]", "int[2] p=0"
  // prints "p=0". Parsing the real-typed text normalises them as for int.
  auto reparsed = parse_schema(print_schema(s));
  return reparsed ? std::move(*reparsed) : s;
}

std::optional<std::string> schema_mismatch_reason(const Schema& expected, const Schema& inferred) {
  // Texts and order as in c10::findSchemaDifferences (note: only the first
  // message ends in a period, and "vs" has none).
  const auto& lhs = expected;
  const auto& rhs = inferred;
  if (lhs.arguments.size() != rhs.arguments.size()) {
    return fmt::format("The number of arguments is different. {} vs {}.", lhs.arguments.size(), rhs.arguments.size());
  }
  if (lhs.returns.size() != rhs.returns.size()) {
    return fmt::format("The number of returns is different. {} vs {}", lhs.returns.size(), rhs.returns.size());
  }
  for (std::size_t i = 0; i < lhs.arguments.size(); ++i) {
    std::string left = comparable_type(lhs.arguments[i].type);
    std::string right = comparable_type(rhs.arguments[i].type);
    if (left != right) return fmt::format("Type mismatch in argument {}: {} vs {}", i + 1, left, right);
  }
  for (std::size_t i = 0; i < lhs.returns.size(); ++i) {
    std::string left = comparable_type(lhs.returns[i].type);
    std::string right = comparable_type(rhs.returns[i].type);
    if (left != right) return fmt::format("Type mismatch in return {}: {} vs {}", i + 1, left, right);
  }
  return std::nullopt;
}

}  // namespace dt
