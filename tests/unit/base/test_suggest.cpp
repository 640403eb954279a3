// Did-you-mean suggestions (base/suggest.hpp): the distance, the bounded
// search, and its budget.
#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/suggest.hpp"

namespace dt::test {

TEST_CASE("edit_distance: insertions, deletions, substitutions and swapped neighbours cost 1, in any case") {
  CHECK(edit_distance("cuda", "cuda") == 0);
  CHECK(edit_distance("CPU", "cpu") == 0);
  CHECK(edit_distance("cdua", "cuda") == 1);  // neighbours swapped
  CHECK(edit_distance("kernal", "kernel") == 1);
  CHECK(edit_distance("Autogrd", "Autograd") == 1);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("XLA", "CPU") == 3);
}

TEST_CASE("closest and did_you_mean: the nearest candidate, if close enough to be a typo") {
  const std::vector<std::string_view> keys = {"CPU", "CUDA", "Autograd", "AutogradCPU"};
  CHECK(closest("Autogrd", keys) == std::optional<std::string>("Autograd"));
  CHECK(closest("cuda", keys) == std::optional<std::string>("CUDA"));
  CHECK(closest("XLA", keys) == std::nullopt);  // 3 edits: more than a third of the word
  CHECK(closest("anything", {}) == std::nullopt);
  // Equally close: the first in byte order.
  CHECK(closest("CPX", {"CPY", "CPW"}) == std::optional<std::string>("CPW"));
  CHECK(did_you_mean("AutogradCUP", keys) == " (did you mean 'AutogradCPU'?)");
  CHECK(did_you_mean("Nonsense", keys).empty());
}

TEST_CASE("edit_distance_within: the distance up to the bound, bound + 1 beyond, at the cost of the band") {
  CHECK(edit_distance_within("kernal", "kernel", 4) == 1);
  CHECK(edit_distance_within("cdua", "cuda", 1) == 1);
  CHECK(edit_distance_within("XLA", "CPU", 2) == 3);  // 3 edits: bound + 1
  CHECK(edit_distance_within("abcdef", "ab", 2) == 3);  // ruled out by the lengths alone
  CHECK(edit_distance_within("", "ab", 2) == 2);
  // The same values as the unbounded distance wherever they are within the bound.
  const std::vector<std::string_view> words = {"", "a", "ab", "ba", "abc", "acb", "Autograd", "AutogradCPU",
                                               "autgorad", "CPU", "CUDA", "cdua", "kernel", "kernal"};
  for (auto x : words)
    for (auto y : words)
      for (std::size_t bound = 0; bound <= 5; ++bound) {
        CAPTURE(x);
        CAPTURE(y);
        CAPTURE(bound);
        const std::size_t full = edit_distance(x, y);
        CHECK(edit_distance_within(x, y, bound) == (full <= bound ? full : bound + 1));
      }
  // Cells: a band of 2 * bound + 1 per row at most, and it stops at the first row that is too far.
  std::size_t cells = 0;
  const std::string a(1000, 'a'), b = "b" + std::string(999, 'c');
  CHECK(edit_distance_within(a, b, 2, &cells) == 3);
  CHECK(cells <= 3 * 5);
  cells = 0;
  CHECK(edit_distance_within(a, a, 2, &cells) == 0);
  CHECK(cells <= 1000 * 5);
}

TEST_CASE("closest: a huge word against short names costs nothing (issue 11: 1 MiB key names took minutes)") {
  const std::vector<std::string_view> keys = {"CPU", "CUDA", "Autograd", "AutogradCPU"};
  const std::string huge(std::size_t{1} << 20, 'Q');
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 100; ++i) CHECK(closest(huge, keys) == std::nullopt);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
}

TEST_CASE("closest with a budget: suggestions until the budget is spent, none after, the same every time") {
  // 200 names of 200 characters that differ only at the end: every pair is
  // compared over its whole length (the case that made lint quadratic).
  std::vector<std::string> names;
  for (int i = 0; i < 200; ++i) names.push_back(std::string(190, 'x') + std::to_string(1000000 + i));
  const std::vector<std::string_view> views(names.begin(), names.end());
  const auto run = [&](std::size_t cells) {
    SuggestionBudget budget{cells};
    std::vector<std::optional<std::string>> got;
    for (int i = 0; i < 200; ++i) got.push_back(closest(std::string(190, 'x') + std::to_string(2000000 + i), views,
                                                        &budget));
    return std::pair{got, budget.cells};
  };
  const auto unbounded_run = run(std::size_t{1} << 40);
  const auto& unbounded = unbounded_run.first;
  CHECK(unbounded_run.second > 0);
  CHECK(unbounded.front() == std::optional<std::string>(names.front()));  // one edit: 2000000 -> 1000000
  const auto bounded_run = run(2'000'000);
  const auto& bounded = bounded_run.first;
  CHECK(bounded_run.second == 0);
  CHECK(bounded.front() == unbounded.front());
  CHECK(bounded.back() == std::nullopt);
  CHECK(run(2'000'000).first == bounded);
}

}  // namespace dt::test
