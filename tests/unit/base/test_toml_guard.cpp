// The pre-scan of TOML text before toml++ parses it (base/toml_guard.hpp):
// nesting limits, and what toml++ 3.3.0 cannot parse safely (issue 11).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "base/limits.hpp"
#include "base/toml_guard.hpp"
#include "base/toml_reader.hpp"

namespace dt::test {

namespace {

// "" when the text passes, else the formatted error.
std::string guard(std::string_view text) {
  auto d = check_toml_input(text, "t.toml");
  return d ? format(*d) : std::string();
}

std::string repeat(std::string_view s, std::size_t n, std::string_view sep = "") {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += sep;
    out += s;
  }
  return out;
}

}  // namespace

TEST_CASE("toml guard: valid TOML passes, whatever its strings and comments hold") {
  const char* valid[] = {
      "",
      "\xEF\xBB\xBFx = 1\n",  // a byte order mark
      "a.b.c = 1\n[t]\n[[arr]]\n\"quoted . key\".'lit' = \"v\"\n",
      "x = [1, 2,\n  # comment ]\n  3, ]\ny = {a = 1, b = [true, false], c = {}}\n",
      "d1 = 1979-05-27 07:32:00Z\nd2 = 1979-05-27T07:32:00\nf = -1.5e3\ni = 0x1F\nn = nan\n",
      "s = \"\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82 [ { # \\\" \\u00e9\"\n",  // Cyrillic, brackets in a
                                                                                        // string
      "# \xC2\xA1 comment with U+00A1 and U+3001 \xE3\x80\x81\nx = 'lit \\ \xC2\xA1'\n",
      "m = \"\"\"\nline [ \xC2\xA1\n\"\" \"\"\"\"\"\nl = '''a\n''b''''\n",  // quotes inside, up to 5 at the end
      "m = \"\"\"a \\\n   \n  b\"\"\"\n",                                   // a line-ending backslash
      "m = \"\"\"a \\\n \xC2\xA0 b\"\"\"\n",                                // U+00A0 counts as blank there
      "x = 1\r\ny = [\r\n 2\r\n]\r\n",
  };
  for (const char* t : valid) {
    CAPTURE(t);
    CHECK(guard(t).empty());
  }
}

TEST_CASE("toml guard: the shipped profiles and examples pass") {
  // Every TOML file, those of subfolders too (a folder opened as a file read as
  // empty and passed: the test checked nothing there), and how many were checked.
  std::size_t checked = 0;
  for (const char* dir : {DT_SOURCE_DIR "/configs/profiles", DT_SOURCE_DIR "/configs/examples"})
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".toml") continue;
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      CAPTURE(entry.path().string());
      REQUIRE_FALSE(text.str().empty());
      CHECK(guard(text.str()).empty());
      ++checked;
    }
  // 4 profiles, 6 examples at the top, 4 in subfolders (npu_backend/, torch_library/).
  CHECK(checked >= 14);
}

TEST_CASE("toml guard: dotted keys and table names up to the limit, then a located error") {
  const std::size_t n = limits::kTomlKeyParts;
  CHECK(guard(repeat("a", n, ".") + " = 1\n").empty());
  CHECK(guard("x = 1\n" + repeat("a", n + 1, ".") + " = 1\n") ==
        "t.toml:2:1: error: a dotted key or table name with more than 32 parts (limit: 32)\n");
  // Appends, not "[" + s + "]": g++ 12 -O3 warns falsely on the latter (stringop-overflow).
  const auto wrap = [](std::string_view open, const std::string& middle, std::string_view close) {
    std::string text(open);
    text += middle;
    text += close;
    return text;
  };
  CHECK(guard(wrap("[", repeat("a", n + 1, " . "), "]\n")).find("t.toml:1:2: error: a dotted key") == 0);
  CHECK(guard(wrap("[[", repeat("a", 100000, "."), "]]\n")).find("t.toml:1:3: error: a dotted key") == 0);
  CHECK(guard(wrap("x = {", repeat("a", n + 1, "."), " = 1}\n")).find("t.toml:1:6: error:") == 0);
}

TEST_CASE("toml guard: arrays and inline tables nested up to the limit, then a located error") {
  const std::size_t n = limits::kTomlNesting;
  CHECK(guard("x = " + repeat("[", n) + repeat("]", n) + "\n").empty());
  CHECK(guard("x = " + repeat("{a=", n - 1) + "{}" + repeat("}", n - 1) + "\n").empty());
  CHECK(guard("x = " + repeat("[", n + 1) + repeat("]", n + 1) + "\n") ==
        "t.toml:1:37: error: arrays and inline tables nested more than 32 deep (limit: 32)\n");
  CHECK(guard("x = " + repeat("[{a=", 50000) + "1\n").find("t.toml:1:") == 0);
}

TEST_CASE("toml guard: code points toml++ 3.3.0 cannot test for whitespace (TOML_UNREACHABLE)") {
  // After a value, at the start of a line, in a key position: not ASCII outside a string.
  CHECK(guard("x = 1\xC2\xA1\n") ==
        "t.toml:1:6: error: character U+00A1 outside a string or comment (TOML allows only ASCII there)\n");
  CHECK(guard("\xC2\xA1") ==
        "t.toml:1:1: error: character U+00A1 outside a string or comment (TOML allows only ASCII there)\n");
  CHECK(guard("a = \"ok\"\n\xE2\xBA\x80 = 1\n").find("t.toml:2:1: error: character U+2E80") == 0);
  CHECK(guard("x = [1, \xEF\xAC\xB0]\n").find("t.toml:1:9: error: character U+FB30") == 0);
  CHECK(guard("x = 1 \xFE\n").find("t.toml:1:7: error: byte 0xFE (not UTF-8) outside") == 0);
  // In a multi-line basic string: right after a backslash, and after a line-ending backslash.
  CHECK(guard("s = \"\"\"\\\n\xC2\xA7\"\"\"\n") ==
        "t.toml:2:1: error: character U+00A7 right after a line-ending backslash is refused (toml++ 3.3.0 cannot "
        "test it for whitespace; see docs/toml++-3.3.0.md)\n");
  CHECK(guard("s = \"\"\"x\\ \t\n  \n \xD0\x96\"\"\"\n").find("t.toml:3:2: error: character U+0416 right after") == 0);
  CHECK(guard("s = \"\"\"\\\xC2\xA7\"\"\"\n") ==
        "t.toml:1:8: error: a backslash followed by character U+00A7 is not an escape sequence\n");
  // Inside strings and comments they are text.
  CHECK(guard("s = \"\xC2\xA7\"\nm = \"\"\"\xC2\xA7\n\xD0\x96\"\"\" # \xD0\x96\n").empty());
}

TEST_CASE("toml guard: the four assertions of toml++ 3.3.0 that input can violate") {
  // parse_key after '[': a header must name a table.
  CHECK(guard("[\n") == "t.toml:1:1: error: expected a table name after '['\n");
  CHECK(guard(std::string("x = 1\n[[\0]]\n", 11)) == "t.toml:2:1: error: expected a table name after '['\n");
  CHECK(guard("[[[1]]]\n") == "t.toml:1:1: error: expected a table name after '['\n");
  // parse_value on '}' in an array.
  CHECK(guard("y=[1,}") == "t.toml:1:6: error: expected a value or ']' in an array, saw '}'\n");
  CHECK(guard("x=[{a=1},\n # c\n }\n") == "t.toml:3:2: error: expected a value or ']' in an array, saw '}'\n");
  CHECK(guard("x=[}") == "t.toml:1:4: error: expected a value or ']' in an array, saw '}'\n");
  // parse_time after a date and 'T' (found by fuzz_load: tests/fuzz/regressions/load/toml-assert-parse_time.toml).
  CHECK(guard("x = 1979-05-27T:30:00Z\n") == "t.toml:1:15: error: a date-time needs a time (HH:MM:SS) after 'T'\n");
  CHECK(guard("x = [1979-05-27t]\n") == "t.toml:1:16: error: a date-time needs a time (HH:MM:SS) after 't'\n");
  CHECK(guard("x = 1979-05-27T07:32:00Z\ny = 1979-05-27\n").empty());
  // parse_value's scan after a date, a space and one digit at the value's end (found by fuzz_lint_config).
  CHECK(guard("x = 1979-05-27 1\n") == "t.toml:1:16: error: a date-time needs a time (HH:MM:SS) after the space\n");
  CHECK(guard("x = [1979-05-27 1]") == "t.toml:1:17: error: a date-time needs a time (HH:MM:SS) after the space\n");
  CHECK(guard("x = 1979-05-27 07:32:00\ny = 1979-05-27 # c\n").empty());
  // toml++ counts the value's characters without underscores and only looks
  // at the 5th and 8th of them (found by fuzz_lint_config at 848k executions:
  // tests/fuzz/regressions/lint_config/toml-assert-scan-underscores.toml).
  CHECK(guard("v = 1-m)-__---v/ 1\n") == "t.toml:1:18: error: a date-time needs a time (HH:MM:SS) after the space\n");
  CHECK(guard("v = 1979-05-27_ 1\n") == "t.toml:1:17: error: a date-time needs a time (HH:MM:SS) after the space\n");
  CHECK(guard("v = 1_979-05-27 1\n") == "t.toml:1:17: error: a date-time needs a time (HH:MM:SS) after the space\n");
  CHECK(guard("v = 1979-05-2_ 1\n").empty());  // 9 characters: toml++ does not look past the space
}

TEST_CASE("toml guard: control characters and lone carriage returns outside strings") {
  CHECK(guard(std::string("x = 1\0\n", 7)) ==
        "t.toml:1:6: error: control character U+0000 outside a string or comment\n");
  CHECK(guard("x = 1\ry = 2\n") == "t.toml:1:6: error: a carriage return not followed by a line feed\n");
  CHECK(guard("x = [1,\v2]\n").find("t.toml:1:8: error: control character U+000B") == 0);
}

TEST_CASE("toml guard: invalid TOML it does not refuse is left to toml++, whose error is located") {
  for (const char* bad : {"x = \n", "= 1\n", "x = [1,,2]\n", "x = {a = 1,}\n", "[ [a]]\n", "x = \"open\n", "x = 1 2\n",
                          "[a] b\n", "x = [1 2]\n"}) {
    CAPTURE(bad);
    CHECK(guard(bad).empty());
    auto parsed = parse_toml(bad, "t.toml");
    REQUIRE_FALSE(parsed.has_value());
    CHECK(parsed.error().where.line >= 1);
  }
}

TEST_CASE("parse_toml: the guard runs first") {
  auto deep = parse_toml(repeat("a", 100000, ".") + " = 1\n", "deep.toml");
  REQUIRE_FALSE(deep.has_value());
  CHECK(format(deep.error()) ==
        "deep.toml:1:1: error: a dotted key or table name with more than 32 parts (limit: 32)\n");
}

}  // namespace dt::test
