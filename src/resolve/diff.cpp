#include "resolve/diff.hpp"

#include <map>

namespace dt {

const char* to_string(OpChangeKind k) {
  switch (k) {
    case OpChangeKind::Added:
      return "added";
    case OpChangeKind::Removed:
      return "removed";
    case OpChangeKind::Changed:
      return "changed";
  }
  return "changed";
}

EntryFacts facts_of(const Profile& p, const Entry& e) {
  EntryFacts f;
  f.valid = e.valid();
  if (!f.valid) return f;
  f.kernel = std::string(e.debug());
  f.provenance = to_string(e.why);
  f.source = p.name_of(e.source);
  f.fallthrough = e.fallthrough();
  if (e.fallback != nullptr && e.fallback->core) {
    std::string_view file = e.debug();
    if (auto colon = file.rfind(':'); colon != std::string_view::npos) file = file.substr(0, colon);
    if (auto slash = file.rfind('/'); slash != std::string_view::npos) file = file.substr(slash + 1);
    f.core_fallback_file = std::string(file);
  }
  return f;
}

bool same_entry(const EntryFacts& a, const EntryFacts& b) {
  if (a.key_exists != b.key_exists || a.valid != b.valid) return false;
  if (!a.valid) return true;
  const bool core = !a.core_fallback_file.empty() && !b.core_fallback_file.empty();
  return (core ? a.core_fallback_file == b.core_fallback_file : a.kernel == b.kernel) && a.provenance == b.provenance &&
         a.source == b.source && a.fallthrough == b.fallthrough;
}

namespace {

std::string schema_of(const Operator* op) { return op != nullptr && op->def ? op->def->printed : std::string(); }

// The runtime keys of both sides by name: the old side's table order, then the
// keys only the new side's profile has, in its order.
std::vector<std::string> key_union(const Profile& a, const Profile& b) {
  std::vector<std::string> out;
  for (KeyId k : a.runtime_keys()) out.push_back(a.name_of(k));
  for (KeyId k : b.runtime_keys())
    if (!a.find(b.name_of(k))) out.push_back(b.name_of(k));
  return out;
}

std::vector<EntryFacts> facts_by_key(const Resolver& r, const Operator* op, const std::vector<std::string>& keys) {
  const Profile& p = r.profile();
  std::vector<Entry> table;
  if (op != nullptr) r.compute_table(*op, table);
  std::vector<EntryFacts> out;
  out.reserve(keys.size());
  for (const auto& name : keys) {
    auto k = p.find(name);
    if (!k || p.key(*k).slot < 0) {
      EntryFacts f;
      f.key_exists = false;
      out.push_back(f);
      continue;
    }
    const auto slot = static_cast<std::size_t>(p.key(*k).slot);
    out.push_back(op != nullptr && slot < table.size() ? facts_of(p, table[slot]) : EntryFacts{});
  }
  return out;
}

}  // namespace

TableDiff diff_tables(const DiffSide& old_side, const DiffSide& new_side) {
  std::map<std::string, std::pair<const Operator*, const Operator*>> by_name;
  for (const Operator* op : old_side.ops) by_name[op->name].first = op;
  for (const Operator* op : new_side.ops) by_name[op->name].second = op;
  const std::vector<std::string> keys = key_union(old_side.resolver->profile(), new_side.resolver->profile());
  TableDiff out;
  out.compared = by_name.size();
  for (const auto& [name, sides] : by_name) {
    OpDiff d;
    d.name = name;
    d.old_schema = schema_of(sides.first);
    d.new_schema = schema_of(sides.second);
    d.kind = sides.first == nullptr    ? OpChangeKind::Added
             : sides.second == nullptr ? OpChangeKind::Removed
                                       : OpChangeKind::Changed;
    const auto olds = facts_by_key(*old_side.resolver, sides.first, keys);
    const auto news = facts_by_key(*new_side.resolver, sides.second, keys);
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (!same_entry(olds[i], news[i])) d.keys.push_back(KeyChange{keys[i], i, olds[i], news[i]});
    if (d.kind == OpChangeKind::Changed && d.keys.empty() && d.old_schema == d.new_schema) continue;
    out.ops.push_back(std::move(d));
  }
  return out;
}

}  // namespace dt
