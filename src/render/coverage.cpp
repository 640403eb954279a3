#include "render/coverage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/operator_name.hpp"
#include "base/text.hpp"

namespace dt {

namespace {

std::string key_name(const CoverageView& v, KeyId k) {
  return v.registry->profile().display_name(k, v.registry->privateuse1_name);
}

// The heading of the list of operators a call fails for.
std::string failing_heading(CoverageStatus s, std::string_view key, std::size_t n) {
  if (s == CoverageStatus::Missing)
    return n == 0 ? fmt::format("{}: nothing to implement (every operator has an entry)", key)
                  : fmt::format("{}: {} {} to implement (no entry: a call raises NotImplementedError):", key, n,
                                n == 1 ? "operator" : "operators");
  return fmt::format("{}: {} {} ambiguous (ambiguous_autogradother: a call raises):", key, n,
                     n == 1 ? "operator is" : "operators are");
}

}  // namespace

void render_coverage_summary(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out) {
  const std::array<KeyId, 2> keys = {v.keys.backend, v.keys.autograd};
  const std::array<std::string, 2> names = {key_name(v, keys[0]), key_name(v, keys[1])};
  std::map<std::pair<CoverageStatus, KeyId>, std::size_t> counts;
  for (const auto& r : rows) ++counts[{r.status, r.key}];
  out += fmt::format("coverage of {} and {} (profile {}): {} {}\n\n", names[0], names[1], v.registry->profile().name(),
                     v.operators, v.operators == 1 ? "operator" : "operators");
  const std::size_t w0 = std::max<std::size_t>(names[0].size(), 5), w1 = std::max<std::size_t>(names[1].size(), 5);
  out += fmt::format("  {:<20}{:>{}}  {:>{}}\n", "status", names[0], w0, names[1], w1);
  for (CoverageStatus s : kCoverageStatuses)
    out += fmt::format("  {:<20}{:>{}}  {:>{}}\n", to_string(s), counts[{s, keys[0]}], w0, counts[{s, keys[1]}], w1);
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (CoverageStatus s : {CoverageStatus::Missing, CoverageStatus::Ambiguous}) {
      std::map<std::string_view, std::vector<std::string_view>> by_ns;
      for (const auto& r : rows)
        if (r.key == keys[i] && r.status == s) by_ns[OperatorName::namespace_of(r.op->name)].push_back(r.op->name);
      const std::size_t n = counts[{s, keys[i]}];
      if (n == 0 && s == CoverageStatus::Ambiguous) continue;
      out += '\n';
      out += failing_heading(s, paint(names[i], "1", v.color), n);
      out += '\n';
      for (const auto& [ns, ops] : by_ns) {
        out += fmt::format("  {} ({})\n", ns, ops.size());
        for (std::string_view op : ops) {
          out += "    ";
          append_printable(op, out);
          out += '\n';
        }
      }
    }
}

void render_coverage_rows(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out) {
  std::size_t wop = 8, wkey = 3, wst = 6;
  for (const auto& r : rows) {
    wop = std::max(wop, printable(r.op->name).size());
    wkey = std::max(wkey, key_name(v, r.key).size());
    wst = std::max(wst, to_string(r.status).size());
  }
  out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", "OPERATOR", wop, "KEY", wkey, "STATUS", wst, "KERNEL");
  for (const auto& r : rows) {
    out += fmt::format("{:<{}}  {:<{}}  ", printable(r.op->name), wop, key_name(v, r.key), wkey);
    if (r.entry.valid()) {
      out += fmt::format("{:<{}}  ", to_string(r.status), wst);
      append_printable(readable_debug(r.entry.debug()), out);
    } else {
      out += to_string(r.status);
    }
    out += '\n';
  }
}

void render_coverage_json(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out) {
  if (rows.empty()) {
    out += "[]\n";
    return;
  }
  out += "[\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CoverageRow& r = rows[i];
    out += fmt::format(
        "  {{\"operator\": {}, \"namespace\": {}, \"key\": {}, \"status\": \"{}\", \"kernel\": {}, "
        "\"provenance\": {}}}{}\n",
        json_quote(r.op->name), json_quote(OperatorName::namespace_of(r.op->name)), json_quote(key_name(v, r.key)),
        to_string(r.status), r.entry.valid() ? json_quote(r.entry.debug()) : "null",
        r.entry.valid() ? json_quote(to_string(r.entry.why)) : "null", i + 1 < rows.size() ? "," : "");
  }
  out += "]\n";
}

}  // namespace dt
