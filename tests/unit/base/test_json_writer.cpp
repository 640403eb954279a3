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

TEST_CASE("JsonWriter: a top-level value ends its line, the writer appends") {
  std::string out = "prefix\n";
  JsonWriter w(out);
  w.begin_array();
  w.end_array();
  CHECK(out == "prefix\n[]\n");
}

TEST_CASE("JsonWriter: booleans, null, optional strings") {
  std::string out;
  JsonWriter w(out);
  w.begin_object();
  w.bool_member("yes", true);
  w.bool_member("no", false);
  w.null_member("none");
  w.optional_member("some", std::string_view("x"));
  w.optional_member("absent", std::nullopt);
  w.key("list");
  w.begin_array();
  w.boolean(false);
  w.null();
  w.end_array();
  w.end_object();
  CHECK(out ==
        "{\n"
        "  \"yes\": true,\n"
        "  \"no\": false,\n"
        "  \"none\": null,\n"
        "  \"some\": \"x\",\n"
        "  \"absent\": null,\n"
        "  \"list\": [\n"
        "    false,\n"
        "    null\n"
        "  ]\n"
        "}\n");
}

TEST_CASE("begin_envelope: version, tool and profile open every document") {
  std::string out;
  JsonWriter w(out);
  begin_envelope(w, "1.2.3", "torch-1.13");
  w.end_object();
  CHECK(out ==
        "{\n"
        "  \"version\": 1,\n"
        "  \"tool\": {\n"
        "    \"name\": \"dispatchtool\",\n"
        "    \"version\": \"1.2.3\"\n"
        "  },\n"
        "  \"profile\": \"torch-1.13\"\n"
        "}\n");
}

TEST_CASE("JsonWriter: compact layout has no whitespace and no final newline") {
  std::string out;
  JsonWriter w(out, JsonWriter::Layout::Compact);
  w.begin_object();
  w.member("a", std::uint64_t{1});
  w.key("b");
  w.begin_array();
  w.str("x");
  w.null();
  w.begin_object();
  w.end_object();
  w.end_array();
  w.end_object();
  CHECK(out == "{\"a\":1,\"b\":[\"x\",null,{}]}");
}

TEST_CASE("JsonWriter: raw_value writes JSON written elsewhere as a value, with separators") {
  std::string out;
  JsonWriter w(out, JsonWriter::Layout::Compact);
  w.begin_array();
  w.raw_value("{\"a\":1}");
  w.raw_value("[2]");
  w.end_array();
  CHECK(out == "[{\"a\":1},[2]]");
}

}  // namespace dt::test
