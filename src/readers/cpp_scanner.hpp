// A lexer for C++ source, good enough to read library registrations
// (readers/cpp_reader.hpp) after the preprocessor (cpp_preprocessor.hpp):
// identifiers, punctuation (one character a token, but for :: and ->),
// numbers, string literals (escapes, raw strings R"x(...)x", encoding
// prefixes; adjacent literals are joined by the preprocessor, after macros),
// char literals, comments, and preprocessor lines: a '#' first on its line,
// the directive's tokens, then an end-of-directive token (Eod). Only the
// directives the preprocessor acts on are lexed; the others (#error,
// #pragma's arguments, #line, unknown ones) are skipped as text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"

namespace dt {

struct CppToken {
  // HeaderName: #include <...>'s operand (text "<a/b.h>", value "a/b.h").
  enum class Kind : std::uint8_t { Ident, String, Number, Char, Punct, Eod, HeaderName };
  Kind kind = Kind::Punct;
  bool bol = false;    // first token of its line (a '#' there starts a directive)
  bool space = false;  // whitespace or a comment before it (for # stringification)
  // Filled by the preprocessor: the file a token was read from (its index
  // in CppScan::files, 0 the file itself), the macros it may no longer
  // expand (its hide set), and the macro expansion it comes from (1 + its
  // index in CppScan::expansions; 0: written in the file).
  std::uint16_t file = 0;
  std::uint32_t hide = 0;
  std::uint32_t expansion = 0;
  std::string_view text;  // as written (a String: its first literal)
  // Where the token is; for a token a macro expansion made, where the
  // outermost macro was invoked (what __LINE__ says there).
  std::uint32_t line = 0, col = 0;
  // Kind::String: the literal's value (escapes decoded, adjacent literals
  // joined) and where its first character is in the file.
  std::string value;
  std::uint32_t value_line = 0, value_col = 0;
  // The innermost #if / #elif group the token lies in whose condition
  // rests on names that are not defined (1 + its index in
  // CppScan::conditions; 0: none).
  std::uint32_t cond = 0;

  [[nodiscard]] bool is(std::string_view s) const { return kind != Kind::String && text == s; }
};

// Whether t is the punctuator p (not an identifier, number or literal spelt so).
inline bool is_punct(const CppToken& t, std::string_view p) { return t.kind == CppToken::Kind::Punct && t.text == p; }

// What the lexer keeps: every token, only the preprocessor's lines (a file
// whose text cannot start a library block: its macros and includes still
// count), or nothing (errors only).
enum class CppKeep : std::uint8_t { All, Directives, None };

struct CppLexed {
  std::vector<CppToken> tokens;
};

// Errors (FILE:LINE:COL): an unterminated string, raw string or block
// comment, and a raw-string delimiter C++ does not allow.
Expected<CppLexed, Diagnostic> lex_cpp(FileName file, std::string_view text, CppKeep keep = CppKeep::All);

// Each bracket's match: close[i] is the index of the ')' '}' or ']' closing
// the '(' '{' or '[' at i; npos for any other token and an unbalanced bracket.
std::vector<std::size_t> match_brackets(const std::vector<CppToken>& toks);

// The '>' closing the '<' at `open` (template arguments or parameters):
// bracketed groups are skipped whole (`close`, from match_brackets), nested
// '<' counted. npos when none comes before `end` and within `limit` steps, or
// a ';' comes first: then that '<' is a comparison.
std::size_t match_angle(const std::vector<CppToken>& toks, const std::vector<std::size_t>& close, std::size_t open,
                        std::size_t end, std::size_t limit = std::string::npos);

// Adjacent string literals made one (translation phase 6, after macros):
// the first keeps its place, its value the concatenation.
void join_adjacent_strings(std::vector<CppToken>& tokens);

}  // namespace dt
