// lex_cpp (cpp_scanner.hpp): one pass over the bytes, no allocation per
// token beyond string literals' values.
#include "readers/cpp_scanner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace dt {

namespace {

bool ident_start(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80; }
bool ident_char(unsigned char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool digit(unsigned char c) { return c >= '0' && c <= '9'; }

class CppScanner {
 public:
  CppScanner(FileName file, std::string_view text, CppKeep keep) : file_(file), s_(text), keep_(keep) {
    if (keep_ == CppKeep::All) out_.tokens.reserve(text.size() / 6 + 16);  // about one token per 6-8 bytes
  }

  Expected<CppLexed, Diagnostic> run() {
    bol_ = true;
    while (i_ < s_.size()) {
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '\n') {
        advance();
        bol_ = true;
        space_ = false;
        continue;
      }
      if (skip_space()) {
        if (error_) return unexpected(std::move(*error_));
        continue;
      }
      if (c == '#' && bol_) {
        if (!directive()) return unexpected(std::move(*error_));
        bol_ = true;
        space_ = false;
        continue;
      }
      if (!token(c, keep_ == CppKeep::All)) return unexpected(std::move(*error_));
    }
    return std::move(out_);
  }

 private:
  char peek(std::size_t k) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
  // A line continuation at i_: a backslash and the line break after it (LF or
  // CRLF, as a compiler's first translation phase reads both); its length, or 0.
  std::size_t continuation() const {
    if (i_ >= s_.size() || s_[i_] != '\\') return 0;
    if (peek(1) == '\n') return 2;
    return peek(1) == '\r' && peek(2) == '\n' ? 3 : 0;
  }
  void advance() {
    if (s_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++i_;
  }
  void advance(std::size_t n) {
    for (std::size_t k = 0; k < n && i_ < s_.size(); ++k) advance();
  }
  bool fail(std::uint32_t line, std::uint32_t col, std::string msg) {
    error_ = make_error(Location{file_, line, col}, std::move(msg));
    return false;
  }

  // Blanks, line continuations and comments (not newlines): true if any was skipped.
  bool skip_space() {
    const std::size_t at = i_;
    for (;;) {
      if (i_ >= s_.size()) break;
      const char c = s_[i_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (const std::size_t n = continuation(); n != 0) {
        advance(n);
      } else if (c == '/' && peek(1) == '/') {
        skip_line_comment();
      } else if (c == '/' && peek(1) == '*') {
        if (!skip_block_comment()) return true;
      } else {
        break;
      }
    }
    if (i_ != at) space_ = true;
    return i_ != at;
  }

  void skip_line_comment() {
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (const std::size_t n = continuation(); n != 0) advance(n - 1);  // a continued // comment
      advance();
    }
  }
  bool skip_block_comment() {
    const std::uint32_t l = line_, c = col_;
    const std::size_t end = s_.find("*/", i_ + 2);
    if (end == std::string_view::npos) {
      fail(l, c, "unterminated /* comment");
      i_ = s_.size();
      return false;
    }
    advance(end + 2 - i_);
    return true;
  }
  // The rest of a directive's line as text (its continuations and comments skipped).
  void skip_directive_line() {
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (const std::size_t n = continuation(); n != 0) {
        advance(n);
        continue;
      }
      if (s_[i_] == '/' && peek(1) == '*') {
        if (!skip_block_comment()) return;
        continue;
      }
      advance();
    }
  }

  // A preprocessor line: '#', its name, the tokens of the directives the
  // preprocessor reads, an Eod at the end of the line.
  bool directive() {
    const bool keep = keep_ != CppKeep::None;
    const std::size_t hash = i_;
    const std::uint32_t l = line_, c = col_;
    advance();  // '#'
    if (keep) push(CppToken::Kind::Punct, hash, l, c);
    bol_ = false;
    space_ = false;
    skip_space();
    std::string_view name;
    if (i_ < s_.size() && ident_start(static_cast<unsigned char>(s_[i_]))) {
      const std::size_t start = i_;
      const std::uint32_t nl = line_, nc = col_;
      while (i_ < s_.size() && ident_char(static_cast<unsigned char>(s_[i_]))) advance();
      name = s_.substr(start, i_ - start);
      if (keep) push(CppToken::Kind::Ident, start, nl, nc);
    }
    const bool lexed = name == "define" || name == "undef" || name == "if" || name == "ifdef" || name == "ifndef" ||
                       name == "elif" || name == "elifdef" || name == "elifndef" || name == "else" ||
                       name == "endif" || name == "include" || name == "include_next" || name == "pragma";
    if (!lexed) {
      skip_directive_line();
    } else if (name == "pragma") {
      // Only its first word (#pragma once): the rest is any text.
      skip_space();
      if (i_ < s_.size() && ident_start(static_cast<unsigned char>(s_[i_]))) {
        if (!token(static_cast<unsigned char>(s_[i_]), keep)) return false;
      }
      skip_directive_line();
    } else {
      bool header = name == "include" || name == "include_next";
      for (;;) {
        skip_space();
        if (error_) return false;
        if (i_ >= s_.size() || s_[i_] == '\n') break;
        if (header && s_[i_] == '<') {
          if (!header_name(keep)) return false;
          header = false;
          continue;
        }
        header = false;
        if (!token(static_cast<unsigned char>(s_[i_]), keep)) return false;
      }
    }
    if (keep) push(CppToken::Kind::Eod, i_, line_, col_);
    return !error_.has_value();
  }

  bool header_name(bool keep) {
    const std::size_t start = i_;
    const std::uint32_t l = line_, c = col_;
    const std::size_t end = s_.find_first_of(">\n", i_ + 1);
    if (end == std::string_view::npos || s_[end] != '>') return fail(l, c, "#include <...> without its closing '>'");
    advance(end + 1 - i_);
    if (keep) {
      push(CppToken::Kind::HeaderName, start, l, c);
      out_.tokens.back().value = std::string(s_.substr(start + 1, end - start - 1));
    }
    return true;
  }

  void push(CppToken::Kind k, std::size_t start, std::uint32_t l, std::uint32_t c) {
    CppToken& t = out_.tokens.emplace_back();
    t.kind = k;
    t.text = s_.substr(start, i_ - start);
    t.line = l;
    t.col = c;
    t.bol = bol_;
    t.space = space_;
    bol_ = false;
    space_ = false;
  }

  bool token(unsigned char c, bool keep) {
    const std::size_t start = i_;
    const std::uint32_t l = line_, col = col_;
    const auto done = [&](CppToken::Kind k) {
      if (keep) push(k, start, l, col);
      bol_ = false;
      space_ = false;
      return true;
    };
    if (ident_start(c)) {
      while (i_ < s_.size() && ident_char(static_cast<unsigned char>(s_[i_]))) advance();
      const std::string_view id = s_.substr(start, i_ - start);
      const char next = peek(0);
      if (next == '"' && (id == "R" || id == "u8R" || id == "uR" || id == "UR" || id == "LR"))
        return raw_string(start, l, col, keep);
      if (next == '"' && (id == "u8" || id == "u" || id == "U" || id == "L")) return string(start, l, col, keep);
      if (next == '\'' && (id == "u8" || id == "u" || id == "U" || id == "L")) return char_literal(start, l, col, keep);
      return done(CppToken::Kind::Ident);
    }
    if (digit(c) || (c == '.' && digit(static_cast<unsigned char>(peek(1))))) {
      while (i_ < s_.size()) {
        const char d = s_[i_];
        if ((d == '+' || d == '-') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E' || s_[i_ - 1] == 'p' || s_[i_ - 1] == 'P')) {
          advance();
          continue;
        }
        if (!ident_char(static_cast<unsigned char>(d)) && d != '.' && d != '\'') break;
        advance();
      }
      return done(CppToken::Kind::Number);
    }
    if (c == '"') return string(start, l, col, keep);
    if (c == '\'') return char_literal(start, l, col, keep);
    if ((c == ':' && peek(1) == ':') || (c == '-' && peek(1) == '>'))
      advance(2);
    else
      advance();
    return done(CppToken::Kind::Punct);
  }

  void push_string(std::size_t start, std::uint32_t l, std::uint32_t c, std::string value, std::uint32_t vl,
                   std::uint32_t vc, bool keep) {
    if (!keep) {
      bol_ = false;
      space_ = false;
      return;
    }
    push(CppToken::Kind::String, start, l, c);
    CppToken& t = out_.tokens.back();
    t.value = std::move(value);
    t.value_line = vl;
    t.value_col = vc;
  }

  bool string(std::size_t start, std::uint32_t l, std::uint32_t c, bool keep) {
    advance();  // '"'
    const std::uint32_t vl = line_, vc = col_;
    std::string value;
    for (;;) {
      if (i_ >= s_.size() || s_[i_] == '\n') return fail(l, c, "unterminated string literal");
      const char ch = s_[i_];
      if (ch == '"') {
        advance();
        break;
      }
      if (ch == '\\') {
        if (const std::size_t n = continuation(); n != 0) {  // a line continuation inside the literal
          advance(n);
          continue;
        }
        const char e = peek(1);
        if (i_ + 1 >= s_.size()) return fail(l, c, "unterminated string literal");
        switch (e) {
          case 'n': value += '\n'; break;
          case 't': value += '\t'; break;
          case 'r': value += '\r'; break;
          case '0': value += '\0'; break;
          default: value += e; break;  // \" \\ \' \? and the rest as written
        }
        advance(2);
        continue;
      }
      value += ch;
      advance();
    }
    push_string(start, l, c, std::move(value), vl, vc, keep);
    return true;
  }

  bool raw_string(std::size_t start, std::uint32_t l, std::uint32_t c, bool keep) {
    advance();  // '"'
    std::string delim;
    while (i_ < s_.size() && s_[i_] != '(') {
      const char d = s_[i_];
      if (d == ')' || d == '\\' || d == ' ' || d == '\t' || d == '\n' || d == '"' || delim.size() >= 16)
        return fail(l, c, "malformed raw string literal: its delimiter may hold at most 16 characters, none of ) \\ or space");
      delim += d;
      advance();
    }
    if (i_ >= s_.size()) return fail(l, c, "unterminated raw string literal");
    advance();  // '('
    const std::uint32_t vl = line_, vc = col_;
    const std::string close = ")" + delim + "\"";
    const std::size_t end = s_.find(close, i_);
    if (end == std::string_view::npos) return fail(l, c, fmt::format("unterminated raw string literal (no {})", close));
    std::string value(s_.substr(i_, end - i_));
    advance(end + close.size() - i_);
    push_string(start, l, c, std::move(value), vl, vc, keep);
    return true;
  }

  bool char_literal(std::size_t start, std::uint32_t l, std::uint32_t c, bool keep) {
    advance();  // '\''
    for (;;) {
      if (i_ >= s_.size() || s_[i_] == '\n') return fail(l, c, "unterminated character literal");
      if (s_[i_] == '\\') {
        advance(2);
        continue;
      }
      if (s_[i_] == '\'') {
        advance();
        break;
      }
      advance();
    }
    if (keep) push(CppToken::Kind::Char, start, l, c);
    bol_ = false;
    space_ = false;
    return true;
  }

  FileName file_;
  std::string_view s_;
  CppKeep keep_;
  std::size_t i_ = 0;
  std::uint32_t line_ = 1, col_ = 1;
  bool bol_ = true, space_ = false;
  CppLexed out_;
  std::optional<Diagnostic> error_;
};

}  // namespace

Expected<CppLexed, Diagnostic> lex_cpp(FileName file, std::string_view text, CppKeep keep) {
  return CppScanner(file, text, keep).run();
}

std::vector<std::size_t> match_brackets(const std::vector<CppToken>& toks) {
  std::vector<std::size_t> close(toks.size(), std::string::npos);
  std::vector<std::size_t> stack;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const CppToken& tk = toks[i];
    if (tk.kind != CppToken::Kind::Punct) continue;
    if (tk.is("(") || tk.is("{") || tk.is("[")) {
      stack.push_back(i);
    } else if (tk.is(")") || tk.is("}") || tk.is("]")) {
      const char open = tk.text[0] == ')' ? '(' : tk.text[0] == '}' ? '{' : '[';
      if (!stack.empty() && toks[stack.back()].text[0] == open) {
        close[stack.back()] = i;
        stack.pop_back();
      }
    }
  }
  return close;
}

std::size_t match_angle(const std::vector<CppToken>& toks, const std::vector<std::size_t>& close, std::size_t open,
                        std::size_t end, std::size_t limit) {
  end = std::min(end, toks.size());
  int depth = 0;
  for (std::size_t q = open, steps = 0; q < end && steps < limit; ++q, ++steps) {
    const CppToken& t = toks[q];
    if (t.kind != CppToken::Kind::Punct) continue;
    if (t.is(";")) break;
    if (close[q] != std::string::npos) {
      if (close[q] >= end) break;
      q = close[q];
    } else if (t.is("<")) {
      ++depth;
    } else if (t.is(">") && --depth == 0) {
      return q;
    }
  }
  return std::string::npos;
}

// Adjacent string literals are one (translation phase 6, after macros).
void join_adjacent_strings(std::vector<CppToken>& t) {
  std::size_t w = 0;
  for (std::size_t r = 0; r < t.size(); ++r) {
    if (w > 0 && t[r].kind == CppToken::Kind::String && t[w - 1].kind == CppToken::Kind::String) {
      t[w - 1].value += t[r].value;
      continue;
    }
    if (w != r) t[w] = std::move(t[r]);
    ++w;
  }
  t.resize(w);
}

}  // namespace dt
