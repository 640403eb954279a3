// dispatchtool coverage: per-status counts and the operators a backend still
// has to implement (readable), one status's rows, or every row as JSON.
#pragma once

#include <string>
#include <vector>

#include "resolve/coverage.hpp"

namespace dt {

struct CoverageView {
  const Registry* registry = nullptr;
  CoverageKeys keys;
  std::size_t operators = 0;  // operators covered (defined ones: dangling impls are not operators)
  bool color = false;
  std::size_t dangling = 0;  // dangling impls among the rows (reported apart)
};

// Counts per status for both keys, then, per key, the operators a call on it
// fails for (missing, ambiguous), grouped by namespace.
void render_coverage_summary(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out);
// The dangling impls among the rows, apart (nothing when there are none).
void render_coverage_dangling(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out);
// One line per row: operator, key, status, kernel (aligned columns).
void render_coverage_rows(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out);
// A JSON array: {"operator", "namespace", "key", "status", "kernel", "provenance", "dangling"} per row
// (docs/json.md, docs/schema/coverage.schema.json).
void render_coverage_json(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out);

// `coverage --against`: per-status counts under both releases, then per key
// the operators whose status changed, grouped by "old → new" status.
void render_coverage_against(const std::vector<CoverageRow>& old_rows, const std::vector<CoverageRow>& new_rows,
                             const std::vector<CoverageChange>& changes, const CoverageView& old_view,
                             const CoverageView& new_view, std::string& out);
// A JSON array: {"operator", "namespace", "key", "old_status", "new_status"} per changed operator and key
// (null: the release has no such operator; docs/schema/coverage-against.schema.json).
void render_coverage_against_json(const std::vector<CoverageChange>& changes, const CoverageView& v,
                                  std::string& out);

}  // namespace dt
