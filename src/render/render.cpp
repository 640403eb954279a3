#include "render/render.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>

#include "base/text.hpp"

namespace dt {

// ---- exact texts -------------------------------------------------------------

namespace {
std::string_view row_suffix(Provenance why) {
  static const auto suffixes = [] {
    std::array<std::string, 9> a;
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = fmt::format(" [{}]\n", to_string(static_cast<Provenance>(i)));
    return a;
  }();
  return suffixes[static_cast<std::size_t>(why)];
}
}  // namespace

void render_table_raw(const Resolver& r, const Operator& op, const KeyFilter& f, std::string& out) {
  const Profile& p = r.profile();
  thread_local Resolver::OpView view;
  r.prepare(op, view);
  const auto& keys = p.runtime_keys();
  for (std::size_t slot = 0; slot < keys.size(); ++slot) {
    const KeyId k = keys[slot];
    if (!f.allows(k)) continue;
    const Entry e = r.compute(view, slot);
    if (!e.valid()) continue;
    out += r.row_prefix(slot);  // "Key: "
    if (e.fallthrough()) out += "fallthrough ";
    out += e.debug();
    out += row_suffix(e.why);  // " [provenance]\n"
  }
}

void render_registrations_raw(const Registry& reg, const Operator& op, const KeyFilter& f, std::string& out) {
  const Profile& p = reg.profile();
  out += "name: ";
  out += op.name;
  out += '\n';
  if (op.def) {
    out += "schema: ";
    out += op.def->printed;
    out += "\ndebug: ";
    out += op.def->debug;
    out += "\nalias analysis kind: ";
    out += to_string(op.def->alias);
    out += '\n';
  } else {
    out += "schema: (none)\n";
  }
  for (const auto& kk : op.kernels) {  // enum order
    if (!f.allows(kk.key)) continue;
    bool first = true;
    for (const auto& k : kk.kernels) {
      out += p.name_of(kk.key);
      if (p.is_alias(kk.key)) out += "[alias]";
      if (!first) out += " (inactive)";
      first = false;
      out += ": ";
      out += k.debug;
      out += " :: ";
      out += k.signature ? *k.signature : std::string("(none)");
      out += " [ ";
      if (k.fallthrough) out += "fallthrough ";
      out += "boxed ";
      if (!k.fallthrough && !k.boxed_only) out += "unboxed ";
      out += "]\n";
    }
  }
}

// ---- PythonDispatcher --------------------------------------------------------

std::string mask_fallback_paths(std::string_view line) {
  // Greedy regex semantics: leftmost "registered at ", then the LAST
  // "FallbackKernel.cpp" that still has a '[' after it, then the LAST '['.
  static constexpr std::string_view kAt = "registered at ";
  static constexpr std::string_view kFile = "FallbackKernel.cpp";
  std::string out;
  std::size_t pos = 0;
  for (;;) {
    bool replaced = false;
    for (std::size_t s = line.find(kAt, pos); s != std::string_view::npos; s = line.find(kAt, s + 1)) {
      const std::size_t bracket = line.rfind('[');
      if (bracket == std::string_view::npos || bracket < s + kAt.size() + kFile.size()) break;
      const std::size_t f = line.rfind(kFile, bracket - kFile.size());
      if (f == std::string_view::npos || f < s + kAt.size()) continue;
      out.append(line.substr(pos, s - pos));
      out += '[';
      pos = bracket + 1;
      replaced = true;
      break;
    }
    if (!replaced) break;
  }
  out.append(line.substr(pos));
  return out;
}

namespace {

void pd_line(std::string& out, std::string_view key, std::string_view kernel) {
  out += fmt::format("{:<15} {}\n", key, kernel);
}
void pd_header(std::string& out, std::string_view title) {
  out += '\n';
  out += title;
  out += '\n';
  pd_line(out, "key", "kernel");
  out += "---------------------------\n";
}

}  // namespace

void render_table_python_dispatcher(const Profile& p, const std::string& raw_table, std::string& out) {
  pd_header(out, "Computed Dispatch Table");
  const auto& rk = p.python_dispatcher_runtime_keys();
  for (auto line : split(raw_table, "\n")) {
    const auto k = split(line, ":")[0];
    if (std::find(rk.begin(), rk.end(), k) == rk.end()) continue;
    const std::string entry = mask_fallback_paths(line);
    const auto parts = split(entry, ": ");
    pd_line(out, k, parts.size() > 1 ? parts[1] : std::string_view{});
  }
}

void render_registrations_python_dispatcher(const Profile& p, const std::string& raw_registrations, std::string& out) {
  pd_header(out, "Registered Kernels");
  const auto keys = p.python_dispatcher_keys();
  for (auto line : split(raw_registrations, "\n")) {
    const auto first = split(line, ":")[0];
    const bool match =
        std::any_of(keys.begin(), keys.end(), [&](const std::string& k) { return first.starts_with(k); });
    if (!match) continue;
    const auto tokens = split(split(line, "::")[0], " ");
    pd_line(out, first, tokens.size() > 1 ? tokens[1] : std::string_view{});
  }
}

// ---- for people ------------------------------------------------------------------

namespace {

std::string_view colour_of(Provenance p) {
  switch (p) {
    case Provenance::Kernel:
      return "32";  // green
    case Provenance::DefaultBackend:
      return "36";  // cyan
    case Provenance::Nested:
    case Provenance::Math:
      return "34";  // blue
    case Provenance::AmbiguousAutogradOther:
      return "1;31";  // bold red
    case Provenance::Autograd:
      return "35";  // magenta
    case Provenance::Batched:
      return "33";
    case Provenance::BackendFallback:
      return "2";  // dim
    case Provenance::Missing:
      return "31";
  }
  return "0";
}

// Display width of UTF-8 text (code points; fmt pads by the same measure).
std::size_t width_of(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string heading(const Operator& op) {
  if (op.def) return op.def->printed;
  return op.name + "  (no schema: impls without a def)";
}

}  // namespace

void render_table_human(const Resolver& r, const Operator& op, const KeyFilter& f, const HumanStyle& s,
                        std::string& out) {
  const Profile& p = r.profile();
  const Registry& reg = r.registry();
  const auto paint = [&](std::string_view text, std::string_view sgr) { return dt::paint(text, sgr, s.color); };
  // Consecutive rows (table order) that resolve to the same kernel the same way
  // are shown as one line: "HIP … Meta (14 keys)". A run never spans a table
  // row that is not shown (missing, filtered out by --keys, or hidden as
  // served by PyTorch's own fallbacks), so "A … B" means every row from A to B.
  struct Run {
    std::vector<std::string> keys;
    std::string kernel, via;
    Provenance why;
  };
  std::vector<Run> runs;
  std::size_t hidden = 0;
  bool gap = false;  // a row left out since the last one shown
  Resolver::OpView view;
  r.prepare(op, view);
  const auto& keys = p.runtime_keys();
  for (std::size_t slot = 0; slot < keys.size(); ++slot) {
    const KeyId k = keys[slot];
    if (!f.allows(k)) {
      gap = true;
      continue;
    }
    const Entry e = r.compute(view, slot);
    if (!e.valid()) {
      gap = true;
      continue;
    }
    if (e.why == Provenance::BackendFallback && e.fallback->core && !s.show_core_fallbacks && f.empty()) {
      ++hidden;
      gap = true;
      continue;
    }
    std::string via = to_string(e.why);
    if (e.why == Provenance::AmbiguousAutogradOther)
      via += " (raises at run time)";
    else if (e.why != Provenance::Kernel && e.why != Provenance::BackendFallback)
      via += " via " + p.name_of(e.source);
    std::string kernel = std::string(e.fallthrough() ? "fallthrough " : "") + printable(e.debug());
    std::string key = p.display_name(k, reg.privateuse1_name);
    const bool extends = !s.expand && !gap && !runs.empty() && runs.back().kernel == kernel && runs.back().via == via;
    gap = false;
    if (extends) {
      runs.back().keys.push_back(std::move(key));
      continue;
    }
    runs.push_back(Run{{std::move(key)}, std::move(kernel), std::move(via), e.why});
  }
  out += paint(heading(op), "1");
  out += '\n';
  std::vector<std::string> labels;
  std::size_t wk = 3, wn = 6;
  for (const auto& run : runs) {
    const auto& ks = run.keys;
    labels.push_back(ks.size() == 1   ? ks[0]
                     : ks.size() <= 3 ? fmt::format("{}", fmt::join(ks, ", "))
                                      : fmt::format("{} \u2026 {} ({} keys)", ks.front(), ks.back(), ks.size()));
    wk = std::max(wk, width_of(labels.back()));
    wn = std::max(wn, width_of(run.kernel));
  }
  if (!runs.empty()) out += paint(fmt::format("  {:<{}}  {:<{}}  {}", "KEY", wk, "KERNEL", wn, "VIA"), "2") + "\n";
  for (std::size_t i = 0; i < runs.size(); ++i)
    out += fmt::format("  {:<{}}  {:<{}}  {}\n", labels[i], wk, runs[i].kernel, wn,
                       paint(runs[i].via, colour_of(runs[i].why)));
  if (runs.empty()) out += "  (no rows)\n";
  if (hidden > 0)
    out += paint(fmt::format("  + {} keys served by PyTorch's own backend fallbacks (--fallbacks shows them)", hidden),
                 "2") +
           "\n";
}

void render_registrations_human(const Registry& reg, const Operator& op, const KeyFilter& f, const HumanStyle& s,
                                std::string& out) {
  const Profile& p = reg.profile();
  const auto paint = [&](std::string_view text, std::string_view sgr) { return dt::paint(text, sgr, s.color); };
  out += paint(heading(op), "1");
  out += '\n';
  if (op.def) out += fmt::format("  defined {}  ({})\n", printable(op.def->debug), to_string(op.def->where));
  std::size_t wk = 3;
  for (const auto& kk : op.kernels)
    if (f.allows(kk.key)) wk = std::max(wk, p.display_name(kk.key, reg.privateuse1_name).size() + 8);
  for (const auto& kk : op.kernels) {
    if (!f.allows(kk.key)) continue;
    bool first = true;
    for (const auto& k : kk.kernels) {
      std::string key = p.display_name(kk.key, reg.privateuse1_name);
      if (p.is_alias(kk.key)) key += " (alias)";
      std::string flags;
      if (k.fallthrough) flags += " fallthrough";
      if (k.catch_all) flags += " catch-all";
      if (!first) flags += " inactive (overridden)";
      const std::string debug = printable(k.debug);
      out += fmt::format("  {:<{}}  {}{}  {}\n", key, wk, first ? debug : paint(debug, "2"), paint(flags, "33"),
                         paint(to_string(k.where), "2"));
      first = false;
    }
  }
  if (op.kernels.empty()) out += "  (no kernels)\n";
}

}  // namespace dt
