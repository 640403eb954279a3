// The key listing (keys.hpp).
#include "render/keys.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/text.hpp"

namespace dt {

namespace {

std::string_view kind_name(const Profile& p, KeyId k) {
  const KeyInfo& info = p.key(k);
  switch (info.kind) {
    case KeyKind::Undefined:
      return "undefined";
    case KeyKind::PerBackend:
      return "per-backend";
    case KeyKind::Functionality:
      return "functionality";
    case KeyKind::BuildingBlock:
      return "building block";
    case KeyKind::Alias:
      return "alias";
    case KeyKind::Marker:
      break;
  }
  return "";
}

void render_runtime_keys(const Profile& p, std::string& out) {
  out += fmt::format("{} runtime keys (dispatch-table rows, lowest priority first):\n", p.runtime_keys().size());
  std::size_t width = 3;
  for (KeyId k : p.runtime_keys()) width = std::max(width, p.name_of(k).size());
  out += fmt::format("  {:>4}  {:<{}}  {:<14}  {:<9}  {}\n", "ROW", "KEY", width, "KIND", "PARSEABLE",
                     "CORE BACKEND FALLBACK");
  for (KeyId k : p.runtime_keys()) {
    std::string fb;
    for (const auto& f : p.fallbacks())
      if (f.key == k) fb = (f.fallthrough ? "fallthrough " : "") + f.debug;
    out += fmt::format("  {:>4}  {:<{}}  {:<14}  {:<9}  {}\n", p.key(k).slot, p.name_of(k), width, kind_name(p, k),
                       p.key(k).parseable ? "yes" : "no", fb);
  }
}

}  // namespace

void render_key_names(const Profile& p, std::string& out) {
  for (KeyId k = 0; k < p.keys().size(); ++k)
    if (p.key(k).kind != KeyKind::Marker) out += p.name_of(k) + "\n";
}

void render_keys(const Profile& p, std::string& out) {
  out += fmt::format("profile {}: {}\n", p.name(), p.description());
  render_runtime_keys(p, out);
  out += "\nbuilding blocks (registrable, never a table row):\n";
  for (KeyId k = 0; k < p.keys().size(); ++k)
    if (p.key(k).kind == KeyKind::BuildingBlock) out += "  " + p.name_of(k) + "\n";
  out += "\nalias keys (what each covers, in table order):\n";
  for (KeyId a : p.alias_keys()) {
    const auto members = p.alias_members(a);
    std::vector<std::string> names;
    for (KeyId m : members) names.push_back(p.name_of(m));
    out += fmt::format("  {} ({} keys): {}\n", p.name_of(a), members.size(), join(names, ", "));
  }
}

}  // namespace dt
