// _dispatch_dump_table and _dispatch_dump, byte for byte (raw.hpp).
#include "render/raw.hpp"

#include <fmt/format.h>

#include <array>

namespace dt {

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

}  // namespace dt
