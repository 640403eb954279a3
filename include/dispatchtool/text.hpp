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

}  // namespace dt
