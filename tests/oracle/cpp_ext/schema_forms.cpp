// Schema forms of real extensions with C++ kernels, written for the schema
// oracle (oracle.torch-2.14.schema_signatures, through
// tests/oracle/cpp_reader_oracle.py): each def's schema is checked by c10
// against the schema it infers from the kernel's C++ type (a bare "Tensor!"
// is an at::Tensor&, inferred "Tensor"; "int!?" a std::optional<int64_t>),
// and the library only loads if every pair matches; then its dumps must
// equal what dispatchtool reads from this file. Keep it compiling: the test
// compiles it with the path tests/oracle/cpp_ext/schema_forms.cpp from the
// repository root.
#include <torch/library.h>
#include <ATen/ATen.h>

#include <optional>
#include <vector>

namespace {

void write_out(at::Tensor& result, const at::Tensor& input) {}
void optional_out(const at::Tensor& input, std::optional<at::Tensor> residual, std::optional<int64_t> tokens) {}
void list_out(std::vector<at::Tensor> outs, at::Tensor& idx) {}
at::Tensor& returns_it(at::Tensor& out, const at::Tensor& a, double scale, int64_t group) { return out; }
void same_names(const at::Tensor& q, const at::Tensor& q2) {}
void by_name(const at::Tensor& x, at::ScalarType dtype, bool flag, c10::string_view backend) {}
std::vector<at::Tensor> list_alias(at::TensorList handles) { return {}; }

}  // namespace

TORCH_LIBRARY(dtschema, m) {
  m.def("silu_and_mul(Tensor! result, Tensor input) -> ()");
  m.def("fused(Tensor input, Tensor!? residual, int!? tokens) -> ()");
  m.def("lists(Tensor![] outs, Tensor !idx)->()");
  m.def("scaled(Tensor(a0!) out, Tensor(a1) a, float scale=1, int group = -1) -> Tensor(a0!)");
  m.def("dup(Tensor q, Tensor q) -> ()");
  m.def("named(Tensor x, ScalarType dtype=bfloat16, bool flag = False, str backend = 'cutlass') -> ()");
  m.def("handles(Tensor[](b!) handles) -> Tensor[](b)");
}

TORCH_LIBRARY_IMPL(dtschema, CPU, m) {
  m.impl("silu_and_mul", &write_out);
  m.impl("fused", &optional_out);
  m.impl("lists", &list_out);
  m.impl("scaled", &returns_it);
  m.impl("dup", &same_names);
  m.impl("named", &by_name);
  m.impl("handles", &list_alias);
}
