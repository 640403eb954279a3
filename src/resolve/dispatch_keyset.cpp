#include "resolve/dispatch_keyset.hpp"

#include <bit>

#include "base/text.hpp"
#include "keys/old_key_names.hpp"

namespace dt {

KeysetAlgebra::KeysetAlgebra(const Profile& p) : p_(&p), nb_(p.backends().size()) {
  backends_ = KeySet::low_bits(static_cast<unsigned>(nb_));
  for (KeyId k : p.runtime_keys()) full_ |= p.key(k).bits;
  members_.resize(p.keys().size());
  for (std::size_t v = 0; v < p.keys().size(); ++v) {
    const KeyInfo& info = p.key(static_cast<KeyId>(v));
    if (info.kind != KeyKind::BuildingBlock) continue;
    auto& m = members_[v];
    m.assign(nb_, kUndefined);
    for (KeyId k : p.building_block_members(static_cast<KeyId>(v)))
      if (p.key(k).backend >= 0 && static_cast<std::size_t>(p.key(k).backend) < nb_)
        m[static_cast<std::size_t>(p.key(k).backend)] = k;
  }
}

KeyId KeysetAlgebra::functionality_key(int bit) const {
  // Functionality key with enum value v is bit nb + v - 1 (dispatcher-notes A.1).
  return static_cast<KeyId>(static_cast<std::size_t>(bit) - nb_ + 1);
}

KeySet KeysetAlgebra::full_after(KeyId k) const {
  const KeySet func = functionality(p_->key(k).bits);
  const KeySet below = func.empty() ? KeySet{} : KeySet::low_bits(static_cast<unsigned>(func.highest_bit()));
  return below | named("PythonDispatcher");
}

int KeysetAlgebra::highest_backend(KeySet ks) const { return (ks & backends_).highest_bit(); }

std::size_t KeysetAlgebra::backend_index(KeySet ks) const {
  const int b = highest_backend(ks);
  return b < 0 ? 0 : static_cast<std::size_t>(b);
}

HighestKey KeysetAlgebra::highest(KeySet ks) const {
  HighestKey h;
  h.name = p_->name_of(kUndefined);
  h.backend = highest_backend(ks);
  const KeySet func = functionality(ks);
  if (func.empty()) return h;
  h.functionality = functionality_key(func.highest_bit());
  const KeyInfo& f = p_->key(h.functionality);
  if (f.kind != KeyKind::BuildingBlock) {
    h.key = h.functionality;
  } else {
    const auto& m = members_[h.functionality];
    if (m.empty()) return h;
    h.key = m[h.backend < 0 ? 0 : static_cast<std::size_t>(h.backend)];
    if (h.backend < 0) {
      // No backend bit: the offset of the functionality plus 0, i.e. the first
      // backend's slot; toString names the key "<prefix>Unknown".
      const std::string& first = p_->name_of(m[0]);
      h.name = first.substr(0, first.size() - p_->backends()[0].size()) + "Unknown";
    }
  }
  h.slot = static_cast<std::size_t>(std::max(0, p_->key(h.key).slot));
  if (h.backend >= 0 || f.kind != KeyKind::BuildingBlock) h.name = p_->name_of(h.key);
  return h;
}

std::optional<KeySet> KeysetAlgebra::bits_of(std::string_view name, std::string_view privateuse1) const {
  auto k = p_->find(name);
  if (!k) k = p_->find_renamed(name, privateuse1);
  if (!k || p_->key(*k).kind == KeyKind::Marker) return std::nullopt;
  if (!p_->is_alias(*k)) return p_->key(*k).bits;
  KeySet out;
  for (KeyId m : p_->alias_members(*k)) out |= p_->key(m).bits;
  return out;
}

Expected<KeySet, Diagnostic> KeysetAlgebra::parse(std::string_view list, std::string_view privateuse1) const {
  KeySet out;
  for (std::string_view name : split(list, ",")) {
    name = trim(name);
    if (name.empty()) return unexpected(make_error(std::string("empty key name in '") + std::string(list) + "'"));
    auto bits = bits_of(name, privateuse1);
    if (!bits)
      return unexpected(make_error(unknown_key_message(printable(name), unknown_key_hint(*p_, name, p_->key_names())) +
                                   " (profile " + p_->name() + ")"));
    out |= *bits;
  }
  return out;
}

std::vector<std::string> KeysetAlgebra::names(KeySet ks, std::string_view privateuse1) const {
  std::vector<std::string> out;
  for (KeyId k : p_->iterate(ks)) out.push_back(p_->display_name(k, privateuse1));
  if (!ks.has_any(backends_))
    for (std::size_t v = 0; v < members_.size(); ++v)
      if (!members_[v].empty() && ks.has_all(p_->key(static_cast<KeyId>(v)).bits))
        out.push_back(p_->name_of(static_cast<KeyId>(v)) + " (no backend)");
  return out;
}

std::vector<std::string> KeysetAlgebra::functionality_names(KeySet ks) const {
  std::vector<std::string> out;
  for (int bit = static_cast<int>(nb_); bit < 64; ++bit)
    if (ks.has_bit(static_cast<unsigned>(bit))) out.push_back(p_->name_of(functionality_key(bit)));
  return out;
}

std::vector<std::string> KeysetAlgebra::backend_names(KeySet ks) const {
  std::vector<std::string> out;
  for (std::size_t b = 0; b < nb_; ++b)
    if (ks.has_bit(static_cast<unsigned>(b))) out.push_back(p_->backends()[b]);
  return out;
}

KeySet KeysetAlgebra::named(std::string_view name) const {
  auto k = p_->find(name);
  return k ? p_->key(*k).bits : KeySet{};
}

}  // namespace dt
