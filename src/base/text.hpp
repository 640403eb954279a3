// Small text helpers: did-you-mean suggestions (suggest.hpp), joining, splitting and
// trimming, text shown to people (printable, ANSI colour) and JSON strings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/suggest.hpp"  // did-you-mean suggestions, for every user of text.hpp

namespace dt {

std::string join(const std::vector<std::string>& parts, std::string_view sep);

// `text` with every `from` replaced by `to`, left to right ("{op}" in a
// profile's text filled in).
std::string replace_all(std::string text, std::string_view from, std::string_view to);
// `s` without leading and trailing characters of `chars`.
// Inline: a constant `chars` folds into the set, so hot callers (every
// argument of every schema of a native_functions.yaml) need no copy of it.
inline std::string_view trim(std::string_view s, std::string_view chars = " ") {
  // A set of bytes as 256 bits: find_first_not_of scans `chars` for every byte.
  std::uint64_t set[4] = {0, 0, 0, 0};
  for (char c : chars) {
    const auto u = static_cast<unsigned char>(c);
    set[u >> 6] |= std::uint64_t{1} << (u & 63U);
  }
  auto in = [&](char c) {
    const auto u = static_cast<unsigned char>(c);
    return ((set[u >> 6] >> (u & 63U)) & 1U) != 0;
  };
  std::size_t b = 0;
  std::size_t e = s.size();
  while (b < e && in(s[b])) ++b;
  while (e > b && in(s[e - 1])) --e;
  return s.substr(b, e - b);
}
// Python's str.split(sep): every field, empty ones included ("a,,b" gives
// "a", "", "b"; "" gives one empty field). The fields view `s`.
std::vector<std::string_view> split(std::string_view s, std::string_view sep);
// A list as options write it ("CPU, XLA,,"): the fields of split(s, sep)
// without surrounding spaces, empty ones dropped.
std::vector<std::string_view> split_list(std::string_view s, std::string_view sep = ",");

// Input strings (kernel names, debug strings) shown to people must not cut the
// text short (NUL), rewrite the terminal (CR, escape sequences, C1 controls
// such as U+009B CSI and U+009D OSC), reorder what a reader sees (the bidi
// embeddings, overrides and isolates U+202A-U+202E, U+2066-U+2069, and the
// marks U+061C, U+200E, U+200F) or pass for lines of their own (U+2028,
// U+2029): C0 controls other than tab, DEL and bytes that are not UTF-8 are
// written as \xNN, those code points as \uXXXX. A newline is kept and
// followed by `newline_indent` spaces, or, with kEscapeNewlines, written as
// \x0a too.
inline constexpr int kEscapeNewlines = -1;
void append_printable(std::string_view text, std::string& out, int newline_indent = kEscapeNewlines);
std::string printable(std::string_view text);  // newlines escaped too

// The last pass over every text output (docs/security.md, "Output that
// cannot be forged"): `text` as append_printable writes data, but for the
// newlines and tabs, which are the text's own lines, and ESC when `color`
// (the text's own colour codes) -- plus what a CI runner acts on: a line
// whose first non-blank characters are "::" (a GitHub Actions workflow
// command; the runner trims Unicode white space) has that first ':' written
// \x3a, and "##[" anywhere (the runner's legacy command syntax) is written
// "##\x5b". Text without any of these comes out unchanged.
void append_inert(std::string_view text, std::string& out, bool color = false);

// `text` in an ANSI colour when `on`: "\x1b[" SGR "m" text "\x1b[0m", where
// `sgr` is a Select Graphic Rendition code such as "32" (green) or "1;31"
// (bold red); `text` unchanged otherwise.
std::string paint(std::string_view text, std::string_view sgr, bool on);

// Shell-style pattern matching of the whole text: `*` any run of characters,
// `?` one character, `[abc]`/`[a-z]`/`[!a]` one of (or none of) a set; every
// other character stands for itself. Linear in practice (one backtrack point).
bool glob_match(std::string_view pattern, std::string_view text);
// Whether `pattern` uses any of glob_match's special characters.
bool is_glob(std::string_view pattern);

// The length of the well-formed UTF-8 sequence at s[i] (Unicode's table
// 3-7: no overlong forms, surrogates or code points past U+10FFFF), 0 if none.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);
// The length of the longest well-formed UTF-8 prefix of `s` (s.size() when
// all of it is), and whether all of it is.
std::size_t utf8_valid_prefix(std::string_view s);
inline bool is_utf8(std::string_view s) { return utf8_valid_prefix(s) == s.size(); }
// The display width of UTF-8 text for column alignment: its code points
// (bytes that do not continue a sequence), the measure fmt pads by.
std::size_t utf8_width(std::string_view s);

// A JSON string literal (quotes included): valid UTF-8 passed through, but
// for control characters (C0, DEL, C1), the bidi controls and U+2028/U+2029
// (as for append_printable), written \uXXXX, and "##[" written "##\u005b"
// (a CI log shows JSON too); each byte that is not part of valid UTF-8 is
// replaced by U+FFFD, so the document is always valid UTF-8. Also a valid
// TOML basic string.
std::string json_quote(std::string_view s);

}  // namespace dt
