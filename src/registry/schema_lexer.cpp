// The schema lexer (schema_lexer.hpp), after torch/csrc/jit/frontend/lexer.h.
#include "registry/schema_lexer.hpp"

#include <algorithm>

namespace dt::schema_detail {

namespace {

// lexer.h's multi-character operators, longest first, with their kind names.
struct Operator {
  std::string_view text, name;
};
constexpr std::array<Operator, 20> kOperators = {{
    {"<<=", "<<="}, {">>=", ">>="},         {"**=", "**="}, {"<=>", "equivalent"}, {"!=", "ne"},
    {"==", "eq"},   {"<=", "le"},           {">=", "ge"},   {"//", "floordiv"},    {"<<", "<<"},
    {">>", ">>"},   {"**", "pow operator"}, {"+=", "+="},   {"-=", "-="},          {"*=", "*="},
    {"/=", "/="},   {"%=", "%="},           {"|=", "|="},   {"&=", "&="},          {"^=", "^="},
}};

// lexer.h's valid_single_char_tokens.
constexpr std::string_view kSingleChars = "+-*/%@()[]:,={}><.?!&^|~";

}  // namespace

bool is_keyword(std::string_view w) {
  static constexpr std::array<std::string_view, 28> kKeywords = {
      "Ellipsis", "False", "None", "NoneType", "True",  "and",    "as",     "assert", "break",  "class",
      "continue", "def",   "del",  "elif",     "else",  "for",    "global", "if",     "import", "in",
      "is",       "not",   "or",   "pass",     "raise", "return", "while",  "with"};
  return std::find(kKeywords.begin(), kKeywords.end(), w) != kKeywords.end();
}

Lexer::Lexer(std::string_view src, bool printed) : src_(src), printed_(printed) {
  // The first indent level: the blanks before the first token on its line.
  std::size_t p = 0;
  std::size_t line = 0;
  while (p < src_.size() && (is_blank(src_[p]) || src_[p] == '\n')) {
    if (src_[p] == '\n') line = p + 1;
    ++p;
  }
  first_indent_ = p - line;
  advance();
}

void Lexer::advance() {
  skip_blanks(depth_ > 0);
  if (pos_ < src_.size() && src_[pos_] == '\n') {
    const std::size_t newline = pos_;
    skip_blanks(true);
    if (pos_ < src_.size()) {  // more text after the line break
      std::size_t line = pos_;
      while (line > 0 && src_[line - 1] != '\n') --line;
      cur_ = {Tok::Newline, 0, newline, newline + 1, pos_ - line};
      pos_ = newline + 1;
      return;
    }
  }
  cur_ = lex();
}

void Lexer::skip_blanks(bool newlines) {
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

Token Lexer::lex() {
  const std::size_t begin = pos_;
  if (pos_ >= src_.size()) return {Tok::End, 0, begin, begin};
  const char c = src_[pos_];
  if (is_ident_start(c)) {
    while (is_ident_char(at(pos_))) ++pos_;
    return {Tok::Ident, 0, begin, pos_};
  }
  if (printed_ && c == '$' && is_digit(at(pos_ + 1))) {
    ++pos_;
    while (is_digit(at(pos_))) ++pos_;
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
  for (const Operator& op : kOperators)
    if (src_.substr(pos_).starts_with(op.text)) {
      pos_ += op.text.size();
      return {Tok::Op, 0, begin, pos_};
    }
  if (kSingleChars.find(c) != std::string_view::npos) {
    if (c == '(' || c == '[') ++depth_;
    if ((c == ')' || c == ']') && depth_ > 0) --depth_;
    ++pos_;
    return {Tok::Punct, c, begin, pos_};
  }
  return {Tok::Invalid, 0, begin, begin + 1};
}

Token Lexer::lex_number() {
  const std::size_t begin = pos_;
  // strtod's hexadecimal floats too (0x10, 0x1.8p1): the same shape with hex
  // digits and a 'p' exponent (its digits decimal, as for 'e').
  const bool hex = at(pos_) == '0' && (at(pos_ + 1) == 'x' || at(pos_ + 1) == 'X') &&
                   (is_hex_digit(at(pos_ + 2)) || (at(pos_ + 2) == '.' && is_hex_digit(at(pos_ + 3))));
  if (hex) pos_ += 2;
  const auto digit = [hex](char c) { return hex ? is_hex_digit(c) : is_digit(c); };
  while (digit(at(pos_))) ++pos_;
  if (at(pos_) == '.') {
    ++pos_;
    while (digit(at(pos_))) ++pos_;
  }
  if (hex ? (at(pos_) == 'p' || at(pos_) == 'P') : (at(pos_) == 'e' || at(pos_) == 'E')) {
    std::size_t p = pos_ + 1;
    if (at(p) == '+' || at(p) == '-') ++p;
    if (is_digit(at(p))) {
      pos_ = p;
      while (is_digit(at(pos_))) ++pos_;
    }
  }
  if (at(pos_) == 'j') ++pos_;
  return {Tok::Number, 0, begin, pos_};
}

Token Lexer::lex_string() {
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

std::string token_name(const Lexer& lex, const Token& t) {
  switch (t.kind) {
    case Tok::End:
      return "eof";
    case Tok::Newline:
      return t.indent > lex.first_indent() ? "indent" : "newline";
    case Tok::Ident:
      return is_keyword(lex.text(t)) ? std::string(lex.text(t)) : "ident";
    case Tok::Number:
      return "number";
    case Tok::String:
      return "string_literal";
    case Tok::Arrow:
      return "arrow";
    case Tok::Dots:
      return "dots";
    case Tok::Op:
      for (const Operator& op : kOperators)
        if (op.text == lex.text(t)) return std::string(op.name);
      return std::string(lex.text(t));
    case Tok::Punct:
    case Tok::Invalid:
      break;
  }
  return std::string(lex.text(t));
}

}  // namespace dt::schema_detail
