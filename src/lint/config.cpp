// dispatchtool lint: the configuration (config.hpp): .dispatchtool-lint.toml,
// rule selection and severities.
#include "lint/config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "base/toml_reader.hpp"
#include "keys/profile.hpp"

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
  DT_TRY(root, parse_toml(text, file));
  std::optional<Diagnostic> error;
  TableReader r(root, file, "the lint configuration", &error);
  r.allow_only({"select", "ignore", "ignore-tags", "severity", "fail-on", "baseline", "profile"});
  Config c;
  if (auto s = rule_list(r, "select")) c.select = std::move(*s);
  if (auto s = rule_list(r, "ignore")) c.ignore = std::move(*s);
  if (auto tags = r.str_array("ignore-tags"))
    for (auto& t : *tags) c.ignore_tags.emplace_back(std::move(t.value), t.where);
  if (auto f = r.str("fail-on")) c.fail_on = severity_at(r, *f);
  if (auto b = r.str("baseline")) {
    c.baseline = b->value;
    c.baseline_where = b->where;
  }
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
  if (over.baseline) {
    base.baseline = over.baseline;
    base.baseline_where = over.baseline_where;
  }
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
      d.where = where;  // unknown for a tag the caller gave, not the file
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

namespace {

// An error unless `path` (relative to `dir`) resolves, symbolic links
// followed, to a file inside `dir`.
std::optional<Diagnostic> outside_repository(const FileSystem& fs, const std::string& dir, const std::string& path,
                                             const Location& where, std::string_view what, std::string_view option) {
  const auto root = fs.real_path(dir.empty() ? std::string(".") : dir);
  const auto target = fs.real_path(path);
  if (!root) return root.error();
  if (target && lies_below(*target, {*root})) return std::nullopt;
  // The path is not echoed: the location shows the value, and an error must
  // not confirm what exists outside the repository.
  return make_error(where, fmt::format("{} names a file outside the repository: a path in a lint configuration must "
                                       "name a file inside the configuration's directory (give it with {} to use it)",
                                       what, option));
}

}  // namespace

Expected<Config, Diagnostic> load_config(const FileSystem& fs, const std::string& path, bool discover) {
  std::string file = path;
  if (file.empty()) {
    if (!discover) return Config{};
    const FileKind kind = fs.kind(std::string(kConfigFileName));
    if (kind == FileKind::Missing) return Config{};
    // A loop of symbolic links, a directory, a FIFO: an error, never a crash or a wait.
    if (kind != FileKind::Regular)
      return unexpected(make_error(Location{std::string(kConfigFileName), 0, 0},
                                   "cannot read lint configuration: not a regular file (or a loop of symbolic links)"));
    file = std::string(kConfigFileName);
  }
  // A discovered configuration is the repository's: a regular file inside it.
  auto text = path.empty() ? fs.read_inside(file, {"."}) : fs.read(file);
  if (!text) return unexpected(read_error(std::move(text.error()), file, "cannot read lint configuration"));
  auto config = parse_config(*text, file);
  if (!config) return config;
  // Relative baseline and profile paths are relative to the configuration file.
  const std::string dir = std::filesystem::path(file).parent_path().string();
  config->directory = dir.empty() ? std::string(".") : dir;
  const auto beside_config = [&](const std::string& p) {
    return (std::filesystem::path(file).parent_path() / p).lexically_normal().string();
  };
  if (config->baseline) {
    if (std::filesystem::path(*config->baseline).is_relative()) config->baseline = beside_config(*config->baseline);
    if (auto e = outside_repository(fs, dir, *config->baseline, *config->baseline_where, "baseline", "--baseline"))
      return unexpected(std::move(*e));
  }
  // A profile file, or a profile directory (what dispatchtool-export writes:
  // a path with a '/' or an existing directory); a built-in's name (as on the
  // command line, it wins) or an unknown name is left as it is.
  const auto names_a_path = [&](const std::string& p) {
    if (std::any_of(embedded_profiles().begin(), embedded_profiles().end(),
                    [&](const EmbeddedProfile& e) { return p == e.name; }))
      return false;
    return p.ends_with(".toml") || p.find('/') != std::string::npos || fs.kind(beside_config(p)) == FileKind::Directory;
  };
  if (config->profile && names_a_path(*config->profile)) {
    if (std::filesystem::path(*config->profile).is_relative()) config->profile = beside_config(*config->profile);
    if (auto e = outside_repository(fs, dir, *config->profile, *config->profile_where, "profile", "--profile"))
      return unexpected(std::move(*e));
  }
  return config;
}

}  // namespace dt::lint
