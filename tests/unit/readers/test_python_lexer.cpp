// lex_python: strings of every prefix and quote, comments, line joining, indentation.
#include "helpers.hpp"
#include "readers/python_lexer.hpp"

namespace dt::test {

namespace {

std::vector<PyToken> lex(std::string_view text) {
  auto t = lex_python("m.py", text);
  REQUIRE_MESSAGE(t.has_value(), (t ? "" : format(t.error())));
  return *t;
}

}  // namespace

TEST_CASE("lex_python: strings, prefixes, triple quotes, escapes, locations of values") {
  auto t = lex("x = 'a\\n' r\"b\\n\" \"\"\"c\nd\"\"\" f'e{x}' b'g'\n");
  REQUIRE(t.size() == 9);  // x = S S S S S NEWLINE END
  CHECK(t[2].kind == PyTok::String);
  CHECK(t[2].text == "a\n");
  CHECK(t[2].column == 6);  // the value's first character, inside the quote
  CHECK(t[3].text == "b\\n");
  CHECK(t[4].text == "c\nd");
  CHECK(t[5].fstring);
  CHECK(t[6].bytes);
  CHECK(t[7].kind == PyTok::Newline);
}

TEST_CASE("lex_python: comments, brackets join lines, backslash continuation, indentation") {
  auto t = lex("f(a,  # c\n  b)\nif x: \\\n  y\n    z = 1\n");
  std::vector<std::string> texts;
  for (const auto& k : t) texts.push_back(k.kind == PyTok::Newline ? "NL" : k.text);
  CHECK(texts == std::vector<std::string>{"f", "(", "a", ",", "b", ")", "NL", "if", "x", ":", "y", "NL", "z", "=", "1",
                                          "NL", ""});
  CHECK(t[0].line_start);
  CHECK(t[7].line_start);
  CHECK(t[12].line_start);
  CHECK(t[12].indent == 4);
  CHECK_FALSE(t[10].line_start);  // y continues the `if` line
}

TEST_CASE("lex_python: a backslash continues a string over LF and CRLF alike (files written on Windows)") {
  for (const std::string_view eol : {"\n", "\r\n"}) {
    CAPTURE(eol.size());
    const std::string text = fmt::format("x = 'ab\\{}cd'{}y = r'e\\{}f'{}z = 1{}", eol, eol, eol, eol, eol);
    auto t = lex(text);
    REQUIRE(t.size() == 13);  // x = S NL y = S NL z = 1 NL END
    CHECK(t[2].text == "abcd");
    CHECK(t[6].text == "e\\\nf");  // raw: the backslash and one newline kept
    CHECK(t[8].text == "z");
    CHECK(t[8].line == 5);
  }
}

TEST_CASE("lex_python: located errors for unterminated strings and brackets") {
  auto a = lex_python("m.py", "x = 'abc\n");
  REQUIRE_FALSE(a.has_value());
  CHECK(format(a.error()) == "m.py:1:5: error: unterminated string literal\n");
  auto b = lex_python("m.py", "x = \"\"\"abc\n\n");
  REQUIRE_FALSE(b.has_value());
  CHECK(format(b.error()) == "m.py:1:5: error: unterminated triple-quoted string literal\n");
  auto c = lex_python("m.py", "f(\n  a,\n");
  REQUIRE_FALSE(c.has_value());
  CHECK(format(c.error()) == "m.py:1:2: error: '(' or '[' or '{' was never closed\n");
  auto d = lex_python("m.py", "a = 1)\n");
  REQUIRE_FALSE(d.has_value());
  CHECK(format(d.error()) == "m.py:1:6: error: unmatched ')'\n");
  auto e = lex_python("m.py", "a = $\n");
  REQUIRE_FALSE(e.has_value());
  CHECK(format(e.error()) == "m.py:1:5: error: invalid character '$'\n");
}

}  // namespace dt::test
