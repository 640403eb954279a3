// dispatchtool lint: suppression comments, as ruff's `# noqa` and
// clang-tidy's `NOLINT` -- a finding is dropped when the line of its
// primary location says so, in whatever comment syntax the file has:
//
//   m.impl("qlinear", TORCH_FN(qlinear));  // dispatchtool: ignore[missing-autograd]
//   - func: qadd(Tensor a, Tensor b) -> Tensor  # dispatchtool: ignore[missing-autograd]
//
// `dispatchtool: ignore[RULE, ...]` names the rules it silences (ids as
// `lint --list-rules` prints them); `dispatchtool: ignore` alone silences
// every rule on that line. `dispatchtool: ignore-next-line[...]` (or bare)
// on the line before does the same for the line after it.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lint/lint.hpp"

namespace dt::lint {

// Whether `line` (and the line before it, `previous`) suppresses `rule`.
bool suppressed(std::string_view line, std::string_view previous, std::string_view rule);

// The lines of the files read that carry a marker, by file (as findings
// name it: display_path) and line number. Filled as the loader reads each
// file (from any thread); only marked lines are kept.
class MarkedLines {
 public:
  void collect(const std::string& path, std::string_view text);
  // The line's text, or "" when it carries no marker.
  [[nodiscard]] std::string_view line(std::string_view file, std::size_t n) const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::map<std::size_t, std::string>> files_;
};

// Drops the findings whose primary location's line (or the line before)
// suppresses their rule. Returns how many were dropped.
std::size_t drop_suppressed(std::vector<Finding>& findings, const MarkedLines& marked);

}  // namespace dt::lint
