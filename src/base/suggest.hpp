// Did-you-mean suggestions: the candidate a misspelt word most likely meant.
// The search is bounded: candidates whose length alone rules them out cost
// nothing, the others a banded edit distance that stops as soon as it is too
// far (so a 1 MiB word against short names costs nothing), and several
// searches may share a budget of work (lint's suggestions for many dangling
// operators).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/limits.hpp"

namespace dt {

// Edit distance (optimal string alignment: adjacent transpositions count 1), case-insensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The same distance if it is at most `bound`, otherwise bound + 1; costs
// O(min(|a|, |b|) * (2 * bound + 1)) at most, nothing when the lengths differ
// by more than `bound`. Adds the cells it computes to `*cells` when given.
std::size_t edit_distance_within(std::string_view a, std::string_view b, std::size_t bound,
                                 std::size_t* cells = nullptr);

// Work several suggestion searches share: edit-distance cells. Once it is
// spent, searches give no suggestion (deterministically: the same searches
// in the same order spend it the same way).
struct SuggestionBudget {
  std::size_t cells = limits::kSuggestionCells;
};

// The candidate closest to `word`, if it is close enough to be a plausible
// typo (at most a third of the word's length in edits, at least 1, at most
// 4); equally close ones: the first in byte order.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string_view>& candidates,
                                   SuggestionBudget* budget = nullptr);

// " (did you mean 'X'?)" or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates,
                         SuggestionBudget* budget = nullptr);

}  // namespace dt
