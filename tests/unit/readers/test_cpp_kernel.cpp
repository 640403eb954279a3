// Kernel expressions: what kind of kernel c10 makes of each, the key of
// torch::dispatch, the schema inferred from a function, a template's
// specialization or a lambda (what torch 2.14 prints for them is checked
// for real by tests/oracle/cpp_reader_oracle.py through read_cpp).
#include "readers/cpp_kernel.hpp"

#include "helpers.hpp"

namespace dt::test {

namespace {
// The kernel expression `expr`, read in a file that declares `decls` first.
CppKernel kernel(std::string_view decls, std::string_view expr, bool stable = false) {
  const std::string text = std::string(decls) + "\nvoid reg() { m.impl(\"op\", " + std::string(expr) + "); }";
  auto s = lex_cpp("k.cpp", text);
  REQUIRE(s.has_value());
  const CppTokens toks(s->tokens);
  std::size_t open = 0;
  while (!(toks.t[open].is("impl") && toks.t[open + 1].is("("))) ++open;
  const auto a = toks.args(open + 1);
  REQUIRE(a.size() == 2);
  static const std::vector<FileName> files{"k.cpp"};
  return read_kernel(toks, files, a[1], stable);
}
std::string what(const CppKernel& k) {
  switch (k.what) {
    case CppKernel::What::Function: return "function " + k.signature.value_or("unknown: " + k.unknown);
    case CppKernel::What::Fallthrough: return "fallthrough";
    case CppKernel::What::Boxed: return "boxed";
    case CppKernel::What::Unknown: return "unknown: " + k.unknown;
  }
  return "";
}
constexpr std::string_view kF = "at::Tensor f(const at::Tensor& x, int64_t k);";
}  // namespace

TEST_CASE("cpp_key_name: c10's enum aliases and device types") {
  CHECK(cpp_key_name("DefaultBackend") == "CompositeExplicitAutograd");
  CHECK(cpp_key_name("Autocast") == "AutocastCUDA");
  CHECK(cpp_key_name("CatchAll") == "");
  CHECK(cpp_key_name("PrivateUse1_PreAutograd") == "AutogradPrivateUse1");
  CHECK(cpp_key_name("kCUDA") == "CUDA");
  CHECK(cpp_key_name("kPrivateUse1") == "PrivateUse1");
  CHECK(cpp_key_name("CPU") == "CPU");
  CHECK(cpp_key_name("Math") == "Math");  // gone from c10 in 2.x: the loader refuses it
}

TEST_CASE("read_kernel: functions, TORCH_FN, dispatch keys, fallthrough and boxed kernels") {
  CHECK(what(kernel(kF, "f")) == "function (Tensor _0, int _1) -> Tensor _0");
  CHECK(what(kernel("namespace ns {\n" + std::string(kF) + "\n}", "&ns::f")) ==
        "function (Tensor _0, int _1) -> Tensor _0");
  CHECK(what(kernel(kF, "TORCH_FN(f)")) == "function (Tensor _0, int _1) -> Tensor _0");
  CHECK(what(kernel(kF, "c10::KernelFunction::makeFromUnboxedFunction(TORCH_FN(f))")) ==
        "function (Tensor _0, int _1) -> Tensor _0");
  const CppKernel d = kernel(kF, "torch::dispatch(c10::DispatchKey::CUDA, TORCH_FN(f))");
  CHECK(what(d) == "function (Tensor _0, int _1) -> Tensor _0");
  CHECK(d.key == "CUDA");
  CHECK(d.key_at.line == 2);
  CHECK(kernel(kF, "torch::dispatch(c10::kCPU, f)").key == "CPU");
  CHECK(kernel(kF, "torch::dispatch(c10::DispatchKey::CatchAll, f)").key == "");
  CHECK(what(kernel("", "torch::CppFunction::makeFallthrough()")) == "fallthrough");
  CHECK(what(kernel("", "torch::CppFunction::makeFromBoxedFunction<&boxed>()")) == "boxed");
  CHECK(what(kernel("", "TORCH_BOX(&boxed)")) == "boxed");
  CHECK(what(kernel(kF, "f", /*stable=*/true)) == "boxed");  // StableLibrary::impl takes a boxed function
}

TEST_CASE("read_kernel: a SymInt argument keeps no unboxed entry point") {
  CHECK(kernel("at::Tensor g(const at::Tensor& x, c10::SymInt n);", "TORCH_FN(g)").symint);
  CHECK_FALSE(kernel(kF, "TORCH_FN(f)").symint);
}

TEST_CASE("read_kernel: a function template's specialization has the template's signature") {
  constexpr std::string_view kT = "template <int64_t N, bool B> at::Tensor t(const at::Tensor& x);";
  CHECK(what(kernel(kT, "TORCH_FN((t<2, true>))")) == "function (Tensor _0) -> Tensor _0");
  CHECK(what(kernel(kT, "t<(1 > 0), false>")) == "function (Tensor _0) -> Tensor _0");
  CHECK(what(kernel(kT, "t<2, true>::value")) == "function unknown: a kernel expression dispatchtool does not read");
}

TEST_CASE("read_kernel: a static member of a class template's specialization is a function kernel") {
  // PyTorch's quantized cuDNN kernels: m.impl("quantized::conv2d.new", QConvInt8<2, false>::run).
  constexpr std::string_view kC =
      "template <int N, bool R> struct QConv { static at::Tensor run(const at::Tensor& x); };";
  CHECK(what(kernel(kC, "QConv<2, false>::run")) ==
        "function unknown: 'QConv<2,false>::run' is a member of a class template's specialization, whose signature "
        "is not looked up");
  CHECK(what(kernel(kC, "&ns::QConv<1, true>::run")) ==
        "function unknown: 'ns::QConv<1,true>::run' is a member of a class template's specialization, whose "
        "signature is not looked up");
  CHECK(what(kernel(kC, "QConv<2, false>::run", /*stable=*/true)) == "boxed");
}

TEST_CASE("read_kernel: lambdas, by trailing return type or by the parameter they return") {
  CHECK(what(kernel("", "[](const at::Tensor& a, double s) -> at::Tensor { return a * s; }")) ==
        "function (Tensor _0, float _1) -> Tensor _0");
  CHECK(what(kernel("", "[](at::Tensor a) { return a; }")) == "function (Tensor _0) -> Tensor _0");
  CHECK(what(kernel("", "[](at::Tensor a) { a.zero_(); }")) == "function (Tensor _0) -> ()");
  CHECK(what(kernel("", "[](at::Tensor a) { return a + 1; }")) ==
        "function unknown: a lambda whose return type is deduced from an expression");
}

TEST_CASE("read_kernel: what it cannot read says why") {
  CHECK(what(kernel("", "g")) == "function unknown: no declaration of 'g' in this file or the headers it includes");
  // An expression it does not read: for impl, an unboxed kernel of unknown signature (a project's helper,
  // make_pytorch_shim(&f), returns a function or functor); not read as a fallback (read_cpp).
  CHECK(what(kernel("", "make_kernel(1) + 2")) == "function unknown: a kernel expression dispatchtool does not read");
  std::string deep = "f";
  for (int i = 0; i < kCppMaxDepth + 5; ++i) deep = "TORCH_FN(" + deep + ")";
  CHECK(what(kernel(kF, deep)) == fmt::format("unknown: a kernel expression nested deeper than {}", kCppMaxDepth));
}

TEST_CASE("CppTokens::args: commas inside brackets and template arguments do not split, comparisons do") {
  auto count = [](std::string_view call) {
    auto s = lex_cpp("a.cpp", call);
    REQUIRE(s.has_value());
    return CppTokens(s->tokens).args(1).size();
  };
  CHECK(count("f()") == 0);
  CHECK(count("f(a)") == 1);
  CHECK(count("f(g(a, b), {c, d}, [e, h])") == 3);
  CHECK(count("f(std::pair<int, int>{}, x)") == 2);
  CHECK(count("f(a < b, c)") == 2);  // no '>': a comparison
  CHECK(count("f(a < b, (c > d))") == 2);  // the '>' in parentheses is not the template's
}

// A kernel's name is looked up as C++ does: qualified in the scope it names,
// unqualified in the scopes around the registration (the innermost first);
// another namespace's function of the same name is never taken for it.
TEST_CASE("read_kernel: the declaration a (qualified) name finds where it is registered") {
  const std::string decls =
      "namespace helpers { at::Tensor s(const at::Tensor& x); }\n"
      "namespace kernels { at::Tensor s(const at::Tensor& x, double f); }\n"
      "struct C : public Base { static at::Tensor s(const at::Tensor& a, const at::Tensor& b); };\n"
      "at::Tensor D::s(const at::Tensor& a, int64_t n) { return a; }\n";
  CHECK(what(kernel(decls, "&kernels::s")) == "function (Tensor _0, float _1) -> Tensor _0");
  CHECK(what(kernel(decls, "&helpers::s")) == "function (Tensor _0) -> Tensor _0");
  CHECK(what(kernel(decls, "TORCH_FN(C::s)")) == "function (Tensor _0, Tensor _1) -> Tensor _0");
  CHECK(what(kernel(decls, "&D::s")) == "function (Tensor _0, int _1) -> Tensor _0");
  CHECK(what(kernel(decls, "&outer::kernels::s")) ==
        "function unknown: no declaration of 'outer::kernels::s' visible where it is registered (only in other "
        "namespaces or classes)");
  CHECK(what(kernel(decls, "&s")) ==
        "function unknown: no declaration of 's' visible where it is registered (only in other namespaces or "
        "classes)");
  // Unqualified inside a namespace: that namespace's own; nested: the innermost that declares it.
  CHECK(what(kernel(decls + "namespace kernels {\n", "&s")) == "function (Tensor _0, float _1) -> Tensor _0");
  CHECK(what(kernel(decls + "namespace kernels { namespace inner {\n", "&s")) ==
        "function (Tensor _0, float _1) -> Tensor _0");
  CHECK(what(kernel(decls + "namespace kernels { namespace inner {\n", "&kernels::s")) ==
        "function (Tensor _0, float _1) -> Tensor _0");
  // One declaration of an unqualified name: that one, wherever it is (a using-directive may bring it in);
  // a qualified name in another scope is another function (torch_xla's XLANativeFunctions::einsum,
  // declared in a generated header, is not tensor_methods::einsum).
  CHECK(what(kernel("namespace n { at::Tensor g(const at::Tensor& x); }\nusing namespace n;\n", "&g")) ==
        "function (Tensor _0) -> Tensor _0");
  CHECK(what(kernel("namespace n { at::Tensor g(const at::Tensor& x); }\n", "TORCH_FN(Gen::g)")) ==
        "function unknown: no declaration of 'Gen::g' visible where it is registered (only in other namespaces or "
        "classes)");
}

}  // namespace dt::test
