// Typed, located access to TOML (base/toml_reader.hpp).
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "base/toml_reader.hpp"

namespace dt::test {
namespace {

toml::table parsed(const std::string& text) {
  auto root = parse_toml(text, "t.toml");
  REQUIRE_MESSAGE(root.has_value(), (root ? "" : format(root.error())));
  return std::move(*root);
}

}  // namespace

TEST_CASE("parse_toml: syntax errors are located in the file") {
  auto r = parse_toml("a = 1\nb = \n", "x.toml");
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().where.file == "x.toml");
  CHECK(r.error().where.line == 2);
  CHECK_FALSE(r.error().message.empty());
}

TEST_CASE("TableReader: typed fields with their locations") {
  const toml::table root = parsed("name = \"n\"\nflag = true\nlist = [\"a\", \"b\"]\n[[items]]\nx = 1\n");
  std::optional<Diagnostic> error;
  TableReader r(root, "t.toml", "the test table", &error);
  r.allow_only({"name", "flag", "list", "items", "absent"});
  auto name = r.str("name");
  REQUIRE(name.has_value());
  CHECK(name->value == "n");
  CHECK(to_string(name->where) == "t.toml:1:8");
  CHECK(r.boolean("flag")->value);
  auto list = r.str_array("list");
  REQUIRE(list.has_value());
  REQUIRE(list->size() == 2);
  CHECK(to_string((*list)[1].where) == "t.toml:3:14");
  CHECK(r.table_array("items")->size() == 1);
  CHECK(r.contains("name"));
  CHECK_FALSE(r.contains("absent"));
  CHECK_FALSE(r.str("absent").has_value());
  CHECK(r.where("absent") == r.self());  // an absent field is reported at its table
  CHECK_FALSE(error.has_value());
}

TEST_CASE("TableReader: an unknown field, with a suggestion, afterwards nothing reads") {
  const toml::table root = parsed("name = \"n\"\nnmae = \"typo\"\n");
  std::optional<Diagnostic> error;
  TableReader r(root, "t.toml", "the test table", &error);
  r.allow_only({"name"});
  REQUIRE(error.has_value());
  CHECK(format(*error) == "t.toml:2:1: error: unknown field 'nmae' in the test table (did you mean 'name'?)\n");
  CHECK(r.failed());
  CHECK_FALSE(r.str("name").has_value());
}

TEST_CASE("TableReader: a value of the wrong type is an error at the value, the first error is kept") {
  const toml::table root = parsed("name = 3\nlist = [\"a\", 2]\nitems = [1]\n");
  std::optional<Diagnostic> error;
  TableReader r(root, "t.toml", "the test table", &error);
  CHECK_FALSE(r.str("name").has_value());
  CHECK_FALSE(r.str_array("list").has_value());
  REQUIRE(error.has_value());
  CHECK(format(*error) == "t.toml:1:8: error: field 'name' in the test table must be a string, not an integer\n");
  std::optional<Diagnostic> error2;
  TableReader r2(root, "t.toml", "the test table", &error2);
  CHECK_FALSE(r2.str_array("list").has_value());
  CHECK(format(*error2) ==
        "t.toml:2:14: error: field 'list' in the test table must be an array of strings; found an integer\n");
  std::optional<Diagnostic> error3;
  TableReader r3(root, "t.toml", "the test table", &error3);
  CHECK(r3.table_array("items") == nullptr);
  CHECK(format(*error3) == "t.toml:3:10: error: 'items' must be an array of tables ([[items]]); found an integer\n");
}

TEST_CASE("string_offset_location: where a byte of a string's decoded text is written") {
  // b = "x\ty": the opening quote is at 2:5; 'y' (decoded offset 2) follows a two-character escape.
  const std::string text = "a = 1\nb = \"x\\ty\"\n";
  const Location b{"f.toml", 2, 5};
  CHECK(to_string(string_offset_location(text, b, 0)) == "f.toml:2:6");
  CHECK(to_string(string_offset_location(text, b, 1)) == "f.toml:2:7");
  CHECK(to_string(string_offset_location(text, b, 2)) == "f.toml:2:9");
  // Not a string where `start` points: `start` itself.
  CHECK(to_string(string_offset_location(text, Location{"f.toml", 1, 5}, 0)) == "f.toml:1:5");
  // A multi-line literal: the newline after the delimiter is trimmed; lines count.
  const std::string ml = "c = '''\nab\ncd'''\n";
  const Location c{"f.toml", 1, 5};
  CHECK(to_string(string_offset_location(ml, c, 0)) == "f.toml:2:1");
  CHECK(to_string(string_offset_location(ml, c, 3)) == "f.toml:3:1");
  // A \u escape decodes to a two-byte character: offsets 0 and 1 are both at its backslash.
  const std::string u = "d = \"\\u00e9z\"\n";
  CHECK(to_string(string_offset_location(u, Location{"f.toml", 1, 5}, 1)) == "f.toml:1:6");
  CHECK(to_string(string_offset_location(u, Location{"f.toml", 1, 5}, 2)) == "f.toml:1:12");
}

}  // namespace dt::test
