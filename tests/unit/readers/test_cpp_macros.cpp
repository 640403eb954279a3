// CppMacros and CppExpander: expansion as [cpp.replace] has it, hide sets, bounds.
#include "readers/cpp_macros.hpp"

#include "helpers.hpp"

namespace dt::test {

namespace {
CppMacro macro(std::string_view def) {
  // "NAME(a, b) body" or "NAME body", as a #define line has it
  static std::deque<std::string> keep;
  const std::string& text = keep.emplace_back(def);
  auto t = lex_cpp("m.h", text);
  REQUIRE(t.has_value());
  CppMacro m;
  m.name = std::string(t->tokens[0].text);
  std::size_t i = 1;
  if (i < t->tokens.size() && t->tokens[i].is("(") && !t->tokens[i].space) {
    m.function = true;
    for (++i; !t->tokens[i].is(")"); ++i)
      if (t->tokens[i].kind == CppToken::Kind::Ident) m.params.emplace_back(t->tokens[i].text);
    ++i;
  }
  m.body.assign(t->tokens.begin() + static_cast<std::ptrdiff_t>(i), t->tokens.end());
  return m;
}

std::string expand(CppMacros& m, std::string_view text) {
  static std::deque<std::string> keep;
  auto t = lex_cpp("a.cpp", keep.emplace_back(text));
  REQUIRE(t.has_value());
  const CppExpander::Builtin none;
  CppExpander x(m, none);
  std::vector<CppToken> out;
  auto r = x.run(std::move(t->tokens), out);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error().message));
  std::string s;
  for (const auto& tok : out) {
    if (!s.empty()) s += ' ';
    s += tok.text;
  }
  return s;
}
}  // namespace

TEST_CASE("CppExpander: rescanning stops at the macro itself (hide sets), also through another macro") {
  CppMacros m;
  m.define(macro("f(a) a*g"));
  m.define(macro("g(a) f(a)"));
  // The standard's example: f(2)(9) is 2*9*g.
  CHECK(expand(m, "f(2)(9)") == "2 * 9 * g");
  m.define(macro("x 3"));
  m.define(macro("z z[0]"));
  CHECK(expand(m, "z") == "z [ 0 ]");
}

TEST_CASE("CppExpander: a function-like macro without '(' is a name, arguments nest, commas in parentheses stay") {
  CppMacros m;
  m.define(macro("F(a, b) [a|b]"));
  CHECK(expand(m, "F F (x, (y, z))") == "F [ x | ( y , z ) ]");
  CHECK(expand(m, "F(1, 2") == "F ( 1 , 2");  // not closed: left as written
}

TEST_CASE("CppExpander: kept macros stay, their arguments expanded as asked") {
  CppMacros m;
  m.define(macro("NS mylib"));
  m.keep("LIB", {false, true});
  CHECK(expand(m, "LIB(NS, NS) NS") == "LIB ( NS , mylib ) mylib");
}

}  // namespace dt::test
