// dispatchtool lint: configuration (.dispatchtool-lint.toml and the command
// line): which rules run, their severities, what fails the run.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/io.hpp"
#include "lint/lint.hpp"

namespace dt::lint {

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
  // Where a configuration file gives `baseline` (unset when it comes from the
  // command line): such a baseline is read with FileSystem::read_inside,
  // inside `directory`.
  std::optional<Location> baseline_where;
  // The configuration file's directory ("." for the current one): what a
  // baseline or profile it names must lie below (the repository).
  std::string directory = ".";
  // Operator tags whose operators' findings are dropped (ignore-tags,
  // --ignore-tag), each with where a configuration file gives it (none for the
  // command line): checked against the profile's tags once it is known.
  std::vector<std::pair<std::string, Location>> ignore_tags;
};

// The file auto-discovered in the current directory.
inline constexpr std::string_view kConfigFileName = ".dispatchtool-lint.toml";

// The configuration file `path` (--config, read as the command line names
// it), or, when `path` is empty and `discover` is set, kConfigFileName in the
// current directory (read with FileSystem::read_inside: a regular file inside
// the current directory, symbolic links followed); an empty Config when
// there is none. Relative baseline and profile paths in it become relative
// to its directory. Errors: "cannot read lint configuration: REASON" at the
// file, or parse_config's. A baseline or profile path in the file must stay
// inside the file's directory (the repository), symbolic links resolved:
// otherwise an error at the value (the command line's --baseline and
// --profile may name any file).
Expected<Config, Diagnostic> load_config(const FileSystem& fs, const std::string& path, bool discover);

// Parses a config file: select, ignore, ignore-tags, fail-on, baseline,
// profile and a [severity] table. Unknown keys and rule ids are FILE:LINE:COL errors.
Expected<Config, Diagnostic> parse_config(std::string_view text, const std::string& file);

// `over` on top of `base`: select/fail-on/baseline/profile replace, ignore,
// ignore-tags and severity add (a later severity for the same rule wins).
Config merge(Config base, const Config& over);

// Whether a rule runs under `config` (select, ignore).
bool selected(const Config& config, std::string_view rule);

// Drops unselected and ignored findings and applies the severity overrides.
// Rule ids must have been validated.
void apply(const Config& config, std::vector<Finding>& findings);

// The ignore-tags the profile does not list: the first, located where it is
// given (at the configuration file, or without a location for --ignore-tag).
Expected<Ok, Diagnostic> check_ignore_tags(const Config& config, const Profile& profile);
// Drops the findings about operators (Finding::op) that carry an ignored tag.
void drop_ignored_tags(const Config& config, const Registry& reg, std::vector<Finding>& findings);

// True if some finding is at or above `fail_on`.
bool fails(const std::vector<Finding>& findings, Severity fail_on);

}  // namespace dt::lint
