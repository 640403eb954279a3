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
  std::size_t operators = 0;  // operators covered (rows / 2)
  bool color = false;
};

// Counts per status for both keys, then, per key, the operators a call on it
// fails for (missing, ambiguous), grouped by namespace.
void render_coverage_summary(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out);
// One line per row: operator, key, status, kernel (aligned columns).
void render_coverage_rows(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out);
// A JSON array: {"operator", "namespace", "key", "status", "kernel", "provenance"} per row
// (docs/json.md, docs/schema/coverage.schema.json).
void render_coverage_json(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out);

}  // namespace dt
