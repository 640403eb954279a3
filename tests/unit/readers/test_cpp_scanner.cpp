// scan_cpp: tokens, string literals, comments, preprocessor regions.
#include "readers/cpp_scanner.hpp"

#include "helpers.hpp"

namespace dt::test {

namespace {
CppScan scan(std::string_view text) {
  auto s = scan_cpp("a.cpp", text);
  REQUIRE_MESSAGE(s.has_value(), (s ? "" : format(s.error())));
  return std::move(*s);
}
std::string scan_error(std::string_view text) {
  auto s = scan_cpp("a.cpp", text);
  REQUIRE(!s.has_value());
  return format(s.error());
}
}  // namespace

TEST_CASE("scan_cpp: identifiers, punctuation, :: and -> as one token, positions") {
  const CppScan s = scan("m.impl(\"f\", &g);\n  a::b->c");
  std::vector<std::string> texts;
  for (const auto& t : s.tokens) texts.emplace_back(t.text);
  CHECK(texts == std::vector<std::string>{"m", ".", "impl", "(", "\"f\"", ",", "&", "g", ")", ";", "a", "::", "b", "->", "c"});
  CHECK(s.tokens[10].line == 2);
  CHECK(s.tokens[10].col == 3);
}

TEST_CASE("scan_cpp: adjacent string literals join, across lines and comments, and where the value starts") {
  const CppScan s = scan("x(\"ab(Tensor x, \"  // c\n   \"int n)\" /* d */ \"-> Tensor\");");
  REQUIRE(s.tokens.size() == 5);
  CHECK(s.tokens[2].kind == CppToken::Kind::String);
  CHECK(s.tokens[2].value == "ab(Tensor x, int n)-> Tensor");
  CHECK(s.tokens[2].value_line == 1);
  CHECK(s.tokens[2].value_col == 4);
}

TEST_CASE("scan_cpp: escapes, raw strings, prefixes, char literals") {
  CHECK(scan(R"(f("a\"b\\c\n");)").tokens[2].value == "a\"b\\c\n");
  const CppScan r = scan("f(R\"xy(a(b)\"c)\nd)xy\");");
  CHECK(r.tokens[2].value == "a(b)\"c)\nd");
  CHECK(r.tokens[2].value_col == 8);
  CHECK(scan("f(u8\"x\" L\"y\");").tokens[2].value == "xy");
  const CppScan c = scan("f('\"', '\\'', u'x');");
  CHECK(c.tokens[2].kind == CppToken::Kind::Char);
  CHECK(c.tokens.size() == 9);
  CHECK(scan("int x = 1'000'000 + 1e+5 + .5f;").tokens.size() == 9);
}

TEST_CASE("scan_cpp: comments hide registrations") {
  const CppScan s = scan("// m.def(\"a\");\n/* m.def(\"b\"); */ x;");
  REQUIRE(s.tokens.size() == 2);
  CHECK(s.tokens[0].text == "x");
}

TEST_CASE("scan_cpp: #if regions, include guards, #define bodies") {
  const CppScan s = scan(
      "#ifndef GUARD_H\n#define GUARD_H\na;\n#ifdef USE_CUDA\nb;\n#else\nc;\n#endif\nd;\n"
      "#define REG(m) m.impl(\"x\", f)\n#define OTHER 1\n#define LIB TORCH_LIBRARY(a, m) \\\n {}\n#endif\n");
  std::vector<std::pair<std::string, std::uint32_t>> conds;
  for (const auto& t : s.tokens)
    if (t.kind == CppToken::Kind::Ident) conds.emplace_back(std::string(t.text), t.cond_line);
  CHECK(conds == std::vector<std::pair<std::string, std::uint32_t>>{{"a", 0}, {"b", 4}, {"c", 6}, {"d", 0}});
  REQUIRE(s.registering_defines.size() == 2);
  CHECK(s.registering_defines[0].name == "REG");
  CHECK(s.registering_defines[0].line == 10);
  CHECK(s.registering_defines[1].name == "LIB");
}

TEST_CASE("scan_cpp: unterminated literals and comments are located errors") {
  CHECK(scan_error("m.def(\"a(Tensor x)\n);") == "a.cpp:1:7: error: unterminated string literal\n");
  CHECK(scan_error("x;\n  R\"d(abc") == "a.cpp:2:3: error: unterminated raw string literal (no )d\")\n");
  CHECK(scan_error("/* x") == "a.cpp:1:1: error: unterminated /* comment\n");
  CHECK(scan_error("f('a);") == "a.cpp:1:3: error: unterminated character literal\n");
  CHECK(scan_error("R\"12345678901234567(x)12345678901234567\"").find("delimiter") != std::string::npos);
}

TEST_CASE("scan_cpp without tokens: the same errors and registering #defines, no token kept") {
  const char* text =
      "#ifndef GUARD_H\n#define GUARD_H\n\"a\" \"b\";\n#define REG(m) m.impl(\"x\", f)\n#endif\n";
  auto with = scan_cpp("a.cpp", text), without = scan_cpp("a.cpp", text, false);
  REQUIRE(with.has_value());
  REQUIRE(without.has_value());
  CHECK(!with->tokens.empty());
  CHECK(without->tokens.empty());
  REQUIRE(without->registering_defines.size() == 1);
  CHECK(without->registering_defines[0].name == with->registering_defines[0].name);
  CHECK(without->registering_defines[0].line == 4);
  for (const char* bad : {"m.def(\"a(Tensor x)\n);", "x;\n  R\"d(abc", "/* x", "f('a);"}) {
    auto a = scan_cpp("a.cpp", bad), b = scan_cpp("a.cpp", bad, false);
    REQUIRE(!a.has_value());
    REQUIRE(!b.has_value());
    CHECK(format(a.error()) == format(b.error()));
  }
}

TEST_CASE("scan_cpp: bytes that are not UTF-8 are identifier characters, not errors") {
  const CppScan s = scan("a\xff\xfe b;");
  CHECK(s.tokens.size() == 3);
}

TEST_CASE("match_brackets: each bracket to its match, unbalanced ones to npos") {
  const auto t = scan("f(a[1], {b}) ) (").tokens;
  const auto close = match_brackets(t);
  REQUIRE(t.size() == 13);
  CHECK(close[1] == 10);  // ( ... )
  CHECK(close[3] == 5);   // [1]
  CHECK(close[7] == 9);   // {b}
  CHECK(close[11] == std::string::npos);  // ')' closes nothing
  CHECK(close[12] == std::string::npos);  // '(' never closed
  CHECK(close[0] == std::string::npos);   // not a bracket
}

TEST_CASE("match_angle: template arguments, nested, brackets skipped whole, comparisons give npos") {
  auto at = [](std::string_view text, std::size_t limit = std::string::npos) {
    const auto t = scan(text).tokens;
    std::size_t open = 0;
    while (open < t.size() && !t[open].is("<")) ++open;
    const std::size_t m = match_angle(t, match_brackets(t), open, t.size(), limit);
    return m == std::string::npos ? std::string("npos") : std::string(t[m - 1].text) + ">" + std::to_string(m);
  };
  CHECK(at("f<A, B>(x)") == "B>5");
  CHECK(at("std::vector<std::optional<int>> v") == ">>10");
  CHECK(at("g<(1 > 2), [] { return a > b; }>") == "}>17");
  CHECK(at("a < b; c > d") == "npos");         // a statement ends first
  CHECK(at("f(a < b, c)") == "npos");          // no '>' at all
  CHECK(at("x < f(y) > z") == ")>6");  // a '>' after a group still closes
  CHECK(at("a < b, c, d, e > f", 4) == "npos");  // past the limit
  CHECK(at("a < b, c, d, e > f", 64) == "e>9");
}

}  // namespace dt::test
