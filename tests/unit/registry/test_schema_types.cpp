// Types in schemas (registry/schema_types.cpp): the normalised text of an
// argument's type, and what the type parser refuses.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "registry/schema.hpp"

namespace dt::test {
namespace {

// The type of `x` in "f(TYPE x) -> ()" as parsed, or "error: MESSAGE".
std::string type_of(std::string_view type) {
  auto s = parse_schema("f(" + std::string(type) + " x) -> ()");
  if (!s) return "error: " + s.error().message;
  REQUIRE(s->arguments.size() == 1);
  return s->arguments[0].type;
}

}  // namespace

TEST_CASE("schema types: alias annotations, sized lists and optionals, normalised") {
  CHECK(type_of("Tensor( a ! )") == "Tensor(a!)");
  CHECK(type_of("Tensor(a -> *)") == "Tensor(a -> *)");
  CHECK(type_of("Tensor(a -> a)") == "Tensor(a)");
  CHECK(type_of("Tensor(a|b)") == "Tensor(a|b)");
  CHECK(type_of("int [ 03 ]") == "int[3]");
  CHECK(type_of("Tensor?[]") == "Tensor?[]");
  CHECK(type_of("int[]?") == "int[]?");
  CHECK(type_of("ScalarType?") == "ScalarType?");
  CHECK(type_of("ConstQuantizerPtr") == "int");
  CHECK(type_of("None") == "NoneType");
  CHECK(type_of("t[]") == "t[]");  // a type variable
}

TEST_CASE("schema types: types inside other types print as compared") {
  CHECK(type_of("Dict(str, ScalarType)") == "Dict(str, int)");
  CHECK(type_of("(int, Tensor(a))") == "(int, Tensor)");
  CHECK(type_of("Future(Tensor(a))") == "Future(Tensor)");
  CHECK(type_of("RRef(SymInt)") == "RRef(int)");
  CHECK(type_of("__torch__.torch.classes.quantized.Conv2dPackedParamsBase") ==
        "__torch__.torch.classes.quantized.Conv2dPackedParamsBase");
}

TEST_CASE("schema types: Union members deduplicated and sorted, with None, an optional") {
  CHECK(type_of("Union(str, int, str)") == "Union(int, str)");
  CHECK(type_of("Union(None, str)") == "str?");
  CHECK(type_of("Union(Tensor, Tensor?)") == "Tensor?");
  CHECK(type_of("Union(int?, str)") == "Union(int, NoneType, str)");
}

TEST_CASE("schema types: what the type parser refuses, and why") {
  CHECK(type_of("double") == "error: unknown type 'double'; a C++ double is 'float' in a schema");
  CHECK(type_of("int64_t") == "error: unknown type 'int64_t'; a C++ int64_t is 'int' (or 'SymInt') in a schema");
  CHECK(type_of("List") == "error: unknown type 'List'; write 'T[]' in a schema");
  CHECK(type_of("Tuple") == "error: unknown type 'Tuple'; write '(T1, T2)' in a schema");
  CHECK(type_of("Foo") == "error: unknown type 'Foo'");
  CHECK(type_of("Union(int)") == "error: a Union needs at least two different types");
  // What c10's unification leaves a single type (torch 1.13 fails an internal assert).
  CHECK(type_of("Union(Any, int)") == "error: a Union needs at least two different types");
  CHECK(type_of("Union(l, t)") == "error: a Union needs at least two different types");
  CHECK(type_of("Union(SymInt, int)") == "error: a Union needs at least two different types");
  CHECK(type_of("Union(Future(int), Future(int?))") == "error: a Union needs at least two different types");
  CHECK(type_of("Union((int, str), (None, str))") == "error: a Union needs at least two different types");
  CHECK(type_of("None?") == "error: 'NoneType?' is not a valid type");
  CHECK(type_of("Tensor!") ==
        "error: a bare '!' alias annotation is not supported; name the alias set, as in 'Tensor(a!)'");
  CHECK(type_of("Tensor?(a)") == "error: an alias annotation goes before the '?', as in 'Tensor(a!)?'");
  CHECK(type_of("Tensor(*|a)") == "error: no alias set may follow the wildcard '*'");
  CHECK(type_of("int[65536]") == "error: list size 65536 is too large (at most 65535)");
  CHECK(type_of("__torch__.foo") ==
        "error: expected '__torch__.torch.classes.<namespace>.<class>' for a custom class type");
}

TEST_CASE("schema types: nesting is bounded, so no schema overflows the stack (issue 11)") {
  const auto nested = [](std::string_view open, std::string_view close, std::size_t n) {
    std::string t;
    for (std::size_t i = 0; i < n; ++i) t += open;
    t += "Tensor";
    for (std::size_t i = 0; i < n; ++i) t += close;
    return t;
  };
  // 31 tuples around a Tensor: 32 levels, the limit.
  CHECK(type_of(nested("(", ")", 31)).rfind("error", 0) == std::string::npos);
  CHECK(type_of(nested("(", ")", 32)) == "error: type nested more than 32 levels deep (limit: 32)");
  for (const char* open : {"(", "Dict(str, ", "Future(", "RRef(", "Union(int, ", "(int, "}) {
    CAPTURE(open);
    CHECK(type_of(nested(open, ")", 100000)) == "error: type nested more than 32 levels deep (limit: 32)");
  }
  // Located where the 33rd level starts.
  auto s = parse_schema("f(" + nested("(", ")", 100000) + " x) -> ()");
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().offset == 2 + 32);
}

}  // namespace dt::test
