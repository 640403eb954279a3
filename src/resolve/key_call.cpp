#include "resolve/key_call.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/text.hpp"
#include "registry/library.hpp"

namespace dt {

const char* to_string(KeyCall c) {
  switch (c) {
    case KeyCall::Runs:
      return "runs";
    case KeyCall::FallsThrough:
      return "falls_through";
    case KeyCall::Missing:
      return "missing";
    case KeyCall::Ambiguous:
      return "ambiguous_autogradother";
    case KeyCall::InvariantAssert:
      return "invariant_assert";
    case KeyCall::FallbackRaises:
      return "fallback_raises";
  }
  return "missing";
}

namespace {

KeyCall classify(const Profile& p, const Entry& e, KeyId key, bool visibly_stale) {
  if (!e.valid()) return visibly_stale ? KeyCall::InvariantAssert : KeyCall::Missing;
  if (e.why == Provenance::AmbiguousAutogradOther) return KeyCall::Ambiguous;
  if (e.fallthrough()) return KeyCall::FallsThrough;
  if (e.fallback != nullptr && e.fallback->core) {
    // The fallbacks PyTorch registers that raise (see chain.cpp): the Meta
    // fallback of 2.x (torch/csrc/.../MetaFallbackKernel.cpp) and the Named one.
    const std::string& name = p.name_of(key);
    if (name == "Meta" && !p.quirks().meta_fallback_error.empty()) return KeyCall::FallbackRaises;
    if (name == "Named") return KeyCall::FallbackRaises;
  }
  return KeyCall::Runs;
}

const char* effect(KeyCall c) {
  switch (c) {
    case KeyCall::Runs:
      return "runs it";
    case KeyCall::FallsThrough:
      return "skips the key (a fallthrough) and continues at the next key below";
    case KeyCall::Missing:
      return "raises NotImplementedError \"Could not run ...\"";
    case KeyCall::Ambiguous:
      return "raises the internal assert of ambiguous_autogradother_kernel";
    case KeyCall::InvariantAssert:
      return "raises the internal assert of OperatorEntry::checkInvariants";
    case KeyCall::FallbackRaises:
      return "raises in PyTorch's backend fallback";
  }
  return "";
}

}  // namespace

KeyAnswer answer_key(const RuntimeTable& t, std::size_t slot) {
  KeyAnswer a;
  a.slot = slot;
  a.key = t.resolver().profile().runtime_keys()[slot];
  a.entry = t.entry(slot);
  a.dumped = t.fresh(slot);
  for (const StaleRow& row : t.stale())
    if (row.slot == slot) a.stale = true;
  a.call = classify(t.resolver().profile(), a.entry, a.key, t.visibly_stale());
  return a;
}

std::string entry_words(const Profile& p, const Entry& e) {
  if (!e.valid()) return "missing (no kernel, no fallback)";
  std::string via = to_string(e.why);
  if (e.why != Provenance::Kernel && e.why != Provenance::BackendFallback &&
      e.why != Provenance::AmbiguousAutogradOther)
    via += " via " + p.name_of(e.source);
  return fmt::format("{}{} [{}]", e.fallthrough() ? "fallthrough " : "", printable(readable_debug(e.debug())), via);
}

std::string stale_note(const Profile& p, std::string_view privateuse1, const KeyAnswer& a) {
  if (!a.stale) return {};
  const std::string k = p.display_name(a.key, privateuse1);
  return fmt::format(
      "stale runtime entry: the dumps (_dispatch_dump_table) show {} for {}, but the runtime dispatch table still "
      "holds {} from before a later registration (OperatorEntry::updateDispatchTable_ refreshes only the rows of "
      "the key registered on, its backend's Autograd key, and Undefined for a composite kernel): a call on {} {}",
      entry_words(p, a.dumped), k, entry_words(p, a.entry), k, effect(a.call));
}

bool may_be_stale(const Registry& reg, const Operator& op) {
  if (!reg.user_fallbacks().empty()) return true;
  const std::uint32_t start = reg.library() != nullptr ? reg.library()->kernel_count() : 0;
  // The inputs' kernels come after PyTorch's on every key: the newest tells.
  return std::any_of(op.kernels.begin(), op.kernels.end(),
                     [&](const KeyKernels& kk) { return !kk.kernels.empty() && kk.kernels.front().seq >= start; });
}

RuntimeTables::RuntimeTables(const Resolver& r)
    : r_(&r), ks_(std::make_unique<KeysetAlgebra>(r.profile())), start_(runtime_start(r, *ks_)) {}
RuntimeTables::~RuntimeTables() = default;

const RuntimeTable& RuntimeTables::of(const Operator& op) const {
  // A bounded cache: lint asks about every operator of the registry (10^5
  // and more), one after the other; keeping every table would hold them all.
  // A returned reference stays valid until the next call.
  if (tables_.size() >= kCached && tables_.find(&op) == tables_.end()) tables_.clear();
  auto& slot = tables_[&op];
  if (!slot) slot = std::make_unique<RuntimeTable>(*r_, *ks_, op, start_);
  return *slot;
}

KeyAnswer RuntimeTables::answer(const Operator& op, KeyId key) const {
  const Profile& p = r_->profile();
  if (may_be_stale(r_->registry(), op)) return answer_key(of(op), static_cast<std::size_t>(p.key(key).slot));
  // PyTorch's own operator, untouched by the inputs: the runtime table is the dumps' (no replay needed).
  KeyAnswer a;
  a.key = key;
  a.slot = static_cast<std::size_t>(p.key(key).slot);
  a.entry = a.dumped = r_->compute(op, key);
  a.call = classify(p, a.entry, key, false);
  return a;
}

}  // namespace dt
