// The C++ half of an extension whose Python ops module registers fakes and
// autograd formulas on the C++ operators (the shape of pytorch/extension-cpp:
// TORCH_LIBRARY defines, TORCH_LIBRARY_IMPL registers CPU kernels, and
// ops.py calls torch.library.register_fake / register_autograd by qualified
// name). Compiled and loaded by tests/oracle/cpp_reader_oracle.py, which then
// imports tests/oracle/cpp_ext/py_ops.py and compares the dumps.
#include <torch/library.h>
#include <ATen/ATen.h>

namespace {

at::Tensor mymuladd_cpu(const at::Tensor& a, const at::Tensor& b, double c) { return a * b + c; }
at::Tensor mymul_cpu(const at::Tensor& a, const at::Tensor& b) { return a * b; }
void myadd_out_cpu(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {}
at::Tensor scaled(const at::Tensor& a, double s) { return a * s; }

}  // namespace

TORCH_LIBRARY(pyr_cppext, m) {
  m.def("mymuladd(Tensor a, Tensor b, float c) -> Tensor");
  m.def("mymul(Tensor a, Tensor b) -> Tensor");
  m.def("myadd_out(Tensor a, Tensor b, Tensor(a!) out) -> ()");
  m.def("scaled(Tensor a, float s) -> Tensor");
  m.def("scaled.out(Tensor a, float s, *, Tensor(a!) out) -> Tensor(a!)");
}

TORCH_LIBRARY_IMPL(pyr_cppext, CPU, m) {
  m.impl("mymuladd", &mymuladd_cpu);
  m.impl("mymul", &mymul_cpu);
  m.impl("myadd_out", &myadd_out_cpu);
  m.impl("scaled", &scaled);
}
