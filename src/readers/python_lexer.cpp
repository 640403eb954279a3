// The Python lexer (readers/python_lexer.hpp).
#include "readers/python_lexer.hpp"

#include <fmt/format.h>

#include <cctype>

namespace dt {

namespace {

bool name_start(unsigned char c) { return std::isalpha(c) != 0 || c == '_' || c >= 0x80; }
bool name_char(unsigned char c) { return name_start(c) || std::isdigit(c) != 0; }

class Lexer {
 public:
  Lexer(FileName file, std::string_view text) : file_(file), s_(text) {}

  Expected<std::vector<PyToken>, Diagnostic> run() {
    bool at_line_start = true;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == '\n') {
        if (depth_ == 0 && !at_line_start) push(PyTok::Newline, "\n", line_, col());
        at_line_start = depth_ == 0 ? true : at_line_start;
        newline();
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        ++pos_;
        continue;
      }
      if (c == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
        continue;
      }
      if (c == '\\') {
        std::size_t p = pos_ + 1;
        if (p < s_.size() && s_[p] == '\r') ++p;
        if (p < s_.size() && s_[p] == '\n') {
          pos_ = p;
          newline();
          continue;
        }
        return err(line_, col(), "unexpected character after line continuation character");
      }
      const std::size_t before = out_.size();
      if (auto e = token(); !e) return unexpected(std::move(e.error()));
      if (at_line_start && out_.size() > before) {
        out_[before].line_start = true;
        out_[before].indent = out_[before].column - 1;
        at_line_start = false;
      }
    }
    if (depth_ > 0) return err(open_line_, open_col_, "'(' or '[' or '{' was never closed");
    if (!at_line_start) push(PyTok::Newline, "\n", line_, col());
    push(PyTok::End, "", line_, col());
    return std::move(out_);
  }

 private:
  FileName file_;
  std::string_view s_;
  std::size_t pos_ = 0, line_begin_ = 0;
  std::uint32_t line_ = 1;
  int depth_ = 0;
  std::uint32_t open_line_ = 0, open_col_ = 0;
  std::vector<PyToken> out_;

  std::uint32_t col() const { return static_cast<std::uint32_t>(pos_ - line_begin_ + 1); }
  std::uint32_t col_at(std::size_t p) const { return static_cast<std::uint32_t>(p - line_begin_ + 1); }
  void newline() {
    ++pos_;
    ++line_;
    line_begin_ = pos_;
  }
  void push(PyTok k, std::string text, std::uint32_t line, std::uint32_t column) {
    PyToken t;
    t.kind = k;
    t.text = std::move(text);
    t.line = line;
    t.column = column;
    out_.push_back(std::move(t));
  }
  dispatchtool::Unexpected<Diagnostic> err(std::uint32_t line, std::uint32_t column, std::string msg) const {
    return unexpected(make_error(Location{file_, line, column}, std::move(msg)));
  }

  Expected<bool, Diagnostic> token() {
    const auto c = static_cast<unsigned char>(s_[pos_]);
    const std::uint32_t l = line_, cl = col();
    if (name_start(c)) {
      std::size_t e = pos_;
      while (e < s_.size() && name_char(static_cast<unsigned char>(s_[e]))) ++e;
      const std::string_view word = s_.substr(pos_, e - pos_);
      if (e < s_.size() && (s_[e] == '"' || s_[e] == '\'') && word.size() <= 2) {
        std::string lower;
        for (char ch : word) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (lower == "r" || lower == "b" || lower == "u" || lower == "f" || lower == "rb" || lower == "br" ||
            lower == "fr" || lower == "rf") {
          pos_ = e;
          return string(lower, l, cl);
        }
      }
      pos_ = e;
      push(PyTok::Name, std::string(word), l, cl);
      return true;
    }
    if (std::isdigit(c) != 0 || (c == '.' && pos_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])) != 0)) {
      std::size_t e = pos_;
      while (e < s_.size()) {
        const auto d = static_cast<unsigned char>(s_[e]);
        if (std::isalnum(d) != 0 || d == '_' || d == '.') {
          ++e;
        } else if ((d == '+' || d == '-') && (s_[e - 1] == 'e' || s_[e - 1] == 'E') &&
                   !(s_.substr(pos_, 2) == "0x" || s_.substr(pos_, 2) == "0X")) {
          ++e;
        } else {
          break;
        }
      }
      push(PyTok::Number, std::string(s_.substr(pos_, e - pos_)), l, cl);
      pos_ = e;
      return true;
    }
    if (c == '"' || c == '\'') return string("", l, cl);
    static constexpr std::string_view kThree[] = {"**=", "//=", ">>=", "<<=", "..."};
    static constexpr std::string_view kTwo[] = {"->", "**", "//", "==", "!=", "<=", ">=", "<<", ">>", ":=",
                                                "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="};
    for (std::string_view op : kThree)
      if (s_.substr(pos_, 3) == op) return op_tok(op, l, cl);
    for (std::string_view op : kTwo)
      if (s_.substr(pos_, 2) == op) return op_tok(op, l, cl);
    if (std::string_view("()[]{},:.;@=+-*/%&|^~<>!").find(static_cast<char>(c)) != std::string_view::npos) {
      if (c == '(' || c == '[' || c == '{') {
        if (depth_++ == 0) {
          open_line_ = l;
          open_col_ = cl;
        }
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth_ == 0) return err(l, cl, fmt::format("unmatched '{}'", static_cast<char>(c)));
        --depth_;
      }
      return op_tok(s_.substr(pos_, 1), l, cl);
    }
    return err(l, cl, c >= 0x20 && c < 0x7f ? fmt::format("invalid character '{}'", static_cast<char>(c))
                                            : fmt::format("invalid character (byte 0x{:02x})", c));
  }

  Expected<bool, Diagnostic> op_tok(std::string_view op, std::uint32_t l, std::uint32_t cl) {
    push(PyTok::Op, std::string(op), l, cl);
    pos_ += op.size();
    return true;
  }

  // A string literal from its opening quote; `prefix` lower case.
  Expected<bool, Diagnostic> string(const std::string& prefix, std::uint32_t l, std::uint32_t cl) {
    const char q = s_[pos_];
    const bool triple = s_.substr(pos_, 3) == std::string(3, q);
    const bool raw = prefix.find('r') != std::string::npos;
    pos_ += triple ? 3 : 1;
    PyToken t;
    t.kind = PyTok::String;
    t.line = line_;
    t.column = col();
    t.fstring = prefix.find('f') != std::string::npos;
    t.bytes = prefix.find('b') != std::string::npos;
    std::string v;
    for (;;) {
      if (pos_ >= s_.size()) return err(l, cl, triple ? "unterminated triple-quoted string literal"
                                                      : "unterminated string literal");
      const char c = s_[pos_];
      if (c == q && (!triple || s_.substr(pos_, 3) == std::string(3, q))) {
        pos_ += triple ? 3 : 1;
        break;
      }
      if (c == '\n') {
        if (!triple) return err(l, cl, "unterminated string literal");
        v += c;
        newline();
        continue;
      }
      if (c == '\\' && pos_ + 1 < s_.size()) {
        const char n = s_[pos_ + 1];
        if (n == '\n') {
          if (raw) v += "\\\n";
          pos_ += 1;
          newline();
          continue;
        }
        if (raw) {
          v += c;
          v += n;
          pos_ += 2;
          continue;
        }
        pos_ += 2;
        switch (n) {
          case 'n': v += '\n'; break;
          case 't': v += '\t'; break;
          case 'r': v += '\r'; break;
          case '0': v += '\0'; break;
          case 'a': v += '\a'; break;
          case 'b': v += '\b'; break;
          case 'f': v += '\f'; break;
          case 'v': v += '\v'; break;
          case '\\': case '\'': case '"': v += n; break;
          default: v += '\\'; v += n; break;  // kept as written (\x.., \u....: not decoded)
        }
        continue;
      }
      v += c;
      ++pos_;
    }
    t.text = std::move(v);
    out_.push_back(std::move(t));
    return true;
  }
};

}  // namespace

Expected<std::vector<PyToken>, Diagnostic> lex_python(FileName file, std::string_view text) {
  return Lexer(file, text).run();
}

}  // namespace dt
