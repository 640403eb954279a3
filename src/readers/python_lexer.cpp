// The Python lexer (readers/python_lexer.hpp).
#include "readers/python_lexer.hpp"

#include <fmt/format.h>

#include <cctype>

namespace dt {

namespace {

bool name_start(unsigned char c) { return std::isalpha(c) != 0 || c == '_' || c >= 0x80; }
bool name_char(unsigned char c) { return name_start(c) || std::isdigit(c) != 0; }

dispatchtool::Unexpected<Diagnostic> lex_error(FileName file, std::uint32_t line, std::uint32_t column,
                                               std::string msg) {
  return unexpected(make_error(Location{file, line, column}, std::move(msg)));
}

}  // namespace

Expected<bool, Diagnostic> PyLexer::next_line(std::vector<PyToken>& line) {
  line.clear();
  out_ = &line;
  bool at_line_start = true;
  while (pos_ < s_.size()) {
    const char c = s_[pos_];
    if (c == '\n') {
      const bool done = depth_ == 0 && !at_line_start;
      start_ = pos_;
      if (done) push(PyTok::Newline, "\n", line_, col());
      newline();
      if (done) return true;
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
      return lex_error(file_, line_, col(), "unexpected character after line continuation character");
    }
    const std::size_t before = line.size();
    start_ = pos_;
    DT_TRY_VOID(token());
    if (at_line_start && line.size() > before) {
      line[before].line_start = true;
      line[before].indent = line[before].column - 1;
      at_line_start = false;
    }
  }
  if (depth_ > 0) return lex_error(file_, open_line_, open_col_, "'(' or '[' or '{' was never closed");
  start_ = pos_;
  if (!at_line_start) {
    push(PyTok::Newline, "\n", line_, col());
    return true;
  }
  push(PyTok::End, "", line_, col());
  return false;
}

void PyLexer::newline() {
  ++pos_;
  ++line_;
  line_begin_ = pos_;
}

void PyLexer::push(PyTok k, std::string_view text, std::uint32_t line, std::uint32_t column) {
  PyToken t;
  t.kind = k;
  t.text = std::string(text);
  t.line = line;
  t.column = column;
  t.offset = static_cast<std::uint32_t>(start_);
  out_->push_back(std::move(t));
}

Expected<bool, Diagnostic> PyLexer::token() {
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
    push(PyTok::Name, word, l, cl);
    return true;
  }
  if (std::isdigit(c) != 0 ||
      (c == '.' && pos_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])) != 0)) {
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
    push(PyTok::Number, s_.substr(pos_, e - pos_), l, cl);
    pos_ = e;
    return true;
  }
  if (c == '"' || c == '\'') return string("", l, cl);
  static constexpr std::string_view kThree[] = {"**=", "//=", ">>=", "<<=", "..."};
  static constexpr std::string_view kTwo[] = {
      "->", "**", "//", "==", "!=", "<=", ">=", "<<", ">>", ":=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="};
  // Two- and three-character operators all have one of these second.
  if (pos_ + 1 < s_.size() && std::string_view("=>*/<.").find(s_[pos_ + 1]) != std::string_view::npos) {
    for (std::string_view op : kThree)
      if (s_.substr(pos_, 3) == op) return op_tok(op, l, cl);
    for (std::string_view op : kTwo)
      if (s_.substr(pos_, 2) == op) return op_tok(op, l, cl);
  }
  if (std::string_view("()[]{},:.;@=+-*/%&|^~<>!").find(static_cast<char>(c)) != std::string_view::npos) {
    if (c == '(' || c == '[' || c == '{') {
      if (depth_++ == 0) {
        open_line_ = l;
        open_col_ = cl;
      }
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth_ == 0) return lex_error(file_, l, cl, fmt::format("unmatched '{}'", static_cast<char>(c)));
      --depth_;
    }
    return op_tok(s_.substr(pos_, 1), l, cl);
  }
  return lex_error(file_, l, cl,
                   c >= 0x20 && c < 0x7f ? fmt::format("invalid character '{}'", static_cast<char>(c))
                                         : fmt::format("invalid character (byte 0x{:02x})", c));
}

Expected<bool, Diagnostic> PyLexer::op_tok(std::string_view op, std::uint32_t l, std::uint32_t cl) {
  push(PyTok::Op, op, l, cl);
  pos_ += op.size();
  return true;
}

// A string literal from its opening quote; `prefix` lower case.
Expected<bool, Diagnostic> PyLexer::string(const std::string& prefix, std::uint32_t l, std::uint32_t cl) {
  const char q = s_[pos_];
  const std::string_view three = q == '"' ? std::string_view("\"\"\"") : std::string_view("'''");
  const bool triple = s_.substr(pos_, 3) == three;
  const bool raw = prefix.find('r') != std::string::npos;
  pos_ += triple ? 3 : 1;
  PyToken t;
  t.kind = PyTok::String;
  t.line = line_;
  t.column = col();
  t.offset = static_cast<std::uint32_t>(start_);
  t.fstring = prefix.find('f') != std::string::npos;
  t.bytes = prefix.find('b') != std::string::npos;
  std::string v;
  for (;;) {
    if (pos_ >= s_.size())
      return lex_error(file_, l, cl,
                       triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
    const char c = s_[pos_];
    if (c == q && (!triple || s_.substr(pos_, 3) == three)) {
      pos_ += triple ? 3 : 1;
      break;
    }
    if (c == '\n') {
      if (!triple) return lex_error(file_, l, cl, "unterminated string literal");
      v += c;
      newline();
      continue;
    }
    if (c == '\\' && pos_ + 1 < s_.size()) {
      const char n = s_[pos_ + 1];
      // A line continuation: backslash, then LF or CRLF (Python reads both as one newline).
      if (n == '\n' || (n == '\r' && pos_ + 2 < s_.size() && s_[pos_ + 2] == '\n')) {
        if (raw) v += "\\\n";
        pos_ += n == '\r' ? 2 : 1;
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
        case 'n':
          v += '\n';
          break;
        case 't':
          v += '\t';
          break;
        case 'r':
          v += '\r';
          break;
        case '0':
          v += '\0';
          break;
        case 'a':
          v += '\a';
          break;
        case 'b':
          v += '\b';
          break;
        case 'f':
          v += '\f';
          break;
        case 'v':
          v += '\v';
          break;
        case '\\':
        case '\'':
        case '"':
          v += n;
          break;
        default:
          v += '\\';
          v += n;
          break;  // kept as written (\x.., \u....: not decoded)
      }
      continue;
    }
    v += c;
    ++pos_;
  }
  t.text = std::move(v);
  out_->push_back(std::move(t));
  return true;
}
Expected<std::vector<PyToken>, Diagnostic> lex_python(FileName file, std::string_view text) {
  PyLexer lex(file, text);
  std::vector<PyToken> all, line;
  for (;;) {
    DT_TRY(more, lex.next_line(line));
    all.insert(all.end(), line.begin(), line.end());
    if (!more) return all;
  }
}

}  // namespace dt
