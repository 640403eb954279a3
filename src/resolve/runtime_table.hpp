// An operator's runtime dispatch table and fallthrough masks as the dispatcher
// maintains them (dispatcher-notes G.2, G.5): not recomputed from scratch, but updated
// registration by registration, so a table can be stale where the dumps (which
// compute every entry afresh) are not.
//
// PyTorch's own operators (the profile's operator library) start from their
// freshly computed table -- all 3,380 operators of 1.13 pass the invariant
// check, so that is their live state -- with PyTorch's backend fallbacks. The
// inputs' registrations (kernels of this operator and backend fallbacks) are
// then replayed in registration order with the refresh rules of dispatcher-notes G.5; an
// operator the inputs define starts empty (every row its fallback or missing).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "resolve/dispatch_keyset.hpp"
#include "resolve/resolver.hpp"

namespace dt {

// A runtime key whose maintained entry differs from the freshly computed one.
struct StaleRow {
  std::size_t slot = 0;
  Entry runtime, fresh;
  bool visible = false;  // checkInvariants sees it (different function pointers)
};

// What every runtime table of one registry starts from, made once and shared
// (lint asks for the tables of 10^5 and more operators): PyTorch's backend
// fallbacks as at start-up, and the table of an operator without PyTorch's
// kernels after OperatorEntry's constructor (every row its fallback or missing).
struct RuntimeStart {
  std::vector<Fallback> core;
  std::vector<Entry> blank;  // entries point into `core`
  KeySet global;
  std::vector<KeySet> per_backend_masks;
  // The inputs' backend fallbacks on runtime keys (Registry::user_fallbacks()
  // in registration order, building blocks left out), their seqs (ascending),
  // and by table slot their indices into `fallbacks`: a table replays them
  // without walking all of them (there can be 10^6, on a key that allows many).
  std::vector<const Fallback*> fallbacks;
  std::vector<std::uint32_t> fallback_seqs;
  std::vector<std::vector<std::uint32_t>> fallbacks_by_slot;
  std::vector<std::size_t> fallback_slots;  // the slots that have any, ascending
};

class RuntimeTable {
 public:
  // Replays the registrations of `op` (which must belong to r's registry).
  // `start`: runtime_start(r, ks), shared by the tables of one registry (null:
  // made for this table).
  RuntimeTable(const Resolver& r, const KeysetAlgebra& ks, const Operator& op,
               std::shared_ptr<const RuntimeStart> start = nullptr);
  RuntimeTable(const RuntimeTable&) = delete;
  RuntimeTable& operator=(const RuntimeTable&) = delete;
  RuntimeTable(RuntimeTable&&) = default;
  RuntimeTable& operator=(RuntimeTable&&) = default;
  ~RuntimeTable() = default;

  [[nodiscard]] const Resolver& resolver() const { return *r_; }
  [[nodiscard]] const Operator& op() const { return *op_; }
  // The entry of table slot `slot` (kernels and fallbacks point into the registry).
  [[nodiscard]] const Entry& entry(std::size_t slot) const { return table_[slot]; }
  // The freshly computed entry (what the dumps show).
  [[nodiscard]] const Entry& fresh(std::size_t slot) const { return fresh_[slot]; }
  // The non-fallthrough mask a call with these arguments uses: the mask of the
  // arguments' highest backend when the per-backend masks differ, else the global one.
  [[nodiscard]] KeySet mask(KeySet arguments) const;
  // Whether the per-backend masks differ (requiresBitsetPerBackend_).
  [[nodiscard]] bool per_backend() const { return per_backend_required_; }
  [[nodiscard]] const std::vector<StaleRow>& stale() const { return stale_; }
  // checkInvariants() would fail (an error then becomes an internal assert).
  [[nodiscard]] bool visibly_stale() const;
  // Registrations replayed in order (inputs' kernels of this operator and fallbacks).
  [[nodiscard]] std::size_t replayed() const { return replayed_; }
  // Whether the entry comes from PyTorch itself (a library kernel or a core fallback).
  [[nodiscard]] bool from_pytorch(const Entry& e) const;

 private:
  void refresh(std::size_t slot);
  void update(KeyId key);  // OperatorEntry::updateDispatchTable_ for a registration on `key`
  void set_fallthrough(KeyId key, bool fallthrough);
  void replay();
  // Replays the fallbacks with seq < `bound` not replayed yet (start_->fallbacks[applied_, ...)).
  void replay_fallbacks_before(std::uint32_t bound);
  friend std::shared_ptr<const RuntimeStart> runtime_start(const Resolver& r, const KeysetAlgebra& ks);
  struct Blank {};
  RuntimeTable(Blank, const Resolver& r, const KeysetAlgebra& ks, const Operator& op,
               std::shared_ptr<const RuntimeStart> start);
  void construct();  // OperatorEntry's constructor: updateDispatchTableFull_

  const Resolver* r_;
  const KeysetAlgebra* ks_;
  const Operator* op_;
  std::uint32_t user_start_ = 0;            // seq of the inputs' first registration
  std::shared_ptr<const RuntimeStart> start_;  // PyTorch's fallbacks (entries of the replay point here)
  std::vector<const Fallback*> fallbacks_;  // by slot, as registered so far
  std::size_t applied_ = 0;                 // start_->fallbacks replayed so far
  // The operator as registered so far: the newest kernel of each key (view_),
  // and which keys have one.
  Resolver::OpView view_;
  std::vector<bool> has_kernel_;  // by key
  bool library_kernels_ = false;  // PyTorch registers kernels of it
  std::vector<Entry> table_, fresh_;
  KeySet global_;
  std::vector<KeySet> per_backend_masks_;
  bool per_backend_required_ = false;
  std::vector<StaleRow> stale_;
  std::size_t replayed_ = 0;
};

std::shared_ptr<const RuntimeStart> runtime_start(const Resolver& r, const KeysetAlgebra& ks);

// How checkInvariants compares two entries: by function pointer. Kernels of
// one name are one function; every boxed-only kernel (a Python kernel) shares
// PythonKernelHolder's; all fallthroughs share fallthrough_kernel.
bool same_function(const Entry& a, const Entry& b);

}  // namespace dt
