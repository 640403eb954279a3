// Default values in schemas (registry/schema_defaults.cpp): how they are
// read and how PyTorch prints them back.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <string_view>

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
  CHECK(default_of("bool[4097]", "True") ==
        "error: sized-list defaults of this schema expand to more than 4096 "
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

TEST_CASE("schema defaults: complex numbers, read as torch reads them and printed as IValue prints them") {
  // function_schema_parser.cpp: a complex default (or any number ending in
  // 'j') is its text without the last character, as the imaginary part.
  CHECK(default_of("complex", "1j") == "0.+1.j");
  CHECK(default_of("complex", "-0.5j") == "0.-0.5j");
  CHECK(default_of("complex", "1e3j") == "0.+1000.j");
  CHECK(default_of("complex", "1.5") == "0.+1.j");  // "1." is read, the '5' dropped
  CHECK(default_of("complex", "12") == "0.+1.j");
  CHECK(default_of("complex?", "2j") == "0.+2.j");
  CHECK(default_of("Scalar", "2.5j") == "0.+2.5j");
  CHECK(default_of("int", "2j") == "0.+2.j");
  CHECK(default_of("str", "1j") == "0.+1.j");
  CHECK(default_of("complex[2]", "1j") == "[0.+1.j, 0.+1.j]");
  CHECK(default_of("complex", "1") == "error: stod (a complex default is an imaginary number such as 1j, not '1')");
}

TEST_CASE("schema defaults: hexadecimal numbers, as strtod reads them") {
  CHECK(default_of("int", "0x10") == "0");      // std::stoll reads the "0"
  CHECK(default_of("float", "0x10") == "16.");  // std::stod reads it all
  CHECK(default_of("int", "0x1e") == "30.");    // an 'e' makes it a float
  CHECK(default_of("float", "0x1.8p1") == "3.");
}

TEST_CASE("schema defaults: dtype names are a grammar's, for ScalarType only") {
  SchemaGrammar g;
  g.measured = true;
  g.types = {"ScalarType", "int", "Layout"};
  g.default_words = {{"float", 6}, {"long", 4}};
  g.dtype_defaults = {{"bfloat16", 15}};
  const auto with = [&](std::string_view type, std::string_view value) {
    SchemaParseOptions opt;
    opt.grammar = &g;
    auto s = parse_schema(fmt::format("f({} x={}) -> ()", type, value), opt);
    return s ? *s->arguments[0].default_value : "error: " + s.error().message;
  };
  CHECK(with("ScalarType", "bfloat16") == "15");
  CHECK(with("ScalarType?", "bfloat16") == "15");
  CHECK(with("ScalarType[]", "[bfloat16, long]") == "[15, 4]");
  CHECK(with("int", "float") == "6");
  CHECK(with("int", "bfloat16") == "error: invalid numeric default value ('bfloat16' stands for no value here)");
  CHECK(with("Layout", "bfloat16") == "error: invalid numeric default value ('bfloat16' stands for no value here)");
  CHECK(with("int", "Mean") == "error: invalid numeric default value ('Mean' stands for no value here)");
  CHECK(with("ScalarType[2]", "bfloat16") == "error: expected None but found 'ident' here");
}

TEST_CASE("schema defaults: devices, as c10::Device reads and prints them") {
  CHECK(default_of("Device", "\"cuda:128\"") == "cuda:-128");  // c10::DeviceIndex is an int8_t
  CHECK(default_of("Device", "\"cuda:255\"") == "cuda");       // -1: no index
  CHECK(default_of("Device", "\"cpu:1\"") == "cpu:1");
  CHECK(default_of("Device?", "\"foo\"") == "foo");  // an Optional's string is not a Device
  CHECK(default_of("Device", "\"\"") == "error: Device string must not be empty");
  CHECK(default_of("Device", "\"cuda:01\"") == "error: Invalid device string: 'cuda:01'");
  CHECK(default_of("Device", "\"cuda:1:2\"") == "error: Invalid device string: 'cuda:1:2'");
  CHECK(default_of("Device", "\"cuda:99999999999\"") ==
        "error: Could not parse device index '99999999999' in device string 'cuda:99999999999'");
  SchemaGrammar g;
  g.measured = true;
  g.types = {"Device"};
  g.device_types = {"cpu", "cuda"};
  SchemaParseOptions opt;
  opt.grammar = &g;
  auto s = parse_schema("f(Device d=\"mps\") -> ()", opt);
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().message == "Expected one of cpu, cuda device type at start of device string: mps");
}

TEST_CASE("schema defaults: what the default parser refuses, in torch's words") {
  CHECK(default_of("int", "9223372036854775808") == "error: stoll (the integer 9223372036854775808 is out of range)");
  CHECK(default_of("float", "1e400") == "error: stod (the number 1e400 is out of range for a float)");
  CHECK(default_of("Tensor", "1") == "error: expected None but found 'number' here");
  CHECK(default_of("Device", "\"gpu\"") ==
        "error: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, "
        "vulkan, mps, meta, hpu, privateuseone device type at start of device string: gpu");
  CHECK(default_of("int[]", "[1, 2.5]") == "error: expected int");
  CHECK(default_of("bool[]", "[1]") == "error: expected bool");
  CHECK(default_of("float[]", "[True]") == "error: expected double");
  CHECK(default_of("complex[]", "[True]") == "error: Expected ComplexDouble but got Bool");
  CHECK(default_of("int[2]", "None") == "error: expected int");
  CHECK(default_of("int[2147483648]", "1") == "error: cannot create std::vector larger than max_size()");
  CHECK(default_of("str[]", "[\"a\"]") == "error: lists are only supported for float, int and complex types");
  CHECK(default_of("str", "\"\\x41\"") == "error: unsupported hex specifier");
  CHECK(default_of("str", "\"\\u0041\"") == "error: unsupported unicode specifier");
  CHECK(default_of("int", "nope") == "error: invalid numeric default value ('nope' stands for no value here)");
  CHECK(default_of("Dict(str, int)", "None") == "error: unexpected type, file a bug report");
  CHECK(default_of("SymBool", "True") == "error: unexpected type, file a bug report");
}

}  // namespace dt::test
