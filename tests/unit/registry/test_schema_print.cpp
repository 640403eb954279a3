// Printing operator schemas (registry/schema.hpp, schema_print.cpp).
//
// Expected texts marked "torch 1.13" were obtained from PyTorch 1.13 itself:
// str(torch._C.parse_schema(input)) for printing, and for mismatch reasons
// c10::findSchemaDifferences called on torch::jit::parseSchema results in a
// small program linked against libtorch 1.13.
#include <doctest/doctest.h>

#include <cstddef>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "registry/schema.hpp"
#include "schema_cases.hpp"

namespace dt::test {

TEST_CASE("schema: printed schemas parse back to the same schema") {
  // Except where torch's own printing cannot be parsed back, which dt
  // reproduces: an int list of equal values prints as one value even when
  // unsized, Device defaults and str defaults of non-str types print
  // unquoted, bytes outside printable ASCII get c10::printQuotedString's
  // broken octal escapes, and unionStr misplaces its commas around "Scalar".
  const std::set<std::string> kTorchCannotReparse = {
      "f(int[] x=1) -> Tensor",
      "f(int x=a) -> Tensor",
      "f(Device x=cuda:0) -> Tensor",
      "f(str x=\"\\0)+\\/.)\") -> Tensor",
      "f(Union(, str, Scalar) x) -> ()",
      "f(Union(TensorScalar) x) -> ()",
  };
  for (const Normalisation& n : kMatchesTorch) {
    INFO("input: " << std::string(n.input));
    auto first = dt::parse_schema(n.input);
    REQUIRE(first);
    const std::string printed = dt::print_schema(*first);
    auto second = dt::parse_schema(printed);
    if (kTorchCannotReparse.count(printed) != 0) {
      CHECK_FALSE(second);
      continue;
    }
    REQUIRE(second);
    if (printed == "f(Union(Scalar)? x) -> ()") {
      // torch 1.13 too: the Optional of Scalar? is Optional[Union[int, float,
      // complex]], which reads back as the Optional of that Union: Scalar?.
      CHECK(dt::print_schema(*second) == "f(Scalar? x) -> ()");
      continue;
    }
    CHECK(dt::print_schema(*second) == printed);
    second->returns_parenthesised = first->returns_parenthesised;
    CHECK(*second == *first);
  }
}

TEST_CASE("schema: Dimname prints as str on request (torch 1.13)") {
  const std::string_view text = "aten::f.Dimname(Tensor self, Dimname dim, Dimname[] dims, Dimname? d=None) -> Tensor";
  auto s = dt::parse_schema(text);
  REQUIRE(s);
  CHECK(s->arguments[1].type == "Dimname");
  CHECK(dt::print_schema(*s) == text);
  // torch 1.13
  CHECK(dt::print_schema(*s, {.dimname_as_str = true}) ==
        "aten::f.Dimname(Tensor self, str dim, str[] dims, str? d=None) -> Tensor");
  // Only the type name is replaced, not names or other words containing it.
  auto t = dt::parse_schema("DimnameOp(Dimname Dimname, Dict(str, Dimname) Dimnames) -> Dimname");
  REQUIRE(t);
  CHECK(dt::print_schema(*t, {.dimname_as_str = true}) == "DimnameOp(str Dimname, Dict(str, str) Dimnames) -> str");
}

TEST_CASE("schema: printing hand-built schemas") {
  dt::Schema s;
  s.name = "f";
  s.arguments = {{"Tensor", "a", std::nullopt, true}, {"int", "b", "1", true}};
  s.is_vararg = true;
  s.returns = {{"(int, int)", "", std::nullopt, false}};
  // A single return whose text starts with '(' gets parentheses.
  CHECK(dt::print_schema(s) == "f(*, Tensor a, int b=1, ...) -> ((int, int))");
  s.returns.clear();
  s.is_varret = true;
  CHECK(dt::print_schema(s) == "f(*, Tensor a, int b=1, ...) -> ...");
  s.returns = {{"Tensor", "r", std::nullopt, false}};
  CHECK(dt::print_schema(s) == "f(*, Tensor a, int b=1, ...) -> (Tensor r, ...)");
  s.arguments.clear();
  s.is_varret = false;
  s.ns = "my_ns";
  s.overload = "ov";
  CHECK(dt::print_schema(s) == "my_ns::f.ov(...) -> Tensor r");
}

}  // namespace dt::test
