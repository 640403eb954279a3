// Registration shapes found on real projects' trees (IPEX, vLLM, sglang), in
// this test's own words: read by dispatchtool, compared with torch 2.14 by
// tests/oracle/cpp_reader_oracle.py (oracle.torch-2.14.cpp_reader_project).
// A file of its own: the sources recorded on a CUDA build (record_cuda.sh)
// keep their lines.
#include <torch/csrc/jit/runtime/custom_operator.h>
#include <torch/library.h>

#include <tuple>
#include <vector>

at::Tensor scale(const at::Tensor& x, double s) { return x; }

// Lists of lists and tuples as arguments (vLLM's register_graph_buffers,
// IPEX's rpn_nms): int[][], float[][], (int, int)[], (int, float).
at::Tensor nested_lists(const at::Tensor& x, const std::vector<std::vector<int64_t>>& o,
                        c10::List<c10::List<double>> l) {
  return x;
}
at::Tensor tuples(const at::Tensor& x, const std::vector<std::tuple<int64_t, int64_t>>& p,
                  std::tuple<int64_t, double> q) {
  return x;
}

TORCH_LIBRARY(dtproj, m) {
  m.def("nested_lists", &nested_lists);
  m.def("tuples", &tuples);
}

// A block macro that writes out what TORCH_LIBRARY_IMPL / _FRAGMENT expand
// to (the shape of IPEX's IPEX_TORCH_LIBRARY_IMPL: a wrapper function, then
// the static initializer and the block's function), the uid given once.
#define PROJ_RAW_IMPL(ns, k, m) _PROJ_RAW_IMPL(ns, k, m, C10_UID)
#define _PROJ_RAW_IMPL(ns, k, m, uid)                                                             \
  static void C10_CONCATENATE(PROJ_RAW_IMPL_init_##ns##_##k##_, uid)(torch::Library&);          \
  static void C10_CONCATENATE(PROJ_RAW_IMPL_wrap_##ns##_##k##_, uid)(torch::Library & lib) {    \
    C10_CONCATENATE(PROJ_RAW_IMPL_init_##ns##_##k##_, uid)(lib);                                 \
  }                                                                                              \
  static const torch::detail::TorchLibraryInit C10_CONCATENATE(PROJ_RAW_IMPL_static_##ns##_##k##_, \
                                                               uid)(                              \
      torch::Library::IMPL, &C10_CONCATENATE(PROJ_RAW_IMPL_init_##ns##_##k##_, uid), #ns,         \
      std::make_optional(c10::DispatchKey::k), __FILE__, __LINE__);                                \
  void C10_CONCATENATE(PROJ_RAW_IMPL_init_##ns##_##k##_, uid)(torch::Library & m)
#define PROJ_RAW_FRAGMENT(ns, m) _PROJ_RAW_FRAGMENT(ns, m, C10_UID)
#define _PROJ_RAW_FRAGMENT(ns, m, uid)                                                              \
  static void C10_CONCATENATE(PROJ_RAW_FRAGMENT_init_##ns##_, uid)(torch::Library&);                \
  static const torch::detail::TorchLibraryInit C10_CONCATENATE(PROJ_RAW_FRAGMENT_static_##ns##_, uid)( \
      torch::Library::FRAGMENT, &C10_CONCATENATE(PROJ_RAW_FRAGMENT_init_##ns##_, uid), #ns, std::nullopt, \
      __FILE__, __LINE__);                                                                            \
  void C10_CONCATENATE(PROJ_RAW_FRAGMENT_init_##ns##_, uid)(torch::Library & m)

PROJ_RAW_FRAGMENT(dtproj, m) {
  m.def("raw_scale(Tensor x, float s) -> Tensor");
}

PROJ_RAW_IMPL(dtproj, CPU, m) {
  m.impl("raw_scale", &scale);
}

PROJ_RAW_IMPL(dtproj, AutogradCPU, lib2) {
  lib2.impl("raw_scale", &scale);
}

// TorchScript's own operator table, not the dispatcher's: nothing of
// legacyjit:: is in _dispatch_get_all_op_names (the oracle compares every
// operator of each namespace the sources name), and the tool reads nothing.
static torch::jit::RegisterOperators jit_ops({torch::jit::Operator(
    "legacyjit::fused(Tensor a) -> Tensor", [](torch::jit::Stack& stack) {}, c10::AliasAnalysisKind::FROM_SCHEMA)});
