// KeySet: a DispatchKeySet (c10/core/DispatchKeySet.h) as a value type. One
// 64-bit word with a bit per functionality key and per backend component,
// in the order the profile lays them out (keys/profile.hpp: KeyInfo::bits).
//
// The set algebra c10 defines on the bits alone is here: union, intersection,
// removal of every bit of another set (c10's remove, remove_backend), tests.
// What depends on which bits are backends -- c10's operator- (which removes
// functionality bits only), highestPriorityTypeId, the per-backend index --
// needs the profile and is KeysetAlgebra's (resolve/dispatch_keyset.hpp).
// There is no conversion to or from an integer but raw()/from_raw(), so a key
// set is never mixed up with a key's enum value or a count.
#pragma once

#include <bit>
#include <cstdint>

namespace dt {

class KeySet {
 public:
  constexpr KeySet() noexcept = default;
  [[nodiscard]] static constexpr KeySet from_raw(std::uint64_t bits) noexcept { return KeySet(bits); }
  // The set of bit `index` alone (0 <= index < 64).
  [[nodiscard]] static constexpr KeySet bit(unsigned index) noexcept { return KeySet(std::uint64_t{1} << index); }
  // Bits 0 .. n-1 (n <= 64).
  [[nodiscard]] static constexpr KeySet low_bits(unsigned n) noexcept {
    return KeySet(n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1);
  }
  [[nodiscard]] constexpr std::uint64_t raw() const noexcept { return bits_; }

  [[nodiscard]] constexpr bool empty() const noexcept { return bits_ == 0; }
  // Every bit of `ks` is in the set (c10's has_all; has() for one key's bits).
  [[nodiscard]] constexpr bool has_all(KeySet ks) const noexcept { return (bits_ & ks.bits_) == ks.bits_; }
  [[nodiscard]] constexpr bool has_any(KeySet ks) const noexcept { return (bits_ & ks.bits_) != 0; }
  [[nodiscard]] constexpr bool has_bit(unsigned index) const noexcept { return ((bits_ >> index) & 1U) != 0; }
  // Every bit of `ks` removed, functionality and backend alike (c10's
  // remove(); not operator-, which keeps the backend bits: KeysetAlgebra::minus).
  [[nodiscard]] constexpr KeySet without(KeySet ks) const noexcept { return KeySet(bits_ & ~ks.bits_); }
  // The index of the highest bit set; -1 for the empty set.
  [[nodiscard]] constexpr int highest_bit() const noexcept { return bits_ == 0 ? -1 : 63 - std::countl_zero(bits_); }
  [[nodiscard]] constexpr int count() const noexcept { return std::popcount(bits_); }

  [[nodiscard]] friend constexpr KeySet operator|(KeySet a, KeySet b) noexcept { return KeySet(a.bits_ | b.bits_); }
  [[nodiscard]] friend constexpr KeySet operator&(KeySet a, KeySet b) noexcept { return KeySet(a.bits_ & b.bits_); }
  [[nodiscard]] friend constexpr KeySet operator^(KeySet a, KeySet b) noexcept { return KeySet(a.bits_ ^ b.bits_); }
  constexpr KeySet& operator|=(KeySet o) noexcept { return bits_ |= o.bits_, *this; }
  constexpr KeySet& operator&=(KeySet o) noexcept { return bits_ &= o.bits_, *this; }
  [[nodiscard]] friend constexpr bool operator==(KeySet, KeySet) noexcept = default;

 private:
  constexpr explicit KeySet(std::uint64_t bits) noexcept : bits_(bits) {}
  std::uint64_t bits_ = 0;
};

}  // namespace dt
