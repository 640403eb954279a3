// parse_fstring (python_fstring.cpp): an f-string's literal parts and fields.
#include "helpers.hpp"
#include "readers/python_parser.hpp"

namespace dt::test {

namespace {

PyExpr expr(std::string_view text) {
  auto t = lex_python("m.py", text);
  REQUIRE(t.has_value());
  std::size_t p = 0;
  auto e = parse_py_expr("m.py", *t, p);
  REQUIRE(e.has_value());
  return *e;
}

}  // namespace

TEST_CASE("parse_fstring: literal parts and fields") {
  const PyExpr f = expr("f'{ns}::op_{n}bit{{x}}'\n");
  REQUIRE(f.fstring);
  const auto parts = parse_fstring("m.py", f);
  REQUIRE(parts.size() == 4);
  CHECK_FALSE(parts[0].literal);
  CHECK(parts[0].expr.text == "ns");
  CHECK(parts[1].text == "::op_");
  CHECK(parts[2].expr.text == "n");
  CHECK(parts[3].literal);
  CHECK(parts[3].text == "bit{x}");
}

TEST_CASE("parse_fstring: conversions, format specs, a field that does not parse") {
  const auto parts = parse_fstring("m.py", expr("f'{a!r}{b:>3}{)}'\n"));
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].conversion == 'r');
  CHECK(parts[1].has_spec);
  CHECK(parts[2].expr.kind == PyExpr::Opaque);
}

}  // namespace dt::test
