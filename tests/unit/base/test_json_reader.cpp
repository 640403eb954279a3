// parse_json: RFC 8259, located errors, bounded depth.
#include "base/json_reader.hpp"

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("parse_json: values, escapes, members in order") {
  auto v = parse_json(R"([{"directory": "/b", "file": "a\u00e9.cpp", "n": -1.5e3, "t": true, "x": null, "a": []}])",
                      "c.json");
  REQUIRE(v.has_value());
  REQUIRE(v->items.size() == 1);
  const JsonValue& e = v->items[0];
  CHECK(e.get("file")->text == "a\xc3\xa9.cpp");
  CHECK(e.get("n")->text == "-1.5e3");
  CHECK(e.get("t")->boolean);
  CHECK(e.get("x")->type == JsonValue::Type::Null);
  CHECK(e.get("missing") == nullptr);
  CHECK(e.members[0].key == "directory");
  CHECK(parse_json(R"("\ud83d\ude00")", "c.json")->text == "\xf0\x9f\x98\x80");
}

TEST_CASE("parse_json: errors are located, nesting is bounded") {
  CHECK(format(parse_json("[1,\n 2,]", "c.json").error()) == "c.json:2:4: error: invalid JSON value\n");
  CHECK(format(parse_json("{\"a\" 1}", "c.json").error()) == "c.json:1:6: error: expected ':'\n");
  CHECK(format(parse_json("\"abc", "c.json").error()) == "c.json:1:5: error: unterminated JSON string\n");
  CHECK(format(parse_json("[] x", "c.json").error()) == "c.json:1:4: error: unexpected text after the JSON value\n");
  CHECK(parse_json(std::string(100000, '['), "c.json").error().message.find("deeper than 256") != std::string::npos);
}

}  // namespace dt::test
