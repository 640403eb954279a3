// Internal to the schema parser (schema_parser.hpp): the characters, keywords
// and tokens of torch/csrc/jit/frontend/lexer.h, as far as schemas use them,
// and the names torch's errors give them ("ident", "arrow", "eof", ...).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dt::schema_detail {

// ---- characters and words --------------------------------------------------

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
inline bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
inline bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Words PyTorch's lexer turns into keyword tokens. They can be neither names
// nor types ("None" and "NoneType" are types, True/False/None default values).
bool is_keyword(std::string_view w);

// ---- lexer -----------------------------------------------------------------

// Punct: a character of lexer.h's valid_single_char_tokens; Op: one of its
// multi-character operators other than "->" and "..." (never valid in a schema,
// but a token all the same, which torch's errors name: "!=" is 'ne').
enum class Tok : std::uint8_t { End, Newline, Ident, Number, String, Arrow, Dots, Punct, Op, Invalid };

struct Token {
  Tok kind = Tok::End;
  char punct = 0;  // the character, for Tok::Punct
  std::size_t begin = 0;
  std::size_t end = 0;
  // Tok::Newline: the blanks that start the next line, against those of the
  // first line (torch's lexer makes it an indent, a newline or an error).
  std::size_t indent = 0;
};

// Splits the schema into tokens like torch's Lexer: blanks, "# comments" and
// backslash-newlines are skipped; line breaks are blanks inside brackets and
// may otherwise only end the text. Numbers are what strtod reads (decimal
// and hexadecimal floats), with an optional 'j' (an imaginary number). With `printed` (a schema as this
// tool prints it), "$0" is a name: the alias set torch makes for a bare '!'.
// Trivially copyable, so peeking is a copy.
class Lexer {
 public:
  explicit Lexer(std::string_view src, bool printed = false);

  [[nodiscard]] const Token& cur() const { return cur_; }
  [[nodiscard]] std::string_view text(const Token& t) const { return src_.substr(t.begin, t.end - t.begin); }
  [[nodiscard]] std::string_view src() const { return src_; }
  // The blanks that start the first line (torch's first indent level).
  [[nodiscard]] std::size_t first_indent() const { return first_indent_; }

  [[nodiscard]] Token peek() const {
    Lexer copy = *this;
    copy.advance();
    return copy.cur_;
  }

  void advance();

 private:
  void skip_blanks(bool newlines);

  [[nodiscard]] char at(std::size_t i) const { return i < src_.size() ? src_[i] : '\0'; }

  Token lex();

  // The decimal part of what strtod accepts: 12, 1.5, 1., .5, 1e-5, 2.5E3;
  // then an optional 'j'.
  Token lex_number();

  // '...', "...", '''...''' or """...""" with backslash escapes (decoded
  // later); only triple-quoted strings may span lines.
  Token lex_string();

  std::string_view src_;
  std::size_t pos_ = 0;
  int depth_ = 0;  // open '(' and '['
  std::size_t first_indent_ = 0;
  bool printed_ = false;
  Token cur_;
};

// What torch's errors call a token: "ident", "number", "string_literal",
// "arrow", "dots", "eof", "newline" or "indent", a keyword's own text, an
// operator's name, or the character itself.
std::string token_name(const Lexer& lex, const Token& t);

}  // namespace dt::schema_detail
