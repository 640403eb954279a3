// lex_cpp: tokens, string literals, comments, preprocessor lines.
#include "readers/cpp_scanner.hpp"

#include "helpers.hpp"

namespace dt::test {

namespace {
CppLexed scan(std::string_view text) {
  auto s = lex_cpp("a.cpp", text);
  REQUIRE_MESSAGE(s.has_value(), (s ? "" : format(s.error())));
  return std::move(*s);
}
std::string scan_error(std::string_view text) {
  auto s = lex_cpp("a.cpp", text);
  REQUIRE(!s.has_value());
  return format(s.error());
}
}  // namespace

TEST_CASE("lex_cpp: identifiers, punctuation, :: and -> as one token, positions") {
  const CppLexed s = scan("m.impl(\"f\", &g);\n  a::b->c");
  std::vector<std::string> texts;
  for (const auto& t : s.tokens) texts.emplace_back(t.text);
  CHECK(texts == std::vector<std::string>{"m", ".", "impl", "(", "\"f\"", ",", "&", "g", ")", ";", "a", "::", "b", "->", "c"});
  CHECK(s.tokens[10].line == 2);
  CHECK(s.tokens[10].col == 3);
}

TEST_CASE("lex_cpp: adjacent string literals stay apart (the preprocessor joins them after macros)") {
  const CppLexed s = scan("x(\"ab(Tensor x, \"  // c\n   \"int n)\");");
  REQUIRE(s.tokens.size() == 6);
  CHECK(s.tokens[2].value == "ab(Tensor x, ");
  CHECK(s.tokens[2].value_line == 1);
  CHECK(s.tokens[2].value_col == 4);
  CHECK(s.tokens[3].value == "int n)");
  CHECK(s.tokens[3].space);
}

TEST_CASE("lex_cpp: escapes, raw strings, prefixes, char literals") {
  CHECK(scan(R"(f("a\"b\\c\n");)").tokens[2].value == "a\"b\\c\n");
  const CppLexed r = scan("f(R\"xy(a(b)\"c)\nd)xy\");");
  CHECK(r.tokens[2].value == "a(b)\"c)\nd");
  CHECK(r.tokens[2].value_col == 8);
  CHECK(scan("f(u8\"x\" L\"y\");").tokens[3].value == "y");
  const CppLexed c = scan("f('\"', '\\'', u'x');");
  CHECK(c.tokens[2].kind == CppToken::Kind::Char);
  CHECK(c.tokens.size() == 9);
  CHECK(scan("int x = 1'000'000 + 1e+5 + .5f;").tokens.size() == 9);
}

TEST_CASE("lex_cpp: a backslash continues a string literal and a // comment over LF and CRLF alike") {
  for (const std::string_view eol : {"\n", "\r\n"}) {
    CAPTURE(eol.size());
    const std::string text = fmt::format("f(\"ab\\{}cd\"); // m.def(\\{}\"x\");{}g;", eol, eol, eol);
    const CppLexed s = scan(text);  // its tokens view the text: it outlives them
    REQUIRE(s.tokens.size() == 7);  // f ( S ) ; g ;
    CHECK(s.tokens[2].value == "abcd");
    CHECK(s.tokens[5].text == "g");
    CHECK(s.tokens[5].line == 4);
  }
}

TEST_CASE("lex_cpp: comments hide registrations") {
  const CppLexed s = scan("// m.def(\"a\");\n/* m.def(\"b\"); */ x;");
  REQUIRE(s.tokens.size() == 2);
  CHECK(s.tokens[0].text == "x");
}

TEST_CASE("lex_cpp: a preprocessor line is '#', its tokens and an end, other directives are text") {
  const CppLexed s = scan("a;\n  # define F(x) \\\n  x + 1 // c\n#include <a/b.h>\n#error don't stop\n#pragma once x'\nb;\n");
  std::vector<std::string> texts;
  for (const auto& t : s.tokens)
    texts.push_back(t.kind == CppToken::Kind::Eod ? std::string("<eod>") : std::string(t.text));
  CHECK(texts == std::vector<std::string>{"a", ";", "#", "define", "F", "(", "x", ")", "x", "+", "1", "<eod>", "#",
                                          "include", "<a/b.h>", "<eod>", "#", "error", "<eod>", "#", "pragma", "once",
                                          "<eod>", "b", ";"});
  CHECK(s.tokens[2].bol);
  CHECK_FALSE(s.tokens[5].space);  // F( : a function-like macro
  CHECK(s.tokens[14].kind == CppToken::Kind::HeaderName);
  CHECK(s.tokens[14].value == "a/b.h");
  CHECK(s.tokens[23].bol);
}

TEST_CASE("lex_cpp: unterminated literals and comments are located errors") {
  CHECK(scan_error("m.def(\"a(Tensor x)\n);") == "a.cpp:1:7: error: unterminated string literal\n");
  CHECK(scan_error("x;\n  R\"d(abc") == "a.cpp:2:3: error: unterminated raw string literal (no )d\")\n");
  CHECK(scan_error("/* x") == "a.cpp:1:1: error: unterminated /* comment\n");
  CHECK(scan_error("f('a);") == "a.cpp:1:3: error: unterminated character literal\n");
  CHECK(scan_error("R\"12345678901234567(x)12345678901234567\"").find("delimiter") != std::string::npos);
}

TEST_CASE("lex_cpp keeping directives or nothing: the same errors, only what is asked kept") {
  const char* text = "#ifndef GUARD_H\n#define GUARD_H 1\n\"a\" \"b\";\n#endif\n";
  auto all = lex_cpp("a.cpp", text), dirs = lex_cpp("a.cpp", text, CppKeep::Directives),
       none = lex_cpp("a.cpp", text, CppKeep::None);
  REQUIRE(all.has_value());
  REQUIRE(dirs.has_value());
  REQUIRE(none.has_value());
  CHECK(all->tokens.size() == 15);
  CHECK(dirs->tokens.size() == 12);  // the three directives, not "a" "b" ;
  CHECK(none->tokens.empty());
  for (const char* bad : {"m.def(\"a(Tensor x)\n);", "x;\n  R\"d(abc", "/* x", "f('a);"}) {
    auto a = lex_cpp("a.cpp", bad), b = lex_cpp("a.cpp", bad, CppKeep::None);
    REQUIRE(!a.has_value());
    REQUIRE(!b.has_value());
    CHECK(format(a.error()) == format(b.error()));
  }
}

TEST_CASE("lex_cpp: bytes that are not UTF-8 are identifier characters, not errors") {
  const CppLexed s = scan("a\xff\xfe b;");
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
