#include "registry/select.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "base/operator_name.hpp"
#include "base/text.hpp"

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
      return unexpected(
          make_error(fmt::format("unknown dispatch key '{}'{}", name, did_you_mean(name, p.key_names()))));
    add_once(sel.registrations.keys, *k);
    for (KeyId m : runtime_keys_of(p, *k)) {
      add_once(sel.table.keys, m);
      add_once(sel.registrations.keys, m);
    }
  }
  sel.table.active = sel.registrations.active = true;
  return sel;
}

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
    return unexpected(make_error(fmt::format("unknown operator '{}'{}", w, suggest_operator(reg, w))));
  }
  std::sort(out.begin(), out.end(), [](const Operator* a, const Operator* b) { return a->name < b->name; });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace dt
