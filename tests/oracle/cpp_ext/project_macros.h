// A project's own registration macros, in the shapes extensions write them
// (the names are this test's; the shapes are those of vLLM's, IPEX's,
// torchao's and torch_xla's): read by tests/oracle/cpp_ext/preprocessor_forms.cpp.
#pragma once

#include <ATen/autocast_mode.h>
#include <torch/all.h>  // torch::kCPU
#include <torch/library.h>

// The namespace goes through one more macro first, so that a name given
// with -D (TORCH_EXTENSION_NAME) expands in every release's TORCH_LIBRARY.
#define PROJ_LIBRARY(NAME, MODULE) TORCH_LIBRARY(NAME, MODULE)
#define PROJ_LIBRARY_IMPL(NAME, DEVICE, MODULE) TORCH_LIBRARY_IMPL(NAME, DEVICE, MODULE)
#define PROJ_FRAGMENT(ns, m) TORCH_LIBRARY_FRAGMENT(ns, m)

// A def and its CPU kernel per bit width: the name made with # and
// adjacent literals, the kernel a template's specialization.
#define PROJ_DEFINE_BITS(n)                                 \
  m.def("pack_" #n "bit(Tensor x, int group) -> Tensor");   \
  m.impl("pack_" #n "bit", torch::kCPU, &pack_bits<n>);

// Autocast over PyTorch's own KERNEL macro, for one device.
#define PROJ_AUTOCAST(op, policy) KERNEL(c10::DeviceType::CPU, op, policy)
#define PROJ_AUTOCAST2(op, overload, policy) KERNEL(c10::DeviceType::CPU, op, overload, policy)
