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
    CHECK(s.error().message == "unknown type specifier");
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

  auto u = dt::parse_schema("foo(Tensor?[] a, int[2]? b=None, str c=\"x\") -> (Tensor x, ...)");
  REQUIRE(u);
  CHECK(u->ns.empty());
  CHECK(u->name == "foo");
  CHECK(u->overload.empty());
  REQUIRE(u->arguments.size() == 3);
  CHECK(u->arguments[0].type == "Tensor?[]");
  CHECK(u->arguments[1].type == "int[2]?");
  CHECK(u->arguments[1].default_value == "None");
  CHECK(u->arguments[2].default_value == "\"x\"");
  CHECK_FALSE(u->is_vararg);
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

TEST_CASE("schema: deliberate differences from torch") {
  // Alias sets print in written order. torch 1.13 prints them in hash-set
  // order: "Tensor(b|a)" -> "Tensor(a|b)", "Tensor(a|b)" -> "Tensor(b|a)",
  // which is why its own dumps (and the corpus) contain "Tensor(b|a)".
  CHECK(reprint("f(Tensor(a|b) x) -> Tensor(b|a)") == "f(Tensor(a|b) x) -> Tensor(b|a)");
  CHECK(reprint("f(Tensor(a|*|*) x) -> Tensor") == "f(Tensor(a|*) x) -> Tensor");          // torch: (*|a)
  CHECK(reprint("f(Tensor(a|b -> b|a) x) -> Tensor") == "f(Tensor(a|b) x) -> Tensor");     // torch: (b|a)
  CHECK(reprint("f(Tensor(a -> b|c) x) -> Tensor") == "f(Tensor(a -> b|c) x) -> Tensor");  // torch: (a -> c|b)
  // torch cannot parse nameless schemas at all.
  CHECK(reprint("(Tensor x) -> Tensor") == "(Tensor x) -> Tensor");
  // Custom classes cannot be checked for registration here (torch: "Unknown
  // custom class type foo.Bar. Please ensure it is registered.").
  CHECK(reprint("f(__torch__.torch.classes.foo.Bar x) -> Tensor") == "f(__torch__.torch.classes.foo.Bar x) -> Tensor");
}

TEST_CASE("schema: parse errors say what torch says, at the offending byte") {
  // The words are those of torch's def (measured: tests/oracle/schema_forms.txt
  // checks them against each release); a hint of the tool's own may follow in
  // parentheses. The default grammar's unknown type is 1.13's words.
  struct Case {
    const char* input;
    std::size_t offset;
    const char* message;
  };
  const Case cases[] = {
      {"f(Tensr x) -> Tensor", 2, "unknown type specifier"},
      {"f(Tens\xc3\xb6r x) -> Tensor", 6, "expected a valid token but found '\xc3\xb6' here"},
      {"f(Tensor x -> Tensor", 11, "expected ) but found 'arrow' here"},
      {"f(Tensor x) Tensor", 12, "expected arrow but found 'ident' here"},
      {"f(Tensor x)", 11, "expected arrow but found 'eof' here"},
      {"f", 1, "Tried to parse a function schema but only the operator name was given"},
      {"f(Tensor) -> Tensor", 8, "expected ident but found ')' here"},
      {"f(Tensor x,) -> Tensor", 11, "expected ident but found ')' here"},
      {"f(Tensor x) ->", 14, "expected ident but found 'eof' here"},
      {"f(Tensor x) -> Tensor y, Tensor z", 23,
       "expected eof but found ',' here (several returns need parentheses: '-> (A a, B b)')"},
      {"f(Tensor x) -> (Tensor a, *, Tensor b)", 26, "expected ident but found '*' here"},
      {"f(..., Tensor x) -> Tensor", 7, "... must be the last element of the argument list"},
      {"f(Tensor x) -> (Tensor, ..., Tensor)", 29, "... must be the last element of the return list"},
      {"f(int x=1, ...) -> Tensor", 16, "schemas with vararg (...) can't have default value args"},
      {"f(Tensor if) -> Tensor", 9, "expected ident but found 'if' here"},
      {"aten:f(Tensor x) -> Tensor", 5, "expected : but found 'ident' here"},
      {"aten::f.(Tensor x) -> Tensor", 8, "expected ident but found '(' here"},
      {"aten::f.1(Tensor x) -> Tensor", 7, "expected eof but found 'number' here"},
      {"aten::f.None(Tensor x) -> Tensor", 8, "expected ident but found 'None' here"},
      {"aten::f.default(Tensor x) -> Tensor", 8, "default is not a legal overload name for aten operators"},
      {"aten::f.__x(Tensor x) -> Tensor", 8, "__x is not a legal overload name for aten operators"},
      {"f(int x=1, int y) -> Tensor", 11,
       "Non-default positional argument follows default argument. Parameter y in f(int x=1, int y) -> Tensor"},
      {"f(Tensor x=1) -> Tensor", 11, "expected None but found 'number' here"},
      {"f(int[] x=None) -> Tensor", 10, "expected [ but found 'None' here"},
      {"f(int[2]? x=[1,2]) -> Tensor", 12, "expected number but found '[' here"},
      {"f(int[] x=[1, 1.5]) -> Tensor", 14, "expected int"},
      {"f(Scalar[] x=[1]) -> Tensor", 13, "lists are only supported for float, int and complex types"},
      {"f(Dict(str, int) x=None) -> Tensor", 19, "unexpected type, file a bug report"},
      {"f(float x=1e400) -> Tensor", 10, "stod (the number 1e400 is out of range for a float)"},
      {"f(int x=9223372036854775808) -> Tensor", 8, "stoll (the integer 9223372036854775808 is out of range)"},
      {"f(int x=-) -> Tensor", 9, "expected number but found ')' here"},
      {"f(int x=inf) -> Tensor", 8, "invalid numeric default value ('inf' stands for no value here)"},
      {R"(f(str x="\x41") -> Tensor)", 9, "unsupported hex specifier"},
      {R"(f(str x="a\rb") -> Tensor)", 10,
       R"(ill formed octal specifier (the escapes are \\ \' \" \a \b \f \n \v \t and three octal digits))"},
      {R"(f(str x="abc) -> Tensor)", 8, "expected a valid token but found '\"' here (an unterminated string literal)"},
      {"f(Tensor x) -> Tensor $", 22, "expected a valid token but found ' ' here"},
      {"f(Tensor x) -> Tensor\x01", 21, "expected a valid token but found '\x01' here"},
      {R"(f(Device x="CPU") -> Tensor)", 11,
       "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, vulkan, "
       "mps, meta, hpu, privateuseone device type at start of device string: CPU"},
      {R"(f(Device x="cuda:01") -> Tensor)", 11, "Invalid device string: 'cuda:01'"},
      {"f(Device x=cpu) -> Tensor", 11, "expected string_literal but found 'ident' here"},
      {"f(Tensor?(a!) x) -> Tensor", 9, "expected ident but found '(' here"},
      {"f(Tensor(a!|b) x) -> Tensor", 11, "expected ) but found '|' here"},
      {"f(Tensor(a|*|b) x) -> Tensor", 13, "expected ) but found 'ident' here"},
      {"f(Tensor() x) -> Tensor", 9, "expected ident but found ')' here"},
      {"f(Tensor!! x) -> Tensor", 9, "expected ident but found '!' here"},
      {"f(int[-1] x) -> Tensor", 6, "expected number but found '-' here"},
      {"f(List(int) x) -> Tensor", 2, "unknown type specifier (write 'T[]' in a schema)"},
      {"f(Union(int) x) -> Tensor", 2,
       "After type unification was performed, the Union with the original types {int } has the single type int. "
       "Use the common supertype instead of creating a Uniontype"},
      {"f(Dict(str) x) -> Tensor", 10, "expected , but found ')' here"},
      {"f(Tensor x)\n -> Tensor", 11, "expected arrow but found 'indent' here"},
      {"f(Tensor x)\n-> Tensor", 11, "expected arrow but found 'newline' here"},
      {"f(Tensor x) -> Tensor\ng(Tensor x) -> Tensor", 22, "expected eof but found 'ident' here"},
      {"f(Tensor x) -> Tensor x=None", 23, "expected eof but found '=' here"},
      {"f(Tensor x) -> Tensor != None", 22, "expected eof but found 'ne' here"},
      {"f(__torch__.torch.x.y.Z x) -> Tensor", 18, "Expected classes namespace but got x"},
      {"f(complex x=1) -> Tensor", 12, "stod (a complex default is an imaginary number such as 1j, not '1')"},
      {"", 0, "expected ident but found 'eof' here"},
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
