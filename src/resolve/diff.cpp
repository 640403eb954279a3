#include "resolve/diff.hpp"

#include <algorithm>
#include <map>

#include "registry/library.hpp"

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

namespace {

// "registered at FILE:" followed by digits only.
bool default_debug_of(std::string_view debug, std::string_view file) {
  constexpr std::string_view kAt = "registered at ";
  if (!debug.starts_with(kAt)) return false;
  debug.remove_prefix(kAt.size());
  if (!debug.starts_with(file) || debug.size() < file.size() + 2 || debug[file.size()] != ':') return false;
  debug.remove_prefix(file.size() + 1);
  return debug.find_first_not_of("0123456789") == std::string_view::npos;
}

// Whether kernel `k`'s text only says where it was registered (EntryFacts::located).
bool located_kernel(const Kernel& k, std::size_t own_libraries) {
  return (k.library < own_libraries && k.debug.starts_with("registered at ")) ||
         default_debug_of(k.debug, k.where.file.view());
}

}  // namespace

EntryFacts facts_of(const Profile& p, const Entry& e, std::size_t own_libraries) {
  EntryFacts f;
  f.valid = e.valid();
  if (!f.valid) return f;
  f.kernel = std::string(e.debug());
  f.provenance = to_string(e.why);
  f.source = p.name_of(e.source);
  f.fallthrough = e.fallthrough();
  if (e.kernel != nullptr) f.located = located_kernel(*e.kernel, own_libraries);
  if (e.fallback != nullptr) {
    // PyTorch 2.x's Meta fallback raises NotImplementedError (the profile
    // records its message, measured on the real build).
    f.raises = e.fallback->raises ||
               (e.fallback->core && !p.quirks().meta_fallback_error.empty() && f.source == "Meta");
    f.located = !e.fallback->core && default_debug_of(f.kernel, e.fallback->where.file.view());
  }
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
  const bool kernel = core ? a.core_fallback_file == b.core_fallback_file : (a.located && b.located) || a.kernel == b.kernel;
  return kernel && a.provenance == b.provenance && a.source == b.source && a.fallthrough == b.fallthrough &&
         a.raises == b.raises;
}

bool same_registration(const RegistrationFacts& a, const RegistrationFacts& b) {
  if (a.present != b.present) return false;
  if (!a.present) return true;
  return ((a.located && b.located) || a.kernel == b.kernel) && a.signature == b.signature &&
         a.fallthrough == b.fallthrough && a.boxed_only == b.boxed_only;
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

std::size_t own_libraries(const Resolver& r) {
  const OpLibrary* lib = r.registry().library();
  return lib != nullptr ? lib->libraries().size() : 0;
}

std::vector<EntryFacts> facts_by_key(const Resolver& r, std::size_t own, const Operator* op,
                                     const std::vector<std::string>& keys) {
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
    out.push_back(op != nullptr && slot < table.size() ? facts_of(p, table[slot], own) : EntryFacts{});
  }
  return out;
}

RegistrationFacts registration_of(const Operator& op, KeyId k, std::size_t own) {
  RegistrationFacts f;
  const Kernel* kern = op.get(k);
  if (kern == nullptr) return f;
  f.present = true;
  f.kernel = kern->debug;
  f.signature = kern->signature ? *kern->signature : std::string();
  f.fallthrough = kern->fallthrough;
  f.boxed_only = kern->boxed_only;
  f.located = located_kernel(*kern, own);
  return f;
}

// Whether a key change of the table already shows a change on registration key `key`.
bool table_shows(const std::vector<KeyChange>& keys, const std::string& key) {
  return std::any_of(keys.begin(), keys.end(), [&](const KeyChange& c) {
    return (c.old_entry.valid && c.old_entry.source == key) || (c.new_entry.valid && c.new_entry.source == key);
  });
}

// The inputs' registrations of an operator both sides have, key by key (the
// keys with a kernel on either side that both profiles name).
std::vector<RegistrationChange> registration_changes(const Operator& o, const Profile& po, std::size_t own_old,
                                                     const Operator& n, const Profile& pn, std::size_t own_new,
                                                     const std::vector<KeyChange>& table, const DiffFilter& filter) {
  std::vector<std::string> names;
  for (const auto& kk : o.kernels)
    if (!kk.kernels.empty()) names.push_back(po.name_of(kk.key));
  for (const auto& kk : n.kernels)
    if (!kk.kernels.empty() && std::find(names.begin(), names.end(), pn.name_of(kk.key)) == names.end())
      names.push_back(pn.name_of(kk.key));
  std::vector<RegistrationChange> out;
  for (auto& name : names) {
    const auto ko = po.find(name), kn = pn.find(name);
    if (!ko || !kn) continue;  // a key one release lacks: TableDiff::*_only_keys
    RegistrationFacts a = registration_of(o, *ko, own_old), b = registration_of(n, *kn, own_new);
    const Kernel* ka = o.get(*ko);
    const Kernel* kb = n.get(*kn);
    const bool inputs = (ka != nullptr && ka->library >= own_old) || (kb != nullptr && kb->library >= own_new);
    if (!inputs || same_registration(a, b)) continue;
    if (!filter.keys.empty() && std::find(filter.keys.begin(), filter.keys.end(), name) == filter.keys.end()) continue;
    const bool kind_changed = a.present && b.present &&
                              (a.signature != b.signature || a.boxed_only != b.boxed_only);
    if (!kind_changed && table_shows(table, name)) continue;
    out.push_back(RegistrationChange{std::move(name), std::move(a), std::move(b)});
  }
  return out;
}

}  // namespace

TableDiff diff_tables(const DiffSide& old_side, const DiffSide& new_side, const DiffFilter& filter) {
  std::map<std::string, std::pair<const Operator*, const Operator*>> by_name;
  for (const Operator* op : old_side.ops) by_name[op->name].first = op;
  for (const Operator* op : new_side.ops) by_name[op->name].second = op;
  const Profile& po = old_side.resolver->profile();
  const Profile& pn = new_side.resolver->profile();
  TableDiff out;
  // Keys only one release has are said once (TableDiff::*_only_keys), then
  // left out: every operator would otherwise differ by them.
  std::vector<std::string> keys;
  for (auto& name : key_union(po, pn)) {
    if (!filter.keys.empty() && std::find(filter.keys.begin(), filter.keys.end(), name) == filter.keys.end()) continue;
    const auto ko = po.find(name), kn = pn.find(name);
    if (!ko || po.key(*ko).slot < 0)
      out.new_only_keys.push_back(std::move(name));
    else if (!kn || pn.key(*kn).slot < 0)
      out.old_only_keys.push_back(std::move(name));
    else
      keys.push_back(std::move(name));
  }
  const std::size_t own_old = own_libraries(*old_side.resolver), own_new = own_libraries(*new_side.resolver);
  out.compared = by_name.size();
  for (const auto& [name, sides] : by_name) {
    OpDiff d;
    d.name = name;
    d.old_schema = schema_of(sides.first);
    d.new_schema = schema_of(sides.second);
    d.kind = sides.first == nullptr    ? OpChangeKind::Added
             : sides.second == nullptr ? OpChangeKind::Removed
                                       : OpChangeKind::Changed;
    const auto olds = facts_by_key(*old_side.resolver, own_old, sides.first, keys);
    const auto news = facts_by_key(*new_side.resolver, own_new, sides.second, keys);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (!same_entry(olds[i], news[i]))
        d.keys.push_back(KeyChange{keys[i], i, olds[i], news[i]});
      else if (olds[i].valid && olds[i].kernel != news[i].kernel) {
        ++d.moved_count;
        if (filter.locations) d.moved.push_back(KeyChange{keys[i], i, olds[i], news[i]});
      }
    }
    if (sides.first != nullptr && sides.second != nullptr)
      d.registrations = registration_changes(*sides.first, po, own_old, *sides.second, pn, own_new, d.keys, filter);
    if (!d.differs() && d.moved_count == 0) continue;
    out.ops.push_back(std::move(d));
  }
  return out;
}

}  // namespace dt
