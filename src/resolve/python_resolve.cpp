#include "resolve/python_resolve.hpp"

namespace dt {

namespace {

// hasKernelForAnyDispatchKey: a registered non-alias key inside `ks`.
bool has_any(const Profile& p, const Operator& op, KeySet ks) {
  for (const auto& kk : op.kernels)
    if (!kk.kernels.empty() && !p.is_alias(kk.key) && !ks.empty() && ks.has_all(p.key(kk.key).bits)) return true;
  return false;
}

}  // namespace

PyResolved python_resolve_key(const Registry& reg, const Operator& op, KeyId k) {
  const Profile& p = reg.profile();
  PyResolved out;
  if (!p.key(k).parseable) {
    out.error = PyResolveError::AttributeError;
    return out;
  }
  auto has_key = [&](std::optional<KeyId> key) { return key && op.get(*key) != nullptr; };
  auto covers = [&](AliasRule rule) { return k == kUndefined || p.in_alias(k, rule); };
  const auto ceanf = p.alias_key(AliasRule::CEANF), cea = p.alias_key(AliasRule::CEA),
             nested = p.alias_key(AliasRule::CIANested), cia = p.alias_key(AliasRule::CIA),
             autograd = p.alias_key(AliasRule::Autograd);
  std::optional<KeyId> r;
  const bool has_backend_kernel =
      (k != kUndefined && has_any(p, op, p.backend_keyset_from_autograd(k))) || has_key(cea);
  if (k != kUndefined && has_key(k)) {
    r = k;
  } else if (covers(AliasRule::CEANF) && has_key(ceanf)) {
    r = ceanf;
  } else if (covers(AliasRule::CEA) && has_key(cea)) {
    r = cea;
  } else if (k != kUndefined && p.in_alias(k, AliasRule::CIANested) && has_key(nested) && !has_backend_kernel) {
    r = nested;  // unlike C++, the nested step also requires no backend kernel
  } else if (covers(AliasRule::CIA) && has_key(cia) && k == *p.find("AutogradOther") &&
             has_any(p, op, p.autogradother_backends())) {
    out.error = PyResolveError::Ambiguous;
    return out;
  } else if (covers(AliasRule::CIA) && has_key(cia) && !has_backend_kernel) {
    r = cia;
  } else if (k != kUndefined && p.in_alias(k, AliasRule::Autograd) && has_key(autograd)) {
    r = autograd;
  } else if (reg.fallback_for(k) != nullptr) {
    r = k;
  }
  if (!r) {
    out.error = PyResolveError::NoKernel;
    return out;
  }
  out.key = *r;
  out.kernel = op.get(*r);
  if (out.kernel == nullptr) out.fallback = reg.fallback_for(*r);
  return out;
}

}  // namespace dt
