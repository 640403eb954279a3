// render_toml: TomlBlocks as TOML text (what dispatchtool import prints).
#include "readers/toml_writer.hpp"

#include "base/toml_reader.hpp"

#include "helpers.hpp"

namespace dt::test {

namespace {

std::vector<TomlBlock> two_blocks() {
  TomlBlock def;
  def.at = Location{"ops.cpp", 3, 1};
  def.note = "TORCH_LIBRARY(myops, m)";
  def.add("namespace", "myops", Location{"ops.cpp", 3, 15}).add("kind", "DEF", Location{"ops.cpp", 3, 1});
  TomlEntry d;
  d.kind = "def";
  d.at = Location{"ops.cpp", 4, 3};
  d.add("schema", "foo(Tensor x) -> Tensor", Location{"ops.cpp", 4, 10});
  def.entries.push_back(d);
  TomlBlock impl;
  impl.at = Location{"ops.cpp", 7, 1};
  impl.add("namespace", "myops", Location{"ops.cpp", 7, 20})
      .add("kind", "IMPL", Location{"ops.cpp", 7, 1})
      .add("dispatch_key", "CPU", Location{"ops.cpp", 7, 27});
  TomlEntry i;
  i.kind = "impl";
  i.at = Location{"ops.cpp", 8, 3};
  i.add("op", "foo", Location{"ops.cpp", 8, 11})
      .add("kernel", "registered at ops.cpp:7", Location{"ops.cpp", 8, 3})
      .add("keys", std::vector<std::string>{"CPU", "CUDA"}, Location{"ops.cpp", 8, 3})
      .add("boxed_only", true, Location{"ops.cpp", 8, 3});
  impl.entries.push_back(i);
  return {def, impl};
}

}  // namespace

TEST_CASE("render_toml: several blocks as [[block]] tables, each entry with its source as a comment") {
  const std::string text = render_toml(two_blocks(), "ops.cpp (C++), read by dispatchtool");
  CHECK(text ==
        "# ops.cpp (C++), read by dispatchtool\n"
        "\n"
        "# ops.cpp:3:1: TORCH_LIBRARY(myops, m)\n"
        "[[block]]\n"
        "namespace = \"myops\"\n"
        "kind = \"DEF\"\n"
        "\n"
        "# ops.cpp:4:3\n"
        "[[block.def]]\n"
        "schema = \"foo(Tensor x) -> Tensor\"\n"
        "\n"
        "# ops.cpp:7:1\n"
        "[[block]]\n"
        "namespace = \"myops\"\n"
        "kind = \"IMPL\"\n"
        "dispatch_key = \"CPU\"\n"
        "\n"
        "# ops.cpp:8:3\n"
        "[[block.impl]]\n"
        "op = \"foo\"\n"
        "kernel = \"registered at ops.cpp:7\"\n"
        "keys = [\"CPU\", \"CUDA\"]\n"
        "boxed_only = true\n");
}

TEST_CASE("render_toml: one block is a plain file") {
  auto blocks = two_blocks();
  blocks.pop_back();
  const std::string text = render_toml(blocks, "t");
  CHECK(text.find("[[block") == std::string::npos);
  CHECK(text.find("\n[[def]]\n") != std::string::npos);
}

TEST_CASE("render_toml: a note and a title with newlines stay on their comment line, unknown locations as (generated)") {
  TomlBlock b;
  b.note = "two\nlines";
  TomlEntry e;
  e.kind = "impl";
  e.at = Location{"o\nps.cpp", 2, 5};  // a file name with a newline: printed as to_string prints it
  e.note = "a\r\nb";
  e.add("op", "a\"b", Location{});
  b.entries.push_back(e);
  b.entries.push_back(e);
  const std::string text = render_toml({b}, "x\ny");
  const std::string entry = "\n# " + to_string(e.at) + ": a  b\n[[impl]]\nop = \"a\\\"b\"\n";
  CHECK(to_string(e.at) == "o\\x0aps.cpp:2:5");
  CHECK(text == "# x y\n\n# (generated): two lines\n" + entry + entry);
}

TEST_CASE("toml_quote escapes what TOML basic strings need") {
  CHECK(toml_quote("") == "\"\"");
  CHECK(toml_quote("plain text, no escapes") == "\"plain text, no escapes\"");
  CHECK(toml_quote("\x7f\r\"") == "\"\\u007F\\r\\\"\"");
  CHECK(toml_quote("a\"b\\c") == R"("a\"b\\c")");
  CHECK(toml_quote("x\ny\t\x01") == "\"x\\ny\\t\\u0001\"");
  CHECK(toml_quote("é") == "\"é\"");
}

// Eight bytes at a time over plain text: every byte that needs an escape, at
// every position of a 17-byte string (two words and a tail), among ASCII and
// UTF-8 neighbours, is escaped as one byte at a time escapes it.
TEST_CASE("toml_quote: the eight-byte scan misses no byte to escape") {
  const auto one_by_one = [](std::string_view s) {
    std::string out = "\"";
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c == '"') out += "\\\"";
      else if (c == '\\') out += "\\\\";
      else if (c == '\n') out += "\\n";
      else if (c == '\t') out += "\\t";
      else if (c == '\r') out += "\\r";
      else if (c < 0x20 || c == 0x7f) out += fmt::format("\\u{:04X}", c);
      else out += ch;
    }
    return out + "\"";
  };
  int checked = 0;
  for (const char* fill : {"abcdefghijklmnopq", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3", " ~!#$%&'()*+,-./0"})
    for (unsigned bad = 0; bad < 0x80; ++bad) {
      if (bad >= 0x20 && bad != 0x7f && bad != '"' && bad != '\\' && bad != 0x1f + 1 && bad != 'A') continue;
      for (std::size_t at = 0; at < 17; ++at) {
        std::string s(fill);
        s[at] = static_cast<char>(bad);
        CHECK(toml_quote(s) == one_by_one(s));
        ++checked;
      }
    }
  CHECK(checked == 3 * 17 * 37);  // 0x00-0x1f, 0x7f, the quote, the backslash; a space and an A
}

}  // namespace dt::test

namespace dt::test {

TEST_CASE("render_toml: a note's bytes that a TOML comment cannot hold are written as \\xNN") {
  // set_python_module("d\xe0cpp") in a C++ source: not UTF-8, which toml++
  // refuses even in a comment (found by fuzz_cpp_reader).
  TomlBlock b;
  b.at = Location{"ops.cpp", 1, 1};
  b.note = "d\xe0" "cpp \x01 \xc3\xa9 \xed\xa0\x80";
  b.add("namespace", "t", Location{"ops.cpp", 1, 15});
  const std::string text = render_toml({b}, "t");
  CHECK(text.find("# ops.cpp:1:1: d\\xe0cpp \\x01 \xc3\xa9 \\xed\\xa0\\x80\n") != std::string::npos);
  CHECK(parse_toml(text, "t.toml").has_value());
}

}  // namespace dt::test
