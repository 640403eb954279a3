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
  if (s == CoverageStatus::RaisingFallback)
    return fmt::format("{}: {} {} to implement (only a backend fallback that raises serves {}):", key, n,
                       n == 1 ? "operator" : "operators", n == 1 ? "it" : "them");
  return fmt::format("{}: {} {} ambiguous (ambiguous_autogradother: a call raises):", key, n,
                     n == 1 ? "operator is" : "operators are");
}

}  // namespace

void render_coverage_summary(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out) {
  const std::array<KeyId, 2> keys = {v.keys.backend, v.keys.autograd};
  const std::array<std::string, 2> names = {key_name(v, keys[0]), key_name(v, keys[1])};
  std::map<std::pair<CoverageStatus, KeyId>, std::size_t> counts;
  for (const auto& r : rows)
    if (!r.dangling) ++counts[{r.status, r.key}];
  out += fmt::format("coverage of {} and {} (profile {}): {} {}", names[0], names[1], v.registry->profile().name(),
                     v.operators, v.operators == 1 ? "operator" : "operators");
  if (v.dangling > 0)
    out += fmt::format(" (and {} dangling {}, listed apart)", v.dangling, v.dangling == 1 ? "impl" : "impls");
  out += "\n\n";
  const std::size_t w0 = std::max<std::size_t>(names[0].size(), 5), w1 = std::max<std::size_t>(names[1].size(), 5);
  out += fmt::format("  {:<20}{:>{}}  {:>{}}\n", "status", names[0], w0, names[1], w1);
  for (CoverageStatus s : kCoverageStatuses)
    out += fmt::format("  {:<20}{:>{}}  {:>{}}\n", to_string(s), counts[{s, keys[0]}], w0, counts[{s, keys[1]}], w1);
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (CoverageStatus s : {CoverageStatus::Missing, CoverageStatus::RaisingFallback, CoverageStatus::Ambiguous}) {
      std::map<std::string_view, std::vector<std::string_view>> by_ns;
      for (const auto& r : rows)
        if (!r.dangling && r.key == keys[i] && r.status == s)
          by_ns[OperatorName::namespace_of(r.op->name)].push_back(r.op->name);
      const std::size_t n = counts[{s, keys[i]}];
      const bool raising = counts[{CoverageStatus::RaisingFallback, keys[i]}] > 0;
      if (n == 0 && (s != CoverageStatus::Missing || raising)) continue;
      out += '\n';
      out += failing_heading(s, paint(names[i], "1", v.color), n);
      out += '\n';
      if (s == CoverageStatus::RaisingFallback)  // what it raises, as the [[fallback]] says (message)
        for (const auto& r : rows)
          if (!r.dangling && r.key == keys[i] && r.status == s && r.entry.fallback != nullptr &&
              !r.entry.fallback->message.empty()) {
            out += "  it raises \"";
            append_printable(r.entry.fallback->message, out);
            out += "\"\n";
            break;
          }
      for (const auto& [ns, ops] : by_ns) {
        out += fmt::format("  {} ({})\n", ns, ops.size());
        for (std::string_view op : ops) {
          out += "    ";
          append_printable(op, out);
          out += '\n';
        }
      }
    }
  render_coverage_dangling(rows, v, out);
}

void render_coverage_dangling(const std::vector<CoverageRow>& rows, const CoverageView& v, std::string& out) {
  if (v.dangling == 0) return;
  out += fmt::format("\n{} dangling {} (kernels registered for operators nothing defines; not counted above):\n",
                     v.dangling, v.dangling == 1 ? "impl" : "impls");
  for (const auto& r : rows) {
    if (!r.dangling || r.key != v.keys.backend) continue;
    out += "  ";
    append_printable(r.op->name, out);
    out += '\n';
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
        "\"provenance\": {}, \"dangling\": {}}}{}\n",
        json_quote(r.op->name), json_quote(OperatorName::namespace_of(r.op->name)), json_quote(key_name(v, r.key)),
        to_string(r.status), r.entry.valid() ? json_quote(r.entry.debug()) : "null",
        r.entry.valid() ? json_quote(to_string(r.entry.why)) : "null", r.dangling ? "true" : "false",
        i + 1 < rows.size() ? "," : "");
  }
  out += "]\n";
}

namespace {

std::string status_text(const std::optional<CoverageStatus>& s) {
  return s ? std::string(to_string(*s)) : std::string("(no such operator)");
}

}  // namespace

void render_coverage_against(const std::vector<CoverageRow>& old_rows, const std::vector<CoverageRow>& new_rows,
                             const std::vector<CoverageChange>& changes, const CoverageView& old_view,
                             const CoverageView& new_view, std::string& out) {
  const std::array<std::string, 2> names = {key_name(new_view, new_view.keys.backend),
                                            key_name(new_view, new_view.keys.autograd)};
  const std::string& po = old_view.registry->profile().name();
  const std::string& pn = new_view.registry->profile().name();
  out += fmt::format("coverage of {} and {}, {} \u2192 {}: {} \u2192 {} operators, {} with a changed status\n\n",
                     names[0], names[1], po, pn, old_view.operators, new_view.operators, changes.size());
  // Counts per status and key (index 0 backend, 1 autograd) on each side.
  std::map<std::pair<CoverageStatus, std::size_t>, std::size_t> co, cn;
  for (std::size_t i = 0; i < old_rows.size(); ++i)
    if (!old_rows[i].dangling) ++co[{old_rows[i].status, i % 2}];
  for (std::size_t i = 0; i < new_rows.size(); ++i)
    if (!new_rows[i].dangling) ++cn[{new_rows[i].status, i % 2}];
  std::array<std::size_t, 2> w{};
  std::vector<std::array<std::string, 2>> cells;
  for (CoverageStatus s : kCoverageStatuses) {
    cells.push_back({fmt::format("{} \u2192 {}", co[{s, 0}], cn[{s, 0}]),
                     fmt::format("{} \u2192 {}", co[{s, 1}], cn[{s, 1}])});
    for (std::size_t k = 0; k < 2; ++k) w[k] = std::max(w[k], cells.back()[k].size() - 2);  // the arrow is 1 column
  }
  for (std::size_t k = 0; k < 2; ++k) w[k] = std::max(w[k], names[k].size());
  const auto pad_left = [](const std::string& s, std::size_t width, std::size_t bytes_extra) {
    const std::size_t cols = s.size() - bytes_extra;
    return std::string(width > cols ? width - cols : 0, ' ') + s;
  };
  out += fmt::format("  {:<20}{}  {}\n", "status", pad_left(names[0], w[0], 0), pad_left(names[1], w[1], 0));
  for (std::size_t i = 0; i < kCoverageStatuses.size(); ++i)
    out += fmt::format("  {:<20}{}  {}\n", to_string(kCoverageStatuses[i]), pad_left(cells[i][0], w[0], 2),
                       pad_left(cells[i][1], w[1], 2));
  for (std::size_t k = 0; k < 2; ++k) {
    std::map<std::pair<std::string, std::string>, std::vector<std::string_view>> groups;
    std::size_t n = 0;
    for (const auto& c : changes) {
      if (c.old_status[k] == c.new_status[k]) continue;
      groups[{status_text(c.old_status[k]), status_text(c.new_status[k])}].push_back(c.op);
      ++n;
    }
    out += '\n';
    if (n == 0) {
      out += fmt::format("{}: no operator changes status\n", paint(names[k], "1", new_view.color));
      continue;
    }
    out += fmt::format("{}: {} {} status:\n", paint(names[k], "1", new_view.color), n,
                       n == 1 ? "operator changes" : "operators change");
    for (const auto& [pair, ops] : groups) {
      out += fmt::format("  {} \u2192 {} ({})\n", pair.first, pair.second, ops.size());
      for (std::string_view op : ops) {
        out += "    ";
        append_printable(op, out);
        out += '\n';
      }
    }
  }
}

void render_coverage_against_json(const std::vector<CoverageChange>& changes, const CoverageView& v,
                                  std::string& out) {
  const std::array<std::string, 2> names = {key_name(v, v.keys.backend), key_name(v, v.keys.autograd)};
  const auto status = [](const std::optional<CoverageStatus>& s) {
    return s ? fmt::format("\"{}\"", to_string(*s)) : std::string("null");
  };
  std::vector<std::string> items;
  for (const auto& c : changes)
    for (std::size_t k = 0; k < 2; ++k)
      if (c.old_status[k] != c.new_status[k])
        items.push_back(fmt::format(
            "  {{\"operator\": {}, \"namespace\": {}, \"key\": {}, \"old_status\": {}, \"new_status\": {}}}",
            json_quote(c.op), json_quote(OperatorName::namespace_of(c.op)), json_quote(names[k]),
            status(c.old_status[k]), status(c.new_status[k])));
  if (items.empty()) {
    out += "[]\n";
    return;
  }
  out += "[\n";
  for (std::size_t i = 0; i < items.size(); ++i) out += items[i] + (i + 1 < items.size() ? ",\n" : "\n");
  out += "]\n";
}

}  // namespace dt
