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
  bool fstring = false;    // an f-string: its value is not a constant
  bool bytes = false;      // a bytes literal
  std::uint32_t indent = 0;  // for the first token of a logical line: its column - 1
  bool line_start = false;
};

// The tokens of `text`, a logical line ending in Newline, End last. Errors:
// an unterminated string or bracket, a character Python has no token for.
Expected<std::vector<PyToken>, Diagnostic> lex_python(FileName file, std::string_view text);

}  // namespace dt
