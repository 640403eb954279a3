// A C++ extension written for the C++ reader's oracle test
// (tests/oracle/cpp_reader_oracle.py): every registration form the reader
// reads, compiled against the release's libtorch-dev and loaded into the real
// torch; its dumps must equal what dispatchtool reads from this file.
// Keep it compiling: the test compiles it with the path
// tests/oracle/cpp_ext/forms.cpp from the repository root.
#include <torch/custom_class.h>
#include <torch/library.h>
#include <ATen/ATen.h>

#include <tuple>
#include <vector>

namespace {

at::Tensor plain(const at::Tensor& x) { return x; }
at::Tensor with_int(const at::Tensor& x, int64_t n) { return x; }
at::Tensor with_float(at::Tensor x, double s) { return x; }
static at::Tensor with_flags(const at::Tensor& x, bool flag, const c10::Scalar& alpha) { return x; }
std::tuple<at::Tensor, at::Tensor> two(const at::Tensor& a, const at::Tensor& b) { return {a, b}; }
at::Tensor& inplace(at::Tensor& self) { return self; }
void nothing(const at::Tensor& x) {}
at::Tensor optional_list(const std::optional<at::Tensor>& x, at::IntArrayRef sizes,
                         at::TensorList ts) {
  return at::Tensor();
}
std::vector<at::Tensor> many(const at::Tensor& x, c10::string_view mode) { return {x}; }
inline at::Tensor symint(const at::Tensor& x, c10::SymInt n) { return x; }
int64_t version() { return -1; }
// Types whose schema c10 infers (getTypePtr_).
int64_t more_types(c10::SymFloat f, c10::SymBool b, c10::complex<double> z, const c10::IValue& v,
                   c10::Dict<std::string, at::Tensor> d, at::OptionalIntArrayRef o) { return 0; }
// Types through the file's own aliases (as vLLM's `using fptr_t = int64_t;`).
using dt_fptr_t = int64_t;
typedef at::Tensor DtTensor;
using DtPair = std::tuple<DtTensor, dt_fptr_t>;
DtPair with_aliases(const DtTensor& x, dt_fptr_t n) { return {x, n}; }
// A redispatching kernel: c10 drops the first DispatchKeySet from the schema it infers.
at::Tensor with_keyset(c10::DispatchKeySet ks, const at::Tensor& x, int64_t n) { return x; }

// A custom class: its methods go to the class, no operator is registered.
struct Counter : torch::CustomClassHolder {
  int64_t n = 0;
  int64_t add(int64_t k) { return n += k; }
};

void boxed(const c10::OperatorHandle& op, torch::jit::Stack* stack) {}
void boxed_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  TORCH_CHECK(false, "not supported on this backend");
}

}  // namespace

TORCH_LIBRARY(dtcpp, m) {
  m.def("a(Tensor x) -> Tensor");
  m.def("b(Tensor x, int n) -> Tensor", &with_int);
  m.def("c(Tensor x, float s) -> Tensor", TORCH_FN(with_float));
  m.def("d(Tensor x, "
        "bool flag, Scalar alpha=1) -> Tensor");
  m.def(R"(e(Tensor a, Tensor b) -> (Tensor, Tensor))");
  m.def("f(Tensor(a!) self) -> Tensor(a!)");
  /* m.def("commented_out(Tensor x) -> Tensor"); */
  // m.def("commented_out2(Tensor x) -> Tensor");
  m.def("g(Tensor x) -> Tensor", [](const at::Tensor& x) { return x; });
  m.def("h(Tensor x) -> ()");
  m.def("i(Tensor? x, int[] sizes, Tensor[] ts) -> Tensor");
  m.impl("a", torch::dispatch(c10::DispatchKey::CPU, &plain));
  m.impl("a", torch::dispatch(c10::kCUDA, TORCH_FN(plain)));
  m.impl("a", torch::dispatch(at::DispatchKey::Meta, torch::CppFunction::makeFallthrough()));
  m.set_python_module("dtcpp_ops");
}

TORCH_LIBRARY_FRAGMENT(dtcpp, m) {
  m.def(torch::schema("m(Tensor x) -> Tensor", c10::AliasAnalysisKind::PURE_FUNCTION));
  m.def("n(Tensor x) -> Tensor", {at::Tag::pointwise});
  m.def("o(Tensor x) -> Tensor").impl("o", torch::dispatch(c10::DispatchKey::CPU, TORCH_FN(plain)));
  m.def("p(Tensor x, int n) -> Tensor",
        torch::dispatch(c10::DispatchKey::CompositeExplicitAutograd, &with_int));
  m.impl("n", torch::dispatch(c10::DispatchKey::Meta, [](const at::Tensor& x) { return x; }));
  m.def("j(Tensor x, str mode) -> Tensor[]");
  m.def("k(Tensor x, SymInt n) -> Tensor");
  m.def("l(Tensor x) -> Tensor");
  // A name without a schema: the schema c10 infers from the kernel (CONSERVATIVE).
  m.def("version", &version);
  m.def("q.overload", TORCH_FN(with_float));
  m.def("r", torch::dispatch(c10::DispatchKey::CPU, &two));
  m.def("s(Tensor x, int n) -> Tensor");
  m.def("t", &with_keyset);
  m.def("u", &more_types);
  m.def("v", &with_aliases);
  m.class_<Counter>("Counter").def(torch::init<>()).def("add", &Counter::add);
  auto counter = m.class_<Counter>("Counter2");
  counter.def(torch::init<>());
  counter.def("add", &Counter::add);
}

TORCH_LIBRARY_IMPL(dtcpp, CPU, m) {
  m.impl("d", &with_flags);
  m.impl("e", TORCH_FN(two));
  m.impl("f", inplace);
  m.impl("h", nothing);
  m.impl("i", &optional_list);
  m.impl("j", TORCH_FN(many));
  m.impl("k", symint);
  m.impl("l", [](const at::Tensor& x) -> at::Tensor { return x; });
  m.impl("dtcpp::c", torch::CppFunction::makeFromBoxedFunction<&boxed>());
  m.impl("s", TORCH_FN(with_keyset));
}

TORCH_LIBRARY_IMPL(dtcpp,
                   Meta, m) {
  m.impl("b", torch::CppFunction::makeFallthrough());
  m.impl("l", torch::CppFunction::makeFromBoxedFunction<boxed>());
  // A lambda without a return statement: void, "-> ()".
  m.impl("h", [](const at::Tensor& x) { TORCH_CHECK(x.defined()); });
}

TORCH_LIBRARY_IMPL(dtcpp, Autocast, m) {
  m.impl("a", torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(dtcpp, DefaultBackend, m) {
  m.impl("h", nothing);
}

TORCH_LIBRARY_IMPL(dtcpp, CatchAll, m) {
  m.impl("k", TORCH_FN(symint));
}

TORCH_LIBRARY_IMPL(dtcpp, CompositeImplicitAutograd, m) {
  m.impl("j", many);
}

TORCH_LIBRARY_IMPL(dtcpp, Autograd, m) {
  m.impl("d", torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(dtcpp, PrivateUse1_PreAutograd, m) {
  m.impl("e", two);
}

TORCH_LIBRARY_IMPL(dtcpp, AutogradCPU, m) {
  m.impl("i", torch::dispatch(c10::DispatchKey::AutogradCPU, &optional_list));
}

TORCH_LIBRARY_IMPL(_, PrivateUse2, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(_, PrivateUse3, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&boxed_fallback>());
}

TORCH_LIBRARY_IMPL(aten, PrivateUse2, m) {
  m.impl("add.Tensor", torch::CppFunction::makeFromBoxedFunction<&boxed>());
}
