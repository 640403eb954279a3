// The schema lexer (registry/schema_lexer.hpp): PyTorch's tokens for schemas.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "registry/schema_lexer.hpp"

namespace dt::test {
namespace {

using schema_detail::Lexer;
using schema_detail::Tok;

// "kind:text" of every token up to the end (or up to an invalid one).
std::vector<std::string> tokens(std::string_view src) {
  static constexpr const char* kKinds[] = {"end",   "newline", "ident", "number", "string",
                                           "arrow", "dots",    "punct", "op",     "invalid"};
  std::vector<std::string> out;
  for (Lexer lex(src); lex.cur().kind != Tok::End; lex.advance()) {
    const auto kind = static_cast<std::size_t>(lex.cur().kind);
    out.push_back(std::string(kKinds[kind]) + ":" + std::string(lex.text(lex.cur())));
    if (lex.cur().kind == Tok::Invalid) break;
  }
  return out;
}

using Tokens = std::vector<std::string>;

}  // namespace

TEST_CASE("schema lexer: names, numbers, strings, arrows, dots and punctuation") {
  CHECK(tokens("aten::add.out(Tensor(a!) x, int[2] y=-1.5e3, str s='a\\'b') -> ...") ==
        Tokens{"ident:aten", "punct::",      "punct::",        "ident:add",    "punct:.",  "ident:out",
               "punct:(",    "ident:Tensor", "punct:(",        "ident:a",      "punct:!",  "punct:)",
               "ident:x",    "punct:,",      "ident:int",      "punct:[",      "number:2", "punct:]",
               "ident:y",    "punct:=",      "punct:-",        "number:1.5e3", "punct:,",  "ident:str",
               "ident:s",    "punct:=",      "string:'a\\'b'", "punct:)",      "arrow:->", "dots:..."});
  CHECK(tokens("x=.5 y=1. z=\"\"\"a\nb\"\"\"") == Tokens{"ident:x", "punct:=", "number:.5", "ident:y", "punct:=",
                                                         "number:1.", "ident:z", "punct:=", "string:\"\"\"a\nb\"\"\""});
}

TEST_CASE("schema lexer: comments, backslash-newlines, and line breaks outside brackets") {
  // Inside brackets a line break is a blank; outside, one with more text after it is a token.
  CHECK(tokens("f(Tensor x,\n  Tensor y) # comment\n-> Tensor") ==
        Tokens{"ident:f", "punct:(", "ident:Tensor", "ident:x", "punct:,", "ident:Tensor", "ident:y", "punct:)",
               "newline:\n", "arrow:->", "ident:Tensor"});
  CHECK(tokens("f() -> Tensor\n\n") == Tokens{"ident:f", "punct:(", "punct:)", "arrow:->", "ident:Tensor"});
  CHECK(tokens("f() \\\n-> ()") == Tokens{"ident:f", "punct:(", "punct:)", "arrow:->", "punct:(", "punct:)"});
}

TEST_CASE("schema lexer: what it cannot read is one invalid token") {
  CHECK(tokens("f(\"open") == Tokens{"ident:f", "punct:(", "invalid:\""});
  CHECK(tokens("'two\nlines'") == Tokens{"invalid:'"});  // only triple-quoted strings span lines
  CHECK(tokens("Tens\xc3\xb6r") == Tokens{"ident:Tens", "invalid:\xc3"});
  CHECK(tokens("a $ b") == Tokens{"ident:a", "invalid:$"});
}

TEST_CASE("schema lexer: imaginary and hexadecimal numbers, operators, and torch's names for tokens") {
  CHECK(tokens("1j 0.5j 1e3j 0x1F 0x1.8p1 0x") ==
        Tokens{"number:1j", "number:0.5j", "number:1e3j", "number:0x1F", "number:0x1.8p1", "number:0", "ident:x"});
  CHECK(tokens("a != b @ c <<= d") == Tokens{"ident:a", "op:!=", "ident:b", "punct:@", "ident:c", "op:<<=", "ident:d"});
  const auto names = [](std::string_view src) {
    std::vector<std::string> out;
    for (Lexer lex(src); lex.cur().kind != Tok::End; lex.advance())
      out.push_back(schema_detail::token_name(lex, lex.cur()));
    out.push_back(schema_detail::token_name(Lexer(""), Lexer("").cur()));
    return out;
  };
  CHECK(names("x 1 's' -> ... ( None if != ") ==
        Tokens{"ident", "number", "string_literal", "arrow", "dots", "(", "None", "if", "ne", "eof"});
  CHECK(names("a\nb") == Tokens{"ident", "newline", "ident", "eof"});
  CHECK(names("a\n  b") == Tokens{"ident", "indent", "ident", "eof"});  // deeper than the first line
  CHECK(names("  a\n  b") == Tokens{"ident", "newline", "ident", "eof"});
}

TEST_CASE("schema lexer: a printed schema's fresh alias sets ($0) are names there only") {
  CHECK(tokens("($0! -> )") == Tokens{"punct:(", "invalid:$"});
  Lexer printed("($0! -> )", /*printed=*/true);
  printed.advance();
  CHECK(printed.cur().kind == Tok::Ident);
  CHECK(printed.text(printed.cur()) == "$0");
}

TEST_CASE("schema lexer: keywords, and peeking without moving") {
  CHECK(schema_detail::is_keyword("None"));
  CHECK(schema_detail::is_keyword("def"));
  CHECK_FALSE(schema_detail::is_keyword("Tensor"));
  CHECK_FALSE(schema_detail::is_keyword("none"));
  Lexer lex("a b");
  CHECK(lex.text(lex.peek()) == "b");
  CHECK(lex.text(lex.cur()) == "a");
}

}  // namespace dt::test
