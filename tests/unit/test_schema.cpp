// Unit tests for the operator-schema module (include/dispatchtool/schema.hpp).
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

#ifndef DT_TEST_DATA_DIR
#error "DT_TEST_DATA_DIR must be defined as the absolute path of tests/unit/data"
#endif

namespace {

// The printed schema, or "error at OFFSET: MESSAGE".
std::string reprint(std::string_view text, const dt::SchemaPrintOptions& opt = {}) {
  auto parsed = dt::parse_schema(text);
  if (!parsed) return "error at " + std::to_string(parsed.error().offset) + ": " + parsed.error().message;
  return dt::print_schema(*parsed, opt);
}

struct Normalisation {
  const char* input;
  const char* printed;
};

// Non-canonical inputs and what torch 1.13 prints for them; dt must agree.
constexpr Normalisation kMatchesTorch[] = {
    {"  aten :: add . out ( Tensor  self , int[ 2 ]  y = [ 1 , 2 ] ) ->  ( Tensor ) ",
     "aten::add.out(Tensor self, int[2] y=[1, 2]) -> Tensor"},
    {"aten::f.ov(Tensor x)->Tensor", "aten::f.ov(Tensor x) -> Tensor"},
    {"f(Tensor x) -> (Tensor)", "f(Tensor x) -> Tensor"},
    {"f(Tensor x) -> (Tensor a)", "f(Tensor x) -> Tensor a"},
    {"f(Tensor x)->(Tensor a,Tensor b)", "f(Tensor x) -> (Tensor a, Tensor b)"},
    {"f(Tensor x) -> Tensor(a!) out", "f(Tensor x) -> Tensor(a!) out"},
    {"f(Tensor x) -> ()", "f(Tensor x) -> ()"},
    {"f() -> ()", "f() -> ()"},
    {"f(Tensor x) -> ...", "f(Tensor x) -> ..."},
    {"f(...) -> (...)", "f(...) -> ..."},
    {"f(...) -> (Tensor, ...)", "f(...) -> (Tensor, ...)"},
    {"f(Tensor a, ...) -> Tensor", "f(Tensor a, ...) -> Tensor"},
    {"f(*, ...) -> Tensor", "f(...) -> Tensor"},
    {"f(Tensor x, *) -> Tensor", "f(Tensor x) -> Tensor"},
    {"f(*, Tensor y) -> Tensor", "f(*, Tensor y) -> Tensor"},
    {"f(Tensor x, *, Tensor y, *, Tensor z) -> Tensor", "f(Tensor x, *, Tensor y, Tensor z) -> Tensor"},
    {"f(Tensor(a!) self) -> Tensor(a!)", "f(Tensor(a!) self) -> Tensor(a!)"},
    {"f(Tensor( a ! ) x) -> Tensor(a!)", "f(Tensor(a!) x) -> Tensor(a!)"},
    {"f(Tensor (a) x) -> Tensor(a)", "f(Tensor(a) x) -> Tensor(a)"},
    {"f(Tensor(a->*) x) -> Tensor(a) []", "f(Tensor(a -> *) x) -> Tensor(a)[]"},
    {"f(Tensor(a|a) x) -> Tensor", "f(Tensor(a) x) -> Tensor"},
    {"f(Tensor(a -> a) x) -> Tensor", "f(Tensor(a) x) -> Tensor"},
    {"f(Tensor(a! -> b) x) -> Tensor", "f(Tensor(a! -> b) x) -> Tensor"},
    {"f(Tensor(*) x) -> Tensor", "f(Tensor(*) x) -> Tensor"},
    {"f(Tensor?[] x) -> Tensor", "f(Tensor?[] x) -> Tensor"},
    {"f(Tensor(a!)[] x) -> Tensor", "f(Tensor(a!)[] x) -> Tensor"},
    {"f(Tensor(a!)? x) -> Tensor", "f(Tensor(a!)? x) -> Tensor"},
    {"f(Tensor(a)[](b!)? x) -> Tensor", "f(Tensor(a)[](b!)? x) -> Tensor"},
    {"f(int[2]? x=None) -> Tensor", "f(int[2]? x=None) -> Tensor"},
    {"f(int [ 2 ] ? x) -> Tensor", "f(int[2]? x) -> Tensor"},
    {"f(int[02] x) -> Tensor", "f(int[2] x) -> Tensor"},
    {"f(int[][2] x) -> Tensor", "f(int[][2] x) -> Tensor"},
    {"f(int[]?[] x) -> Tensor", "f(int[]?[] x) -> Tensor"},
    {"f(Tensor?[2] x) -> Tensor", "f(Tensor?[2] x) -> Tensor"},
    {"f(int[2] x=[1,2]) -> Tensor", "f(int[2] x=[1, 2]) -> Tensor"},
    {"f(int[2] x=[1,1]) -> Tensor", "f(int[2] x=1) -> Tensor"},
    {"f(int[] x=[1,1]) -> Tensor", "f(int[] x=1) -> Tensor"},
    {"f(int[2] x=1) -> Tensor", "f(int[2] x=1) -> Tensor"},
    {"f(int[2] x=-1) -> Tensor", "f(int[2] x=-1) -> Tensor"},
    {"f(int[1] x=[5]) -> Tensor", "f(int[1] x=[5]) -> Tensor"},
    {"f(int[1] dim=[]) -> Tensor", "f(int[1] dim=[]) -> Tensor"},
    {"f(SymInt[2] x=1) -> Tensor", "f(SymInt[2] x=[1, 1]) -> Tensor"},
    {"f(SymInt[] x=[1,1]) -> Tensor", "f(SymInt[] x=[1, 1]) -> Tensor"},
    {"f(float[2] x=1) -> Tensor", "f(float[2] x=[1., 1.]) -> Tensor"},
    {"f(float[] x=[0.1, -2]) -> Tensor", "f(float[] x=[0.10000000000000001, -2.]) -> Tensor"},
    {"f(bool[3] x=[True,False,True]) -> Tensor", "f(bool[3] x=[True, False, True]) -> Tensor"},
    {"f(bool[2] x=True) -> Tensor", "f(bool[2] x=[True, True]) -> Tensor"},
    {"f(float x=1) -> Tensor", "f(float x=1.) -> Tensor"},
    {"f(float x=1.0) -> Tensor", "f(float x=1.) -> Tensor"},
    {"f(float x=-1) -> Tensor", "f(float x=-1.) -> Tensor"},
    {"f(float x=-0.0) -> Tensor", "f(float x=0.) -> Tensor"},
    {"f(float x=.5) -> Tensor", "f(float x=0.5) -> Tensor"},
    {"f(float x=0.1) -> Tensor", "f(float x=0.10000000000000001) -> Tensor"},
    {"f(float x=1e-5) -> Tensor", "f(float x=1.0000000000000001e-05) -> Tensor"},
    {"f(float x=1.5e-3) -> Tensor", "f(float x=0.0015) -> Tensor"},
    {"f(float x=1E3) -> Tensor", "f(float x=1000.) -> Tensor"},
    {"f(float x=1e10) -> Tensor", "f(float x=10000000000.) -> Tensor"},
    {"f(float x=1e20) -> Tensor", "f(float x=1e+20) -> Tensor"},
    {"f(float x=3.14159) -> Tensor", "f(float x=3.1415899999999999) -> Tensor"},
    {"f(float x=9223372036854775807.0) -> Tensor", "f(float x=9.2233720368547758e+18) -> Tensor"},
    {"f(float? x=1) -> Tensor", "f(float? x=1) -> Tensor"},
    {"f(float? x=1.5) -> Tensor", "f(float? x=1.5) -> Tensor"},
    {"f(Scalar x=1) -> Tensor", "f(Scalar x=1) -> Tensor"},
    {"f(Scalar x=-1) -> Tensor", "f(Scalar x=-1) -> Tensor"},
    {"f(Scalar x=1e3) -> Tensor", "f(Scalar x=1000.) -> Tensor"},
    {"f(Scalar x=True) -> Tensor", "f(Scalar x=True) -> Tensor"},
    {"f(int x=1e3) -> Tensor", "f(int x=1000.) -> Tensor"},
    {"f(int x=1.5) -> Tensor", "f(int x=1.5) -> Tensor"},
    {"f(int x=- 1) -> Tensor", "f(int x=-1) -> Tensor"},
    {"f(int x=007) -> Tensor", "f(int x=7) -> Tensor"},
    {"f(int x=-9223372036854775808) -> Tensor", "f(int x=-9223372036854775808) -> Tensor"},
    {"f(int? x=None) -> Tensor", "f(int? x=None) -> Tensor"},
    {"f(bool x=True) -> Tensor", "f(bool x=True) -> Tensor"},
    {"f(str x='mean') -> Tensor", R"(f(str x="mean") -> Tensor)"},
    {R"(f(str x="mean") -> Tensor)", R"(f(str x="mean") -> Tensor)"},
    {R"(f(str? x="mean") -> Tensor)", R"(f(str? x="mean") -> Tensor)"},
    {R"(f(str x="") -> Tensor)", R"(f(str x="") -> Tensor)"},
    {R"(f(str x="it's") -> Tensor)", R"(f(str x="it\'s") -> Tensor)"},
    {R"(f(str x='a"b') -> Tensor)", R"(f(str x="a\"b") -> Tensor)"},
    {R"(f(str x="a\nb") -> Tensor)", R"(f(str x="a\nb") -> Tensor)"},
    {R"(f(str x="tab\tq") -> Tensor)", R"(f(str x="tab\tq") -> Tensor)"},
    {R"(f(str x="a\\b") -> Tensor)", R"(f(str x="a\\b") -> Tensor)"},
    {R"(f(str x="\101") -> Tensor)", R"(f(str x="A") -> Tensor)"},
    {R"(f(str x="\001a") -> Tensor)", R"(f(str x="\001a") -> Tensor)"},
    {R"(f(str x="""abc""") -> Tensor)", R"(f(str x="abc") -> Tensor)"},
    {R"(f(str x=" \n\t\f\v") -> str)", R"(f(str x=" \n\t\f\v") -> str)"},
    {R"(f(str x="é") -> Tensor)", "f(str x=\"\\0)+\\/.)\") -> Tensor"},
    {"f(str x=1) -> Tensor", "f(str x=1) -> Tensor"},
    {R"(f(int x="a") -> Tensor)", "f(int x=a) -> Tensor"},
    {"f(ScalarType x=float) -> Tensor", "f(ScalarType x=6) -> Tensor"},
    {"f(ScalarType? x=long) -> Tensor", "f(ScalarType? x=4) -> Tensor"},
    {"f(Layout x=strided) -> Tensor", "f(Layout x=0) -> Tensor"},
    {"f(MemoryFormat? memory_format=contiguous_format) -> Tensor", "f(MemoryFormat? memory_format=0) -> Tensor"},
    {"f(int reduction=Mean) -> Tensor", "f(int reduction=1) -> Tensor"},
    {R"(f(Device x="cuda:0") -> Tensor)", "f(Device x=cuda:0) -> Tensor"},
    {"f(Device? x=None) -> Tensor", "f(Device? x=None) -> Tensor"},
    {"f(Tensor x=None, Tensor? y=None, Generator? g=None) -> Tensor",
     "f(Tensor x=None, Tensor? y=None, Generator? g=None) -> Tensor"},
    {"f(Dict(str,Tensor)(a!) x) -> Tensor", "f(Dict(str, Tensor)(a!) x) -> Tensor"},
    {"f(Dict(str, ScalarType) x) -> Tensor", "f(Dict(str, int) x) -> Tensor"},
    {"f((int,int) x) -> Tensor", "f((int, int) x) -> Tensor"},
    {"f(() x) -> Tensor", "f(() x) -> Tensor"},
    {"f(Tensor x) -> ((int, int))", "f(Tensor x) -> ((int, int))"},
    {"f(Tensor x) -> (int, int)", "f(Tensor x) -> (int, int)"},
    {"f(Tensor x) -> ((int, int)[])", "f(Tensor x) -> ((int, int)[])"},
    {"f(Future(Tensor(a)) x, RRef(int) r) -> Tensor", "f(Future(Tensor) x, RRef(int) r) -> Tensor"},
    {"f(Union(str, int) x) -> Tensor", "f(Union(int, str) x) -> Tensor"},
    {"f(Union(None, str) x) -> Tensor", "f(str? x) -> Tensor"},
    {"f(Union(int?, str) x) -> Tensor", "f(Union(int, NoneType, str) x) -> Tensor"},
    {"f(Union(Tensor, Tensor?) x) -> Tensor", "f(Tensor? x) -> Tensor"},
    {"f(Union(int, str)(a) x) -> Tensor", "f(Union(int, str)(a) x) -> Tensor"},
    {"f(ConstQuantizerPtr q) -> Tensor", "f(int q) -> Tensor"},
    {"f(t(a) x, t[](b) y, t? z) -> t(a)", "f(t(a) x, t[](b) y, t? z) -> t(a)"},
    {"f(__torch__.torch.classes.quantized.LinearPackedParamsBase p) -> Tensor",
     "f(__torch__.torch.classes.quantized.LinearPackedParamsBase p) -> Tensor"},
    {"f(Tensor x) -> Tensor # comment", "f(Tensor x) -> Tensor"},
    {"f(Tensor x,\n    Tensor y) -> Tensor\n", "f(Tensor x, Tensor y) -> Tensor"},
};

}  // namespace

TEST_CASE("schema: every PyTorch 1.13 schema prints back byte-identical") {
  // tests/unit/data/schemas-1.13.txt is written by tools/gen_schema_corpus.py:
  // str(s) for every s in torch._C._jit_get_all_schemas(), sorted.
  const char* path = DT_TEST_DATA_DIR "/schemas-1.13.txt";
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path << " (regenerate it with tools/gen_schema_corpus.py)");
  std::size_t count = 0;
  std::size_t failures = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++count;
    auto parsed = dt::parse_schema(line);
    std::string printed;
    if (!parsed) {
      printed = "error at " + std::to_string(parsed.error().offset) + ": " + parsed.error().message;
    } else {
      printed = dt::print_schema(*parsed);
      // Printing is a fixed point: the printed text parses to the same schema.
      if (printed == line) {
        auto again = dt::parse_schema(printed);
        if (again && *again == *parsed) continue;
        printed = "(reparse differs) " + printed;
      }
    }
    if (++failures <= 20) CHECK_MESSAGE(printed == line, "line " << count);
  }
  INFO(count << " schemas read, " << failures << " failed");
  CHECK(count > 4000);
  CHECK(failures == 0);
}

TEST_CASE("schema: parsed fields") {
  auto s =
      dt::parse_schema("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  REQUIRE(s);
  CHECK(s->ns == "aten");
  CHECK(s->name == "add");
  CHECK(s->overload == "out");
  REQUIRE(s->arguments.size() == 4);
  CHECK(s->arguments[0] == dt::SchemaArgument{"Tensor", "self", std::nullopt, false});
  CHECK(s->arguments[1] == dt::SchemaArgument{"Tensor", "other", std::nullopt, false});
  CHECK(s->arguments[2] == dt::SchemaArgument{"Scalar", "alpha", "1", true});
  CHECK(s->arguments[3] == dt::SchemaArgument{"Tensor(a!)", "out", std::nullopt, true});
  REQUIRE(s->returns.size() == 1);
  CHECK(s->returns[0] == dt::SchemaArgument{"Tensor(a!)", "", std::nullopt, false});
  CHECK_FALSE(s->is_vararg);
  CHECK_FALSE(s->is_varret);
  CHECK_FALSE(s->returns_parenthesised);

  auto u = dt::parse_schema("foo(Tensor?[] a, int[2]? b=None, str c=\"x\", ...) -> (Tensor x, ...)");
  REQUIRE(u);
  CHECK(u->ns.empty());
  CHECK(u->name == "foo");
  CHECK(u->overload.empty());
  REQUIRE(u->arguments.size() == 3);
  CHECK(u->arguments[0].type == "Tensor?[]");
  CHECK(u->arguments[1].type == "int[2]?");
  CHECK(u->arguments[1].default_value == "None");
  CHECK(u->arguments[2].default_value == "\"x\"");
  CHECK(u->is_vararg);
  CHECK(u->is_varret);
  CHECK(u->returns_parenthesised);
  REQUIRE(u->returns.size() == 1);
  CHECK(u->returns[0].name == "x");
}

TEST_CASE("schema: nameless schemas (torch.library defs, inferred kernel schemas)") {
  auto s = dt::parse_schema("(Tensor _0, Scalar _1) -> Tensor _0");
  REQUIRE(s);
  CHECK(s->ns.empty());
  CHECK(s->name.empty());
  CHECK(s->overload.empty());
  CHECK(s->arguments.size() == 2);
  CHECK(dt::print_schema(*s) == "(Tensor _0, Scalar _1) -> Tensor _0");
  CHECK(dt::print_arguments_and_returns(*s) == "(Tensor _0, Scalar _1) -> Tensor _0");
  CHECK(reprint("( ) -> ( )") == "() -> ()");

  auto named = dt::parse_schema("aten::relu(Tensor self) -> Tensor");
  REQUIRE(named);
  CHECK(dt::print_arguments_and_returns(*named) == "(Tensor self) -> Tensor");
}

TEST_CASE("schema: non-canonical input prints as torch 1.13 prints it") {
  for (const Normalisation& n : kMatchesTorch) {
    INFO("input: " << std::string(n.input));
    CHECK(reprint(n.input) == n.printed);
  }
}

TEST_CASE("schema: printed schemas parse back to the same schema") {
  // Except where torch's own printing cannot be parsed back, which dt
  // reproduces: an int list of equal values prints as one value even when
  // unsized, Device defaults and str defaults of non-str types print
  // unquoted, and bytes outside printable ASCII get c10::printQuotedString's
  // broken octal escapes.
  const std::set<std::string> kTorchCannotReparse = {
      "f(int[] x=1) -> Tensor",
      "f(int x=a) -> Tensor",
      "f(Device x=cuda:0) -> Tensor",
      "f(str x=\"\\0)+\\/.)\") -> Tensor",
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
    CHECK(dt::print_schema(*second) == printed);
    second->returns_parenthesised = first->returns_parenthesised;
    CHECK(*second == *first);
  }
}

TEST_CASE("schema: deliberate differences from torch 1.13") {
  // Alias sets print in written order. torch 1.13 prints them in hash-set
  // order: "Tensor(b|a)" -> "Tensor(a|b)", "Tensor(a|b)" -> "Tensor(b|a)",
  // which is why its own dumps (and the corpus) contain "Tensor(b|a)".
  CHECK(reprint("f(Tensor(a|b) x) -> Tensor(b|a)") == "f(Tensor(a|b) x) -> Tensor(b|a)");
  CHECK(reprint("f(Tensor(a|*|*) x) -> Tensor") == "f(Tensor(a|*) x) -> Tensor");          // torch: (*|a)
  CHECK(reprint("f(Tensor(a|b -> b|a) x) -> Tensor") == "f(Tensor(a|b) x) -> Tensor");     // torch: (b|a)
  CHECK(reprint("f(Tensor(a -> b|c) x) -> Tensor") == "f(Tensor(a -> b|c) x) -> Tensor");  // torch: (a -> c|b)
  // torch prints "Tensor?(a)[]" and "Tensor[]()[]", which it cannot parse.
  CHECK(reprint("f(Tensor(a)?[] x) -> Tensor") == "f(Tensor(a)?[] x) -> Tensor");
  CHECK(reprint("f(Tensor(a)[][] x) -> Tensor") == "f(Tensor(a)[][] x) -> Tensor");
  // torch cannot parse nameless schemas at all.
  CHECK(reprint("(Tensor x) -> Tensor") == "(Tensor x) -> Tensor");
  // Custom classes cannot be checked for registration here (torch: "Unknown
  // custom class type foo.Bar. Please ensure it is registered.").
  CHECK(reprint("f(__torch__.torch.classes.foo.Bar x) -> Tensor") == "f(__torch__.torch.classes.foo.Bar x) -> Tensor");
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

TEST_CASE("schema: parse errors point at the offending byte") {
  struct Case {
    const char* input;
    std::size_t offset;
    const char* message;
  };
  const Case cases[] = {
      {"f(Tensr x) -> Tensor", 2, "unknown type 'Tensr'"},
      {"f(Tens\xc3\xb6r x) -> Tensor", 6, "unexpected character '\xc3\xb6' (names and types are ASCII)"},
      {"f(Tensor x -> Tensor", 11, "expected ')' to close the argument list, found '->'"},
      {"f(Tensor x) Tensor", 12, "expected '->' after the argument list, found 'Tensor'"},
      {"f(Tensor x)", 11, "expected '->' after the argument list, found end of input"},
      {"f", 1, "expected an argument list after the operator name"},
      {"f(Tensor) -> Tensor", 8, "expected an argument name after the type 'Tensor', found ')'"},
      {"f(Tensor x,) -> Tensor", 11, "expected an argument after ','"},
      {"f(Tensor x) ->", 14, "expected a return type after '->'"},
      {"f(Tensor x) -> Tensor y, Tensor z", 23,
       "unexpected ',' after the return type; several returns need parentheses: '-> (A a, B b)'"},
      {"f(Tensor x) -> (Tensor a, *, Tensor b)", 26, "'*' (keyword-only marker) is only allowed among the arguments"},
      {"f(..., Tensor x) -> Tensor", 7, "'...' must be the last element of the argument list"},
      {"f(Tensor x) -> (Tensor, ..., Tensor)", 29, "'...' must be the last element of the return list"},
      {"f(Tensor if) -> Tensor", 9, "'if' is a keyword and cannot be an argument name"},
      {"aten:f(Tensor x) -> Tensor", 5, "expected ':' after the namespace, found 'f'"},
      {"aten::f.(Tensor x) -> Tensor", 8, "expected an overload name after '.', found '('"},
      {"aten::f.1(Tensor x) -> Tensor", 8, "expected an overload name after '.', found '1'"},
      {"aten::f.None(Tensor x) -> Tensor", 8, "expected an overload name after '.', found the keyword 'None'"},
      {"f(Tensor x=1) -> Tensor", 11, "the default value of a 'Tensor' argument can only be None, found '1'"},
      {"f(int[] x=None) -> Tensor", 10, "expected '[' to start the default list of 'int[]', found 'None'"},
      {"f(int[2]? x=[1,2]) -> Tensor", 12, "expected a default value, found '['"},
      {"f(int[] x=[1, 1.5]) -> Tensor", 14, "expected an integer in the default list of 'int[]'"},
      {"f(Scalar[] x=[1]) -> Tensor", 14,
       "default lists are only supported for int, float and bool lists, not 'Scalar[]'"},
      {"f(Dict(str, int) x=None) -> Tensor", 19, "an argument of type 'Dict(str, int)' cannot have a default value"},
      {"f(float x=1e400) -> Tensor", 10, "the number 1e400 is out of range for a float"},
      {"f(int x=9223372036854775808) -> Tensor", 8, "the integer 9223372036854775808 is out of range"},
      {"f(int x=-) -> Tensor", 9, "expected a number after '-', found ')'"},
      {"f(int x=inf) -> Tensor", 8,
       "invalid default value 'inf' (expected a number, True, False, None, a string, or one of float, long, "
       "strided, Mean, contiguous_format)"},
      {R"(f(str x="\x41") -> Tensor)", 9, R"(unsupported escape sequence '\x' (hex escapes are not supported))"},
      {R"(f(str x="a\rb") -> Tensor)", 10,
       R"(ill-formed escape sequence '\r' (expected one of \\ \' \" \a \b \f \n \v \t or three octal digits))"},
      {R"(f(str x="abc) -> Tensor)", 8, "unterminated string literal"},
      {"f(Tensor x) -> Tensor $", 22, "unexpected character '$'"},
      {"f(Tensor x) -> Tensor\x01", 21, "unexpected byte 0x01"},
      {R"(f(Device x="CPU") -> Tensor)", 11, "invalid device string 'CPU'"},
      {"f(Device x=cpu) -> Tensor", 11, R"(expected a device string such as "cpu", found 'cpu')"},
      {"f(Tensor! x) -> Tensor", 8,
       "a bare '!' alias annotation is not supported; name the alias set, as in 'Tensor(a!)'"},
      {"f(Tensor?(a!) x) -> Tensor", 9, "an alias annotation goes before the '?', as in 'Tensor(a!)?'"},
      {"f(Tensor(a!|b) x) -> Tensor", 11, "expected ')' to close the alias annotation, found '|'"},
      {"f(Tensor(a|*|b) x) -> Tensor", 13, "no alias set may follow the wildcard '*'"},
      {"f(Tensor() x) -> Tensor", 9, "expected an alias set name or '*', found ')'"},
      {"f(int[-1] x) -> Tensor", 6, "expected a list size (a non-negative integer) or ']', found '-'"},
      {"f(int[100000] x) -> Tensor", 6, "list size 100000 is too large (at most 65535)"},
      {"f(List(int) x) -> Tensor", 2, "unknown type 'List'; write 'T[]' in a schema"},
      {"f(double x) -> Tensor", 2, "unknown type 'double'; a C++ double is 'float' in a schema"},
      {"f(Union(int) x) -> Tensor", 2, "a Union needs at least two different types"},
      {"f(Dict(str) x) -> Tensor", 10, "expected ',' between the key and value types of the Dict, found ')'"},
      {"f(Tensor x)\n -> Tensor", 11, "expected '->' after the argument list, found a line break"},
      {"f(Tensor x) -> Tensor\ng(Tensor x) -> Tensor", 21, "unexpected line break after the schema"},
      {"f(Tensor x) -> Tensor x=None", 23, "a return cannot have a default value"},
      {"f(__torch__.torch.x.y.Z x) -> Tensor", 18,
       "expected '__torch__.torch.classes.<namespace>.<class>' for a custom class type"},
      {"f(complex x=1) -> Tensor", 12, "default values of type 'complex' are not supported"},
      {"", 0, "expected an operator name, found end of input"},
  };
  for (const Case& c : cases) {
    INFO("input: " << std::string(c.input));
    auto parsed = dt::parse_schema(c.input);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().message == c.message);
    CHECK(parsed.error().offset == c.offset);
  }
}

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

namespace dt::test {
TEST_CASE("schema: with_real_types is FunctionSchema::cloneWithRealTypes") {
  // torch 1.13: "h9::a(Tensor x, SymInt[2] p=0, SymInt[1] q=[1], SymInt[] r=[1,2]) -> Tensor" dumps as
  // "... SymInt[2] p=[0, 0] ..." and its mismatch message prints "... int[2] p=0, int[1] q=[1], int[] r=[1, 2] ...".
  auto a = parse_schema("h9::a(Tensor x, SymInt[2] p=0, SymInt[1] q=[1], SymInt[] r=[1,2]) -> Tensor");
  REQUIRE(a.has_value());
  CHECK(print_schema(*a) == "h9::a(Tensor x, SymInt[2] p=[0, 0], SymInt[1] q=[1], SymInt[] r=[1, 2]) -> Tensor");
  CHECK(print_schema(with_real_types(*a)) == "h9::a(Tensor x, int[2] p=0, int[1] q=[1], int[] r=[1, 2]) -> Tensor");
  auto s = parse_schema("f(SymInt(a)[] r, SymInt? o=None, SymFloat x, SymBool b, int i) -> SymInt[]");
  REQUIRE(s.has_value());
  CHECK(print_schema(with_real_types(*s)) == "f(int(a)[] r, int? o=None, float x, bool b, int i) -> int[]");
}
}  // namespace dt::test
