#include "registry/select.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "base/operator_name.hpp"
#include "base/text.hpp"
#include "keys/old_key_names.hpp"

namespace dt {

namespace {

void add_once(std::vector<KeyId>& keys, KeyId k) {
  if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
}

// The runtime keys `k` stands for, in table order.
std::vector<KeyId> runtime_keys_of(const Profile& p, KeyId k) {
  if (p.is_alias(k)) return p.alias_members(k);
  if (p.is_runtime(k)) return {k};
  return p.building_block_members(k);  // Dense, Sparse, ...: their per-backend runtime keys
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::vector<std::string> q;
  q.reserve(names.size());
  for (const auto& n : names) q.push_back("'" + n + "'");
  return join(q, ", ");
}

}  // namespace

bool KeyFilter::allows(KeyId k) const { return !active || std::find(keys.begin(), keys.end(), k) != keys.end(); }

Expected<KeySelection, Diagnostic> parse_key_filter(const Registry& reg, std::string_view spec) {
  const Profile& p = reg.profile();
  KeySelection sel;
  const std::vector<std::string_view> names = split_list(spec);
  if (names.empty()) return unexpected(make_error("no keys given"));
  for (const std::string_view name : names) {
    auto k = p.find(name);
    if (!k) k = p.find_renamed(name, reg.privateuse1_name);
    if (!k)
      return unexpected(make_error(unknown_key_message(name, unknown_key_hint(p, name, p.key_names()))));
    add_once(sel.registrations.keys, *k);
    for (KeyId m : runtime_keys_of(p, *k)) {
      add_once(sel.table.keys, m);
      add_once(sel.registrations.keys, m);
    }
  }
  sel.table.active = sel.registrations.active = true;
  return sel;
}

namespace {
// An unknown operator of PyTorch's own namespaces (aten, prims, ...) under a
// profile without PyTorch's own operators: say so, since aten::add.Tensor is
// then unknown too.
std::string no_library_note(const Registry& reg, std::string_view word) {
  if (reg.library() != nullptr || !reg.profile().operator_library().empty()) return "";  // or --no-library
  const auto& core = reg.profile().libraries();
  const std::string_view ns = OperatorName::namespace_of(word);
  if (word.find("::") == std::string_view::npos ||
      std::none_of(core.begin(), core.end(), [&](const CoreLibrary& l) { return l.ns == ns; }))
    return "";
  return fmt::format(" (profile {} has no operator library of PyTorch's own operators; torch-2.14 has one)",
                     reg.profile().name());
}
}  // namespace

std::string suggest_operator(const Registry& reg, std::string_view word) {
  // Candidate texts, by how directly they name an operator: the qualified
  // name, then without its overload name; for an unqualified word the same
  // two without the namespace.
  struct Candidate {
    std::string_view text;
    int rank;
    std::string_view name;
  };
  const bool qualified = word.find("::") != std::string_view::npos;
  std::vector<Candidate> candidates;
  for (const std::string_view name : reg.names()) {
    candidates.push_back({name, 0, name});
    candidates.push_back({OperatorName::without_overload(name), 1, name});
    if (!qualified) {
      candidates.push_back({OperatorName::without_namespace(name), 2, name});
      candidates.push_back({OperatorName::without_namespace(OperatorName::without_overload(name)), 3, name});
    }
  }
  std::vector<std::string_view> texts;
  texts.reserve(candidates.size());
  for (const auto& c : candidates) texts.push_back(c.text);
  const auto best = closest(word, texts);
  if (!best) return {};
  int rank = std::numeric_limits<int>::max();
  for (const auto& c : candidates)
    if (c.text == *best) rank = std::min(rank, c.rank);
  std::vector<std::string> names;
  for (const auto& c : candidates)
    if (c.text == *best && c.rank == rank) names.emplace_back(c.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  if (names.size() == 1) return fmt::format(" (did you mean '{}'?)", names.front());
  return fmt::format(" (did you mean one of {}?)", quoted_list(names));
}

Expected<std::vector<const Operator*>, Diagnostic> select_ops(Registry& reg, const std::vector<std::string>& wanted) {
  if (wanted.empty()) return reg.sorted_operators();
  std::vector<const Operator*> out;
  for (const auto& w : wanted) {
    if (const Operator* op = reg.materialize(w)) {
      out.push_back(op);
      continue;
    }
    std::vector<std::string> matches;  // sorted, as names() is
    if (w.find("::") == std::string::npos)
      for (const std::string_view name : reg.names())
        if (OperatorName::without_namespace(name) == w) matches.emplace_back(name);
    if (matches.size() == 1) {
      out.push_back(reg.materialize(matches.front()));
      continue;
    }
    if (matches.size() > 1)
      return unexpected(make_error(fmt::format("operator '{}' is ambiguous: {}; qualify it", w, join(matches, ", "))));
    return unexpected(make_error(fmt::format("unknown operator '{}'{}{}", w, suggest_operator(reg, w),
                                             no_library_note(reg, w))));
  }
  std::sort(out.begin(), out.end(), [](const Operator* a, const Operator* b) { return a->name < b->name; });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Expected<Ok, FilterError> check_filter(const Registry& reg, const OpFilter& f) {
  auto fail = [](FilterField field, std::string message) {
    return unexpected(FilterError{field, make_error(std::move(message))});
  };
  for (const auto& [field, list] : {std::pair{FilterField::Tags, &f.tags}, {FilterField::ExcludeTags, &f.exclude_tags}})
    for (const auto& tag : *list)
      if (auto known = reg.profile().check_tag(tag); !known) return fail(field, std::move(known.error().message));
  if (!f.namespaces.empty()) {
    std::vector<std::string_view> namespaces;
    for (const std::string_view name : reg.names()) namespaces.push_back(OperatorName::namespace_of(name));
    namespaces.erase(std::unique(namespaces.begin(), namespaces.end()), namespaces.end());  // names() is sorted
    for (const auto& ns : f.namespaces)
      if (std::find(namespaces.begin(), namespaces.end(), ns) == namespaces.end())
        return fail(FilterField::Namespaces, fmt::format("unknown namespace '{}'{}", ns, did_you_mean(ns, namespaces)));
  }
  if (!f.pattern.empty() && !is_glob(f.pattern) && !reg.knows(f.pattern))
    return fail(FilterField::Pattern, fmt::format("unknown operator '{}'{}{}", f.pattern,
                                                  suggest_operator(reg, f.pattern), no_library_note(reg, f.pattern)));
  return Ok{};
}

bool passes(const Operator& op, const OpFilter& f) {
  if (!f.namespaces.empty() &&
      std::find(f.namespaces.begin(), f.namespaces.end(), OperatorName::namespace_of(op.name)) == f.namespaces.end())
    return false;
  if (!f.pattern.empty() && !glob_match(f.pattern, op.name)) return false;
  static const std::vector<std::string> kNone;
  const std::vector<std::string>& tags = op.def ? op.def->tags : kNone;
  const auto has = [&](const std::string& t) { return std::find(tags.begin(), tags.end(), t) != tags.end(); };
  return std::all_of(f.tags.begin(), f.tags.end(), has) &&
         std::none_of(f.exclude_tags.begin(), f.exclude_tags.end(), has);
}

std::vector<const Operator*> filter_ops(const std::vector<const Operator*>& ops, const OpFilter& f) {
  std::vector<const Operator*> out;
  for (const Operator* op : ops)
    if (passes(*op, f)) out.push_back(op);
  return out;
}

}  // namespace dt
