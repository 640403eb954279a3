#include "resolve/coverage.hpp"

#include <fmt/format.h>

#include <map>

#include "base/text.hpp"
#include "keys/old_key_names.hpp"

namespace dt {

std::string_view to_string(CoverageStatus s) {
  switch (s) {
    case CoverageStatus::Kernel:
      return "kernel";
    case CoverageStatus::CompositeExplicit:
      return "composite-explicit";
    case CoverageStatus::CompositeImplicit:
      return "composite-implicit";
    case CoverageStatus::Autograd:
      return "autograd";
    case CoverageStatus::Fallback:
      return "fallback";
    case CoverageStatus::RaisingFallback:
      return "raising-fallback";
    case CoverageStatus::Fallthrough:
      return "fallthrough";
    case CoverageStatus::Ambiguous:
      return "ambiguous";
    case CoverageStatus::Missing:
      return "missing";
  }
  return "missing";
}

std::optional<CoverageStatus> parse_coverage_status(std::string_view text) {
  for (CoverageStatus s : kCoverageStatuses)
    if (to_string(s) == text) return s;
  return std::nullopt;
}

CoverageStatus coverage_status(const Entry& e) {
  if (e.fallthrough()) return CoverageStatus::Fallthrough;
  switch (e.why) {
    case Provenance::Kernel:
      return CoverageStatus::Kernel;
    case Provenance::DefaultBackend:
      return CoverageStatus::CompositeExplicit;
    case Provenance::Nested:
    case Provenance::Math:
    case Provenance::Batched:
      return CoverageStatus::CompositeImplicit;
    case Provenance::AmbiguousAutogradOther:
      return CoverageStatus::Ambiguous;
    case Provenance::Autograd:
      return CoverageStatus::Autograd;
    case Provenance::BackendFallback:
      return CoverageStatus::Fallback;
    case Provenance::Missing:
      break;
  }
  return CoverageStatus::Missing;
}

CoverageStatus coverage_status(const Profile& p, const Entry& e, KeyId key) {
  const CoverageStatus s = coverage_status(e);
  if (s != CoverageStatus::Fallback || e.fallback == nullptr) return s;
  if (e.fallback->raises) return CoverageStatus::RaisingFallback;
  // PyTorch 2.x's Meta backend fallback (aten/src/ATen/core/MetaFallbackKernel.cpp)
  // raises NotImplementedError; the profile has its message where it does.
  if (e.fallback->core && !p.quirks().meta_fallback_error.empty() && p.name_of(key) == "Meta")
    return CoverageStatus::RaisingFallback;
  return s;
}

bool call_raises(CoverageStatus s) {
  return s == CoverageStatus::Missing || s == CoverageStatus::Ambiguous || s == CoverageStatus::RaisingFallback;
}

Expected<CoverageKeys, Diagnostic> coverage_keys(const Registry& reg, std::string_view name) {
  const Profile& p = reg.profile();
  auto refuse = [](std::string message) { return unexpected(make_error(std::move(message))); };
  auto k = p.find(name);
  if (!k) k = p.find_renamed(name, reg.privateuse1_name);
  if (!k) {
    std::vector<std::string_view> names;
    std::vector<std::string> renamed;
    for (KeyId r : p.runtime_keys()) renamed.push_back(p.display_name(r, reg.privateuse1_name));
    for (const auto& n : renamed) names.emplace_back(n);
    return refuse(unknown_key_message(name, unknown_key_hint(p, name, names)));
  }
  const KeyInfo& info = p.key(*k);
  const std::string shown = p.display_name(*k, reg.privateuse1_name);
  if (info.kind == KeyKind::Alias)
    return refuse(fmt::format("{} is an alias key; give one backend it covers (e.g. CPU)", shown));
  if (info.kind == KeyKind::BuildingBlock) {
    const auto members = p.building_block_members(*k);
    return refuse(fmt::format(
        "{} is a building block, not a backend; give one of its runtime keys{}", shown,
        members.empty() ? std::string() : " (e.g. " + p.display_name(members.front(), reg.privateuse1_name) + ")"));
  }
  if (*k == kUndefined || !p.is_runtime(*k)) return refuse(fmt::format("{} has no row in the dispatch table", shown));
  if (p.in_alias(*k, AliasRule::Autograd))
    return refuse(
        fmt::format("{} is an autograd key; give the backend it serves (coverage reports "
                    "the backend's autograd key with it)",
                    shown));
  return CoverageKeys{*k, p.autograd_key_for_backend_of(*k)};
}

std::vector<CoverageRow> compute_coverage(const Resolver& r, const std::vector<const Operator*>& ops,
                                          const CoverageKeys& keys) {
  std::vector<CoverageRow> rows;
  rows.reserve(2 * ops.size());
  const auto slot = [&](KeyId k) { return static_cast<std::size_t>(r.profile().key(k).slot); };
  Resolver::OpView view;
  for (const Operator* op : ops) {
    r.prepare(*op, view);
    for (KeyId k : {keys.backend, keys.autograd}) {
      const Entry e = r.compute(view, slot(k));
      rows.push_back(CoverageRow{op, !op->def.has_value(), k, coverage_status(r.profile(), e, k), e});
    }
  }
  return rows;
}

std::vector<CoverageChange> compare_coverage(const std::vector<CoverageRow>& old_rows,
                                             const std::vector<CoverageRow>& new_rows) {
  std::map<std::string_view, CoverageChange> by_name;
  const auto add = [&](const std::vector<CoverageRow>& rows, bool is_new) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const CoverageRow& r = rows[i];
      if (r.dangling) continue;
      CoverageChange& c = by_name[r.op->name];
      c.op = r.op->name;
      // compute_coverage: the backend key's row, then the autograd key's.
      (is_new ? c.new_status : c.old_status)[i % 2] = r.status;
    }
  };
  add(old_rows, false);
  add(new_rows, true);
  std::vector<CoverageChange> out;
  for (auto& [name, c] : by_name)
    if (c.old_status != c.new_status) out.push_back(std::move(c));
  return out;
}

}  // namespace dt
