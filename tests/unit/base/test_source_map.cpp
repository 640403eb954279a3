// SourceMap: generated lines back to their origins.
#include "base/source_map.hpp"

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("SourceMap::remap: a mapped line keeps the column offset from its anchor") {
  SourceMap m;
  m.add(3, Location{"ops.cpp", 40, 12}, 10);
  CHECK(m.remap(Location{"gen", 3, 10}) == Location{"ops.cpp", 40, 12});
  CHECK(m.remap(Location{"gen", 3, 15}) == Location{"ops.cpp", 40, 17});
  CHECK(m.remap(Location{"gen", 3, 2}) == Location{"ops.cpp", 40, 12});  // before the anchor: the origin
  // Unmapped lines (gaps, past the end, unknown) stay as they are.
  CHECK(m.remap(Location{"gen", 2, 5}) == Location{"gen", 2, 5});
  CHECK(m.remap(Location{"gen", 9, 1}) == Location{"gen", 9, 1});
  CHECK(m.remap(Location{"gen", 0, 0}) == Location{"gen", 0, 0});
}

TEST_CASE("SourceMap::remap: columns past the span map to the origin") {
  // A value joined from two C++ literals: its first 12 characters are on the origin's line.
  SourceMap m;
  m.add(1, Location{"ops.cpp", 2, 10}, 11, 12);
  CHECK(m.remap(Location{"gen", 1, 22}) == Location{"ops.cpp", 2, 21});  // the 12th character
  CHECK(m.remap(Location{"gen", 1, 23}) == Location{"ops.cpp", 2, 10});  // in the second literal
}

TEST_CASE("SourceMap::remap_text: every FILE:LINE of the generated file, nothing else") {
  SourceMap m;
  m.add(2, Location{"ops.cpp", 17, 1});
  m.add(5, Location{"ops.cpp", 30, 3});
  CHECK(m.remap_text("registered at ops.cpp:2", "ops.cpp") == "registered at ops.cpp:17");
  CHECK(m.remap_text("block at ops.cpp:5; latest ops.cpp:2 [kernel]", "ops.cpp") ==
        "block at ops.cpp:30; latest ops.cpp:17 [kernel]");
  CHECK(m.remap_text("other.cpp:2 and ops.cpp: and ops.cppx:2", "ops.cpp") == "other.cpp:2 and ops.cpp: and ops.cppx:2");
  CHECK(m.remap_text("ops.cpp:3 is unmapped", "ops.cpp") == "ops.cpp:3 is unmapped");
  CHECK(m.remap_text("ops.cpp:99999999999999999999", "ops.cpp").starts_with("ops.cpp:"));  // no overflow, no crash
}

}  // namespace dt::test
