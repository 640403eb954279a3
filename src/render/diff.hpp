// dispatchtool diff: a TableDiff as people read it (runs of keys whose change
// is the same collapsed, as `table` does) and as JSON (docs/json.md "diff").
#pragma once

#include <string>
#include <vector>

#include "resolve/diff.hpp"

namespace dt {

struct DiffSideLabel {
  std::string profile;             // as given to --profile / --against
  std::vector<std::string> files;  // as given on the command line
};

struct DiffView {
  const TableDiff* diff = nullptr;
  DiffSideLabel old_side, new_side;
  bool color = false;
  bool expand = false;     // one line per key, no runs
  bool locations = false;  // also the entries that only moved (OpDiff::moved)
};

struct DiffCounts {
  std::size_t differ = 0;  // operators that differ (OpDiff::differs)
  std::size_t added = 0, removed = 0, changed = 0, schemas = 0, keys = 0;
  std::size_t registrations = 0;  // OpDiff::registrations, all operators
  std::size_t moved = 0;  // key entries that only moved (not differences)
};
DiffCounts count(const TableDiff& d);

// "no differences (3 operators compared)" or
// "2 of 3 operators differ: 1 added, 0 removed, 1 changed (1 schema, 27 key entries)"
// (", 1 registration" inside the parentheses when registrations changed),
// each followed by "; 26 key entries only moved (--locations lists them)" when some did.
std::string diff_summary(const TableDiff& d);
// The readable view; ends with the summary line (only that line when nothing differs).
void render_diff_human(const DiffView& v, std::string& out);
void render_diff_json(const DiffView& v, std::string& out);

}  // namespace dt
