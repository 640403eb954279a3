// Types in schemas (registry/schema_types.cpp): the normalised text of an
// argument's type, and what the type parser refuses.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "registry/schema.hpp"
#include "schema_cases.hpp"

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

TEST_CASE("schema types: a bare '!' is a fresh alias set, written to, numbered through the schema") {
  // Measured (2.14, 2.6, 1.13 alike): _dispatch_dump of a def of each.
  CHECK(type_of("Tensor!") == "Tensor($0! -> )");
  CHECK(type_of("Tensor!?") == "Tensor($0! -> )?");
  CHECK(type_of("Tensor![]") == "Tensor($0! -> )[]");
  CHECK(type_of("Tensor![2]") == "Tensor($0! -> )[2]");
  CHECK(type_of("Tensor!?[]") == "Tensor?($0! -> )[]");
  CHECK(type_of("Tensor[]!") == "Tensor[]($0! -> )");
  CHECK(type_of("int!?") == "int($0! -> )?");
  CHECK(type_of("Dict(str, Tensor)!") == "Dict(str, Tensor)($0! -> )");
  CHECK(type_of("Union(int, str)!") == "Union(int, str)($0! -> )");
  CHECK(reprint("f(Tensor! a, Tensor !b, Tensor(a!) c) -> (Tensor!, Tensor(a!))") ==
        "f(Tensor($0! -> ) a, Tensor($1! -> ) b, Tensor(a!) c) -> (Tensor($2! -> ), Tensor(a!))");
  // A '!' inside another type is dropped, and counted all the same.
  CHECK(reprint("f(Dict(str, Tensor!) a, Tensor! b) -> ()") == "f(Dict(str, Tensor) a, Tensor($1! -> ) b) -> ()");
}

TEST_CASE("schema types: a list prints its element's annotation before the brackets, as Argument's operator<<") {
  CHECK(type_of("Tensor(a)?[]") == "Tensor?(a)[]");
  CHECK(type_of("Tensor(a)[][]") == "Tensor[]()[]");
  CHECK(type_of("Tensor(a!)[][]") == "Tensor[](!)[]");
  CHECK(type_of("Tensor(a)[](b)[]") == "Tensor[](b)[]");
  CHECK(type_of("Tensor(a)[]?[]") == "Tensor[]?()[]");
  CHECK(type_of("Tensor[](a)?[]") == "Tensor[]?(a)[]");
  CHECK(type_of("Tensor(a)?[2]") == "Tensor?(a)[2]");
  CHECK(type_of("Tensor(a!)[](b)") == "Tensor(a!)[](b)");
  CHECK(type_of("Tensor[](a!)?") == "Tensor[](a!)?");
}

TEST_CASE("schema types: printed text parses back to itself (SchemaParseOptions::printed)") {
  SchemaParseOptions printed;
  printed.printed = true;
  for (std::string_view text : {"f(Tensor($0! -> ) a, Tensor?($1! -> )[] b, Tensor[]()[] c, Tensor[](!)[] d, "
                                "Tensor?(a)[] e) -> Tensor($2! -> )",
                                "f(complex c=0.+1.j, complex d=0.-0.5j, Device e=cuda:1, Device g=cpu) -> ()"}) {
    CAPTURE(text);
    auto s = parse_schema(text, printed);
    REQUIRE_MESSAGE(s.has_value(), (s ? "" : s.error().message));
    CHECK(print_schema(*s) == text);
    CHECK_FALSE(parse_schema(text).has_value());  // what torch's parser refuses
  }
  CHECK(comparable_type("Tensor?($0! -> )[]") == "Tensor?[]");
  CHECK(comparable_type("Tensor[]()[]") == "Tensor[][]");
}

TEST_CASE("schema types: a grammar's types and type variables") {
  SchemaGrammar g214;  // as a 2.x def parses (the values are placeholders, not a release's words)
  g214.measured = true;
  g214.types = {"Tensor", "int", "float", "SymBool", "DeviceIndex", "Await", "Future", "Dict", "Union"};
  g214.type_variables_everywhere = false;
  g214.unknown_type = "UNKNOWN";
  g214.double_type = "DOUBLE";
  g214.int64_type = "INT64";
  const auto with = [&](std::string_view schema) {
    SchemaParseOptions opt;
    opt.grammar = &g214;
    auto s = parse_schema(schema, opt);
    return s ? print_schema(*s) : "error at " + std::to_string(s.error().offset) + ": " + s.error().message;
  };
  CHECK(with("f(SymBool a, DeviceIndex[] b, Await(int)? c) -> SymBool") ==
        "f(SymBool a, int[] b, Await(int)? c) -> SymBool");
  CHECK(with("f(Dict(str, DeviceIndex) x) -> ()") ==
        "error at 7: UNKNOWN (type variables are only allowed in aten:: and prim:: schemas)");  // no str here
  CHECK(with("f(Scalar x) -> ()") == "error at 2: UNKNOWN");
  CHECK(with("f(SymFloat x) -> SymBool") == "f(SymFloat x) -> SymBool");  // c10's, whatever the grammar
  CHECK(with("f(t x) -> ()") == "error at 2: UNKNOWN (type variables are only allowed in aten:: and prim:: schemas)");
  CHECK(with("aten::f(t x) -> t") == "aten::f(t x) -> t");
  CHECK(with("prim::f(t x) -> t") == "prim::f(t x) -> t");
  CHECK(with("f(double x) -> ()") == "error at 2: DOUBLE");
  CHECK(with("f(int64_t x) -> ()") == "error at 2: INT64");
  // The default grammar (1.13's): type variables everywhere, double among them; no Await or SymBool.
  CHECK(type_of("double") == "double");
  CHECK(type_of("int64_t") == "int64_t");
  CHECK(type_of("DeviceIndex") == "int");
  CHECK(type_of("Await(int)") == "Await(int)");
  CHECK(type_of("SymFloat") == "SymFloat");  // no release's parser has it; c10 infers it from C++ kernels
}

TEST_CASE("schema types: what the type parser refuses, in torch's words") {
  CHECK(type_of("List") == "error: unknown type specifier (write 'T[]' in a schema)");
  CHECK(type_of("Tuple") == "error: unknown type specifier (write '(T1, T2)' in a schema)");
  CHECK(type_of("Foo") == "error: unknown type specifier");
  // What c10's unification leaves a single type: an internal assert, whose words name the types.
  CHECK(type_of("Union(int)") ==
        "error: After type unification was performed, the Union with the original types {int } has the single type "
        "int. Use the common supertype instead of creating a Uniontype");
  CHECK(type_of("Union(Future(int), Future(int?))") ==
        "error: After type unification was performed, the Union with the original types {Future[int] "
        "Future[Optional[int]], } has the single type Future[Optional[int]]. Use the common supertype instead of "
        "creating a Uniontype");
  CHECK(type_of("None?") ==
        "error: After type unification was performed, the Union with the original types {NoneType NoneType, } has "
        "the single type NoneType. Use the common supertype instead of creating a Uniontype");
  CHECK(type_of("Tensor?(a)") == "error: expected ident but found '(' here");
  CHECK(type_of("Tensor(*|a)") == "error: expected ) but found 'ident' here");
  CHECK(type_of("Tensor!!") == "error: expected ident but found '!' here");
  CHECK(type_of("(int, int)!") == "error: expected ident but found '!' here");
  CHECK(type_of("Future(int)!") == "error: expected ident but found '!' here");
  CHECK(type_of("Tensor(a)[2][]") == "error: expected ident but found '[' here");
  CHECK(type_of("int[4294967298]") == "int[2]");  // kept as an int32_t
  CHECK(type_of("__torch__.foo") == "error: Expected classes namespace but got foo");
  CHECK(type_of("__torch__.torch.x.a.B") == "error: Expected classes namespace but got x");
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
