// The schema c10 infers from a C++ kernel's type (cases measured on torch
// 2.14 by tests/oracle/cpp_ext/forms.cpp).
#include "readers/cpp_signature.hpp"

#include "helpers.hpp"

namespace dt::test {

namespace {
std::vector<CppToken> toks(std::string_view text) {
  auto s = lex_cpp("a.cpp", text);
  REQUIRE(s.has_value());
  return std::move(s->tokens);
}
std::optional<std::string> type(std::string_view text) {
  const auto t = toks(text);
  return cpp_schema_type(t, 0, t.size());
}
// The signature of the first function declared in `text`.
std::string sig(std::string_view text, std::string_view name) {
  const auto t = toks(text);
  auto d = find_function(t, match_brackets(t), name);
  if (!d) return "(not found)";
  std::string why;
  const CppAliases aliases = index_aliases(t);
  auto s = infer_signature(t, d->rb, d->re, d->pb, d->pe, why, &aliases);
  return s ? *s : "unknown: " + why;
}
}  // namespace

TEST_CASE("cpp_schema_type: the types kernels use") {
  CHECK(type("const at::Tensor&") == "Tensor");
  CHECK(type("at::Tensor&") == "Tensor");
  CHECK(type("Tensor") == "Tensor");
  CHECK(type("int64_t") == "int");
  CHECK(type("double") == "float");
  CHECK(type("bool") == "bool");
  CHECK(type("const c10::Scalar&") == "Scalar");
  CHECK(type("at::IntArrayRef") == "int[]");
  CHECK(type("c10::ArrayRef<int64_t>") == "int[]");
  CHECK(type("at::TensorList") == "Tensor[]");
  CHECK(type("const std::optional<at::Tensor>&") == "Tensor?");
  CHECK(type("std::optional<int64_t>") == "int?");
  CHECK(type("c10::string_view") == "str");
  CHECK(type("c10::SymInt") == "SymInt");
  CHECK(type("std::vector<at::Tensor>") == "Tensor[]");
  CHECK(type("c10::List<std::optional<at::Tensor>>") == "Tensor?[]");
  CHECK(type("at::ScalarType") == "ScalarType");
  // std::array<bool, N> (open_registration_extension.cpp's grad_input_mask): bool[], as c10 infers it.
  // Measured on torch 2.14 (forms.cpp's dtcpp::u); c10::OptionalArrayRef<double> is refused there at load time.
  CHECK(type("c10::SymFloat") == "SymFloat");
  CHECK(type("c10::SymBool") == "SymBool");
  CHECK(type("c10::complex<double>") == "complex");
  CHECK_FALSE(type("c10::complex<float>").has_value());
  CHECK(type("const c10::IValue&") == "Any");
  CHECK(type("c10::Dict<std::string, at::Tensor>") == "Dict(str, Tensor)");
  CHECK(type("c10::Dict<int64_t, std::vector<double>>") == "Dict(int, float[])");
  CHECK_FALSE(type("c10::Dict<std::string>").has_value());
  CHECK_FALSE(type("c10::OptionalArrayRef<double>").has_value());
  CHECK(type("std::array<bool,4>") == "bool[]");
  CHECK(type("std::array<bool, 3>") == "bool[]");
  CHECK_FALSE(type("std::array<bool, N>").has_value());
  CHECK_FALSE(type("std::array<std::optional<bool>, 2>").has_value());
  // Lists of lists and tuples (oracle.torch-2.14.cpp_reader_project: tests/oracle/cpp_ext/project_forms.cpp).
  CHECK(type("const std::vector<std::vector<int64_t>>&") == "int[][]");
  CHECK(type("c10::List<c10::List<double>>") == "float[][]");
  CHECK(type("const std::vector<std::tuple<int64_t, int64_t>>&") == "(int, int)[]");
  CHECK(type("std::tuple<int64_t, double>") == "(int, float)");
  CHECK_FALSE(type("at::ArrayRef<at::IntArrayRef>").has_value());  // not measured: not guessed
  CHECK_FALSE(type("std::vector<c10::List<int64_t>>").has_value());
  // Not a kernel type, or not certain: unknown, never a guess.
  CHECK_FALSE(type("int").has_value());
  CHECK_FALSE(type("float").has_value());
  CHECK_FALSE(type("int64_t&").has_value());
  CHECK_FALSE(type("MyType").has_value());
  CHECK_FALSE(type("std::optional<std::optional<at::Tensor>>").has_value());
}

TEST_CASE("infer_signature: parameters _0.., returns, tuples, void") {
  CHECK(sig("at::Tensor f(const at::Tensor& x) { return x; }", "f") == "(Tensor _0) -> Tensor _0");
  CHECK(sig("static at::Tensor f(const at::Tensor& x, int64_t n, double s = 1.0);", "f") ==
        "(Tensor _0, int _1, float _2) -> Tensor _0");
  CHECK(sig("std::tuple<at::Tensor, at::Tensor> two(const at::Tensor& a, const at::Tensor& b) {}", "two") ==
        "(Tensor _0, Tensor _1) -> (Tensor _0, Tensor _1)");
  CHECK(sig("void nothing(const at::Tensor&) {}", "nothing") == "(Tensor _0) -> ()");
  CHECK(sig("at::Tensor& inplace(at::Tensor& self) { return self; }", "inplace") == "(Tensor _0) -> Tensor _0");
  CHECK(sig("std::vector<at::Tensor> many(const at::Tensor& x, c10::string_view mode) {}", "many") ==
        "(Tensor _0, str _1) -> Tensor[] _0");
  CHECK(sig("namespace a { inline at::Tensor f(at::Tensor x) {} }", "f") == "(Tensor _0) -> Tensor _0");
  CHECK(sig("MyT f(const at::Tensor& x) {}", "f") == "unknown: return type 'MyT'");
  CHECK(sig("at::Tensor f(const MyT& x) {}", "f") == "unknown: parameter type 'const MyT &'");
  CHECK(sig("void g() { f(x); }", "f") == "(not found)");  // a call is not a declaration
  // A tuple whose angle brackets do not balance is not guessed at.
  CHECK(sig("std::tuple<std::vector<at::Tensor> f(at::Tensor x) {}", "f") ==
        "unknown: return type 'tuple<vector<Tensor>'");
  // A first DispatchKeySet is dropped, as c10 does (remove_DispatchKeySet_arg_from_func); only the first, by value.
  CHECK(sig("at::Tensor f(c10::DispatchKeySet ks, const at::Tensor& x) {}", "f") == "(Tensor _0) -> Tensor _0");
  CHECK(sig("at::Tensor f(const DispatchKeySet ks, int64_t n) {}", "f") == "(int _0) -> Tensor _0");
  CHECK(sig("at::Tensor f(c10::DispatchKeySet) {}", "f") == "() -> Tensor _0");
  CHECK(sig("at::Tensor f(const c10::DispatchKeySet& ks, at::Tensor x) {}", "f") ==
        "unknown: parameter type 'const c10 :: DispatchKeySet &'");
  CHECK(sig("at::Tensor f(at::Tensor x, c10::DispatchKeySet ks) {}", "f") ==
        "unknown: parameter type 'c10 :: DispatchKeySet'");
}

TEST_CASE("find_function: a function template's signature, its parameter list matched as C++ does") {
  CHECK(sig("template <int64_t N> at::Tensor f(const at::Tensor& x, int64_t k) {}", "f") ==
        "(Tensor _0, int _1) -> Tensor _0");
  CHECK(sig("template <c10::DeviceType D, typename T> static inline at::Tensor f(at::Tensor x) {}", "f") ==
        "(Tensor _0) -> Tensor _0");
  // Nested template arguments: the parameter list ends at its own '>'.
  CHECK(sig("template <std::array<int64_t, 2> A> at::Tensor f(at::Tensor x) {}", "f") == "(Tensor _0) -> Tensor _0");
  // An unclosed template parameter list declares nothing.
  CHECK(sig("template <int N at::Tensor f(at::Tensor x) {}", "f") == "(not found)");
  // A default template argument: its '=' and parentheses are the template head's.
  CHECK(sig("int g(); template <bool kIsMeta = false> at::Tensor f(const at::Tensor& x) {}", "f") ==
        "(Tensor _0) -> Tensor _0");
  CHECK(sig("template <int N = (1 + 2), int M = sizeof(int)> at::Tensor f(at::Tensor x) {}", "f") ==
        "(Tensor _0) -> Tensor _0");
}

TEST_CASE("index_aliases: kernels' types through the file's using and typedef aliases") {
  const std::string decls =
      "using fptr_t = int64_t;\ntypedef at::Tensor Tens;\nusing TensorRef = const at::Tensor&;\n"
      "using Pair = std::tuple<Tens, fptr_t>;\ntypedef std::vector<Tens> Tensors;\nusing namespace at;\n"
      "template <class T> using Vec = std::vector<T>;\ntypedef void (*fn_t)(int);\n";
  CHECK(sig(decls + "fptr_t f(Tens& a, TensorRef b, fptr_t n);", "f") == "(Tensor _0, Tensor _1, int _2) -> int _0");
  CHECK(sig(decls + "Pair g(const Tensors& x);", "g") == "(Tensor[] _0) -> (Tensor _0, int _1)");
  // Left out: an alias template, a function pointer; a non-const reference through an alias as without.
  CHECK(sig(decls + "Tens h(Vec<int64_t> v);", "h").starts_with("unknown: parameter type 'Vec"));
  CHECK(sig(decls + "Tens i(fn_t f);", "i") == "unknown: parameter type 'fn_t'");
  CHECK(sig(decls + "Tens j(fptr_t& n);", "j") == "unknown: parameter type 'fptr_t &'");
  // A qualified name is not the alias (vllm::fptr_t would need the namespace's scope).
  CHECK(sig(decls + "Tens k(other::fptr_t n);", "k") == "unknown: parameter type 'other :: fptr_t'");
  // Aliases that double at each step stay bounded: the type is unknown, not 2^40 bytes.
  std::string growth = "using A0 = std::tuple<at::Tensor, at::Tensor>;\n";
  for (int i = 1; i <= 40; ++i)
    growth += "using A" + std::to_string(i) + " = std::tuple<A" + std::to_string(i - 1) + ", A" +
              std::to_string(i - 1) + ">;\n";
  CHECK(sig(growth + "A40 f(at::Tensor x);", "f").starts_with("unknown: return type"));
}

TEST_CASE("has_symint_argument: SymInt parameters only (a SymInt return keeps the unboxed entry point)") {
  CHECK(has_symint_argument("(Tensor _0, SymInt _1) -> Tensor _0"));
  CHECK(has_symint_argument("(SymInt[] _0) -> ()"));
  CHECK_FALSE(has_symint_argument("(Tensor _0, int _1) -> (Tensor _0, SymInt _1)"));
  CHECK_FALSE(has_symint_argument("(Tensor _0) -> Tensor _0"));
}

}  // namespace dt::test

