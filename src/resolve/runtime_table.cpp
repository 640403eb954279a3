#include "resolve/runtime_table.hpp"

#include <algorithm>
#include <tuple>

#include "registry/library.hpp"

namespace dt {

namespace {

// One registration of the inputs that reaches this operator, in order.
struct Event {
  std::uint32_t seq = 0;
  KeyId key = kUndefined;
  const Kernel* kernel = nullptr;      // a kernel of the operator
  const Fallback* fallback = nullptr;  // or a backend fallback
};

bool same_entry(const Entry& a, const Entry& b) {
  if (a.why != b.why || a.kernel != b.kernel || (a.fallback == nullptr) != (b.fallback == nullptr)) return false;
  return a.fallback == nullptr || (a.fallback->key == b.fallback->key && a.fallback->debug == b.fallback->debug &&
                                   a.fallback->fallthrough == b.fallback->fallthrough);
}

// The function checkInvariants compares (see same_function).
std::tuple<int, std::string_view> function_of(const Entry& e) {
  if (!e.valid()) return {0, {}};
  if (e.why == Provenance::AmbiguousAutogradOther) return {1, {}};
  if (e.fallthrough()) return {2, {}};
  if (e.kernel != nullptr && e.kernel->boxed_only) return {3, {}};
  return {e.kernel != nullptr ? 4 : 5, e.debug()};
}

}  // namespace

bool same_function(const Entry& a, const Entry& b) { return function_of(a) == function_of(b); }

std::shared_ptr<const RuntimeStart> runtime_start(const Resolver& r, const KeysetAlgebra& ks) {
  const Profile& p = r.profile();
  auto start = std::make_shared<RuntimeStart>();
  start->core.reserve(p.fallbacks().size());
  for (const auto& f : p.fallbacks())
    start->core.push_back(Fallback{f.key, f.debug, f.fallthrough, true, f.where, {}, 0, false, {}});
  const Operator none;
  RuntimeTable blank(RuntimeTable::Blank{}, r, ks, none, start);
  blank.construct();
  start->blank = std::move(blank.table_);
  start->global = blank.global_;
  start->per_backend_masks = std::move(blank.per_backend_masks_);
  return start;
}

RuntimeTable::RuntimeTable(Blank, const Resolver& r, const KeysetAlgebra& ks, const Operator& op,
                           std::shared_ptr<const RuntimeStart> start)
    : r_(&r), ks_(&ks), op_(&op), start_(std::move(start)) {
  const Registry& reg = r.registry();
  const Profile& p = reg.profile();
  user_start_ = reg.library() != nullptr ? reg.library()->kernel_count() : 0;
  const std::size_t n = p.runtime_keys().size();
  fallbacks_.assign(n, nullptr);
  for (const Fallback& f : start_->core) fallbacks_[static_cast<std::size_t>(p.key(f.key).slot)] = &f;
  // The operator as PyTorch registers it (nothing for an operator of the inputs).
  partial_.name = op.name;
  for (const auto& kk : op.kernels) {
    KeyKernels mine{kk.key, {}};
    std::vector<const Kernel*> newest_first;
    for (const Kernel& k : kk.kernels)
      if (k.seq < user_start_) newest_first.push_back(&k);
    for (auto it = newest_first.rbegin(); it != newest_first.rend(); ++it) mine.kernels.push_newest(**it);
    if (!mine.kernels.empty()) partial_.kernels.push_back(std::move(mine));
  }
  view_.fallbacks = &fallbacks_;
  r.prepare(partial_, view_);
}

void RuntimeTable::construct() {
  const RuntimeStart& start = *start_;
  const Profile& p = r_->profile();
  const std::size_t n = p.runtime_keys().size();
  if (partial_.kernels.empty() && start.blank.size() == n) {
    // No kernel of PyTorch's: every such operator starts alike.
    table_ = start.blank;
    global_ = start.global;
    per_backend_masks_ = start.per_backend_masks;
    return;
  }
  table_.assign(n, Entry{});
  global_ = ks_->full();
  per_backend_masks_.assign(p.backends().size(), ks_->full());
  refresh(0);
  for (std::size_t slot = 1; slot < n; ++slot) update(p.runtime_keys()[slot]);
}

RuntimeTable::RuntimeTable(const Resolver& r, const KeysetAlgebra& ks, const Operator& op,
                           std::shared_ptr<const RuntimeStart> start)
    : RuntimeTable(Blank{}, r, ks, op, start ? std::move(start) : runtime_start(r, ks)) {
  construct();
  replay();
  per_backend_required_ = std::adjacent_find(per_backend_masks_.begin(), per_backend_masks_.end(),
                                             std::not_equal_to<>()) != per_backend_masks_.end();
  r.compute_table(op, fresh_);
  const std::size_t n = table_.size();
  for (std::size_t slot = 0; slot < n; ++slot)
    if (!same_entry(table_[slot], fresh_[slot]))
      stale_.push_back(
          StaleRow{slot, table_[slot], fresh_[slot], slot != 0 && !same_function(table_[slot], fresh_[slot])});
}

void RuntimeTable::replay() {
  const Registry& reg = r_->registry();
  const Profile& p = reg.profile();
  std::vector<Event> events;
  for (const auto& kk : op_->kernels)
    for (const Kernel& k : kk.kernels)
      if (k.seq >= user_start_) events.push_back(Event{k.seq, kk.key, &k, nullptr});
  for (const Fallback& f : reg.user_fallbacks())
    if (p.is_runtime(f.key)) events.push_back(Event{f.seq, f.key, nullptr, &f});
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.seq < b.seq; });
  for (const Event& e : events) {
    ++replayed_;
    if (e.fallback != nullptr) {
      // Dispatcher::registerFallback -> OperatorEntry::updateFallback: the key's runtime keys only.
      fallbacks_[static_cast<std::size_t>(p.key(e.key).slot)] = e.fallback;
      refresh(static_cast<std::size_t>(p.key(e.key).slot));
      continue;
    }
    auto it = std::lower_bound(partial_.kernels.begin(), partial_.kernels.end(), e.key,
                               [](const KeyKernels& kk, KeyId k) { return kk.key < k; });
    if (it == partial_.kernels.end() || it->key != e.key) it = partial_.kernels.insert(it, KeyKernels{e.key, {}});
    it->kernels.push_newest(*e.kernel);
    r_->prepare(partial_, view_);
    if (e.kernel->catch_all) {  // updateDispatchTableFull_
      refresh(0);
      for (std::size_t slot = 1; slot < p.runtime_keys().size(); ++slot) update(p.runtime_keys()[slot]);
    } else {
      update(e.key);
    }
  }
}

void RuntimeTable::update(KeyId key) {
  const Profile& p = r_->profile();
  if (key == kUndefined) {
    refresh(0);
    return;
  }
  // getRuntimeDispatchKeySet(key): an alias's runtime keys, a runtime key
  // itself, nothing for a building block.
  if (p.is_alias(key)) {
    for (KeyId k : p.alias_members(key)) refresh(static_cast<std::size_t>(p.key(k).slot));
  } else if (p.is_runtime(key)) {
    refresh(static_cast<std::size_t>(p.key(key).slot));
  }
  const AliasRule a = p.key(key).alias;
  if (a == AliasRule::CIA || a == AliasRule::CEA || a == AliasRule::CEANF) refresh(0);
  if (p.is_backend_dispatch_key(key)) refresh(static_cast<std::size_t>(p.key(p.autograd_key_for_backend_of(key)).slot));
}

void RuntimeTable::refresh(std::size_t slot) {
  Entry e = r_->compute(view_, slot);
  if (e.kernel != nullptr) {
    // Point at the registry's kernel (the same registration), not the replay's copy.
    const Kernel* real = nullptr;
    if (const auto* all = op_->all(e.source))
      for (const Kernel& k : *all)
        if (k.seq == e.kernel->seq) real = &k;
    e.kernel = real;
  }
  table_[slot] = e;
  set_fallthrough(r_->profile().runtime_keys()[slot], e.valid() && e.fallthrough());
}

void RuntimeTable::set_fallthrough(KeyId key, bool fallthrough) {
  // DispatchKeyExtractor::setOperatorHasFallthroughForKey.
  const KeyInfo& info = r_->profile().key(key);
  auto apply = [&](KeySet& mask) { mask = fallthrough ? ks_->minus(mask, info.bits) : (mask | info.bits); };
  apply(global_);
  // (Whether the per-backend masks differ is decided once the replay is done.)
  if (info.kind == KeyKind::PerBackend) {
    apply(per_backend_masks_[static_cast<std::size_t>(info.backend)]);
  } else {
    for (KeySet& m : per_backend_masks_) apply(m);
  }
}

KeySet RuntimeTable::mask(KeySet arguments) const {
  return per_backend_required_ ? per_backend_masks_[ks_->backend_index(arguments)] : global_;
}

bool RuntimeTable::visibly_stale() const {
  return std::any_of(stale_.begin(), stale_.end(), [](const StaleRow& s) { return s.visible; });
}

bool RuntimeTable::from_pytorch(const Entry& e) const {
  if (e.fallback != nullptr) return e.fallback->core;
  if (e.kernel != nullptr) return e.kernel->seq < user_start_;
  return e.why == Provenance::AmbiguousAutogradOther;
}

}  // namespace dt
