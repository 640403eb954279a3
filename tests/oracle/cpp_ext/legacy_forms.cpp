// c10's legacy registration API, torch::RegisterOperators, in each form
// extensions still use (IPEX, older ones): read by dispatchtool, compared
// with torch 2.14 by tests/oracle/cpp_reader_oracle.py.
#include <torch/library.h>
#include <ATen/core/op_registration/op_registration.h>

at::Tensor one(const at::Tensor& x) { return x; }
at::Tensor with_int(const at::Tensor& x, int64_t n) { return x; }

static auto by_key = torch::RegisterOperators().op(
    "legacy::by_key(Tensor x) -> Tensor",
    torch::RegisterOperators::options().kernel<decltype(one), &one>(c10::DispatchKey::CPU));
static auto catch_all = c10::RegisterOperators().op("legacy::catch_all(Tensor x) -> Tensor", &one);
static auto by_options = torch::RegisterOperators().op(
    torch::RegisterOperators::options().schema("legacy::by_options(Tensor x) -> Tensor").catchAllKernel<decltype(one), &one>());
static auto inferred = torch::RegisterOperators("legacy::inferred", &with_int);
static auto two_keys = torch::RegisterOperators().op(
    "legacy::two_keys(Tensor x) -> Tensor",
    torch::RegisterOperators::options()
        .kernel<decltype(one), &one>(c10::DispatchKey::CPU)
        .kernel<decltype(one), &one>(c10::DispatchKey::CUDA)
        .aliasAnalysis(c10::AliasAnalysisKind::PURE_FUNCTION));
static auto inferred_key = torch::RegisterOperators().op(
    "legacy::inferred_key", torch::RegisterOperators::options().kernel<decltype(with_int), &with_int>(c10::DispatchKey::CPU));
static auto lambda = torch::RegisterOperators().op("legacy::lambda(Tensor x) -> Tensor",
                                                   [](const at::Tensor& x) { return x; });
static auto chained = torch::RegisterOperators()
                          .op("legacy::first(Tensor x) -> Tensor", &one)
                          .op("legacy::second(Tensor x, int n) -> Tensor", &with_int);
