// dispatchtool lint: baselines, the findings a project accepts as they are,
// so that only new ones fail.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/io.hpp"
#include "lint/config.hpp"
#include "lint/lint.hpp"

namespace dt::lint {

// Findings that are accepted: keyed on rule, operator and key (never on line
// numbers), with a count for findings that share all three.
struct BaselineEntry {
  std::string rule, op, key;
  std::size_t count = 1;
  friend bool operator==(const BaselineEntry&, const BaselineEntry&) = default;
};

struct Baseline {
  std::vector<BaselineEntry> entries;  // sorted by rule, op, key; unique
};

Baseline make_baseline(const std::vector<Finding>& findings);
// TOML text, stable: sorted entries, no timestamps.
std::string write_baseline(const Baseline& baseline);
// Reads the TOML written by write_baseline (version = 1 and [[accept]] entries
// with rule, op, key and count); errors are FILE:LINE:COL diagnostics.
Expected<Baseline, Diagnostic> parse_baseline(std::string_view text, const std::string& file);
struct BaselineUse {
  std::size_t accepted = 0;   // findings the baseline removed
  std::size_t unmatched = 0;  // baseline counts no finding used: fixed problems (refresh the baseline)
};
// Removes the accepted findings (the first `count` of each (rule, op, key) in
// sorted order); only entries of rules `config` selects count as unmatched.
BaselineUse apply_baseline(const Baseline& baseline, std::vector<Finding>& findings, const Config& config);

// Reads and parses a baseline file. Errors: "cannot read lint baseline:
// REASON" at the file, or parse_baseline's. With `roots` (a baseline a
// repository's configuration names) it is read with fs.read_inside(path,
// roots), else as the command line names it (fs.read).
Expected<Baseline, Diagnostic> load_baseline(const FileSystem& fs, const std::string& path, const Roots& roots = {});
// Writes make_baseline(findings) to `path` and returns it. The error has no
// location: "cannot write baseline 'PATH': REASON".
Expected<Baseline, Diagnostic> save_baseline(const FileSystem& fs, const std::string& path,
                                             const std::vector<Finding>& findings);

}  // namespace dt::lint
