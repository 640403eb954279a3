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

std::string name_of(const Registry& reg, KeyId k) { return reg.profile().display_name(k, reg.privateuse1_name); }

// PyTorch's own fallback as people read it, or the files' with its location.
std::string fallback_text(const Fallback& f) {
  std::string out = (f.fallthrough ? "fallthrough " : "") + printable(readable_debug(f.debug));
  if (!f.core) out += fmt::format("  ({})", to_string(f.where));
  return out;
}

void render_runtime_keys(const Registry& reg, std::string& out) {
  const Profile& p = reg.profile();
  out += fmt::format("{} runtime keys (dispatch-table rows, lowest priority first):\n", p.runtime_keys().size());
  std::size_t width = 3;
  for (KeyId k : p.runtime_keys()) width = std::max(width, name_of(reg, k).size());
  out += fmt::format(
      "  {:>4}  {:<{}}  {:<14}  {:<9}  {}\n", "ROW", "KEY", width, "KIND", "PARSEABLE",
      reg.user_fallbacks().empty() ? "CORE BACKEND FALLBACK" : "BACKEND FALLBACK (PyTorch's or the files')");
  for (KeyId k : p.runtime_keys()) {
    const Fallback* f = reg.fallback_for(k);
    out += fmt::format("  {:>4}  {:<{}}  {:<14}  {:<9}  {}\n", p.key(k).slot, name_of(reg, k), width, kind_name(p, k),
                       p.key(k).parseable ? "yes" : "no", f != nullptr ? fallback_text(*f) : "");
  }
}

// The files' fallbacks no table row shows: those on building blocks.
void render_building_block_fallbacks(const Registry& reg, std::string& out) {
  for (const Fallback& f : reg.user_fallbacks())
    if (!reg.profile().is_runtime(f.key))
      out += fmt::format("  (a fallback on {}, which fills no row: {})\n", name_of(reg, f.key), fallback_text(f));
}

}  // namespace

void render_key_names(const Profile& p, std::string& out) {
  for (const KeyInfo& k : p.keys())
    if (k.kind != KeyKind::Marker) out += k.name + "\n";
}

void render_keys(const Registry& reg, std::string& out) {
  const Profile& p = reg.profile();
  out += fmt::format("profile {}: {}\n", p.name(), p.description());
  if (!reg.privateuse1_name.empty())
    out += fmt::format(
        "PrivateUse1 is renamed '{}' (privateuse1_backend, {}): {}\n", printable(reg.privateuse1_name),
        to_string(reg.privateuse1_where),
        p.quirks().privateuse1_shown_renamed
            ? "its keys are shown under that name"
            : "its keys keep their names, as this release prints them (only the \"Could not run\" error uses it)");
  render_runtime_keys(reg, out);
  render_building_block_fallbacks(reg, out);
  out += "\nper-backend functionality keys (registrable, never a table row: a runtime key is one of them on one backend, CPU = Dense on CPU):\n";
  for (std::size_t i = 0; i < p.keys().size(); ++i)  // size_t: KeyId is 16 bits
    if (const auto k = static_cast<KeyId>(i); p.key(k).kind == KeyKind::BuildingBlock)
      out += "  " + name_of(reg, k) + "\n";
  out += "\nalias keys (what each covers, in table order):\n";
  for (KeyId a : p.alias_keys()) {
    const auto members = p.alias_members(a);
    std::vector<std::string> names;
    for (KeyId m : members) names.push_back(name_of(reg, m));
    out += fmt::format("  {} ({} keys): {}\n", name_of(reg, a), members.size(), join(names, ", "));
  }
}

}  // namespace dt
