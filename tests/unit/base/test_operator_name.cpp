// Operator names (base/operator_name.hpp).
#include <doctest/doctest.h>

#include <string>

#include "base/operator_name.hpp"

namespace dt::test {

TEST_CASE("OperatorName::parse: name, name.overload, ns::name, ns::name.overload") {
  auto q = OperatorName::parse("aten::add.Tensor");
  REQUIRE(q.has_value());
  CHECK(q->ns == "aten");
  CHECK(q->name == "add");
  CHECK(q->overload == "Tensor");
  CHECK(q->qualified() == "aten::add.Tensor");
  auto u = OperatorName::parse("relu");
  REQUIRE(u.has_value());
  CHECK(u->ns.empty());
  CHECK(u->overload.empty());
  CHECK(u->qualified() == "relu");
  CHECK(OperatorName::parse("myops::conv.2d")->overload == "2d");  // an overload name may start with a digit
  CHECK(OperatorName::parse("foo.out")->qualified() == "foo.out");
  CHECK(OperatorName::parse("t::foo")->qualified() == "t::foo");
}

TEST_CASE("OperatorName::parse: every part must be an identifier") {
  for (const char* bad : {"", "::foo", "ns::", "ns::foo.", "1ns::foo", "ns::2foo", "a::b::c", "foo bar", "foo.ov-x"}) {
    CAPTURE(bad);
    auto n = OperatorName::parse(bad);
    REQUIRE_FALSE(n.has_value());
    CHECK(n.error().message ==
          "invalid operator name '" + std::string(bad) + "'; expected name, name.overload or ns::name.overload");
    CHECK(n.error().where.file.empty());
  }
}

TEST_CASE("OperatorName: the parts of a qualified name, and identifiers") {
  CHECK(OperatorName::without_namespace("aten::add.out") == "add.out");
  CHECK(OperatorName::without_namespace("add.out") == "add.out");
  CHECK(OperatorName::without_overload("aten::add.out") == "aten::add");
  CHECK(OperatorName::without_overload("aten::add") == "aten::add");
  CHECK(OperatorName::without_overload("add.out") == "add");
  std::string out = "> ";
  append_qualified_name(out, "", "relu", "");
  append_qualified_name(out, "t", "f", "o");
  CHECK(out == "> relut::f.o");
  CHECK(is_identifier("_x1"));
  CHECK_FALSE(is_identifier("1x"));
  CHECK(is_identifier("1x", true));
  CHECK_FALSE(is_identifier(""));
  CHECK_FALSE(is_identifier("a-b"));
}

}  // namespace dt::test
