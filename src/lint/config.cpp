// dispatchtool lint: configuration (.dispatchtool-lint.toml), rule selection
// and severities, and baselines of accepted findings.
#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "base/text.hpp"
#include "base/toml_reader.hpp"
#include "lint/lint.hpp"

namespace dt::lint {

namespace {

// ---- config file ------------------------------------------------------------------

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

// ---- baseline ------------------------------------------------------------------------

auto entry_key(const BaselineEntry& e) { return std::tie(e.rule, e.op, e.key); }

std::optional<BaselineEntry> read_baseline_entry(const toml::table& t, const std::string& file,
                                                 std::optional<Diagnostic>& error) {
  TableReader r(t, file, "an [[accept]] entry", &error);
  r.allow_only({"rule", "op", "key", "count"});
  auto rule = r.str("rule");
  auto op = r.str("op");
  auto key = r.str("key");
  if (r.failed()) return std::nullopt;
  if (!rule) return r.fail(r.self(), "an [[accept]] entry needs a 'rule'"), std::nullopt;
  if (auto known = rule_by_id(rule->value); !known)
    return r.fail(rule->where, std::move(known.error().message)), std::nullopt;
  BaselineEntry e{rule->value, op ? op->value : "", key ? key->value : "", 1};
  if (const toml::node* n = t.get("count")) {
    const auto* count = n->as_integer();
    if (count == nullptr || count->get() < 1)
      return r.fail(location_of(n->source(), file), "'count' must be a positive integer"), std::nullopt;
    e.count = static_cast<std::size_t>(count->get());
  }
  return e;
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
  r.allow_only({"select", "ignore", "severity", "fail-on", "baseline", "profile"});
  Config c;
  if (auto s = rule_list(r, "select")) c.select = std::move(*s);
  if (auto s = rule_list(r, "ignore")) c.ignore = std::move(*s);
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

void apply(const Config& config, std::vector<Finding>& findings) {
  std::erase_if(findings, [&](const Finding& f) { return !selected(config, f.rule); });
  for (auto& f : findings)
    for (const auto& o : config.severity)  // the last override of a rule wins
      if (o.rule == f.rule) f.severity = o.severity;
}

bool fails(const std::vector<Finding>& findings, Severity fail_on) {
  return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) { return f.severity >= fail_on; });
}

Baseline make_baseline(const std::vector<Finding>& findings) {
  Baseline b;
  for (const auto& f : findings) b.entries.push_back({f.rule, f.op, f.key, 1});
  std::sort(b.entries.begin(), b.entries.end(),
            [](const BaselineEntry& x, const BaselineEntry& y) { return entry_key(x) < entry_key(y); });
  std::vector<BaselineEntry> merged;
  for (auto& e : b.entries) {
    if (!merged.empty() && entry_key(merged.back()) == entry_key(e))
      ++merged.back().count;
    else
      merged.push_back(std::move(e));
  }
  b.entries = std::move(merged);
  return b;
}

std::string write_baseline(const Baseline& baseline) {
  std::string out =
      "# dispatchtool lint baseline: findings accepted as they are; only new ones fail.\n"
      "# Keyed on rule, operator and dispatch key (never on line numbers).\n"
      "# Regenerate with: dispatchtool lint --write-baseline FILE ...\n"
      "version = 1\n";
  for (const auto& e : baseline.entries)
    out += fmt::format("\n[[accept]]\nrule = {}\nop = {}\nkey = {}\ncount = {}\n", json_quote(e.rule), json_quote(e.op),
                       json_quote(e.key), e.count);
  return out;
}

Expected<Baseline, Diagnostic> parse_baseline(std::string_view text, const std::string& file) {
  auto root = parse_toml(text, file);
  if (!root) return unexpected(std::move(root.error()));
  std::optional<Diagnostic> error;
  TableReader r(*root, file, "the lint baseline", &error);
  r.allow_only({"version", "accept"});
  const toml::node* version = root->get("version");
  if (!error && (version == nullptr || version->value<std::int64_t>() != std::int64_t{1}))
    r.fail(version == nullptr ? Location{file, 1, 1} : location_of(version->source(), file),
           "a lint baseline needs 'version = 1'");
  Baseline b;
  if (const toml::array* entries = r.table_array("accept"))
    for (const auto& e : *entries) {
      if (error) break;
      if (auto entry = read_baseline_entry(*e.as_table(), file, error)) b.entries.push_back(std::move(*entry));
    }
  if (error) return unexpected(std::move(*error));
  // Normalise: sorted and unique (counts of repeated entries add up).
  Baseline out;
  std::sort(b.entries.begin(), b.entries.end(),
            [](const BaselineEntry& x, const BaselineEntry& y) { return entry_key(x) < entry_key(y); });
  for (auto& e : b.entries) {
    if (!out.entries.empty() && entry_key(out.entries.back()) == entry_key(e))
      out.entries.back().count += e.count;
    else
      out.entries.push_back(std::move(e));
  }
  return out;
}

BaselineUse apply_baseline(const Baseline& baseline, std::vector<Finding>& findings, const Config& config) {
  std::vector<std::size_t> left;
  left.reserve(baseline.entries.size());
  for (const auto& e : baseline.entries) left.push_back(e.count);
  std::vector<Finding> kept;
  kept.reserve(findings.size());
  std::size_t removed = 0;
  for (auto& f : findings) {
    const BaselineEntry probe{f.rule, f.op, f.key, 0};
    auto it =
        std::lower_bound(baseline.entries.begin(), baseline.entries.end(), probe,
                         [](const BaselineEntry& x, const BaselineEntry& y) { return entry_key(x) < entry_key(y); });
    const bool listed = it != baseline.entries.end() && entry_key(*it) == entry_key(probe);
    if (listed && left[static_cast<std::size_t>(it - baseline.entries.begin())] > 0) {
      --left[static_cast<std::size_t>(it - baseline.entries.begin())];
      ++removed;
    } else {
      kept.push_back(std::move(f));
    }
  }
  findings = std::move(kept);
  BaselineUse use;
  use.accepted = removed;
  // Entries of rules that did not run (--select, --ignore) cannot have matched.
  for (std::size_t i = 0; i < left.size(); ++i)
    if (selected(config, baseline.entries[i].rule)) use.unmatched += left[i];
  return use;
}

}  // namespace dt::lint
