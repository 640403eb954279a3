#include "render/diff.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/json_writer.hpp"
#include "base/text.hpp"
#include "render/readable.hpp"

namespace dt {

DiffCounts count(const TableDiff& d) {
  DiffCounts c;
  for (const auto& op : d.ops) {
    c.moved += op.moved_count;
    if (!op.differs()) continue;
    ++c.differ;
    if (op.kind == OpChangeKind::Added) ++c.added;
    if (op.kind == OpChangeKind::Removed) ++c.removed;
    if (op.kind == OpChangeKind::Changed) ++c.changed;
    if (op.kind == OpChangeKind::Changed && op.old_schema != op.new_schema) ++c.schemas;
    if (op.kind == OpChangeKind::Changed) c.keys += op.keys.size();
    c.registrations += op.registrations.size();
  }
  return c;
}

std::string diff_summary(const TableDiff& d) {
  const auto plural = [](std::size_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
  };
  const DiffCounts c = count(d);
  const std::string moved =
      c.moved == 0 ? std::string()
                   : fmt::format("; {} only moved (--locations lists them)", plural(c.moved, "key entry", "key entries"));
  if (c.differ == 0)
    return fmt::format("no differences ({} compared){}", plural(d.compared, "operator", "operators"), moved);
  const std::string regs =
      c.registrations == 0 ? std::string() : ", " + plural(c.registrations, "registration", "registrations");
  return fmt::format("{} of {} differ: {} added, {} removed, {} changed ({}, {}{}){}", c.differ,
                     plural(d.compared, "operator", "operators"), c.added, c.removed, c.changed,
                     plural(c.schemas, "schema", "schemas"), plural(c.keys, "key entry", "key entries"), regs, moved);
}

namespace {

// One side of a key's entry, in the raw table's words: "KERNEL [provenance]",
// with the alias or fallback key when it is not the key itself.
std::string cell(const EntryFacts& f, const std::string& key) {
  if (!f.key_exists) return "(no such key)";
  if (!f.valid) return "missing";
  std::string out = f.core_fallback_file.empty() ? printable(f.kernel) : "PyTorch's " + printable(f.core_fallback_file);
  out += " [" + f.provenance;
  if (f.source != key) out += " via " + f.source;
  out += ']';
  if (f.fallthrough) out += " fallthrough";
  if (f.raises) out += " raises";
  return out;
}

struct ChangeRun {
  std::vector<std::string> keys;
  std::size_t last = 0;
  std::string old_text, new_text;
};

// Appends key `key` (at table index `index`) to the last run when it is the
// next key and reads the same, else starts a run; `expand`: one run per key.
void extend_runs(std::vector<ChangeRun>& out, const std::string& key, std::size_t index, std::string o, std::string n,
                 bool expand) {
  if (!expand && !out.empty() && out.back().last + 1 == index && out.back().old_text == o &&
      out.back().new_text == n) {
    out.back().keys.push_back(key);
    out.back().last = index;
    return;
  }
  out.push_back(ChangeRun{{key}, index, std::move(o), std::move(n)});
}

// Adjacent keys whose old and new entries read the same (ignoring the key in
// "via") form one run. A key's own kernel ("[kernel]") names the key, so two
// keys with direct kernels never merge, as in `table`.
// An added or removed operator: the rows PyTorch's own backend fallbacks serve
// are counted, not listed (as `table` does).
bool fallback_only(const OpDiff& d, const KeyChange& k) {
  if (d.kind == OpChangeKind::Changed) return false;
  return !(d.kind == OpChangeKind::Added ? k.new_entry : k.old_entry).core_fallback_file.empty();
}

std::vector<ChangeRun> runs_of(const OpDiff& d, const std::vector<KeyChange>& changes, bool expand) {
  std::vector<ChangeRun> out;
  for (const auto& k : changes) {
    if (!k.old_entry.key_exists || !k.new_entry.key_exists) continue;  // listed by name (keys_only)
    if (fallback_only(d, k)) continue;
    std::string o = cell(k.old_entry, k.key), n = cell(k.new_entry, k.key);
    extend_runs(out, k.key, k.index, std::move(o), std::move(n), expand);
  }
  return out;
}

// The rows of `runs` under a "KEY OLD NEW" heading (`label` before each key).
void human_runs(const DiffView& v, const std::vector<ChangeRun>& runs, std::string_view label, std::string& out) {
  if (runs.empty()) return;
  std::vector<std::string> labels;
  std::size_t wk = 3, wo = 3;
  for (const auto& r : runs) {
    labels.push_back(std::string(label) + key_run_label(r.keys));
    wk = std::max(wk, utf8_width(labels.back()));
    wo = std::max(wo, utf8_width(r.old_text));
  }
  const auto pad = [](const std::string& s, std::size_t w) { return s + std::string(w - utf8_width(s), ' '); };
  out += paint(fmt::format("  {}  {}    {}", pad("KEY", wk), pad("OLD", wo), "NEW"), "2", v.color) + '\n';
  for (std::size_t i = 0; i < runs.size(); ++i)
    out += fmt::format("  {}  {} \u2192 {}\n", pad(labels[i], wk), pad(runs[i].old_text, wo), runs[i].new_text);
}

// A moved entry's two texts: the kernel text itself on both sides.
std::vector<ChangeRun> moved_runs(const OpDiff& d, bool expand) {
  std::vector<ChangeRun> out;
  for (const auto& k : d.moved) {
    std::string o = printable(k.old_entry.kernel), n = printable(k.new_entry.kernel);
    extend_runs(out, k.key, k.index, std::move(o), std::move(n), expand);
  }
  return out;
}

// A registration as _dispatch_dump prints it, without the key: "KERNEL :: SIGNATURE [ boxed unboxed ]".
std::string registration_text(const RegistrationFacts& f) {
  if (!f.present) return "(none)";
  std::string out = printable(f.kernel);
  out += " :: ";
  out += f.signature.empty() ? std::string("(none)") : printable(f.signature);
  out += " [ ";
  if (f.fallthrough) out += "fallthrough ";
  out += "boxed ";
  if (!f.fallthrough && !f.boxed_only) out += "unboxed ";
  out += ']';
  return out;
}

void human_registrations(const OpDiff& d, std::string& out) {
  for (const auto& r : d.registrations) {
    std::string label = "  registration on " + r.key + "  ";
    out += label + registration_text(r.old_reg) + '\n';
    out += std::string(utf8_width(label) - 2, ' ') + "\u2192 " + registration_text(r.new_reg) + '\n';
  }
}

void human_op(const DiffView& v, const OpDiff& d, std::string& out) {
  const char* sign = !d.differs()                     ? "="
                     : d.kind == OpChangeKind::Added   ? "+"
                     : d.kind == OpChangeKind::Removed ? "-"
                                                       : "~";
  const std::string& schema = d.kind == OpChangeKind::Removed ? d.old_schema : d.new_schema;
  out += paint(fmt::format("{} {}", sign, schema.empty() ? d.name : printable(schema)), "1", v.color);
  out += fmt::format("  ({})\n", d.differs() ? to_string(d.kind) : "moved");
  if (d.kind == OpChangeKind::Changed && d.old_schema != d.new_schema) {
    out += "  schema  " + (d.old_schema.empty() ? std::string("(no def)") : printable(d.old_schema)) + '\n';
    out += "       \u2192 " + (d.new_schema.empty() ? std::string("(no def)") : printable(d.new_schema)) + '\n';
  }
  human_runs(v, runs_of(d, d.keys, v.expand), "", out);
  human_registrations(d, out);
  if (v.locations) human_runs(v, moved_runs(d, v.expand), "moved: ", out);
  const auto served = std::count_if(d.keys.begin(), d.keys.end(), [&](const KeyChange& k) {
    return k.old_entry.key_exists && k.new_entry.key_exists && fallback_only(d, k);
  });
  if (served > 0)
    out += fmt::format("  + {} keys served by PyTorch's own backend fallbacks (--format json lists them)\n", served);
}

void json_entry(JsonWriter& w, std::string_view name, const EntryFacts& f) {
  w.key(name);
  w.begin_object();
  w.bool_member("key_exists", f.key_exists);
  if (f.valid) {
    w.member("kernel", f.kernel);
    w.member("provenance", f.provenance);
    w.member("source_key", f.source);
    w.bool_member("fallthrough", f.fallthrough);
    w.bool_member("raises", f.raises);
  } else {
    for (const char* m : {"kernel", "provenance", "source_key", "fallthrough", "raises"}) w.null_member(m);
  }
  w.end_object();
}


void json_registration(JsonWriter& w, std::string_view name, const RegistrationFacts& f) {
  if (!f.present) {
    w.null_member(name);
    return;
  }
  w.key(name);
  w.begin_object();
  w.member("kernel", f.kernel);
  w.nonempty_member("signature", f.signature);
  w.bool_member("fallthrough", f.fallthrough);
  w.bool_member("boxed_only", f.boxed_only);
  w.end_object();
}

void json_side(JsonWriter& w, std::string_view name, const DiffSideLabel& s) {
  w.key(name);
  w.begin_object();
  w.member("profile", s.profile);
  w.key("files");
  w.begin_array();
  for (const auto& f : s.files) w.str(f);
  w.end_array();
  w.end_object();
}

}  // namespace

void render_diff_human(const DiffView& v, std::string& out) {
  for (const bool old_only : {true, false}) {
    const auto& names = old_only ? v.diff->old_only_keys : v.diff->new_only_keys;
    if (names.empty()) continue;
    out += fmt::format("{} {} only {} has (not compared): {}\n\n", names.size(), names.size() == 1 ? "key" : "keys",
                       old_only ? v.old_side.profile : v.new_side.profile, fmt::join(names, ", "));
  }
  for (const auto& d : v.diff->ops) {
    if (!d.differs() && !v.locations) continue;
    human_op(v, d, out);
    out += '\n';
  }
  out += diff_summary(*v.diff);
  out += '\n';
}

void render_diff_json(const DiffView& v, std::string& out) {
  const TableDiff& t = *v.diff;
  const DiffCounts c = count(t);
  JsonWriter w(out);
  begin_envelope(w, DT_VERSION, v.old_side.profile);
  json_side(w, "old", v.old_side);
  json_side(w, "new", v.new_side);
  w.key("summary");
  w.begin_object();
  w.member("compared", std::uint64_t{t.compared});
  w.member("differ", std::uint64_t{c.differ});
  w.member("added", std::uint64_t{c.added});
  w.member("removed", std::uint64_t{c.removed});
  w.member("changed", std::uint64_t{c.changed});
  w.member("schema_changes", std::uint64_t{c.schemas});
  w.member("key_changes", std::uint64_t{c.keys});
  w.member("registration_changes", std::uint64_t{c.registrations});
  w.member("moved_keys", std::uint64_t{c.moved});
  w.end_object();
  for (const bool old_only : {true, false}) {
    w.key(old_only ? "old_only_keys" : "new_only_keys");
    w.begin_array();
    for (const auto& k : old_only ? t.old_only_keys : t.new_only_keys) w.str(k);
    w.end_array();
  }
  w.key("operators");
  w.begin_array();
  const auto json_keys = [&](std::string_view name, const std::vector<KeyChange>& changes) {
    w.key(name);
    w.begin_array();
    for (const auto& k : changes) {
      w.begin_object();
      w.member("key", k.key);
      json_entry(w, "old", k.old_entry);
      json_entry(w, "new", k.new_entry);
      w.end_object();
    }
    w.end_array();
  };
  for (const auto& d : t.ops) {
    if (!d.differs() && !v.locations) continue;
    w.begin_object();
    w.member("operator", d.name);
    w.member("change", d.differs() ? to_string(d.kind) : "moved");
    w.nonempty_member("old_schema", d.old_schema);
    w.nonempty_member("new_schema", d.new_schema);
    json_keys("keys", d.keys);
    w.key("registrations");
    w.begin_array();
    for (const auto& r : d.registrations) {
      w.begin_object();
      w.member("key", r.key);
      json_registration(w, "old", r.old_reg);
      json_registration(w, "new", r.new_reg);
      w.end_object();
    }
    w.end_array();
    if (v.locations) json_keys("moved", d.moved);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace dt
