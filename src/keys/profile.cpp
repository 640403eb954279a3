// The queries of a Profile (profile.hpp); profiles are built from TOML in
// profile_builder.cpp.
#include "keys/profile.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "base/text.hpp"
#include "keys/old_key_names.hpp"

namespace dt {

std::optional<KeyId> Profile::find(std::string_view name) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::optional<KeyId> Profile::alias_key(AliasRule r) const {
  for (KeyId a : aliases_)
    if (keys_[a].alias == r) return a;
  return std::nullopt;
}

std::vector<std::string> Profile::python_dispatcher_keys() const {
  std::vector<std::string> k = pd_runtime_keys_;
  k.insert(k.end(), pd_alias_keys_.begin(), pd_alias_keys_.end());
  return k;
}

std::vector<std::string_view> Profile::key_names() const {
  std::vector<std::string_view> out;
  for (const auto& k : keys_)
    if (k.kind != KeyKind::Marker) out.push_back(k.name);
  return out;
}

bool Profile::in_alias(KeyId k, AliasRule alias) const {
  if (k == kUndefined) return false;
  const KeySet b = keys_[k].bits;
  switch (alias) {
    case AliasRule::Autograd: {
      // The functionality of k is one of the three autograd functionality keys.
      const KeySet func = b.without(all_backends_);
      return !func.empty() && autograd_functionality_.has_all(func);
    }
    case AliasRule::CIA:
      return math_keyset_.has_all(b);
    case AliasRule::CIANested:
      return nested_keyset_.has_all(b);
    case AliasRule::CEA:
      return k != nested_tensor_ && backend_keyset_.has_all(b);
    case AliasRule::CEANF:
      return k != nested_tensor_ && nonfunctional_keyset_.has_all(b);
    case AliasRule::FTBD:
      return k == functorch_batched_ && k != kUndefined;
    case AliasRule::None:
      return false;
  }
  return false;
}

KeySet Profile::backend_keyset_from_autograd(KeyId k) const {
  if (k == autograd_other_) return autogradother_backends_;
  if (k == autograd_nested_) return keys_[nested_tensor_].bits | all_backends_;
  const KeyInfo& info = keys_[k];
  if (info.kind != KeyKind::PerBackend || !autograd_functionality_.has_all(info.bits.without(all_backends_))) return {};
  const auto backend = static_cast<std::size_t>(info.backend);
  if (std::find(autograd_backend_keys_.begin(), autograd_backend_keys_.end(), info.backend) ==
      autograd_backend_keys_.end())
    return {};
  // The Dense runtime key of that backend (CPU for AutogradCPU).
  auto dense = find(backends_[backend]);
  return dense ? keys_[*dense].bits : KeySet{};
}

KeyId Profile::autograd_key_for_backend_of(KeyId k) const {
  const KeyInfo& info = keys_[k];
  if (info.kind == KeyKind::PerBackend && std::find(autograd_key_backends_.begin(), autograd_key_backends_.end(),
                                                    info.backend) != autograd_key_backends_.end()) {
    if (auto a = find("Autograd" + backends_[static_cast<std::size_t>(info.backend)])) return *a;
  }
  return autograd_other_;
}

bool Profile::is_backend_dispatch_key(KeyId k) const {
  return k != kUndefined && !is_alias(k) && k != nested_tensor_ && keys_[k].kind != KeyKind::Marker &&
         backend_keyset_.has_all(keys_[k].bits);
}

std::vector<KeyId> Profile::iterate(KeySet ks) const {
  std::vector<KeyId> out;
  for (KeyId k : runtime_)
    if (k != kUndefined && ks.has_all(keys_[k].bits)) out.push_back(k);
  return out;
}

std::vector<KeyId> Profile::building_block_members(KeyId block) const {
  std::vector<KeyId> out;
  if (keys_[block].kind != KeyKind::BuildingBlock) return out;
  const KeySet bits = keys_[block].bits;
  for (KeyId k : runtime_)
    if (keys_[k].kind == KeyKind::PerBackend && keys_[k].bits.has_all(bits)) out.push_back(k);
  return out;
}

namespace {
std::string capitalised(std::string_view s) {
  std::string out(s);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}
}  // namespace

std::string Profile::display_name(KeyId k, std::string_view privateuse1) const {
  const KeyInfo& info = keys_[k];
  if (privateuse1.empty() || !quirks_.privateuse1_shown_renamed || info.kind != KeyKind::PerBackend ||
      backends_[static_cast<std::size_t>(info.backend)] != "PrivateUse1")
    return info.name;
  const std::string prefix = info.name.substr(0, info.name.size() - std::string_view("PrivateUse1").size());
  return prefix.empty() ? std::string(privateuse1) : prefix + capitalised(privateuse1);
}

std::string Profile::error_key_name(KeyId k, std::string_view privateuse1) const {
  // c10's post_process_dispatch_key_str: a name ending in PrivateUse1 has that
  // suffix replaced by the backend's name as given ('AutogradPrivateUse1' -> 'Autogradfoo').
  const std::string& name = keys_[k].name;
  constexpr std::string_view kSuffix = "PrivateUse1";
  if (privateuse1.empty() || quirks_.privateuse1_shown_renamed || name.size() < kSuffix.size() ||
      std::string_view(name).substr(name.size() - kSuffix.size()) != kSuffix)
    return name;
  return name.substr(0, name.size() - kSuffix.size()) + std::string(privateuse1);
}

std::string Profile::suggest_key(std::string_view name, const std::vector<std::string_view>& candidates,
                                 std::string_view privateuse1) const {
  const bool device_like = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
  // "cpu" is CPU misspelt; "npu" is no key in any case: a backend's own name.
  const bool names_a_key = std::any_of(keys_.begin(), keys_.end(), [&](const KeyInfo& k) {
    return k.name.size() == name.size() && std::equal(name.begin(), name.end(), k.name.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
           });
  });
  if (!device_like || names_a_key || !privateuse1.empty()) return unknown_key_hint(*this, name, candidates);
  if (quirks_.privateuse1_rename)
    return fmt::format(
        " (a backend of your own registers on PrivateUse1; to use the name '{}', rename it first: "
        "privateuse1_backend = \"{}\", as torch.utils.rename_privateuse1_backend(\"{}\") does)",
        name, name, name);
  return fmt::format(
      " (a backend of your own registers on PrivateUse1; torch {} cannot rename it: "
      "torch.utils.rename_privateuse1_backend, privateuse1_backend in a file, came in torch 2.0)",
      torch_version_.empty() ? name_ : torch_version_);
}

std::optional<KeyId> Profile::find_renamed(std::string_view name, std::string_view privateuse1) const {
  if (privateuse1.empty()) return std::nullopt;
  if (name == privateuse1) return find("PrivateUse1");
  // The input contract's spelling ("AutogradFoo"), and PyTorch main's
  // parseDispatchKey retry, which replaces the upper-cased name ("AutogradFOO").
  std::string upper(privateuse1);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (const std::string& spelling : {capitalised(privateuse1), upper})
    if (name.size() >= spelling.size() && name.substr(name.size() - spelling.size()) == spelling)
      if (auto k = find(std::string(name.substr(0, name.size() - spelling.size())) + "PrivateUse1")) return k;
  return std::nullopt;
}

Expected<Ok, Diagnostic> Profile::check_tag(std::string_view tag) const {
  if (tags_.empty()) return Ok{};
  for (const auto& t : tags_)
    if (t.name == tag) return Ok{};
  std::vector<std::string_view> names;
  for (const auto& t : tags_) names.emplace_back(t.name);
  return unexpected(make_error(fmt::format("unknown tag '{}'{}; the tags of {}: {}", tag, did_you_mean(tag, names),
                                           name_, fmt::join(names, ", "))));
}

}  // namespace dt
