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

TEST_CASE("edit_distance: insertions, deletions, substitutions and swapped neighbours cost 1, in any case") {
  CHECK(edit_distance("cuda", "cuda") == 0);
  CHECK(edit_distance("CPU", "cpu") == 0);
  CHECK(edit_distance("cdua", "cuda") == 1);  // neighbours swapped
  CHECK(edit_distance("kernal", "kernel") == 1);
  CHECK(edit_distance("Autogrd", "Autograd") == 1);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("XLA", "CPU") == 3);
}

TEST_CASE("closest and did_you_mean: the nearest candidate, if close enough to be a typo") {
  const std::vector<std::string_view> keys = {"CPU", "CUDA", "Autograd", "AutogradCPU"};
  CHECK(closest("Autogrd", keys) == std::optional<std::string>("Autograd"));
  CHECK(closest("cuda", keys) == std::optional<std::string>("CUDA"));
  CHECK(closest("XLA", keys) == std::nullopt);  // 3 edits: more than a third of the word
  CHECK(closest("anything", {}) == std::nullopt);
  // Equally close: the first in byte order.
  CHECK(closest("CPX", {"CPY", "CPW"}) == std::optional<std::string>("CPW"));
  CHECK(did_you_mean("AutogradCUP", keys) == " (did you mean 'AutogradCPU'?)");
  CHECK(did_you_mean("Nonsense", keys).empty());
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
