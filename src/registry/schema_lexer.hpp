// Internal to the schema parser (schema_parser.hpp): the characters, keywords
// and tokens of torch/csrc/jit/frontend/lexer.h, as far as schemas use them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace dt::schema_detail {

// ---- characters and words --------------------------------------------------

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
inline bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Words PyTorch's lexer turns into keyword tokens. They can be neither names
// nor types ("None" and "NoneType" are types, True/False/None default values).
bool is_keyword(std::string_view w);

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

  void advance();

 private:
  void skip_blanks(bool newlines);

  [[nodiscard]] char at(std::size_t i) const { return i < src_.size() ? src_[i] : '\0'; }

  Token lex();

  // The decimal part of what strtod accepts: 12, 1.5, 1., .5, 1e-5, 2.5E3.
  Token lex_number();

  // '...', "...", '''...''' or """...""" with backslash escapes (decoded
  // later); only triple-quoted strings may span lines.
  Token lex_string();

  std::string_view src_;
  std::size_t pos_ = 0;
  int depth_ = 0;  // open '(' and '['
  Token cur_;
};

}  // namespace dt::schema_detail
