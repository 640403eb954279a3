// A lexer for C++ source, good enough to read library registrations
// (readers/cpp_reader.hpp): identifiers, punctuation, numbers, string
// literals (escapes, raw strings R"x(...)x", encoding prefixes, adjacent
// literals concatenated as the compiler does, also across lines), char
// literals, comments, and preprocessor lines. It never expands macros: a
// #define whose body registers is reported, and every token records the
// innermost #if / #ifdef / #ifndef region it lies in.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"

namespace dt {

struct CppToken {
  enum class Kind : std::uint8_t { Ident, String, Number, Char, Punct };
  Kind kind = Kind::Punct;
  std::string_view text;  // as written (a String: its first literal)
  std::uint32_t line = 0, col = 0;
  // Kind::String: the literal's value (escapes decoded, adjacent literals
  // joined) and where its first character is in the file.
  std::string value;
  std::uint32_t value_line = 0, value_col = 0;
  // The line of the innermost open #if / #ifdef / #ifndef / #elif / #else
  // (0: unconditional). An include guard (#ifndef X / #define X) is not one.
  std::uint32_t cond_line = 0;

  [[nodiscard]] bool is(std::string_view s) const { return kind != Kind::String && text == s; }
};

// A #define that mentions a registration API (TORCH_LIBRARY..., .def(,
// .impl(, .fallback(): its expansions cannot be read without the
// preprocessor.
struct CppDefine {
  std::string name;
  std::uint32_t line = 0, col = 0;
};

struct CppScan {
  std::vector<CppToken> tokens;
  std::vector<CppDefine> registering_defines;
};

// Errors (FILE:LINE:COL): an unterminated string, raw string, char literal
// or block comment, and a raw-string delimiter C++ does not allow. With
// `tokens` false the same errors and registering #defines are found, and no
// token is kept (read_cpp: a file that never says TORCH_LIBRARY).
Expected<CppScan, Diagnostic> scan_cpp(FileName file, std::string_view text, bool tokens = true);

// Each bracket's match: close[i] is the index of the ')' '}' or ']' closing
// the '(' '{' or '[' at i; npos for any other token and an unbalanced bracket.
std::vector<std::size_t> match_brackets(const std::vector<CppToken>& toks);

// The '>' closing the '<' at `open` (template arguments or parameters):
// bracketed groups are skipped whole (`close`, from match_brackets), nested
// '<' counted. npos when none comes before `end` and within `limit` steps, or
// a ';' comes first: then that '<' is a comparison.
std::size_t match_angle(const std::vector<CppToken>& toks, const std::vector<std::size_t>& close, std::size_t open,
                        std::size_t end, std::size_t limit = std::string::npos);

}  // namespace dt
