#include "base/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace dt {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

std::size_t distance_gap(std::size_t n, std::size_t m) { return n > m ? n - m : m - n; }

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  return edit_distance_within(a, b, std::max(a.size(), b.size()));
}

std::size_t edit_distance_within(std::string_view a, std::string_view b, std::size_t bound, std::size_t* cells) {
  // Optimal string alignment distance: insertions, deletions, substitutions
  // and transpositions of neighbours ("cdua" -> "cuda") cost 1. Only the
  // band |i - j| <= bound of the table can hold values <= bound; cells
  // outside it count as `far`.
  const std::size_t n = a.size(), m = b.size(), far = bound + 1;
  if (distance_gap(n, m) > bound) return far;
  if (n == 0) return m;
  std::vector<std::size_t> prev2(m + 1, far), prev(m + 1, far), cur(m + 1, far);
  for (std::size_t j = 0; j <= std::min(m, bound); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    const std::size_t lo = i > bound ? i - bound : 0, hi = std::min(m, i + bound);
    if (lo == 0)
      cur[0] = i;
    else
      cur[lo - 1] = far;  // left of the band
    if (hi < m) cur[hi + 1] = far;  // right of the band, read by the next row
    std::size_t row_min = lo == 0 ? i : far;
    const char ai = lower(a[i - 1]);
    for (std::size_t j = std::max<std::size_t>(lo, 1); j <= hi; ++j) {
      const char bj = lower(b[j - 1]);
      std::size_t v = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai == bj ? 0 : 1)});
      if (i > 1 && j > 1 && ai == lower(b[j - 2]) && lower(a[i - 2]) == bj) v = std::min(v, prev2[j - 2] + 1);
      cur[j] = std::min(v, far);
      row_min = std::min(row_min, cur[j]);
    }
    if (cells != nullptr) *cells += hi - std::max<std::size_t>(lo, 1) + 1;
    if (row_min > bound) return far;  // every path through this row is too far already
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return std::min(prev[m], far);
}

std::optional<std::string> closest(std::string_view word, const std::vector<std::string_view>& candidates,
                                   SuggestionBudget* budget) {
  // Accept up to a third of the word's length (at least 1, at most 4) edits.
  const std::size_t limit = std::clamp<std::size_t>(word.size() / 3, 1, 4);
  const std::string w = lowered(word);
  std::optional<std::string_view> best;
  std::size_t best_d = limit;
  for (const std::string_view c : candidates) {
    // Only a candidate at least as close as the best so far can replace it.
    const std::size_t bound = best ? best_d : limit;
    if (distance_gap(w.size(), c.size()) > bound) continue;
    if (budget != nullptr) {
      const std::size_t worst = (std::min(w.size(), c.size()) + 1) * (2 * bound + 1);
      if (budget->cells < worst) {
        budget->cells = 0;  // spent: no suggestions from here on
        return std::nullopt;
      }
    }
    std::size_t used = 0;
    const std::size_t d = edit_distance_within(w, c, bound, &used);
    if (budget != nullptr) budget->cells -= std::min(used, budget->cells);
    if (d <= bound && (!best || d < best_d || c < *best)) {
      best = c;
      best_d = d;
    }
  }
  if (best) return std::string(*best);
  return std::nullopt;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates,
                         SuggestionBudget* budget) {
  if (auto c = closest(word, candidates, budget)) return " (did you mean '" + *c + "'?)";
  return {};
}

}  // namespace dt
