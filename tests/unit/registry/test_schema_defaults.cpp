// Default values in schemas (registry/schema_defaults.cpp): how they are
// read and how PyTorch prints them back.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "registry/schema.hpp"

namespace dt::test {
namespace {

// The default of `x` in "f(TYPE x=VALUE) -> ()" as parsed, or "error: MESSAGE".
std::string default_of(std::string_view type, std::string_view value) {
  auto s = parse_schema(fmt::format("f({} x={}) -> ()", type, value));
  if (!s) return "error: " + s.error().message;
  REQUIRE(s->arguments.size() == 1);
  return s->arguments[0].default_value.value_or("(none)");
}

}  // namespace

TEST_CASE("schema defaults: numbers print as IValue prints them") {
  CHECK(default_of("float", "1") == "1.");
  CHECK(default_of("float", "0.1") == "0.10000000000000001");
  CHECK(default_of("float", "1e20") == "1e+20");
  CHECK(default_of("int", "007") == "7");
  CHECK(default_of("int", "-9223372036854775808") == "-9223372036854775808");
  CHECK(default_of("Scalar", "1e3") == "1000.");
  CHECK(default_of("bool", "False") == "False");
  CHECK(default_of("int?", "None") == "None");
}

TEST_CASE("schema defaults: lists, sized lists given one value, and enum words") {
  CHECK(default_of("int[2]", "[1, 2]") == "[1, 2]");
  CHECK(default_of("int[2]", "[1,1]") == "1");  // equal int values print as one
  CHECK(default_of("float[2]", "1") == "[1., 1.]");
  CHECK(default_of("bool[2]", "True") == "[True, True]");
  CHECK(default_of("int[1]", "[]") == "[]");
  CHECK(default_of("ScalarType", "float") == "6");
  CHECK(default_of("ScalarType?", "long") == "4");
  CHECK(default_of("MemoryFormat?", "contiguous_format") == "0");
  CHECK(default_of("int", "Mean") == "1");
}

TEST_CASE("schema defaults: strings are decoded, then printed quoted as c10 does") {
  CHECK(default_of("str", "'mean'") == "\"mean\"");
  CHECK(default_of("str", "\"\\101\"") == "\"A\"");
  CHECK(default_of("str", "\"it's\"") == "\"it\\'s\"");
  CHECK(default_of("str?", "\"a\\nb\"") == "\"a\\nb\"");
  CHECK(default_of("int", "\"a\"") == "a");  // a str default of another type prints unquoted
  CHECK(default_of("Device", "\"cuda:1\"") == "cuda:1");
  CHECK(default_of("Tensor?", "None") == "None");
}

TEST_CASE("schema defaults: sized-list defaults expand to at most 4096 elements per schema (issue 11)") {
  CHECK(default_of("bool[4096]", "True").size() == 2 + 4096 * 4 + 4095 * 2);
  CHECK(default_of("bool[4097]", "True") == "error: sized-list defaults of this schema expand to more than 4096 "
                                            "elements (limit: 4096)");
  // In all: 2,000 arguments of bool[65535] would print 780 MB.
  std::string args;
  for (int i = 0; i < 2000; ++i) args += fmt::format(", bool[3] a{}=True", i);
  const std::string text = "f(Tensor x" + args + ") -> Tensor";
  auto s = parse_schema(text);
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().message == "sized-list defaults of this schema expand to more than 4096 elements (limit: 4096)");
  CHECK(s.error().offset == text.find("a1365=True") + 6);  // 1,366 * 3 > 4096
}

TEST_CASE("schema defaults: what the default parser refuses, and why") {
  CHECK(default_of("int", "9223372036854775808") == "error: the integer 9223372036854775808 is out of range");
  CHECK(default_of("float", "1e400") == "error: the number 1e400 is out of range for a float");
  CHECK(default_of("Tensor", "1") == "error: the default value of a 'Tensor' argument can only be None, found '1'");
  CHECK(default_of("complex", "1") == "error: default values of type 'complex' are not supported");
  CHECK(default_of("Device", "\"gpu\"") == "error: invalid device string 'gpu'");
  CHECK(default_of("Device", "\"cuda:128\"") == "error: invalid device string 'cuda:128'");
  CHECK(default_of("int[]", "[1, 2.5]") == "error: expected an integer in the default list of 'int[]'");
  CHECK(default_of("str[]", "[\"a\"]") ==
        "error: default lists are only supported for int, float and bool lists, not 'str[]'");
  CHECK(default_of("str", "\"\\x41\"") == "error: unsupported escape sequence '\\x' (hex escapes are not supported)");
  CHECK(default_of("int", "nope") ==
        "error: invalid default value 'nope' (expected a number, True, False, None, a string, or one of float, complex, "
        "long, strided, Mean, contiguous_format)");
}

// Measured with torch._C.parse_schema("f(ScalarType d=NAME) -> ()") on 2.6.0
// and 2.14.1: every torch.<attr> dtype is a ScalarType default (its enum
// value), only on ScalarType and ScalarType?; "float", "long" and "complex"
// on any type (1.13 has only those).
TEST_CASE("schema defaults: a ScalarType default written as a dtype's name, as the release's str2dtype has them") {
  const std::vector<std::pair<std::string, std::string>> dtypes = {
      {"bfloat16", "bfloat16"}, {"double", "float64"}, {"float8_e4m3fn", "float8_e4m3fn"},
      {"float8_e5m2", "float8_e5m2"}, {"half", "float16"}, {"uint8", "uint8"}};
  SchemaParseOptions opt;
  opt.dtypes = &dtypes;
  auto with = [&](std::string_view type, std::string_view value) -> std::string {
    auto s = parse_schema(fmt::format("f({} x={}) -> ()", type, value), opt);
    if (!s) return "error: " + s.error().message;
    return s->arguments[0].default_value.value_or("(none)");
  };
  CHECK(with("ScalarType", "float8_e5m2") == "23");
  CHECK(with("ScalarType?", "float8_e4m3fn") == "24");
  CHECK(with("ScalarType", "half") == "5");
  CHECK(with("ScalarType", "double") == "7");
  CHECK(with("ScalarType", "bfloat16") == "15");
  CHECK(with("ScalarType", "uint8") == "0");
  CHECK(with("ScalarType", "float") == "6");
  CHECK(with("int", "complex") == "9");
  CHECK(with("float", "complex") == "9");
  CHECK(with("int", "half").starts_with("error: invalid default value 'half'"));
  CHECK(with("Layout", "bfloat16").starts_with("error: invalid default value 'bfloat16'"));
  CHECK(with("ScalarType", "float32").starts_with("error: invalid default value 'float32'"));  // not in this table
  // Without the profile's table (1.13): only float, long, complex.
  CHECK(default_of("ScalarType", "float8_e5m2").starts_with("error: invalid default value 'float8_e5m2'"));
  CHECK(default_of("ScalarType", "complex") == "9");
}

}  // namespace dt::test
