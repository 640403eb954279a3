// dispatchtool lint: baselines (baseline.hpp): accepted findings, keyed on
// rule, operator and key, as TOML, read and written through the FileSystem.
#include "lint/baseline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "base/text.hpp"
#include "base/toml_reader.hpp"

namespace dt::lint {

namespace {

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
  DT_TRY(root, parse_toml(text, file));
  std::optional<Diagnostic> error;
  TableReader r(root, file, "the lint baseline", &error);
  r.allow_only({"version", "accept"});
  const toml::node* version = root.get("version");
  // An integer node only: toml++'s value<int64_t>() converts a float (1e222)
  // with a cast that is undefined behaviour out of range (found by fuzz_lint_config).
  const auto* version_int = version == nullptr ? nullptr : version->as_integer();
  if (!error && (version_int == nullptr || version_int->get() != std::int64_t{1}))
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

Expected<Baseline, Diagnostic> load_baseline(const FileSystem& fs, const std::string& path, const Roots& roots) {
  auto text = roots.empty() ? fs.read(path) : fs.read_inside(path, roots);
  if (!text) return unexpected(read_error(std::move(text.error()), path, "cannot read lint baseline"));
  return parse_baseline(*text, path);
}

Expected<Baseline, Diagnostic> save_baseline(const FileSystem& fs, const std::string& path,
                                             const std::vector<Finding>& findings) {
  Baseline b = make_baseline(findings);
  if (auto written = fs.write(path, write_baseline(b)); !written) {
    const std::string& reason = written.error().message;
    return unexpected(make_error(reason.empty() ? fmt::format("cannot write baseline '{}'", path)
                                                : fmt::format("cannot write baseline '{}': {}", path, reason)));
  }
  return b;
}

}  // namespace dt::lint
