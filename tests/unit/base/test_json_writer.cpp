// The JSON writer (base/json_writer.hpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "base/json_writer.hpp"

namespace dt::test {

TEST_CASE("JsonWriter: two-space indentation, members in order, strings quoted") {
  std::string out;
  JsonWriter w(out);
  w.begin_object();
  w.member("name", "d\"t");
  w.member("count", std::uint64_t{2});
  w.key("list");
  w.begin_array();
  w.str("a");
  w.num(7);
  w.begin_array();
  w.end_array();
  w.end_array();
  w.key("empty");
  w.begin_object();
  w.end_object();
  w.text_member("message", "hi");
  w.end_object();
  CHECK(out ==
        "{\n"
        "  \"name\": \"d\\\"t\",\n"
        "  \"count\": 2,\n"
        "  \"list\": [\n"
        "    \"a\",\n"
        "    7,\n"
        "    []\n"
        "  ],\n"
        "  \"empty\": {},\n"
        "  \"message\": {\n"
        "    \"text\": \"hi\"\n"
        "  }\n"
        "}\n");
}

TEST_CASE("JsonWriter: a top-level value ends its line; the writer appends") {
  std::string out = "prefix\n";
  JsonWriter w(out);
  w.begin_array();
  w.end_array();
  CHECK(out == "prefix\n[]\n");
}

TEST_CASE("JsonWriter: booleans and null") {
  std::string out;
  JsonWriter w(out);
  w.begin_object();
  w.member("yes", true);
  w.member("no", false);
  w.member("none", nullptr);
  w.member("text", "t");  // a string literal stays a string, not a bool
  w.key("list");
  w.begin_array();
  w.null();
  w.boolean(true);
  w.end_array();
  w.end_object();
  CHECK(out ==
        "{\n  \"yes\": true,\n  \"no\": false,\n  \"none\": null,\n  \"text\": \"t\",\n  \"list\": [\n    null,\n    "
        "true\n  ]\n}\n");
}

}  // namespace dt::test
