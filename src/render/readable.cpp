// The readable views (readable.hpp).
#include "render/readable.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

#include "base/text.hpp"
#include "resolve/key_call.hpp"

namespace dt {

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

std::string heading(const Operator& op) {
  if (op.def) return op.def->printed;
  return op.name + "  (no schema: impls without a def)";
}

// Consecutive rows (table order) that resolve to the same kernel the same way
// are shown as one line: "HIP … Meta (14 keys)". A run never spans a table
// row that is not shown (missing, filtered out by --keys, or hidden as
// served by PyTorch's own fallbacks), so "A … B" means every row from A to B.
struct KeyRun {
  std::vector<std::string> keys;
  std::string kernel, via;
  Provenance why;
};

struct Runs {
  std::vector<KeyRun> runs;
  std::size_t hidden = 0;  // rows served by PyTorch's own fallbacks, not shown
};

// How a row's entry came about, in the words of PyTorch's tutorials (the
// raw view keeps computeDispatchTableEntryWithDebug's own: "math kernel", ...):
// "CompositeImplicitAutograd kernel (alias key)". `stale`: the runtime entry
// differs (a note below the table says how).
std::string via_of(const Profile& p, const Entry& e, bool stale = false) {
  std::string via;
  switch (e.why) {
    case Provenance::Kernel:
      via = "kernel";
      break;
    case Provenance::BackendFallback:
      via = "backend fallback";
      break;
    case Provenance::AmbiguousAutogradOther:
      via = stale ? "ambiguous AutogradOther" : "ambiguous AutogradOther (raises at run time)";
      break;
    case Provenance::Missing:
      via = "missing: no kernel (a call raises \"Could not run\")";
      break;
    default:
      via = p.name_of(e.source) + " kernel (alias key)";
  }
  if (stale) via += " (stale at run time: see below)";
  return via;
}

Runs collect_runs(const Resolver& r, const Operator& op, const KeyFilter& f, const HumanStyle& s,
                  const std::vector<KeyAnswer>& stale) {
  const Profile& p = r.profile();
  Runs out;
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
    // Missing rows are shown where asked for: --all-keys, or the key given to --keys.
    if (!e.valid() && !s.all_keys && f.empty()) {
      gap = true;
      continue;
    }
    if (e.why == Provenance::BackendFallback && e.fallback->core && !s.show_core_fallbacks && !s.all_keys &&
        f.empty()) {
      ++out.hidden;
      gap = true;
      continue;
    }
    const bool is_stale =
        std::any_of(stale.begin(), stale.end(), [&](const KeyAnswer& a) { return a.slot == slot; });
    std::string via = via_of(p, e, is_stale);
    std::string kernel = !e.valid() ? std::string("-")
                                    : std::string(e.fallthrough() ? "fallthrough " : "") +
                                          printable(readable_debug(e.debug()));
    std::string key = p.display_name(k, r.registry().privateuse1_name);
    auto& runs = out.runs;
    const bool extends = !s.expand && !gap && !runs.empty() && runs.back().kernel == kernel && runs.back().via == via;
    gap = false;
    if (extends) {
      runs.back().keys.push_back(std::move(key));
      continue;
    }
    runs.push_back(KeyRun{{std::move(key)}, std::move(kernel), std::move(via), e.why});
  }
  return out;
}

std::string label_of(const KeyRun& run) { return key_run_label(run.keys); }

}  // namespace

std::string key_run_label(const std::vector<std::string>& keys) {
  if (keys.size() == 1) return keys[0];
  if (keys.size() <= 3) return fmt::format("{}", fmt::join(keys, ", "));
  return fmt::format("{} \u2026 {} ({} keys)", keys.front(), keys.back(), keys.size());
}

void render_table_human(const Resolver& r, const Operator& op, const KeyFilter& f, const HumanStyle& s,
                        std::string& out, const RuntimeTables* runtime) {
  const auto paint = [&](std::string_view text, std::string_view sgr) { return dt::paint(text, sgr, s.color); };
  // Rows whose runtime entry is not the dumps' (key_call.hpp): what calls do instead.
  std::vector<KeyAnswer> stale;
  if (may_be_stale(r.registry(), op)) {
    std::optional<RuntimeTables> own;
    if (runtime == nullptr) runtime = &own.emplace(r);
    const RuntimeTable& table = runtime->of(op);
    const auto& keys = r.profile().runtime_keys();
    for (std::size_t slot = 0; slot < keys.size(); ++slot)
      if (f.allows(keys[slot]))
        if (KeyAnswer a = answer_key(table, slot); a.stale) stale.push_back(a);
  }
  const Runs rows = collect_runs(r, op, f, s, stale);
  const auto& runs = rows.runs;
  out += paint(heading(op), "1");
  out += '\n';
  std::vector<std::string> labels;
  std::size_t wk = 3, wn = 6;
  for (const auto& run : runs) {
    labels.push_back(label_of(run));
    wk = std::max(wk, utf8_width(labels.back()));
    wn = std::max(wn, utf8_width(run.kernel));
  }
  if (!runs.empty()) out += paint(fmt::format("  {:<{}}  {:<{}}  {}", "KEY", wk, "KERNEL", wn, "VIA"), "2") + "\n";
  for (std::size_t i = 0; i < runs.size(); ++i)
    out += fmt::format("  {:<{}}  {:<{}}  {}\n", labels[i], wk, runs[i].kernel, wn,
                       paint(runs[i].via, colour_of(runs[i].why)));
  if (runs.empty()) out += "  (no rows)\n";
  for (const KeyAnswer& a : stale)
    out += "  " + paint("at run time:", "1") + " " + stale_note(r.profile(), r.registry().privateuse1_name, a) + "\n";
  if (rows.hidden > 0)
    out += paint(fmt::format("  + {} keys served by PyTorch's own backend fallbacks (--fallbacks shows them; --all-keys every row)",
                             rows.hidden),
                 "2") +
           "\n";
}

namespace {

// "defined at FILE:LINE:COL", and the def's debug text when it says more
// than its location (PyTorch's own: where torch registered it).
std::string defined_line(const Definition& d) {
  std::string out = "defined at " + to_string(d.where);
  if (d.debug != fmt::format("registered at {}:{}", d.where.file, d.where.line)) out += " (" + printable(d.debug) + ")";
  return out;
}

}  // namespace

void render_registrations_human(const Registry& reg, const Operator& op, const KeyFilter& f, const HumanStyle& s,
                                std::string& out) {
  const Profile& p = reg.profile();
  const auto paint = [&](std::string_view text, std::string_view sgr) { return dt::paint(text, sgr, s.color); };
  out += paint(heading(op), "1");
  out += '\n';
  if (op.def) out += "  " + defined_line(*op.def) + "\n";
  struct Line {
    std::string key, debug, flags, where;
    bool active;
  };
  std::vector<Line> lines;
  std::size_t wk = 3, wd = 0;
  for (const auto& kk : op.kernels) {
    if (!f.allows(kk.key)) continue;
    for (std::size_t i = 0; i < kk.kernels.size(); ++i) {
      const Kernel& k = kk.kernels[i];
      Line l{p.display_name(kk.key, reg.privateuse1_name), printable(readable_debug(k.debug)), "", to_string(k.where),
             i == 0};
      if (p.is_alias(kk.key)) l.key += " (alias)";
      if (k.fallthrough) l.flags += " fallthrough";
      if (k.catch_all) l.flags += " catch-all";
      if (i > 0) l.flags += " inactive (overridden)";
      wk = std::max(wk, utf8_width(l.key));
      wd = std::max(wd, utf8_width(l.debug) + l.flags.size());
      lines.push_back(std::move(l));
    }
  }
  // Columns: key, kernel (and its flags), location.
  for (const Line& l : lines) {
    const std::size_t pad = wd - utf8_width(l.debug) - l.flags.size();
    out += fmt::format("  {:<{}}  {}{}{}  {}\n", l.key, wk, l.active ? l.debug : paint(l.debug, "2"),
                       paint(l.flags, "33"), std::string(pad, ' '), paint(l.where, "2"));
  }
  if (op.kernels.empty()) out += "  (no kernels)\n";
}

namespace {

std::vector<const Fallback*> files_fallbacks(const Registry& reg, const KeyFilter& f) {
  std::vector<const Fallback*> out;
  for (const Fallback& fb : reg.user_fallbacks())
    if (f.allows(fb.key)) out.push_back(&fb);
  return out;
}

}  // namespace

void render_fallbacks_human(const Registry& reg, const KeyFilter& f, const HumanStyle& s, std::string& out) {
  const auto fallbacks = files_fallbacks(reg, f);
  if (fallbacks.empty()) return;
  const auto paint = [&](std::string_view text, std::string_view sgr) { return dt::paint(text, sgr, s.color); };
  std::vector<std::string> keys, kernels;
  std::size_t wk = 3, wn = 6;
  for (const Fallback* fb : fallbacks) {
    keys.push_back(reg.profile().display_name(fb->key, reg.privateuse1_name));
    kernels.push_back((fb->fallthrough ? "fallthrough " : "") + printable(fb->debug));
    wk = std::max(wk, utf8_width(keys.back()));
    wn = std::max(wn, utf8_width(kernels.back()));
  }
  out += paint("backend fallbacks the files register (each serves every operator without a kernel for its key):", "1");
  out += '\n';
  for (std::size_t i = 0; i < fallbacks.size(); ++i)
    out +=
        fmt::format("  {:<{}}  {:<{}}  {}\n", keys[i], wk, kernels[i], wn, paint(to_string(fallbacks[i]->where), "2"));
}

void render_fallback_count(const Registry& reg, const KeyFilter& f, const HumanStyle& s, std::string& out) {
  const auto fallbacks = files_fallbacks(reg, f);
  if (fallbacks.empty()) return;
  std::vector<std::string> items;
  for (const Fallback* fb : fallbacks)
    items.push_back(fmt::format("{}: {}{}", reg.profile().display_name(fb->key, reg.privateuse1_name),
                                fb->fallthrough ? "fallthrough " : "", printable(fb->debug)));
  out += dt::paint(fmt::format("backend fallbacks registered by the files: {} ({}); each serves every operator "
                               "without a kernel for its key ('registrations' lists them)",
                               fallbacks.size(), fmt::join(items, ", ")),
                   "2", s.color);
  out += '\n';
}

void render_no_operators(const Registry& reg, std::string& out) {
  out += "no operators: the files define none and register no kernels";
  if (reg.library() != nullptr) out += " (--op NAME or --all shows PyTorch's own operators)";
  out += '\n';
}

}  // namespace dt
