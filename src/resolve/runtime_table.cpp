#include "resolve/runtime_table.hpp"

#include <algorithm>
#include <tuple>

#include "registry/library.hpp"

namespace dt {

namespace {

// A kernel of the inputs registered on this operator.
struct Event {
  std::uint32_t seq = 0;
  KeyId key = kUndefined;
  const Kernel* kernel = nullptr;
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
  start->fallbacks_by_slot.resize(p.runtime_keys().size());
  for (const Fallback& f : r.registry().user_fallbacks()) {
    if (!p.is_runtime(f.key)) continue;
    auto& mine = start->fallbacks_by_slot[static_cast<std::size_t>(p.key(f.key).slot)];
    if (mine.empty()) start->fallback_slots.push_back(static_cast<std::size_t>(p.key(f.key).slot));
    mine.push_back(static_cast<std::uint32_t>(start->fallbacks.size()));
    start->fallbacks.push_back(&f);
    start->fallback_seqs.push_back(f.seq);
  }
  std::sort(start->fallback_slots.begin(), start->fallback_slots.end());
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
  // The operator as PyTorch registers it (nothing for an operator of the
  // inputs): each key's newest kernel of PyTorch's.
  const Operator none;
  r.prepare(none, view_);
  has_kernel_.assign(p.keys().size(), false);
  for (const auto& kk : op.kernels)
    for (const Kernel& k : kk.kernels)  // newest first
      if (k.seq < user_start_) {
        r.prepare_key(kk.key, &k, true, view_);
        has_kernel_[kk.key] = true;
        library_kernels_ = true;
        break;
      }
  view_.op = &op;
  view_.fallbacks = &fallbacks_;
}

void RuntimeTable::construct() {
  const RuntimeStart& start = *start_;
  const Profile& p = r_->profile();
  const std::size_t n = p.runtime_keys().size();
  if (!library_kernels_ && start.blank.size() == n) {
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

// Registrations are replayed in order: the operator's own kernels one by one
// (each refreshes the rows OperatorEntry refreshes), and between two of them
// the backend fallbacks registered meanwhile. Linear in the operator's
// kernels; the fallbacks cost at most a binary search per slot that has any
// between two kernels, so that many fallbacks and many operators do not multiply.
void RuntimeTable::replay() {
  const Profile& p = r_->profile();
  std::vector<Event> events;
  for (const auto& kk : op_->kernels)
    for (const Kernel& k : kk.kernels)
      if (k.seq >= user_start_) events.push_back(Event{k.seq, kk.key, &k});
  // Every registration has its own seq.
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.seq < b.seq; });
  replayed_ = events.size() + start_->fallbacks.size();
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    replay_fallbacks_before(e.seq);
    const bool added = !has_kernel_[e.key];
    has_kernel_[e.key] = true;
    r_->prepare_key(e.key, e.kernel, added, view_);
    // A refresh reads the kernels and fallbacks, never the table: when the
    // operator's next kernel refreshes every row this one does (an override
    // on the same key, or any catch-all), this one's rows and mask bits are
    // all written again, so they need not be now (fallbacks between the two
    // refresh their own rows with the same kernels either way). N overrides
    // of a catch-all cost one full refresh, not N.
    if (i + 1 < events.size()) {
      const Event& next = events[i + 1];
      if (next.kernel->catch_all || (!e.kernel->catch_all && next.key == e.key)) continue;
    }
    if (e.kernel->catch_all) {  // updateDispatchTableFull_
      refresh(0);
      for (std::size_t slot = 1; slot < p.runtime_keys().size(); ++slot) update(p.runtime_keys()[slot]);
    } else {
      update(e.key);
    }
  }
  replay_fallbacks_before(UINT32_MAX);
}

void RuntimeTable::replay_fallbacks_before(std::uint32_t bound) {
  // Dispatcher::registerFallback -> OperatorEntry::updateFallback: the key's row only.
  const RuntimeStart& s = *start_;
  const Profile& p = r_->profile();
  const auto& seqs = s.fallback_seqs;
  const auto end = static_cast<std::size_t>(std::lower_bound(seqs.begin() + static_cast<std::ptrdiff_t>(applied_),
                                                             seqs.end(), bound) -
                                            seqs.begin());
  auto apply = [&](std::size_t i) {
    const Fallback* f = s.fallbacks[i];
    const auto slot = static_cast<std::size_t>(p.key(f->key).slot);
    fallbacks_[slot] = f;
    refresh(slot);
  };
  if (end - applied_ <= s.fallback_slots.size()) {
    for (std::size_t i = applied_; i < end; ++i) apply(i);
  } else {
    // Between two kernels a row sees only the last fallback of its key (a
    // refresh depends on the kernels and that fallback alone, and a later one
    // rewrites the same mask bits): replay those, in their order.
    std::vector<std::uint32_t> last;
    for (std::size_t slot : s.fallback_slots) {
      const auto& mine = s.fallbacks_by_slot[slot];
      const auto it = std::lower_bound(mine.begin(), mine.end(), static_cast<std::uint32_t>(end));
      if (it != mine.begin() && *(it - 1) >= applied_) last.push_back(*(it - 1));
    }
    std::sort(last.begin(), last.end());
    for (std::uint32_t i : last) apply(i);
  }
  applied_ = end;
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
  // The view holds the registry's own kernels: entries point at them.
  const Entry e = r_->compute(view_, slot);
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
