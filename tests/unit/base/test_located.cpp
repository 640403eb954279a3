// offset_in: a byte offset of a reader's string value back to its column in the source.
#include "base/located.hpp"

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("offset_in: columns follow the value as TOML writes it, within the span") {
  const Location at{"ops.cpp", 4, 10};
  // "foo(Tensor x) -> Tensor": byte 4 ('T') is 4 columns on.
  CHECK(offset_in(at, 0, "foo(Tensor x) -> Tensor", 4) == Location{"ops.cpp", 4, 14});
  CHECK(offset_in(at, 0, "foo(Tensor x) -> Tensor", 0) == at);
  // An escaped quote takes two columns, a UTF-8 sequence one.
  CHECK(offset_in(at, 0, "a\"b", 2) == Location{"ops.cpp", 4, 13});
  CHECK(offset_in(at, 0, "\xc3\xa9x", 2) == Location{"ops.cpp", 4, 11});
  // Past the span (the first of several joined literals): the value's start.
  CHECK(offset_in(at, 3, "abcdef", 2) == Location{"ops.cpp", 4, 12});
  CHECK(offset_in(at, 3, "abcdef", 4) == at);
  // An unknown column stays unknown.
  CHECK(offset_in(Location{"ops.cpp", 4, 0}, 0, "abc", 2) == Location{"ops.cpp", 4, 0});
}

}  // namespace dt::test
