// dispatchtool lint: output formats (text, JSON, SARIF 2.1.0, GitHub
// workflow commands) and the summary line. Every format is a pure function
// of the sorted findings.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/baseline.hpp"
#include "lint/lint.hpp"

namespace dt::lint {

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

// Appends the findings in `format` (for standard output). `color` colours the
// text format's severities, rule ids and note/help labels; the other formats
// are for machines and never coloured.
void render(Format format, const std::vector<Finding>& findings, const OutputInfo& info, const Summary& summary,
            std::string& out, bool color = false);
void render_text(const std::vector<Finding>& findings, std::string& out, bool color = false);
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
