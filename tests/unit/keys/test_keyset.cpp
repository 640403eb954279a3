// KeySet: c10's DispatchKeySet algebra on the bits alone (the profile-aware
// part, operator- and highestPriorityTypeId, is test_dispatch_keyset's).
#include "helpers.hpp"
#include "keys/keyset.hpp"

namespace dt::test {

TEST_CASE("KeySet: bits, union, intersection, removal, tests") {
  const KeySet empty;
  CHECK(empty.empty());
  CHECK(empty.raw() == 0);
  CHECK(empty.highest_bit() == -1);
  CHECK(empty.count() == 0);

  const KeySet a = KeySet::bit(0) | KeySet::bit(5);
  const KeySet b = KeySet::bit(5) | KeySet::bit(63);
  CHECK(a.raw() == 0x21);
  CHECK((a | b).raw() == (std::uint64_t{1} << 63 | 0x21));
  CHECK((a & b) == KeySet::bit(5));
  CHECK((a ^ b) == (KeySet::bit(0) | KeySet::bit(63)));
  CHECK(a.without(b) == KeySet::bit(0));  // c10's remove(): every bit of b
  CHECK(b.highest_bit() == 63);
  CHECK(a.count() == 2);
  CHECK(a.has_bit(5));
  CHECK_FALSE(a.has_bit(6));
  CHECK(a.has_any(b));
  CHECK_FALSE(a.has_all(b));
  CHECK((a | b).has_all(b));
  CHECK(a.has_all(KeySet{}));  // the empty set is in every set, as in c10's has_all
  CHECK(KeySet::from_raw(a.raw()) == a);

  KeySet c;
  c |= a;
  c &= KeySet::bit(0);
  CHECK(c == KeySet::bit(0));

  CHECK(KeySet::low_bits(0).empty());
  CHECK(KeySet::low_bits(3).raw() == 0x7);
  CHECK(KeySet::low_bits(64).raw() == ~std::uint64_t{0});
  CHECK(KeySet::low_bits(64).count() == 64);
}

TEST_CASE("KeySet: the operations are constant expressions") {
  constexpr KeySet cpu = KeySet::bit(0);
  constexpr KeySet dense = KeySet::bit(40);
  static_assert((cpu | dense).has_all(cpu));
  static_assert((cpu | dense).without(dense) == cpu);
  static_assert((cpu | dense).highest_bit() == 40);
  CHECK((cpu | dense).count() == 2);
}

}  // namespace dt::test
