// Text helpers (base/text.hpp).
#include <doctest/doctest.h>

#include "base/text.hpp"

namespace dt::test {

TEST_CASE("json_quote: a JSON string literal, control characters escaped") {
  CHECK(json_quote("a\"b\\c\n\t\x01\x7f") == "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\"");
  CHECK(json_quote("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
}

}  // namespace dt::test
