#include "resolve/resolver.hpp"

namespace dt {

const char* to_string(Provenance p) {
  switch (p) {
    case Provenance::Kernel:
      return "kernel";
    case Provenance::DefaultBackend:
      return "default backend kernel";
    case Provenance::Nested:
      return "nested kernel";
    case Provenance::Math:
      return "math kernel";
    case Provenance::AmbiguousAutogradOther:
      return "ambiguous autogradother";
    case Provenance::Autograd:
      return "autograd kernel";
    case Provenance::Batched:
      return "batched kernel";
    case Provenance::BackendFallback:
      return "backend fallback";
    case Provenance::Missing:
      return "missing";
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
    s.backends_from_autograd = undef ? KeySet{} : p.backend_keyset_from_autograd(k);
    slots_.push_back(s);
    row_prefixes_.push_back(p.name_of(k) + ": ");
  }
}

void Resolver::prepare(const Operator& op, OpView& v) const {
  v.op = &op;
  v.direct.assign(slots_.size(), nullptr);
  v.registered.clear();
  auto get = [&](KeyId key) -> const Kernel* { return key == kUndefined ? nullptr : op.get(key); };
  v.ceanf = get(ceanf_);
  v.cea = get(cea_);
  v.nested = get(nested_);
  v.cia = get(cia_);
  v.autograd = get(autograd_);
  v.ftbd = get(ftbd_);
  v.autogradother_backend = false;
  for (const auto& kk : op.kernels) {
    if (kk.kernels.empty() || p_->is_alias(kk.key)) continue;
    const KeyInfo& info = p_->key(kk.key);
    if (info.slot >= 0) v.direct[static_cast<std::size_t>(info.slot)] = &kk.kernels.front();
    v.registered.push_back(info.bits);
    if (p_->autogradother_backends().has_all(info.bits)) v.autogradother_backend = true;
  }
}

void Resolver::prepare_key(KeyId key, const Kernel* kernel, bool added, OpView& v) const {
  if (key != kUndefined) {
    // The alias kernels prepare() looks up (an absent alias is Undefined, never a key here).
    for (auto [alias, ptr] : {std::pair{ceanf_, &v.ceanf}, {cea_, &v.cea}, {nested_, &v.nested}, {cia_, &v.cia},
                              {autograd_, &v.autograd}, {ftbd_, &v.ftbd}})
      if (key == alias) *ptr = kernel;
  }
  if (p_->is_alias(key)) return;
  const KeyInfo& info = p_->key(key);
  if (info.slot >= 0) v.direct[static_cast<std::size_t>(info.slot)] = kernel;
  if (!added) return;
  v.registered.push_back(info.bits);
  if (p_->autogradother_backends().has_all(info.bits)) v.autogradother_backend = true;
}

Entry Resolver::compute(const OpView& v, std::size_t slot, Trace* trace) const {
  const Slot& s = slots_[slot];
  // Records one step of the algorithm when explaining; free otherwise.
  auto note = [&](const char* step, KeyId alias, bool applies, const Kernel* kern, bool taken, std::string why = {}) {
    if (trace != nullptr) trace->push_back(TraceStep{step, alias, applies, kern, taken, std::move(why)});
  };
  auto from = [](const Kernel* kern, Provenance why, KeyId src) { return Entry{why, kern, nullptr, src}; };

  // 1. A kernel registered directly on the runtime key.
  note("1", s.key, true, v.direct[slot], v.direct[slot] != nullptr);
  if (const Kernel* d = v.direct[slot]) return from(d, Provenance::Kernel, s.key);
  // 2.1 / 2.2 CompositeExplicitAutogradNonFunctional, CompositeExplicitAutograd.
  note("2.1", ceanf_, s.ceanf, v.ceanf, s.ceanf && v.ceanf != nullptr);
  if (s.ceanf && v.ceanf != nullptr) return from(v.ceanf, Provenance::DefaultBackend, ceanf_);
  note("2.2", cea_, s.cea, v.cea, s.cea && v.cea != nullptr);
  if (s.cea && v.cea != nullptr) return from(v.cea, Provenance::DefaultBackend, cea_);
  // 2.3a CompositeImplicitAutogradNestedTensor.
  note("2.3a", nested_, s.nested, v.nested, s.nested && v.nested != nullptr);
  if (s.nested && v.nested != nullptr) return from(v.nested, Provenance::Nested, nested_);
  // 2.3b CompositeImplicitAutograd, unless a backend kernel exists (or ambiguity).
  if (s.cia && v.cia != nullptr) {
    if (s.key == autograd_other_ && v.autogradother_backend) {
      note("2.3b", cia_, true, v.cia, true, "ambiguous");
      return Entry{Provenance::AmbiguousAutogradOther, nullptr, nullptr, cia_};
    }
    bool has_backend_kernel = v.cea != nullptr;
    if (!has_backend_kernel && !s.backends_from_autograd.empty())
      for (KeySet bits : v.registered)
        if (s.backends_from_autograd.has_all(bits)) {
          has_backend_kernel = true;
          break;
        }
    note("2.3b", cia_, true, v.cia, !has_backend_kernel, has_backend_kernel ? "has_backend_kernel" : "");
    if (!has_backend_kernel) return from(v.cia, Provenance::Math, cia_);
  } else {
    note("2.3b", cia_, s.cia, v.cia, false);
  }
  // 2.4 Autograd.
  note("2.4", autograd_, s.autograd, v.autograd, s.autograd && v.autograd != nullptr);
  if (s.autograd && v.autograd != nullptr) return from(v.autograd, Provenance::Autograd, autograd_);
  // 2.5 FuncTorchBatchedDecomposition (main).
  if (ftbd_ != kUndefined) note("2.5", ftbd_, s.ftbd, v.ftbd, s.ftbd && v.ftbd != nullptr);
  if (s.ftbd && v.ftbd != nullptr) return from(v.ftbd, Provenance::Batched, ftbd_);
  // 3. Backend fallback.
  const Fallback* f = v.fallbacks != nullptr ? (*v.fallbacks)[slot] : reg_->fallback_for(s.key);
  note("3", s.key, true, nullptr, f != nullptr);
  if (f != nullptr) return Entry{Provenance::BackendFallback, nullptr, f, s.key};
  return Entry{};
}

Entry Resolver::compute(const Operator& op, KeyId k) const {
  const int slot = p_->key(k).slot;
  if (slot < 0) return Entry{};  // not a runtime key: no table row, nothing to resolve
  thread_local OpView v;         // reused: single-key lookups (lint) do not allocate
  prepare(op, v);
  return compute(v, static_cast<std::size_t>(slot));
}

void Resolver::compute_table(const Operator& op, std::vector<Entry>& out) const {
  OpView v;
  prepare(op, v);
  out.clear();
  out.reserve(slots_.size());
  for (std::size_t i = 0; i < slots_.size(); ++i) out.push_back(compute(v, i));
}

MathSkip Resolver::math_skip(const Operator& op, KeyId k) const {
  MathSkip m;
  const int slot = p_->key(k).slot;
  if (slot < 0) return m;  // not a runtime key
  const Slot& s = slots_[static_cast<std::size_t>(slot)];
  m.cea_present = cea_ != kUndefined && op.get(cea_) != nullptr;
  for (const auto& kk : op.kernels) {
    if (kk.kernels.empty() || p_->is_alias(kk.key)) continue;
    if (!s.backends_from_autograd.empty() && s.backends_from_autograd.has_all(p_->key(kk.key).bits))
      m.backend_kernels.push_back(kk.key);
  }
  m.has_backend_kernel = m.cea_present || !m.backend_kernels.empty();
  return m;
}

}  // namespace dt
