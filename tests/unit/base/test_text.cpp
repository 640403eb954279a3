// Text helpers (base/text.hpp).
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/text.hpp"

namespace dt::test {

TEST_CASE("json_quote: a JSON string literal, control characters escaped") {
  CHECK(json_quote("a\"b\\c\n\t\x01\x7f") == "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\"");
  CHECK(json_quote("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
}

TEST_CASE("json_quote: always valid UTF-8, nothing a log or terminal acts on (issue 32)") {
  // Each byte that is not part of valid UTF-8 is U+FFFD: a kernel 'k\xff\xfe'.
  CHECK(json_quote("k\xff\xfe") == "\"k\xef\xbf\xbd\xef\xbf\xbd\"");
  CHECK(json_quote("\xc0\xaf") == "\"\xef\xbf\xbd\xef\xbf\xbd\"");                  // overlong '/'
  CHECK(json_quote("\xed\xa0\x80") == "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");  // a surrogate
  CHECK(json_quote("\xe2\x82") == "\"\xef\xbf\xbd\xef\xbf\xbd\"");                  // cut short
  CHECK(json_quote("\xf0\x9f\x98\x80") == "\"\xf0\x9f\x98\x80\"");                  // U+1F600 passes
  // C1 controls (U+009B CSI, U+009D OSC), bidi controls, U+2028/U+2029 escaped; the value is the same.
  CHECK(json_quote("a\xc2\x9b"
                   "b\xc2\x9d"
                   "c\xe2\x80\xae"
                   "d\xe2\x81\xa6"
                   "e\xe2\x80\xa8"
                   "f") == "\"a\\u009bb\\u009dc\\u202ed\\u2066e\\u2028f\"");
  CHECK(json_quote("##[error]x") == "\"##\\u005berror]x\"");
  CHECK(json_quote("# [x] ##x") == "\"# [x] ##x\"");
}

TEST_CASE("replace_all: every occurrence, left to right, not the replacement's own") {
  CHECK(replace_all("{op}: {op}.", "{op}", "f") == "f: f.");
  CHECK(replace_all("a{x}", "{x}", "{x}{x}") == "a{x}{x}");
  CHECK(replace_all("abc", "", "z") == "abc");
  CHECK(replace_all("", "{op}", "f").empty());
}

TEST_CASE("join, trim, split and split_list") {
  CHECK(join({"a", "b", "c"}, ", ") == "a, b, c");
  CHECK(join({}, ", ").empty());
  CHECK(trim("  CPU ") == "CPU");
  CHECK(trim(" \t CPU\t", " \t") == "CPU");
  CHECK(trim("\tCPU") == "\tCPU");  // spaces only by default
  CHECK(trim("   ").empty());
  // Python's str.split(sep): empty fields are kept.
  CHECK(split("a,,b", ",") == std::vector<std::string_view>{"a", "", "b"});
  CHECK(split("", ",") == std::vector<std::string_view>{""});
  CHECK(split("k: v: w", ": ") == std::vector<std::string_view>{"k", "v", "w"});
  // Option lists: fields trimmed, empty ones dropped.
  CHECK(split_list(" CPU, XLA,,") == std::vector<std::string_view>{"CPU", "XLA"});
  CHECK(split_list(" , ").empty());
}

TEST_CASE("printable: control characters as \\xNN, newlines escaped or indented") {
  CHECK(printable("k\x1b[31m\r\nX\x7f") == "k\\x1b[31m\\x0d\\x0aX\\x7f");
  CHECK(printable(std::string_view("a\0b", 3)) == "a\\x00b");
  CHECK(printable("tab\tstays") == "tab\tstays");
  CHECK(printable("caf\xc3\xa9") == "caf\xc3\xa9");  // UTF-8 passes through
  std::string out = "> ";
  append_printable("two\nlines", out, 4);
  CHECK(out == "> two\n    lines");
}

TEST_CASE("printable: C1 controls, bidi controls, separators and bytes that are not UTF-8 (issue 32)") {
  CHECK(printable("a\xc2\x9b"
                  "31m") == "a\\u009b31m");  // U+009B CSI
  CHECK(printable("\xc2\x9d"
                  "0;t\xc2\x9c") == "\\u009d0;t\\u009c");  // OSC ... ST
  CHECK(printable("evil\xe2\x80\xae"
                  "txt.exe") == "evil\\u202etxt.exe");                 // RLO
  CHECK(printable("\xe2\x81\xa6x\xe2\x81\xa9") == "\\u2066x\\u2069");  // isolates
  CHECK(printable("\xe2\x80\x8f\xd8\x9c") == "\\u200f\\u061c");        // RLM, ALM
  CHECK(printable("line\xe2\x80\xa8two\xe2\x80\xa9") == "line\\u2028two\\u2029");
  CHECK(printable("k\xff\xfe") == "k\\xff\\xfe");
  CHECK(printable("\xc3") == "\\xc3");
  CHECK(printable("\xe2\x80\x94 \xe2\x86\x92 \xc3\xa9") == "\xe2\x80\x94 \xe2\x86\x92 \xc3\xa9");  // — → é pass
}

TEST_CASE("append_inert: nothing a CI runner or a terminal acts on (issue 32)") {
  const auto inert = [](std::string_view text, bool color = false) {
    std::string out;
    append_inert(text, out, color);
    return out;
  };
  // A workflow command at a line's start, after any white space the runner trims.
  CHECK(inert("::error title=Forged::all checks passed\n") == "\\x3a:error title=Forged::all checks passed\n");
  CHECK(inert("ok\n      ::add-mask::x\n") == "ok\n      \\x3a:add-mask::x\n");
  CHECK(inert("\t::warning::x") == "\t\\x3a:warning::x");
  CHECK(inert("\xc2\xa0::error::x") == "\xc2\xa0\\x3a:error::x");  // NO-BREAK SPACE is white space to .NET
  CHECK(inert("\xe3\x80\x80::error::x") == "\xe3\x80\x80\\x3a:error::x");
  CHECK(inert("::error ops.toml:8:7: error: x") == "\\x3a:error ops.toml:8:7: error: x");  // a file name
  CHECK(inert("aten::add\n  ns::op: x::y\n") == "aten::add\n  ns::op: x::y\n");            // elsewhere: as it is
  // The legacy syntax anywhere in a line.
  CHECK(inert("error: unknown dispatch key '##[error]forged annotation'") ==
        "error: unknown dispatch key '##\\x5berror]forged annotation'");
  CHECK(inert("# a comment ## [x]") == "# a comment ## [x]");
  // Controls: CR starts a line for the runner; C1 and bidi as printable writes them.
  CHECK(inert("a\rb\x1b[0m\xc2\x9b\xe2\x80\xae\xff") == "a\\x0db\\x1b[0m\\u009b\\u202e\\xff");
  CHECK(inert("\x1b[1mbold\x1b[0m", true) == "\x1b[1mbold\x1b[0m");  // the text's own colours
  CHECK(inert("tab\there\n\n") == "tab\there\n\n");
  CHECK(inert("") == "");
}

TEST_CASE("paint: an ANSI colour around the text, only when on") {
  CHECK(paint("ok", "32", true) == "\x1b[32mok\x1b[0m");
  CHECK(paint("bad", "1;31", true) == "\x1b[1;31mbad\x1b[0m");
  CHECK(paint("plain", "32", false) == "plain");
}

}  // namespace dt::test

namespace dt::test {

TEST_CASE("glob_match: *, ?, sets, ranges and negation over the whole text") {
  CHECK(glob_match("aten::*_copy", "aten::view_copy"));
  CHECK_FALSE(glob_match("aten::*_copy", "aten::view_copy.out"));
  CHECK(glob_match("aten::*_copy*", "aten::view_copy.out"));
  CHECK(glob_match("*", ""));
  CHECK(glob_match("a?c", "abc"));
  CHECK_FALSE(glob_match("a?c", "ac"));
  CHECK(glob_match("*add*", "aten::add.Tensor"));
  CHECK(glob_match("aten::[ab]*", "aten::abs"));
  CHECK_FALSE(glob_match("aten::[!ab]*", "aten::abs"));
  CHECK(glob_match("aten::[a-c]*", "aten::cat"));
  CHECK_FALSE(glob_match("aten::[a-c]*", "aten::mm"));
  CHECK(glob_match("x[", "x["));  // an unclosed set is a literal '['
  CHECK(glob_match("a*b*c", "aXbYbZc"));
  CHECK_FALSE(glob_match("a*b*c", "aXbYbZ"));
  CHECK(glob_match("exact", "exact"));
  CHECK_FALSE(glob_match("exact", "exactly"));
  // One backtrack point keeps it linear: a long text with many stars returns at once.
  CHECK_FALSE(glob_match("*a*a*a*a*a*a*b", std::string(100000, 'a')));
  CHECK(is_glob("a*"));
  CHECK(is_glob("a[b]"));
  CHECK_FALSE(is_glob("aten::add.Tensor"));
}

}  // namespace dt::test
