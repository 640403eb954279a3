// DispatchKeySet arithmetic of runtime dispatch (dispatcher-notes A.1, G.2, G.3) for one
// profile: set difference that removes functionality bits only, FULL_AFTER,
// highestPriorityTypeId and the table slot a key set dispatches to, and key
// sets written as key names (--include, --exclude, --keyset).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"

namespace dt {

// What highestPriorityTypeId() and getDispatchTableIndexForDispatchKeySet()
// make of a key set.
struct HighestKey {
  KeyId key = kUndefined;            // the runtime key (Undefined for an empty set)
  std::size_t slot = 0;              // its row in the dispatch table
  std::string name;                  // toString(): "AutogradCPU", "Unknown" (Dense without a backend bit)
  KeyId functionality = kUndefined;  // the highest functionality key (a building block for per-backend ones)
  int backend = -1;                  // the highest backend bit's component index, -1 if none
};

class KeysetAlgebra {
 public:
  explicit KeysetAlgebra(const Profile& p);

  [[nodiscard]] const Profile& profile() const { return *p_; }
  // Every backend bit; every bit of the universe (DispatchKeySet::FULL).
  [[nodiscard]] KeySet backends() const { return backends_; }
  [[nodiscard]] KeySet full() const { return full_; }
  [[nodiscard]] KeySet functionality(KeySet ks) const { return ks.without(backends_); }
  // operator-: removes only the functionality bits of `b` (backend bits stay).
  [[nodiscard]] KeySet minus(KeySet a, KeySet b) const { return a.without(functionality(b)); }
  // DispatchKeySet(FULL_AFTER, k): every bit below k's functionality bit, all
  // backend bits, plus PythonDispatcher (a deliberate quirk of c10).
  [[nodiscard]] KeySet full_after(KeyId k) const;
  // The component index of the highest backend bit, -1 if none.
  [[nodiscard]] int highest_backend(KeySet ks) const;
  // getBackendIndex(): the highest backend bit's index, 0 (CPU) if none.
  [[nodiscard]] std::size_t backend_index(KeySet ks) const;
  [[nodiscard]] HighestKey highest(KeySet ks) const;
  // The bits of a key by name (alias keys: the union of the runtime keys they
  // cover; a renamed PrivateUse1 spelled as renamed); nullopt if unknown.
  [[nodiscard]] std::optional<KeySet> bits_of(std::string_view name, std::string_view privateuse1) const;
  // "K1,K2" as bits; the error names the unknown key with a suggestion.
  [[nodiscard]] Expected<KeySet, Diagnostic> parse(std::string_view list, std::string_view privateuse1) const;
  // The key set as PyTorch prints a DispatchKeySet: its runtime keys in table
  // order; a per-backend functionality without any backend bit is shown as
  // "Dense (no backend)".
  [[nodiscard]] std::vector<std::string> names(KeySet ks, std::string_view privateuse1) const;
  // The functionality keys and backends whose bits are set (raw bits, by name).
  [[nodiscard]] std::vector<std::string> functionality_names(KeySet ks) const;
  [[nodiscard]] std::vector<std::string> backend_names(KeySet ks) const;
  // The bits of a key known to the profile by name; 0 if the profile has no such key.
  [[nodiscard]] KeySet named(std::string_view name) const;
  // The functionality key of functionality bit `bit` (a building block for a
  // per-backend functionality), and the number of backend bits below them.
  [[nodiscard]] KeyId functionality_key(int bit) const;
  [[nodiscard]] std::size_t backend_count() const { return nb_; }
  // The runtime key of a building block on backend `b` (kUndefined if none).
  [[nodiscard]] KeyId member(KeyId block, std::size_t b) const {
    return block < members_.size() && b < members_[block].size() ? members_[block][b] : kUndefined;
  }

 private:

  const Profile* p_;
  KeySet backends_, full_;
  std::size_t nb_ = 0;
  std::vector<std::vector<KeyId>> members_;  // per-backend runtime keys of a building block, by key value
};

}  // namespace dt
