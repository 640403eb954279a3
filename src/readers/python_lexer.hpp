// Python tokens, for reading torch.library registrations statically
// (readers/python_reader.hpp). Enough of Python's lexical grammar to find
// statements and read literals exactly: strings of every prefix and quote
// (triple-quoted, raw, bytes, f-strings marked as such), comments, explicit
// (backslash) and implicit (inside brackets) line joining, and each logical
// line's indentation. Nothing is run.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"

namespace dt {

enum class PyTok : std::uint8_t { Name, Number, String, Op, Newline, End };

struct PyToken {
  PyTok kind = PyTok::End;
  std::string text;        // Name/Number/Op: as written; String: the decoded value
  std::uint32_t line = 0;  // of the token's first character (String: of its value's)
  std::uint32_t column = 0;
  std::uint32_t offset = 0;  // of its first character (a string's prefix or quote) in the text
  bool fstring = false;      // an f-string: its value is not a constant
  bool bytes = false;        // a bytes literal
  std::uint32_t indent = 0;  // for the first token of a logical line: its column - 1
  bool line_start = false;
};

// The tokens of `text`, one logical line at a time: next_line() replaces
// `line` with the next logical line's tokens, ending in Newline, and returns
// false at the end of the text (`line` then holds End only). Errors: an
// unterminated string or bracket, a character Python has no token for.
class PyLexer {
 public:
  PyLexer(FileName file, std::string_view text) : file_(file), s_(text) {}
  // The part of a larger text that starts at byte `begin` (a line start) of
  // line `first_line`: lines and offsets as in the whole text.
  PyLexer(FileName file, std::string_view text, std::size_t begin, std::size_t end, std::uint32_t first_line)
      : file_(file), s_(text.substr(0, end)), pos_(begin), line_begin_(begin), line_(first_line) {}
  Expected<bool, Diagnostic> next_line(std::vector<PyToken>& line);

 private:
  FileName file_;
  std::string_view s_;
  std::size_t pos_ = 0, line_begin_ = 0, start_ = 0;  // start_: of the token being read
  std::uint32_t line_ = 1;
  int depth_ = 0;
  std::uint32_t open_line_ = 0, open_col_ = 0;
  std::vector<PyToken>* out_ = nullptr;

  std::uint32_t col() const { return static_cast<std::uint32_t>(pos_ - line_begin_ + 1); }
  void newline();
  void push(PyTok k, std::string_view text, std::uint32_t line, std::uint32_t column);
  Expected<bool, Diagnostic> token();
  Expected<bool, Diagnostic> op_tok(std::string_view op, std::uint32_t l, std::uint32_t cl);
  Expected<bool, Diagnostic> string(const std::string& prefix, std::uint32_t l, std::uint32_t cl);
};

// Every token of `text` (next_line's lines, then End).
Expected<std::vector<PyToken>, Diagnostic> lex_python(FileName file, std::string_view text);

}  // namespace dt
