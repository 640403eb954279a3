// Kernels made by a project's helper (sglang's make_pytorch_shim(&mha_fwd)
// shape, written for this test): the reader does not read the helper, so it
// takes what it returns for an unboxed kernel whose C++ signature it does not
// know (warned: --unknown-signature); the dumps must agree but for the
// inferred schema, which _dispatch_dump prints and the tool cannot know.
#include <torch/all.h>
#include <torch/library.h>

#include <vector>

namespace {

at::Tensor scale_cpu(const at::Tensor& x, double s) { return x * s; }
std::vector<at::Tensor> split_cpu(const at::Tensor& x, int64_t n) { return x.chunk(n); }

// Returns the function it is given.
template <typename F>
F passthrough(F f) {
  return f;
}

// Returns a functor (a lambda) that calls it.
template <typename R, typename... A>
auto wrap(R (*f)(A...)) {
  return [f](A... a) -> R { return f(a...); };
}

}  // namespace

TORCH_LIBRARY(dt_helper, m) {
  m.def("scale(Tensor x, float s) -> Tensor");
  m.def("split(Tensor x, int n) -> Tensor[]");
  m.impl("scale", torch::kCPU, passthrough(&scale_cpu));
  m.impl("split", torch::kCPU, wrap(&split_cpu));
}

TORCH_LIBRARY_IMPL(dt_helper, Meta, m) {
  m.impl("scale", passthrough(&scale_cpu));
}
