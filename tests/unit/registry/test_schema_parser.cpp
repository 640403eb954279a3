// Parsing operator schemas (registry/schema.hpp, schema_parser.cpp).
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

#ifndef DT_TEST_DATA_DIR
#error "DT_TEST_DATA_DIR must be defined as the absolute path of tests/unit/data"
#endif

namespace dt::test {

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

TEST_CASE("schema: without the Dimname type (torch 2.14), a Dimname type is refused where it is written") {
  const dt::SchemaParseOptions none{.dimname = false};
  for (std::string_view text : {"f(Tensor x, Dimname d) -> ()", "f(Dimname[] d) -> ()", "f() -> Dimname?",
                                "f(Union(Dimname, int) x) -> ()", "f(Dict(str, Dimname) d) -> ()"}) {
    CAPTURE(text);
    auto s = dt::parse_schema(text, none);
    REQUIRE_FALSE(s.has_value());
    CHECK(s.error().message == "unknown type 'Dimname' (this release's schemas have no Dimname)");
    CHECK(s.error().offset == text.find("Dimname"));
    CHECK(dt::parse_schema(text).has_value());  // the default (1.13, 2.6): a type
  }
  // Only the type: a name or an overload called Dimname is fine.
  CHECK(dt::parse_schema("f.Dimname(Tensor Dimname) -> Tensor Dimname", none).has_value());
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
       "invalid default value 'inf' (expected a number, True, False, None, a string, or one of float, complex, "
       "long, strided, Mean, contiguous_format)"},
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

}  // namespace dt::test
