// Small text helpers: did-you-mean suggestions (suggest.hpp), joining, splitting and
// trimming, text shown to people (printable, ANSI colour) and JSON strings.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/suggest.hpp"  // did-you-mean suggestions, for every user of text.hpp

namespace dt {

std::string join(const std::vector<std::string>& parts, std::string_view sep);

// `s` without leading and trailing characters of `chars`.
std::string_view trim(std::string_view s, std::string_view chars = " ");
// Python's str.split(sep): every field, empty ones included ("a,,b" gives
// "a", "", "b"; "" gives one empty field). The fields view `s`.
std::vector<std::string_view> split(std::string_view s, std::string_view sep);
// A list as options write it ("CPU, XLA,,"): the fields of split(s, sep)
// without surrounding spaces, empty ones dropped.
std::vector<std::string_view> split_list(std::string_view s, std::string_view sep = ",");

// Input strings (kernel names, debug strings) shown to people must not cut the
// text short (NUL), rewrite the terminal (CR, escape sequences) or pass for
// lines of their own: control characters other than tab are written as \xNN.
// A newline is kept and followed by `newline_indent` spaces, or, with
// kEscapeNewlines, written as \x0a too.
inline constexpr int kEscapeNewlines = -1;
void append_printable(std::string_view text, std::string& out, int newline_indent = kEscapeNewlines);
std::string printable(std::string_view text);  // newlines escaped too

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
// Whether `s` is well-formed UTF-8 throughout.
bool is_utf8(std::string_view s);

// A JSON string literal (quotes included), UTF-8 passed through, control
// characters escaped. Also a valid TOML basic string.
std::string json_quote(std::string_view s);

}  // namespace dt
