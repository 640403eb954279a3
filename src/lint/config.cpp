// dispatchtool lint: the configuration (config.hpp): .dispatchtool-lint.toml,
// rule selection and severities.
#include "lint/config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "base/toml_reader.hpp"

namespace dt::lint {

namespace {

// Rule ids from a string array, each validated where it is written.
std::optional<std::vector<std::string>> rule_list(TableReader& r, std::string_view key) {
  auto list = r.str_array(key);
  if (!list) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& id : *list) {
    if (auto rule = rule_by_id(id.value); !rule) {
      r.fail(id.where, std::move(rule.error().message));
      return std::nullopt;
    }
    out.push_back(id.value);
  }
  return out;
}

std::optional<Severity> severity_at(TableReader& r, const Located<std::string>& s) {
  auto sev = parse_severity(s.value);
  if (!sev) r.fail(s.where, fmt::format("unknown severity '{}'; expected \"error\", \"warning\" or \"info\"", s.value));
  return sev;
}

bool read_severity_table(const toml::table& t, TableReader& r, const std::string& file, Config& c) {
  for (auto&& [k, v] : t) {
    const Location kwhere = location_of(k.source(), file);
    if (auto rule = rule_by_id(k.str()); !rule) {
      r.fail(kwhere, std::move(rule.error().message));
      return false;
    }
    if (!v.is_string()) {
      r.fail(location_of(v.source(), file),
             fmt::format("severity of '{}' must be a string (\"error\", \"warning\" or \"info\")", k.str()));
      return false;
    }
    auto sev = severity_at(r, {std::string(v.as_string()->get()), location_of(v.source(), file)});
    if (!sev) return false;
    c.severity.push_back({std::string(k.str()), *sev});
  }
  return true;
}

}  // namespace

std::optional<Severity> parse_severity(std::string_view text) {
  if (text == "error") return Severity::Error;
  if (text == "warning") return Severity::Warning;
  if (text == "info") return Severity::Info;
  return std::nullopt;
}

Expected<Config, Diagnostic> parse_config(std::string_view text, const std::string& file) {
  auto root = parse_toml(text, file);
  if (!root) return unexpected(std::move(root.error()));
  std::optional<Diagnostic> error;
  TableReader r(*root, file, "the lint configuration", &error);
  r.allow_only({"select", "ignore", "ignore-tags", "severity", "fail-on", "baseline", "profile"});
  Config c;
  if (auto s = rule_list(r, "select")) c.select = std::move(*s);
  if (auto s = rule_list(r, "ignore")) c.ignore = std::move(*s);
  if (auto tags = r.str_array("ignore-tags"))
    for (auto& t : *tags) c.ignore_tags.emplace_back(std::move(t.value), t.where);
  if (auto f = r.str("fail-on")) c.fail_on = severity_at(r, *f);
  if (auto b = r.str("baseline")) c.baseline = b->value;
  if (auto p = r.str("profile")) {
    c.profile = p->value;
    c.profile_where = p->where;
  }
  if (const toml::table* sev = r.table("severity")) read_severity_table(*sev, r, file, c);
  if (error) return unexpected(std::move(*error));
  return c;
}

Config merge(Config base, const Config& over) {
  if (!over.select.empty()) base.select = over.select;
  base.ignore.insert(base.ignore.end(), over.ignore.begin(), over.ignore.end());
  base.severity.insert(base.severity.end(), over.severity.begin(), over.severity.end());
  base.ignore_tags.insert(base.ignore_tags.end(), over.ignore_tags.begin(), over.ignore_tags.end());
  if (over.fail_on) base.fail_on = over.fail_on;
  if (over.baseline) base.baseline = over.baseline;
  if (over.profile) {
    base.profile = over.profile;
    base.profile_where = over.profile_where;
  }
  return base;
}

bool selected(const Config& config, std::string_view rule) {
  const auto listed = [&](const std::vector<std::string>& ids) {
    return std::find(ids.begin(), ids.end(), rule) != ids.end();
  };
  return (config.select.empty() || listed(config.select)) && !listed(config.ignore);
}

Expected<Ok, Diagnostic> check_ignore_tags(const Config& config, const Profile& profile) {
  for (const auto& [tag, where] : config.ignore_tags)
    if (auto known = profile.check_tag(tag); !known) {
      Diagnostic d = std::move(known.error());
      d.where = where;
      if (!where.known()) d.message = "--ignore-tag: " + d.message;
      return unexpected(std::move(d));
    }
  return Ok{};
}

void drop_ignored_tags(const Config& config, const Registry& reg, std::vector<Finding>& findings) {
  if (config.ignore_tags.empty()) return;
  std::erase_if(findings, [&](const Finding& f) {
    const Operator* op = reg.find(f.op);
    if (op == nullptr || !op->def) return false;
    for (const auto& [tag, where] : config.ignore_tags)
      if (std::find(op->def->tags.begin(), op->def->tags.end(), tag) != op->def->tags.end()) return true;
    return false;
  });
}

void apply(const Config& config, std::vector<Finding>& findings) {
  std::erase_if(findings, [&](const Finding& f) { return !selected(config, f.rule); });
  for (auto& f : findings)
    for (const auto& o : config.severity)  // the last override of a rule wins
      if (o.rule == f.rule) f.severity = o.severity;
}

bool fails(const std::vector<Finding>& findings, Severity fail_on) {
  return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) { return f.severity >= fail_on; });
}

Expected<Config, Diagnostic> load_config(const FileSystem& fs, const std::string& path, bool discover) {
  std::string file = path;
  if (file.empty()) {
    if (!discover || fs.kind(std::string(kConfigFileName)) != FileKind::Regular) return Config{};
    file = std::string(kConfigFileName);
  }
  auto text = fs.read(file);
  if (!text)
    return unexpected(make_error(Location{file, 0, 0}, "cannot read lint configuration: " + text.error().message));
  auto config = parse_config(*text, file);
  if (!config) return config;
  // Relative baseline and profile paths are relative to the configuration file.
  const auto beside_config = [&](const std::string& p) {
    return (std::filesystem::path(file).parent_path() / p).lexically_normal().string();
  };
  if (config->baseline && std::filesystem::path(*config->baseline).is_relative())
    config->baseline = beside_config(*config->baseline);
  if (config->profile && config->profile->ends_with(".toml") && std::filesystem::path(*config->profile).is_relative())
    config->profile = beside_config(*config->profile);
  return config;
}

}  // namespace dt::lint
