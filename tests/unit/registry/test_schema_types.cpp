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

TEST_CASE("schema types: Union members deduplicated and sorted; with None, an optional") {
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
  CHECK(type_of("Tensor!") ==
        "error: a bare '!' alias annotation is not supported; name the alias set, as in 'Tensor(a!)'");
  CHECK(type_of("Tensor?(a)") == "error: an alias annotation goes before the '?', as in 'Tensor(a!)?'");
  CHECK(type_of("Tensor(*|a)") == "error: no alias set may follow the wildcard '*'");
  CHECK(type_of("int[65536]") == "error: list size 65536 is too large (at most 65535)");
  CHECK(type_of("__torch__.foo") ==
        "error: expected '__torch__.torch.classes.<namespace>.<class>' for a custom class type");
}

}  // namespace dt::test
