// scan_cpp (cpp_scanner.hpp): one pass over the bytes, no allocation per
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

class Scanner {
 public:
  Scanner(FileName file, std::string_view text, bool keep) : file_(file), s_(text), keep_(keep) {
    if (keep_) out_.tokens.reserve(text.size() / 6 + 16);  // C++ runs at about one token per 6-8 bytes
  }

  Expected<CppScan, Diagnostic> run() {
    bool line_start = true;
    while (i_ < s_.size()) {
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '\n') {
        advance();
        line_start = true;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        advance();
        continue;
      }
      if (c == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '\n' || s_[i_ + 1] == '\r')) {
        advance();
        continue;
      }
      if (c == '/' && peek(1) == '/') {
        skip_line_comment();
        continue;
      }
      if (c == '/' && peek(1) == '*') {
        if (!skip_block_comment()) return unexpected(std::move(*error_));
        continue;
      }
      if (c == '#' && line_start) {
        if (!directive()) return unexpected(std::move(*error_));
        line_start = true;
        continue;
      }
      line_start = false;
      const bool ok = token(c);
      if (!ok) return unexpected(std::move(*error_));
    }
    return std::move(out_);
  }

 private:
  char peek(std::size_t k) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
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

  void skip_line_comment() {
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (s_[i_] == '\\' && peek(1) == '\n') advance();  // a continued // comment
      advance();
    }
  }
  bool skip_block_comment() {
    const std::uint32_t l = line_, c = col_;
    const std::size_t end = s_.find("*/", i_ + 2);
    if (end == std::string_view::npos) return fail(l, c, "unterminated /* comment");
    advance(end + 2 - i_);
    return true;
  }

  // A preprocessor line (with its continuations).
  bool directive() {
    const std::uint32_t l = line_;
    std::string body;
    advance();  // '#'
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (s_[i_] == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
        advance(peek(1) == '\r' ? 3 : 2);
        body += ' ';
        continue;
      }
      if (s_[i_] == '/' && peek(1) == '*') {
        if (!skip_block_comment()) return false;
        body += ' ';
        continue;
      }
      if (s_[i_] == '/' && peek(1) == '/') {
        skip_line_comment();
        break;
      }
      body += s_[i_];
      advance();
    }
    std::size_t p = body.find_first_not_of(" \t");
    if (p == std::string::npos) return true;
    std::size_t q = p;
    while (q < body.size() && ident_char(static_cast<unsigned char>(body[q]))) ++q;
    const std::string_view name = std::string_view(body).substr(p, q - p);
    std::size_t a = body.find_first_not_of(" \t", q);
    std::size_t b = a;
    while (b < body.size() && ident_char(static_cast<unsigned char>(body[b]))) ++b;
    const std::string arg = a == std::string::npos ? std::string() : body.substr(a, b - a);
    const bool guard_candidate = pending_guard_ && !arg.empty() && name == "define" && arg == guard_name_ &&
                                 count_ == guard_tokens_;
    pending_guard_ = false;
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      conds_.push_back(l);
      if (name == "ifndef") {
        pending_guard_ = true;
        guard_name_ = arg;
        guard_tokens_ = count_;
      }
    } else if (name == "elif" || name == "else" || name == "elifdef" || name == "elifndef") {
      if (!conds_.empty()) conds_.back() = l;
    } else if (name == "endif") {
      if (!conds_.empty()) conds_.pop_back();
    } else if (name == "define") {
      if (guard_candidate) {
        conds_.back() = 0;  // an include guard, not a condition
      } else {
        const std::string_view rest = a == std::string::npos ? std::string_view{} : std::string_view(body).substr(b);
        if (rest.find("TORCH_LIBRARY") != std::string_view::npos || rest.find(".def(") != std::string_view::npos ||
            rest.find(".impl(") != std::string_view::npos || rest.find(".fallback(") != std::string_view::npos)
          out_.registering_defines.push_back(CppDefine{arg, l, static_cast<std::uint32_t>(a + 2)});
      }
    }
    cond_ = 0;
    for (auto it = conds_.rbegin(); it != conds_.rend(); ++it)
      if (*it != 0) {
        cond_ = *it;
        break;
      }
    return true;
  }

  void push(CppToken::Kind k, std::size_t start, std::uint32_t l, std::uint32_t c) {
    ++count_;
    if (!keep_) return;
    CppToken& t = out_.tokens.emplace_back();
    t.kind = k;
    t.text = s_.substr(start, i_ - start);
    t.line = l;
    t.col = c;
    t.cond_line = cond_;
  }

  bool token(unsigned char c) {
    const std::size_t start = i_;
    const std::uint32_t l = line_, col = col_;
    if (ident_start(c)) {
      while (i_ < s_.size() && ident_char(static_cast<unsigned char>(s_[i_]))) advance();
      const std::string_view id = s_.substr(start, i_ - start);
      const char next = peek(0);
      if (next == '"' && (id == "R" || id == "u8R" || id == "uR" || id == "UR" || id == "LR"))
        return raw_string(start, l, col);
      if (next == '"' && (id == "u8" || id == "u" || id == "U" || id == "L")) return string(start, l, col);
      if (next == '\'' && (id == "u8" || id == "u" || id == "U" || id == "L")) return char_literal(start, l, col);
      push(CppToken::Kind::Ident, start, l, col);
      return true;
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
      push(CppToken::Kind::Number, start, l, col);
      return true;
    }
    if (c == '"') return string(start, l, col);
    if (c == '\'') return char_literal(start, l, col);
    if ((c == ':' && peek(1) == ':') || (c == '-' && peek(1) == '>'))
      advance(2);
    else
      advance();
    push(CppToken::Kind::Punct, start, l, col);
    return true;
  }

  // The literal's value joins the previous token's when that is a string too.
  void push_string(std::size_t start, std::uint32_t l, std::uint32_t c, std::string value, std::uint32_t vl,
                   std::uint32_t vc) {
    if (!out_.tokens.empty() && out_.tokens.back().kind == CppToken::Kind::String) {
      out_.tokens.back().value += value;
      return;
    }
    push(CppToken::Kind::String, start, l, c);
    if (!keep_) return;
    CppToken& t = out_.tokens.back();
    t.value = std::move(value);
    t.value_line = vl;
    t.value_col = vc;
  }

  bool string(std::size_t start, std::uint32_t l, std::uint32_t c) {
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
        const char e = peek(1);
        if (e == '\n') {  // a line continuation inside the literal
          advance(2);
          continue;
        }
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
    push_string(start, l, c, std::move(value), vl, vc);
    return true;
  }

  bool raw_string(std::size_t start, std::uint32_t l, std::uint32_t c) {
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
    push_string(start, l, c, std::move(value), vl, vc);
    return true;
  }

  bool char_literal(std::size_t start, std::uint32_t l, std::uint32_t c) {
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
    push(CppToken::Kind::Char, start, l, c);
    return true;
  }

  FileName file_;
  std::string_view s_;
  bool keep_;              // keep the tokens (else only errors and #defines are found)
  std::size_t count_ = 0;  // tokens seen, kept or not
  std::size_t i_ = 0;
  std::uint32_t line_ = 1, col_ = 1;
  std::vector<std::uint32_t> conds_;
  std::uint32_t cond_ = 0;
  bool pending_guard_ = false;
  std::string guard_name_;
  std::size_t guard_tokens_ = 0;
  CppScan out_;
  std::optional<Diagnostic> error_;
};

}  // namespace

Expected<CppScan, Diagnostic> scan_cpp(FileName file, std::string_view text, bool tokens) {
  return Scanner(file, text, tokens).run();
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

}  // namespace dt
