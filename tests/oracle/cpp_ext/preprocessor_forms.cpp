// Registrations behind a project's macros and preprocessor conditions, and
// the three-argument impl with every way C++ spells a key. Compiled (and
// read) with -DTORCH_EXTENSION_NAME=proj_ext -DWITH_EXTRA -DEXTRA_LEVEL=1 -UUSE_ROCM -UNOT_GIVEN
// by tests/oracle/cpp_reader_oracle.py.
#include "project_macros.h"

template <int Bits>
at::Tensor pack_bits(const at::Tensor& x, int64_t group) {
  return x;
}
template <bool kIsMeta = false>
at::Tensor fused(const at::Tensor& x, const at::Tensor& y) {
  return x;
}
at::Tensor scale(const at::Tensor& x, double s) { return x; }

PROJ_LIBRARY(TORCH_EXTENSION_NAME, ops) {
  ops.def("scale(Tensor x, float s) -> Tensor");
  ops.impl("scale", torch::kCPU, &scale);
  ops.impl("scale", c10::DispatchKey::Meta, TORCH_FN(scale));
  ops.impl("scale", c10::kCUDA, &scale);
  ops.def("fused(Tensor x, Tensor y) -> Tensor");
  ops.impl("fused", at::kCPU, TORCH_FN(fused<false>));
  ops.impl("fused", c10::DeviceType::Meta, &fused<true>);
  ops.impl("fused", c10::DispatchKey::AutogradCPU, TORCH_FN((fused<>)));
#ifndef USE_ROCM
  ops.def("not_rocm(Tensor x, float s) -> Tensor");
#else
  ops.def("rocm_only(Tensor x) -> Tensor");
#endif
#if defined(WITH_EXTRA) && EXTRA_LEVEL >= 2
  ops.def("extra(Tensor x, float s) -> Tensor");
#elif defined(WITH_EXTRA)
  ops.def("extra_lite(Tensor x, float s) -> Tensor");
  ops.impl("extra_lite", torch::kCPU, &scale);
#endif
#ifdef NOT_GIVEN
  ops.def("never(Tensor x) -> Tensor");
#endif
}

PROJ_FRAGMENT(TORCH_EXTENSION_NAME, m) {
  PROJ_DEFINE_BITS(2)
  PROJ_DEFINE_BITS(4)
}

PROJ_LIBRARY_IMPL(TORCH_EXTENSION_NAME, CompositeExplicitAutograd, m) {
  m.impl("not_rocm", &scale);
}

// Autocast on PyTorch's own operators, through the release's KERNEL macros.
TORCH_LIBRARY_IMPL(aten, AutocastCPU, m) {
  PROJ_AUTOCAST(sinc, fp32)
  PROJ_AUTOCAST2(xlogy, Tensor, fp32)
  KERNEL_CPU(logit, fp32)
}
