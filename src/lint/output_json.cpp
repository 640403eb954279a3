// dispatchtool lint: the JSON and SARIF 2.1.0 formats (output.hpp), with
// SARIF's URIs and fingerprints.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "base/json_writer.hpp"
#include "keys/profile.hpp"
#include "lint/output.hpp"

namespace dt::lint {

namespace {

// Where the rules are documented (SARIF tool.driver.informationUri must be an
// absolute URI). Change it when the project gets a public home.
constexpr std::string_view kInformationUri = "https://dispatchtool.invalid/docs/lint.md";
constexpr std::string_view kSarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr std::string_view kFingerprintName = "dispatchtoolFinding/v1";

const char* sarif_level(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Info:
      return "note";
  }
  return "warning";
}

std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 14695981039346656037ULL) {
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

// ---- JSON --------------------------------------------------------------------------

void json_location(JsonWriter& w, const Location& loc) {
  w.begin_object();
  w.member("file", loc.file);
  w.member("line", std::uint64_t{loc.line});
  w.member("column", std::uint64_t{loc.column});
  w.end_object();
}

void json_finding(JsonWriter& w, const Finding& f) {
  w.begin_object();
  w.member("rule", f.rule);
  w.member("severity", to_string(f.severity));
  w.member("message", f.message);
  w.key("location");
  json_location(w, f.where);
  w.key("notes");
  w.begin_array();
  for (const auto& n : f.notes) {
    w.begin_object();
    w.key("location");
    json_location(w, n.where);
    w.member("message", n.message);
    w.end_object();
  }
  w.end_array();
  w.member("fix", f.fix);
  w.member("operator", f.op);
  w.member("key", f.key);
  w.end_object();
}

// ---- SARIF ---------------------------------------------------------------------------

std::string rule_help_text(const Rule& r) {
  std::string s = fmt::format("{}\n\n{}", r.summary, r.help);
  if (!r.pytorch.empty()) s += fmt::format("\n\nPyTorch's message: {}", r.pytorch);
  s += r.source.empty() ? fmt::format("\n\nDocs: docs/lint.md#{}", r.id)
                         : fmt::format("\n\nPyTorch: {}. Docs: docs/lint.md#{}", r.source, r.id);
  return s;
}

void sarif_rule(JsonWriter& w, const Rule& r) {
  w.begin_object();
  w.member("id", r.id);
  w.member("name", r.name);
  w.text_member("shortDescription", r.summary);
  w.text_member("fullDescription", r.help);
  w.text_member("help", rule_help_text(r));
  w.key("defaultConfiguration");
  w.begin_object();
  w.member("level", sarif_level(r.severity));
  w.end_object();
  w.key("properties");
  w.begin_object();
  w.key("tags");
  w.begin_array();
  w.str("pytorch");
  w.str("dispatcher");
  w.end_array();
  w.end_object();
  w.end_object();
}

void sarif_physical_location(JsonWriter& w, const Location& loc, const OutputInfo& info) {
  w.key("physicalLocation");
  w.begin_object();
  w.key("artifactLocation");
  w.begin_object();
  const std::string uri = path_to_uri(loc.file, info.base_dir);
  w.member("uri", uri);
  // Relative to the directory lint ran in; consumers such as GitHub code
  // scanning resolve %SRCROOT% to the checkout (no originalUriBaseIds, so that
  // the output does not depend on the machine's paths).
  if (!uri.starts_with("file:") && !uri.starts_with("../")) w.member("uriBaseId", "%SRCROOT%");
  w.end_object();
  if (loc.known()) {
    w.key("region");
    w.begin_object();
    w.member("startLine", std::uint64_t{loc.line});
    w.member("startColumn", std::uint64_t{loc.column == 0 ? 1U : loc.column});
    w.end_object();
  }
  w.end_object();
}

void sarif_result(JsonWriter& w, const Finding& f, std::size_t occurrence, const OutputInfo& info) {
  w.begin_object();
  w.member("ruleId", f.rule);
  w.member("ruleIndex", std::uint64_t{rule_index(f.rule)});
  w.member("level", sarif_level(f.severity));
  w.text_member("message", f.message);
  w.key("locations");
  w.begin_array();
  w.begin_object();
  sarif_physical_location(w, f.where, info);
  w.end_object();
  w.end_array();
  // Notes about PyTorch's own registrations point into a built-in profile,
  // which is not a file of the analysed repository: the message says it all.
  const auto in_builtin_profile = [](const Note& n) {
    const auto& builtin = embedded_profiles();
    return std::any_of(builtin.begin(), builtin.end(),
                       [&](const EmbeddedProfile& e) { return n.where.file == e.path; });
  };
  std::vector<const Note*> related;
  for (const auto& n : f.notes)
    if (!in_builtin_profile(n)) related.push_back(&n);
  if (!related.empty()) {
    w.key("relatedLocations");
    w.begin_array();
    for (std::size_t i = 0; i < related.size(); ++i) {
      w.begin_object();
      w.member("id", std::uint64_t{i + 1});
      sarif_physical_location(w, related[i]->where, info);
      w.text_member("message", related[i]->message);
      w.end_object();
    }
    w.end_array();
  }
  w.key("partialFingerprints");
  w.begin_object();
  Finding shown = f;
  shown.where.file = path_to_uri(f.where.file, info.base_dir);
  w.member(kFingerprintName, fingerprint(shown, occurrence));
  w.end_object();
  w.key("properties");
  w.begin_object();
  w.member("operator", f.op);
  w.member("dispatchKey", f.key);
  w.member("fix", f.fix);
  w.end_object();
  w.end_object();
}

// Occurrence number of each finding among those with the same rule, operator,
// key and file (the findings are sorted, so it is stable).
std::vector<std::size_t> occurrences(const std::vector<Finding>& findings) {
  std::map<std::tuple<std::string_view, std::string_view, std::string_view, std::string_view>, std::size_t> seen;
  std::vector<std::size_t> out;
  out.reserve(findings.size());
  for (const auto& f : findings) out.push_back(seen[{f.rule, f.op, f.key, f.where.file}]++);
  return out;
}

}  // namespace

std::string path_to_uri(std::string_view path, std::string_view base_dir) {
  std::string_view p = path;
  bool absolute = p.starts_with('/');
  if (absolute && !base_dir.empty()) {
    std::string base(base_dir);
    if (!base.ends_with('/')) base += '/';
    if (p.starts_with(base)) {
      p.remove_prefix(base.size());
      absolute = false;
    }
  }
  while (p.starts_with("./")) p.remove_prefix(2);
  std::string out = absolute ? "file://" : "";
  for (char ch : p) {
    const auto c = static_cast<unsigned char>(ch);
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '.' || c == '_' || c == '~' || c == '/';
    if (keep)
      out += ch;
    else
      out += fmt::format("%{:02X}", static_cast<unsigned>(c));
  }
  return out;
}

std::string fingerprint(const Finding& f, std::size_t occurrence) {
  std::uint64_t h = fnv1a(f.rule);
  for (std::string_view part : {std::string_view(f.op), std::string_view(f.key), std::string_view(f.where.file)}) {
    h = fnv1a(std::string_view("\0", 1), h);
    h = fnv1a(part, h);
  }
  h = fnv1a(std::string_view("\0", 1), h);
  h = fnv1a(std::to_string(occurrence), h);
  return fmt::format("{:016x}", h);
}

void render_json(const std::vector<Finding>& findings, const OutputInfo& info, const Summary& summary,
                 std::string& out) {
  JsonWriter w(out);
  begin_envelope(w, info.tool_version, info.profile);
  w.key("findings");
  w.begin_array();
  for (const auto& f : findings) json_finding(w, f);
  w.end_array();
  w.key("summary");
  w.begin_object();
  w.member("error", std::uint64_t{summary.errors});
  w.member("warning", std::uint64_t{summary.warnings});
  w.member("info", std::uint64_t{summary.infos});
  w.member("baselined", std::uint64_t{summary.baselined});
  w.member("stale_baseline", std::uint64_t{summary.stale});
  w.end_object();
  w.end_object();
}

void render_sarif(const std::vector<Finding>& findings, const OutputInfo& info, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.member("$schema", kSarifSchema);
  w.member("version", "2.1.0");
  w.key("runs");
  w.begin_array();
  w.begin_object();
  w.key("tool");
  w.begin_object();
  w.key("driver");
  w.begin_object();
  w.member("name", "dispatchtool");
  w.member("version", info.tool_version);
  w.member("semanticVersion", info.tool_version);
  w.member("informationUri", kInformationUri);
  w.key("rules");
  w.begin_array();
  for (const auto& r : rules()) sarif_rule(w, r);
  w.end_array();
  w.end_object();
  w.end_object();
  // toml++ counts columns in Unicode code points (SARIF's default would be UTF-16 code units).
  w.member("columnKind", "unicodeCodePoints");
  w.key("results");
  w.begin_array();
  const auto occ = occurrences(findings);
  for (std::size_t i = 0; i < findings.size(); ++i) sarif_result(w, findings[i], occ[i], info);
  w.end_array();
  w.key("properties");
  w.begin_object();
  w.member("profile", info.profile);
  w.end_object();
  w.end_object();
  w.end_array();
  w.end_object();
}

}  // namespace dt::lint
