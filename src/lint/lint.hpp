// dispatchtool lint: registration conflicts and dispatcher pitfalls, found in
// loaded registrations (spec dispatch-semantics.md, sections B, C and F).
//
// The rules are data: one table row per rule (id, default severity, texts,
// PyTorch's own message where one exists, and the check). run() applies every
// rule; Config narrows and re-grades the findings; a Baseline accepts known
// findings; the formatters render them. Nothing here prints.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "registry/loader.hpp"

namespace dt::lint {

// One problem found. Every location involved is either `where` or a note.
struct Finding {
  std::string rule;  // rule id, e.g. "duplicate-registration"
  Severity severity = Severity::Warning;
  std::string message;
  Location where;           // primary location
  std::vector<Note> notes;  // every other location involved
  std::string fix;          // how to fix it (one or two sentences)
  // What the finding is about, for baselines and fingerprints (never line
  // numbers): the operator ("ns::name.overload"), or the namespace for
  // library-level findings; and the dispatch key(s), comma-separated. Either
  // may be empty.
  std::string op;
  std::string key;
};

struct CheckContext;  // lint.cpp: the registry, resolver and refusals a check reads
using Check = void (*)(const CheckContext&, std::vector<Finding>&);

// One row of the rule table.
struct Rule {
  std::string_view id;       // stable, kebab-case
  std::string_view name;     // PascalCase (SARIF reportingDescriptor.name)
  Severity severity;         // default severity
  std::string_view summary;  // one line: what it catches
  std::string_view help;     // why it matters and how to fix it
  std::string_view pytorch;  // PyTorch's own message ("" if PyTorch is silent)
  std::string_view spec;     // sections of dispatch-semantics.md
  Check check;
};

// Every rule, in documentation order.
std::span<const Rule> rules();
const Rule* find_rule(std::string_view id);
// Index of a rule in rules() (SARIF ruleIndex); rules().size() if unknown.
std::size_t rule_index(std::string_view id);
// The rule, or the error "unknown lint rule 'x' (did you mean 'y'?)" (no location).
Expected<const Rule*, Diagnostic> rule_by_id(std::string_view id);

// Runs every rule over registrations loaded with LoadOptions{OnRefusal::Record}.
// Findings carry their rule's default severity and are sorted.
std::vector<Finding> run(const LoadResult& loaded);

// By file, line, column, rule, then message, operator and key.
void sort_findings(std::vector<Finding>& findings);

// ---- configuration (config.cpp) ---------------------------------------------

// "error" | "warning" | "info"
std::optional<Severity> parse_severity(std::string_view text);

struct SeverityOverride {
  std::string rule;
  Severity severity = Severity::Warning;
};

struct Config {
  std::vector<std::string> select;  // rule ids to run; empty = all
  std::vector<std::string> ignore;  // rule ids to drop
  std::vector<SeverityOverride> severity;
  std::optional<Severity> fail_on;      // unset = error
  std::optional<std::string> baseline;  // path, relative to the config file's directory
  std::optional<std::string> profile;   // profile name or path (relative to the config file's directory)
  // Where a configuration file gives `profile` (unset when it comes from the
  // command line), so that an unusable profile is reported there.
  std::optional<Location> profile_where;
};

// The file auto-discovered in the current directory.
inline constexpr std::string_view kConfigFileName = ".dispatchtool-lint.toml";

// Parses a config file: select, ignore, fail-on, baseline, profile and a
// [severity] table. Unknown keys and rule ids are FILE:LINE:COL errors.
Expected<Config, Diagnostic> parse_config(std::string_view text, const std::string& file);

// `over` on top of `base`: select/fail-on/baseline/profile replace, ignore and
// severity add (a later severity for the same rule wins).
Config merge(Config base, const Config& over);

// Whether a rule runs under `config` (select, ignore).
bool selected(const Config& config, std::string_view rule);

// Drops unselected and ignored findings and applies the severity overrides.
// Rule ids must have been validated.
void apply(const Config& config, std::vector<Finding>& findings);

// True if some finding is at or above `fail_on`.
bool fails(const std::vector<Finding>& findings, Severity fail_on);

// ---- baseline (config.cpp) ---------------------------------------------------

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

// ---- output (output.cpp) -------------------------------------------------------

enum class Format { Text, Json, Sarif, Github };
std::optional<Format> parse_format(std::string_view text);

struct OutputInfo {
  std::string tool_version;  // DT_VERSION
  std::string profile;       // profile name
  // Absolute paths below this directory are shown relative to it in SARIF
  // (artifactLocation.uri must be relative for GitHub code scanning).
  std::string base_dir;
};

struct Summary {
  std::size_t errors = 0, warnings = 0, infos = 0;
  std::size_t baselined = 0;  // accepted by the baseline (not shown)
  std::size_t stale = 0;      // baseline counts that matched nothing
};
Summary summarize(const std::vector<Finding>& findings, const BaselineUse& baseline = {});
// "3 findings (2 errors, 1 warning, 0 infos); 1 accepted by the baseline;
// 2 findings the baseline accepts no longer occur (fixed? refresh it with --write-baseline)"
std::string summary_line(const Summary& s);

// Appends the findings in `format` (for standard output).
void render(Format format, const std::vector<Finding>& findings, const OutputInfo& info, const Summary& summary,
            std::string& out);
void render_text(const std::vector<Finding>& findings, std::string& out);
void render_json(const std::vector<Finding>& findings, const OutputInfo& info, const Summary& summary,
                 std::string& out);
void render_sarif(const std::vector<Finding>& findings, const OutputInfo& info, std::string& out);
void render_github(const std::vector<Finding>& findings, std::string& out);
// The rule table as text (id, default severity, summary), for --list-rules.
void render_rule_list(std::string& out);

// Escapes for GitHub workflow commands: message data, and property values.
std::string github_escape_data(std::string_view s);
std::string github_escape_property(std::string_view s);
// A path as a relative URI reference (percent-encoded), relative to base_dir
// when it is an absolute path below it.
std::string path_to_uri(std::string_view path, std::string_view base_dir);
// Stable fingerprint (hex) of rule, operator, key, file and the occurrence
// number among findings that share those.
std::string fingerprint(const Finding& f, std::size_t occurrence);

}  // namespace dt::lint
