// A CUDA extension's registrations, in the shapes the large CUDA projects
// write them (written for this test, no project's code): the library blocks
// behind the project's own expanding macros, TORCH_EXTENSION_NAME as the
// namespace, bare write markers in schemas, the three-argument impl with each
// spelling of the CUDA key, a block that only CUDA builds (not ROCm) compile,
// CUDA kernels in TORCH_LIBRARY_IMPL blocks, a Meta kernel, and a CUDA kernel
// of PyTorch's own operator overridden. Compiled with nvcc
// (-DTORCH_EXTENSION_NAME=cuda_ext -UUSE_ROCM) and loaded into a real CUDA
// build of torch by tests/oracle/cpp_reader_oracle.py, with its Python half
// cuda_forms_ops.py; the dumps are recorded by tests/oracle/record_cuda.sh.
#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/all.h>
#include <torch/library.h>

#define CUDA_EXT_CONCAT_(A, B) A##B
#define CUDA_EXT_LIBRARY(NAME, MODULE) TORCH_LIBRARY(NAME, MODULE)
#define CUDA_EXT_LIBRARY_IMPL(NAME, DEVICE, MODULE) TORCH_LIBRARY_IMPL(NAME, DEVICE, MODULE)

namespace {

__global__ void scale_kernel(float* out, const float* in, float a, int64_t n) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a * in[i];
}

void launch_scale(at::Tensor& out, const at::Tensor& x, double a) {
  const int64_t n = x.numel();
  if (n == 0) return;
  const int threads = 256;
  const int blocks = static_cast<int>((n + threads - 1) / threads);
  scale_kernel<<<blocks, threads, 0, c10::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), x.data_ptr<float>(), static_cast<float>(a), n);
}

at::Tensor scale_cuda(const at::Tensor& x, double a) {
  at::Tensor out = at::empty_like(x);
  launch_scale(out, x.contiguous(), a);
  return out;
}

void scale_out_cuda(at::Tensor& out, const at::Tensor& x, double a) { launch_scale(out, x.contiguous(), a); }

at::Tensor scale_meta(const at::Tensor& x, double a) { return at::empty_like(x); }

at::Tensor rows_cuda(const at::Tensor& x) { return x.sum(1); }

void fill_pair(at::Tensor& a, at::Tensor& b, double v) {
  a.fill_(v);
  b.fill_(v);
}

at::Tensor fast_only(const at::Tensor& x) { return x.clone(); }

at::Tensor my_sinc(const at::Tensor& x) { return at::sin(x) / x; }

}  // namespace

CUDA_EXT_LIBRARY(TORCH_EXTENSION_NAME, ops) {
  ops.def("scale(Tensor x, float a) -> Tensor");
  ops.impl("scale", torch::kCUDA, &scale_cuda);
  ops.impl("scale", c10::DispatchKey::Meta, &scale_meta);
  ops.def("scale_out(Tensor! out, Tensor x, float a) -> ()");
  ops.impl("scale_out", c10::kCUDA, &scale_out_cuda);
  ops.def("rows(Tensor x) -> Tensor");
  ops.def("fill_pair(Tensor! a, Tensor! b, float v) -> ()");
  ops.impl("fill_pair", c10::DeviceType::CUDA, TORCH_FN(fill_pair));
#ifndef USE_ROCM
  ops.def("fast_only(Tensor x) -> Tensor");
  ops.impl("fast_only", at::kCUDA, &fast_only);
#else
  ops.def("rocm_only(Tensor x) -> Tensor");
#endif
}

CUDA_EXT_LIBRARY_IMPL(TORCH_EXTENSION_NAME, CUDA, m) {
  m.impl("rows", &rows_cuda);
}

// PyTorch's own CUDA kernel of sinc, replaced (torch warns that it overrides it).
TORCH_LIBRARY_IMPL(aten, CUDA, m) {
  m.impl("sinc", &my_sinc);
}
