// evaluate_condition: #if expressions as a compiler evaluates them.
#include "readers/cpp_condition.hpp"

#include "helpers.hpp"

namespace dt::test {

namespace {
Expected<CppConditionValue, Diagnostic> eval(std::string_view text) {
  auto t = lex_cpp("a.cpp", text);
  REQUIRE(t.has_value());
  return evaluate_condition(t->tokens);
}
bool value(std::string_view text) {
  auto v = eval(text);
  REQUIRE_MESSAGE(v.has_value(), (v ? "" : v.error().message));
  return v->value;
}
}  // namespace

TEST_CASE("evaluate_condition: literals, operators, precedence, short circuits") {
  CHECK(value("1"));
  CHECK_FALSE(value("0"));
  CHECK(value("12000 >= 11080"));
  CHECK(value("0x10 == 16 && 010 == 8 && 0b11 == 3 && 1'000 == 1000"));
  CHECK(value("1 + 2 * 3 == 7"));
  CHECK(value("(1 + 2) * 3 == 9"));
  CHECK(value("-1 < 0"));
  CHECK_FALSE(value("-1 < 0u"));  // the usual arithmetic conversions: -1 is the largest unsigned
  CHECK(value("1 << 4 == 16 && 256 >> 4 == 16"));
  CHECK(value("!0 && ~0 == -1"));
  CHECK(value("1 ? 2 : 0"));
  CHECK(value("0 ? 1 / 0 : 3"));  // the branch not taken is not evaluated
  CHECK_FALSE(value("0 && 1 / 0"));
  CHECK(value("1 || 1 / 0"));
  CHECK(value("'a' == 97 && '\\n' == 10"));
  CHECK(value("true && !false"));
  CHECK(value("201703L >= 201402L"));
}

TEST_CASE("evaluate_condition: a name left over is 0, and named only where the answer rests on it") {
  auto v = eval("CUDA_VERSION >= 12000 || VERSION");
  REQUIRE(v);
  CHECK_FALSE(v->value);
  CHECK(v->unknown == std::vector<std::string>{"CUDA_VERSION", "VERSION"});
  auto w = eval("0 && CUDA_VERSION >= 12000");
  REQUIRE(w);
  CHECK(w->unknown.empty());
}

TEST_CASE("unknown_why: names taken as 0 and headers not found, in words, with what settles them") {
  const UnknownWhy names = unknown_why({"USE_ROCM", "X"});
  CHECK(names.why == "USE_ROCM, X are not defined here (a compiler takes them as 0)");
  CHECK(names.fix == "define them with -D");
  const UnknownWhy header = unknown_why({"<cuda_fp8.h>"});
  CHECK(header.why == "the header <cuda_fp8.h> is not found here (__has_include takes it as 0)");
  CHECK(header.fix == "give its directory with -I");
  const UnknownWhy both = unknown_why({"\"a.h\"", "Y", "<b.h>"});
  CHECK(both.why ==
        "Y is not defined here (a compiler takes it as 0) and the headers \"a.h\", <b.h> are not found "
        "here (__has_include takes them as 0)");
  CHECK(both.fix == "define it with -D and give their directories with -I");
}

TEST_CASE("evaluate_condition: malformed expressions and division by zero are errors, deep nesting is bounded") {
  CHECK(eval("1 +").error().message == "the expression ends too soon");
  CHECK(eval("(1").error().message == "'(' without its ')'");
  CHECK(eval("1 ? 2").error().message == "'?' without its ':'");
  CHECK(eval("1 / 0").error().message == "division by zero");
  CHECK(eval("1.5").error().message.find("not an integer") != std::string::npos);
  CHECK(eval("").error().message == "no expression");
  CHECK(eval("1 2").error().message == "unexpected '2' in the expression");
  CHECK(eval(std::string(10000, '(') + "1" + std::string(10000, ')')).error().message.find("nested deeper") == 0);
  CHECK(eval(std::string(10000, '-') + "1").error().message.find("nested deeper") == 0);
}

}  // namespace dt::test
