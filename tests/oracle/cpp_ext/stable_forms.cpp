// A C++ extension written for the C++ reader's oracle test: the
// STABLE_TORCH_LIBRARY forms (torch/csrc/stable/library.h), whose kernels
// are boxed functions, compiled against the release's libtorch-dev and
// loaded into the real torch (tests/oracle/cpp_reader_oracle.py).
#include <torch/csrc/stable/library.h>

#include <cstdint>

namespace {

void boxed_a(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {}
void boxed_b(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {}

}  // namespace

STABLE_TORCH_LIBRARY(dtstable, m) {
  m.def("a(Tensor x) -> Tensor");
  m.def("b(Tensor x, int n) -> Tensor");
  m.def("c(Tensor x) -> Tensor");
}

STABLE_TORCH_LIBRARY_FRAGMENT(dtstable, m) {
  m.def("d(Tensor x) -> Tensor");
}

STABLE_TORCH_LIBRARY_IMPL(dtstable, CPU, m) {
  m.impl("a", &boxed_a);
  m.impl("b", boxed_b);
}

STABLE_TORCH_LIBRARY_IMPL(dtstable, CompositeExplicitAutograd, m) {
  m.impl("c", &boxed_a);
}

STABLE_TORCH_LIBRARY_IMPL(dtstable, Meta, m) {
  m.impl("d", &boxed_b);
}
