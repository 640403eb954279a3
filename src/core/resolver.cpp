#include "dispatchtool/resolver.hpp"

namespace dt {

const char* to_string(Provenance p) {
  switch (p) {
    case Provenance::Kernel: return "kernel";
    case Provenance::DefaultBackend: return "default backend kernel";
    case Provenance::Nested: return "nested kernel";
    case Provenance::Math: return "math kernel";
    case Provenance::AmbiguousAutogradOther: return "ambiguous autogradother";
    case Provenance::Autograd: return "autograd kernel";
    case Provenance::Batched: return "batched kernel";
    case Provenance::BackendFallback: return "backend fallback";
    case Provenance::Missing: return "missing";
  }
  return "missing";
}

std::string_view Entry::debug() const {
  if (why == Provenance::AmbiguousAutogradOther) return "ambiguous_autogradother";
  if (fallback != nullptr) return fallback->debug;
  if (kernel != nullptr) return kernel->debug;
  return {};
}

bool Entry::fallthrough() const {
  if (fallback != nullptr) return fallback->fallthrough;
  return kernel != nullptr && kernel->fallthrough;
}

Resolver::Resolver(const Registry& reg) : reg_(&reg), p_(&reg.profile()) {
  const Profile& p = *p_;
  // Absent aliases (e.g. FuncTorchBatchedDecomposition in 1.13) map to Undefined,
  // under which no kernel is ever stored.
  auto alias = [&](AliasRule r) { return p.alias_key(r).value_or(kUndefined); };
  ceanf_ = alias(AliasRule::CEANF);
  cea_ = alias(AliasRule::CEA);
  nested_ = alias(AliasRule::CIANested);
  cia_ = alias(AliasRule::CIA);
  autograd_ = alias(AliasRule::Autograd);
  ftbd_ = alias(AliasRule::FTBD);
  autograd_other_ = *p.find("AutogradOther");
  for (KeyId k : p.runtime_keys()) {
    Slot s;
    s.key = k;
    const bool undef = k == kUndefined;
    s.ceanf = undef || p.in_alias(k, AliasRule::CEANF);
    s.cea = undef || p.in_alias(k, AliasRule::CEA);
    s.nested = !undef && p.in_alias(k, AliasRule::CIANested);
    s.cia = undef || p.in_alias(k, AliasRule::CIA);
    s.autograd = p.in_alias(k, AliasRule::Autograd);
    s.ftbd = ftbd_ != kUndefined && p.in_alias(k, AliasRule::FTBD);
    s.backends_from_autograd = undef ? 0 : p.backend_keyset_from_autograd(k);
    slots_.push_back(s);
  }
}

bool Resolver::has_any(const Operator& op, KeySet ks) const {
  for (const auto& kk : op.kernels) {
    if (kk.kernels.empty() || p_->is_alias(kk.key)) continue;
    if (Profile::has(ks, p_->key(kk.key).bits)) return true;
  }
  return false;
}

Entry Resolver::compute(const Operator& op, KeyId k) const {
  const Slot& s = slots_[static_cast<std::size_t>(p_->key(k).slot)];
  auto from = [](const Kernel* kern, Provenance why, KeyId src) { return Entry{why, kern, nullptr, src}; };
  auto get = [&](KeyId key) -> const Kernel* { return key == kUndefined ? nullptr : op.get(key); };

  // 1. A kernel registered directly on the runtime key.
  if (const Kernel* d = get(k)) return from(d, Provenance::Kernel, k);
  // 2.1 / 2.2 CompositeExplicitAutogradNonFunctional, CompositeExplicitAutograd.
  if (s.ceanf)
    if (const Kernel* d = get(ceanf_)) return from(d, Provenance::DefaultBackend, ceanf_);
  const Kernel* cea = get(cea_);
  if (s.cea && cea != nullptr) return from(cea, Provenance::DefaultBackend, cea_);
  // 2.3a CompositeImplicitAutogradNestedTensor.
  if (s.nested)
    if (const Kernel* d = get(nested_)) return from(d, Provenance::Nested, nested_);
  // 2.3b CompositeImplicitAutograd, unless a backend kernel exists (or ambiguity).
  if (s.cia) {
    if (const Kernel* d = get(cia_)) {
      if (k == autograd_other_ && has_any(op, p_->autogradother_backends()))
        return Entry{Provenance::AmbiguousAutogradOther, nullptr, nullptr, cia_};
      const bool has_backend_kernel = cea != nullptr || has_any(op, s.backends_from_autograd);
      if (!has_backend_kernel) return from(d, Provenance::Math, cia_);
    }
  }
  // 2.4 Autograd.
  if (s.autograd)
    if (const Kernel* d = get(autograd_)) return from(d, Provenance::Autograd, autograd_);
  // 2.5 FuncTorchBatchedDecomposition (main).
  if (s.ftbd)
    if (const Kernel* d = get(ftbd_)) return from(d, Provenance::Batched, ftbd_);
  // 3. Backend fallback.
  if (const Fallback* f = reg_->fallback_for(k)) return Entry{Provenance::BackendFallback, nullptr, f, k};
  return Entry{};
}

void Resolver::compute_table(const Operator& op, std::vector<Entry>& out) const {
  out.clear();
  for (const Slot& s : slots_) out.push_back(compute(op, s.key));
}

MathSkip Resolver::math_skip(const Operator& op, KeyId k) const {
  MathSkip m;
  const Slot& s = slots_[static_cast<std::size_t>(p_->key(k).slot)];
  m.cea_present = cea_ != kUndefined && op.get(cea_) != nullptr;
  for (const auto& kk : op.kernels) {
    if (kk.kernels.empty() || p_->is_alias(kk.key)) continue;
    if (s.backends_from_autograd != 0 && Profile::has(s.backends_from_autograd, p_->key(kk.key).bits))
      m.backend_kernels.push_back(kk.key);
  }
  m.has_backend_kernel = m.cea_present || !m.backend_kernels.empty();
  return m;
}

}  // namespace dt
