// TomlFile: a TOML file as the readers' blocks (readers/toml_file.hpp).
// Held to the file itself: every TOML file the golden cases load and the
// shipped examples, read into blocks and written back by render_toml, is the
// same document; and to where each key and value is written.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "base/toml_reader.hpp"
#include "golden_files.hpp"
#include "helpers.hpp"
#include "readers/toml_file.hpp"

namespace dt::test {
namespace {

// A file's blocks with every entry converted.
std::vector<TomlBlock> materialized(const TomlFile& file) {
  std::vector<TomlBlock> out;
  for (const TomlFileBlock& fb : file.blocks()) {
    TomlBlock& b = out.emplace_back(fb.header);
    for (std::size_t i = 0; i < fb.size(); ++i) fb.entry(i, b.entries.emplace_back());
  }
  return out;
}

std::vector<TomlBlock> blocks_of(const std::string& text) {
  auto file = TomlFile::parse(text, "t.toml", "t.toml");
  REQUIRE_MESSAGE(file.has_value(), (file ? "" : format(file.error())));
  return materialized(**file);
}

std::string error_of(const std::string& text, std::string_view path = "t.toml") {
  auto file = TomlFile::parse(text, "t.toml", path);
  REQUIRE_FALSE(file.has_value());
  return format(file.error());
}

// A document as one line, keys in order (a parsed table iterates by key).
std::string canonical(const toml::node& n) {
  if (const auto* t = n.as_table()) {
    std::string out = "{";
    for (auto&& [k, v] : *t) out += fmt::format("{:?}={},", k.str(), canonical(v));
    return out + "}";
  }
  if (const auto* a = n.as_array()) {
    std::string out = "[";
    for (const auto& e : *a) out += canonical(e) + ",";
    return out + "]";
  }
  std::ostringstream os;
  n.visit([&](const auto& v) { os << v; });
  return fmt::format("{}:{}", static_cast<int>(n.type()), os.str());
}

// The library blocks of a document: each [[block]], or the file.
std::vector<std::string> canonical_blocks(const toml::table& root) {
  std::vector<std::string> out;
  if (const auto* arr = root.get_as<toml::array>("block")) {
    for (const auto& b : *arr) out.push_back(canonical(b));
  } else {
    out.push_back(canonical(root));
  }
  return out;
}

// Whether `text` read into blocks and written back is the same document; "" if so.
std::string round_trip(const std::string& text) {
  auto root = parse_toml(text, "t.toml");
  if (!root) return "";  // a golden case of a syntax error
  const std::vector<std::string> before = canonical_blocks(*root);
  auto file = TomlFile::parse(text, "t.toml", "t.toml");
  if (!file) return "";  // a malformed [[block]] file: its error is tested below
  const std::vector<TomlBlock> blocks = materialized(**file);
  const std::string written = render_toml(blocks, "t");
  auto again = parse_toml(written, "again.toml");
  if (!again) return "the written text does not parse: " + format(again.error()) + "\n" + written;
  const std::vector<std::string> after = canonical_blocks(*again);
  if (before != after)
    return fmt::format("{}\n  !=\n{}\nwritten:\n{}", fmt::join(before, "\n"), fmt::join(after, "\n"), written);
  return "";
}

}  // namespace

TEST_CASE("TomlFile: every TOML file of the golden cases and the examples, written back, is the same document") {
  std::vector<GoldenFile> files = golden_files(".toml");
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(DT_SOURCE_DIR) + "/configs/examples"))
    if (e.path().extension() == ".toml") files.push_back(GoldenFile{e.path().string(), read_text(e.path().string())});
  REQUIRE(files.size() >= 100);
  for (const GoldenFile& f : files) {
    CAPTURE(f.name);
    CHECK(round_trip(f.text) == "");
  }
}

TEST_CASE("TomlFile: header fields, then entries in document order, each field located") {
  const auto blocks = blocks_of(
      "namespace = \"ns\"\n"
      "[[impl]]\nop = \"f\"\nkey = \"CPU\"\n"
      "[[def]]\nschema = \"f(Tensor x) -> Tensor\"\ndispatch = { \"CUDA\" = \"k\", CPU = \"c\" }\n"
      "tags = [\"core\",\n  \"pt2_compliant_tag\"]\n"
      "[[impl]]\nop = \"g\"\nkeys = [1]\n");
  REQUIRE(blocks.size() == 1);
  const TomlBlock& b = blocks[0];
  CHECK(to_string(b.at) == "t.toml:1:1");
  REQUIRE(b.header.size() == 1);
  CHECK(b.header[0].key == "namespace");
  CHECK(to_string(b.header[0].at) == "t.toml:1:13");
  CHECK(to_string(b.header[0].key_at()) == "t.toml:1:1");
  CHECK(b.header[0].in_toml_text);
  REQUIRE(b.entries.size() == 3);
  CHECK(b.entries[0].kind == "impl");
  CHECK(b.entries[1].kind == "def");
  CHECK(b.entries[2].kind == "impl");
  CHECK(to_string(b.entries[1].at) == "t.toml:5:1");
  // An entry's fields in the parsed table's order: by key.
  const auto& def = b.entries[1].fields;
  REQUIRE(def.size() == 3);
  CHECK(def[0].key == "dispatch");
  CHECK(def[1].key == "schema");
  CHECK(def[2].key == "tags");
  const auto& dispatch = std::get<TomlTable>(def[0].value).fields;
  REQUIRE(dispatch.size() == 2);
  CHECK(dispatch[0].key == "CPU");
  CHECK(to_string(dispatch[0].key_at()) == "t.toml:7:28");
  CHECK(to_string(dispatch[0].at) == "t.toml:7:34");
  CHECK(dispatch[1].key == "CUDA");
  CHECK(to_string(dispatch[1].key_at()) == "t.toml:7:14");
  const auto& tags = std::get<TomlArray>(def[2].value).items;
  REQUIRE(tags.size() == 2);
  CHECK(to_string(tags[0].at) == "t.toml:8:9");
  CHECK(to_string(tags[1].at) == "t.toml:9:3");
  CHECK(tags[1].key.empty());
  const auto& keys = std::get<TomlArray>(b.entries[2].fields[0].value).items;
  REQUIRE(keys.size() == 1);
  const auto* one = std::get_if<TomlScalar>(&keys[0].value);
  REQUIRE(one != nullptr);
  CHECK(one->type == TomlScalar::Type::Integer);
  CHECK(one->text == "1");
}

TEST_CASE("TomlFile: an array of entries that is not one of tables stays in the header, for the loader's error") {
  const auto blocks = blocks_of("def = \"x\"\nimpl = [{ op = \"f\" }, 2]\n[[fallback]]\nkey = \"CPU\"\n");
  REQUIRE(blocks[0].header.size() == 2);
  CHECK(blocks[0].header[0].key == "def");
  CHECK(blocks[0].header[1].key == "impl");
  REQUIRE(blocks[0].entries.size() == 1);
  CHECK(blocks[0].entries[0].kind == "fallback");
  // An empty array is one of tables: no entries.
  CHECK(blocks_of("def = []\n")[0].header.empty());
}

TEST_CASE("TomlFile: [[block]] tables are blocks, each where it starts") {
  const auto blocks = blocks_of(
      "[[block]]\nnamespace = \"a\"\n[[block.def]]\nschema = \"f() -> ()\"\n"
      "[[block]]\nnamespace = \"b\"\n");
  REQUIRE(blocks.size() == 2);
  CHECK(to_string(blocks[0].at) == "t.toml:1:1");
  CHECK(blocks[0].entries.size() == 1);
  CHECK(to_string(blocks[1].at) == "t.toml:5:1");
  CHECK(blocks[1].entries.empty());
  CHECK(error_of("block = 1\n") ==
        "t.toml:1:9: error: 'block' must be an array of tables ([[block]]), one per library block\n");
  CHECK(error_of("namespace = \"a\"\n[[block]]\n") ==
        "t.toml:1:13: error: a file of [[block]] tables has nothing else at its top level; move 'namespace' into "
        "a [[block]]\n");
}

TEST_CASE("TomlFile: scalars the loader never reads keep their type and text") {
  const auto blocks = blocks_of("a = 1.5\nb = 1979-05-27\nc = 07:32:00\nd = 1979-05-27T07:32:00Z\ne = -3\n");
  const auto& h = blocks[0].header;
  REQUIRE(h.size() == 5);
  const auto type = [&](std::size_t i) { return std::get<TomlScalar>(h[i].value).type; };
  CHECK(type(0) == TomlScalar::Type::Float);
  CHECK(type(1) == TomlScalar::Type::Date);
  CHECK(type(2) == TomlScalar::Type::Time);
  CHECK(type(3) == TomlScalar::Type::DateTime);
  CHECK(type(4) == TomlScalar::Type::Integer);
  CHECK(std::get<TomlScalar>(h[4].value).text == "-3");
  CHECK(std::get<TomlScalar>(h[1].value).text == "1979-05-27");
}

TEST_CASE("TomlFile: an entry's storage is reused from one entry to the next, with nothing of the last left") {
  auto file = TomlFile::parse(
      "[[impl]]\nop = \"a_long_operator_name_here\"\nkeys = [\"CPU\", \"CUDA\"]\nkey = \"X\"\n"
      "[[def]]\nschema = \"f() -> ()\"\n",
      "t.toml", "t.toml");
  REQUIRE(file.has_value());
  const TomlFileBlock& b = (*file)->blocks()[0];
  REQUIRE(b.size() == 2);
  TomlEntry e;
  b.entry(0, e);
  CHECK(e.kind == "impl");
  REQUIRE(e.fields.size() == 3);
  b.entry(1, e);
  CHECK(e.kind == "def");
  REQUIRE(e.fields.size() == 1);
  CHECK(e.fields[0].key == "schema");
  CHECK(std::get<std::string>(e.fields[0].value) == "f() -> ()");
  CHECK(to_string(e.at) == "t.toml:5:1");
  // Converted again, the same entry (a deferred block is compiled twice).
  TomlEntry again;
  b.entry(0, again);
  REQUIRE(again.fields[2].key == "op");
  CHECK(std::get<std::string>(again.fields[2].value) == "a_long_operator_name_here");
}

TEST_CASE("TomlFile: a key that is not bare is written quoted, and reads back the same") {
  CHECK(round_trip("\"a b\" = 1\n\"\" = \"x\"\n\"k.q\" = [1, { \"z w\" = true }]\n[[def]]\n\"s t\" = 2\n") == "");
}

TEST_CASE("TomlFile: a syntax error in a file not named .toml says it was read as TOML") {
  CHECK(error_of("a = \n", "t.toml").find("read as TOML") == std::string::npos);
  CHECK(error_of("a = \n", "-").find("(read as TOML: only files named .cpp") != std::string::npos);
}

}  // namespace dt::test
