// Comparing operator schemas (registry/schema.hpp, schema_compare.cpp).
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

TEST_CASE("schema: comparable_type drops what findSchemaDifferences ignores") {
  CHECK(dt::comparable_type("Tensor(a!)") == "Tensor");
  CHECK(dt::comparable_type("Tensor(a -> *)[]") == "Tensor[]");
  CHECK(dt::comparable_type("int[2]") == "int[]");
  CHECK(dt::comparable_type("int[2](a!)?") == "int[]?");
  CHECK(dt::comparable_type("ScalarType?") == "int?");
  CHECK(dt::comparable_type("SymInt[]") == "int[]");
  CHECK(dt::comparable_type("Layout") == "int");
  CHECK(dt::comparable_type("MemoryFormat") == "int");
  CHECK(dt::comparable_type("Dimname[]") == "str[]");
  CHECK(dt::comparable_type("Scalar") == "Scalar");
  CHECK(dt::comparable_type("Dict(str, Tensor)(a!)") == "Dict(str, Tensor)");
  CHECK(dt::comparable_type("Tensor($0! -> )") == "Tensor");  // a bare '!', as printed
  CHECK(dt::comparable_type("Tensor?($0! -> )[]") == "Tensor?[]");
  CHECK(dt::comparable_type("SymBool?") == "SymBool?");  // c10's fake type keeps SymBool
  CHECK(dt::comparable_type("not a type") == "not a type");
}

TEST_CASE("schema: def vs inferred kernel schema (torch 1.13 findSchemaDifferences)") {
  struct Case {
    const char* expected;
    const char* inferred;
    std::optional<std::string> reason;
  };
  // Reasons from c10::findSchemaDifferences in libtorch 1.13 (a nameless
  // schema was given the name "f" there, as torch cannot parse it).
  const Case cases[] = {
      {"f(Tensor a, Scalar b) -> Tensor", "(Tensor _0) -> Tensor _0", "The number of arguments is different. 2 vs 1."},
      {"f(Tensor a) -> (Tensor, Tensor)", "(Tensor _0) -> Tensor _0", "The number of returns is different. 2 vs 1"},
      {"f(Tensor a) -> (Tensor, Tensor)", "(Tensor _0, Tensor _1) -> Tensor _0",
       "The number of arguments is different. 1 vs 2."},
      {"f(Tensor a, Scalar b) -> Tensor", "(Tensor _0, Tensor _1) -> Tensor _0",
       "Type mismatch in argument 2: Scalar vs Tensor"},
      {"f(Tensor a) -> Tensor", "(Tensor _0) -> Tensor[] _0", "Type mismatch in return 1: Tensor vs Tensor[]"},
      {"f(Tensor a, Scalar b) -> Tensor[]", "(Tensor _0, int _1) -> Tensor _0",
       "Type mismatch in argument 2: Scalar vs int"},
      {"f(Tensor(a!) self, int[2] size=1, *, Scalar alpha=1) -> Tensor(a!)",
       "(Tensor _0, int[] _1, Scalar _2) -> Tensor _0", std::nullopt},
      {"f(ScalarType s, Layout l, MemoryFormat m, SymInt n, Dimname d, ConstQuantizerPtr q) -> Tensor",
       "(int _0, int _1, int _2, int _3, str _4, int _5) -> Tensor _0", std::nullopt},
      {"f(Tensor? a) -> Tensor", "(Tensor _0) -> Tensor _0", "Type mismatch in argument 1: Tensor? vs Tensor"},
      {"f(ScalarType? s) -> Tensor", "(Tensor _0) -> Tensor _0", "Type mismatch in argument 1: int? vs Tensor"},
      {"f(Dimname[] d) -> Tensor", "(int[] _0) -> Tensor _0", "Type mismatch in argument 1: str[] vs int[]"},
      {"f(SymInt[2] s) -> Tensor", "(float[] _0) -> Tensor _0", "Type mismatch in argument 1: int[] vs float[]"},
      {"f(Layout? l, MemoryFormat? m) -> Tensor", "(int? _0, bool? _1) -> Tensor _0",
       "Type mismatch in argument 2: int? vs bool?"},
      {"f(Tensor a, ...) -> Tensor", "(Tensor _0) -> Tensor _0", std::nullopt},
      {"f(Tensor a) -> ...", "(Tensor _0) -> ()", std::nullopt},
      {"f(Dict(str, Tensor) d) -> Tensor", "(Dict(str, Tensor?) _0) -> Tensor _0",
       "Type mismatch in argument 1: Dict(str, Tensor) vs Dict(str, Tensor?)"},
      {"f((int, float) t) -> Tensor", "((int, int) _0) -> Tensor _0",
       "Type mismatch in argument 1: (int, float) vs (int, int)"},
      {"f(Tensor(a)[] t) -> Tensor", "(Tensor?[] _0) -> Tensor _0",
       "Type mismatch in argument 1: Tensor[] vs Tensor?[]"},
      {"f(int[]? x) -> Tensor", "(int[] _0) -> Tensor _0", "Type mismatch in argument 1: int[]? vs int[]"},
      {"f(Scalar x) -> Tensor", "(float _0) -> Tensor _0", "Type mismatch in argument 1: Scalar vs float"},
      {"f(Tensor a) -> ()", "(Tensor _0) -> ()", std::nullopt},
      {"f(Union(str, int) x) -> Tensor", "(Union(int, str) _0) -> Tensor _0", std::nullopt},
      {"f(Tensor a, Tensor b, Tensor c, Tensor d, Tensor e, Tensor f, Tensor g, Tensor h, Tensor i, Tensor j, int k) "
       "-> Tensor",
       "(Tensor _0, Tensor _1, Tensor _2, Tensor _3, Tensor _4, Tensor _5, Tensor _6, Tensor _7, Tensor _8, Tensor _9, "
       "float _10) -> Tensor _0",
       "Type mismatch in argument 11: int vs float"},
      {"f(Tensor a) -> (Tensor x, int y)", "(Tensor _0) -> (Tensor _0, float _1)",
       "Type mismatch in return 2: int vs float"},
      {"f(Generator? g, Device d, str s, bool b, Storage st) -> Tensor",
       "(Generator? _0, Device _1, str _2, bool _3, Storage _4) -> Tensor _0", std::nullopt},
      {"f(Tensor[] a) -> Tensor", "(Tensor?[] _0) -> Tensor _0", "Type mismatch in argument 1: Tensor[] vs Tensor?[]"},
      {"f(SymInt[]? a) -> Tensor", "(int[]? _0) -> Tensor _0", std::nullopt},
      {"f(Future(Layout) a) -> Tensor", "(Future(int) _0) -> Tensor _0", std::nullopt},
      // A bare '!' is an alias annotation like any other: the C++ type of a
      // Tensor! is at::Tensor& (inferred "Tensor"), of an int!? std::optional<int64_t>.
      {"f(Tensor! a, int!? b, Tensor![] c) -> Tensor!", "(Tensor _0, int? _1, Tensor[] _2) -> Tensor _0", std::nullopt},
      {"f(Tensor!? a) -> ()", "(Tensor _0) -> ()", "Type mismatch in argument 1: Tensor? vs Tensor"},
      {"f(DeviceIndex i, Await(int) w) -> ()", "(int _0, Await(int) _1) -> ()", std::nullopt},
  };
  for (const Case& c : cases) {
    INFO("expected: " << std::string(c.expected) << "\ninferred: " << std::string(c.inferred));
    auto expected = dt::parse_schema(c.expected);
    auto inferred = dt::parse_schema(c.inferred);
    REQUIRE(expected);
    REQUIRE(inferred);
    CHECK(dt::schema_mismatch_reason(*expected, *inferred) == c.reason);
  }
}

TEST_CASE("schema: with_real_types is FunctionSchema::cloneWithRealTypes") {
  // torch 1.13: "h9::a(Tensor x, SymInt[2] p=0, SymInt[1] q=[1], SymInt[] r=[1,2]) -> Tensor" dumps as
  // "... SymInt[2] p=[0, 0] ..." and its mismatch message prints "... int[2] p=0, int[1] q=[1], int[] r=[1, 2] ...".
  auto a = parse_schema("h9::a(Tensor x, SymInt[2] p=0, SymInt[1] q=[1], SymInt[] r=[1,2]) -> Tensor");
  REQUIRE(a.has_value());
  CHECK(print_schema(*a) == "h9::a(Tensor x, SymInt[2] p=[0, 0], SymInt[1] q=[1], SymInt[] r=[1, 2]) -> Tensor");
  CHECK(print_schema(with_real_types(*a)) == "h9::a(Tensor x, int[2] p=0, int[1] q=[1], int[] r=[1, 2]) -> Tensor");
  auto s = parse_schema("f(SymInt(a)[] r, SymInt? o, SymFloat x, SymBool b, int i, Tensor! t) -> SymInt[]");
  REQUIRE(s.has_value());
  CHECK(print_schema(with_real_types(*s)) ==
        "f(int(a)[] r, int? o, float x, bool b, int i, Tensor($0! -> ) t) -> int[]");
}

}  // namespace dt::test
