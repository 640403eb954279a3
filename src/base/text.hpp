// Small text helpers: did-you-mean suggestions, joining.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dt {

// Edit distance (optimal string alignment: adjacent transpositions count 1), case-insensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if it is close enough to be a plausible typo.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string_view>& candidates);

// " (did you mean 'X'?)" or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates);

std::string join(const std::vector<std::string>& parts, std::string_view sep);

// Input strings (kernel names, debug strings) shown to people must not cut the
// text short (NUL), rewrite the terminal (CR, escape sequences) or pass for
// lines of their own: control characters other than tab are written as \xNN.
// A newline is kept and followed by `newline_indent` spaces, or, with
// kEscapeNewlines, written as \x0a too.
inline constexpr int kEscapeNewlines = -1;
void append_printable(std::string_view text, std::string& out, int newline_indent = kEscapeNewlines);
std::string printable(std::string_view text);  // newlines escaped too

}  // namespace dt
