// What each dispatch key means (key_meanings.hpp).
#include "render/key_meanings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace dt {

namespace {

// Functionality keys and alias keys, by name: what a kernel there is for.
constexpr std::pair<std::string_view, std::string_view> kProse[] = {
    {"Undefined", "no key at all: a call whose arguments carry no key, served by a catch-all"},
    {"FPGA", "an FPGA backend (dense tensors; no per-backend keys)"},
    {"MAIA", "the MAIA backend (before it became a per-backend key)"},
    {"Vulkan", "Vulkan tensors (mobile GPU)"},
    {"Metal", "Metal tensors (Apple GPU, mobile)"},
    {"ORT", "ONNX Runtime tensors (an out-of-tree backend)"},
    {"CustomRNGKeyId", "tensors made with a custom random number generator"},
    {"MkldnnCPU", "oneDNN (MKL-DNN) layout tensors on the CPU"},
    {"SparseCsrCPU", "sparse compressed (CSR, CSC, BSR, BSC) tensors on the CPU"},
    {"SparseCsrCUDA", "sparse compressed (CSR, CSC, BSR, BSC) tensors on CUDA"},
    {"BackendSelect", "picks the backend of a call with no tensor argument (factories: the device= argument)"},
    {"Python", "tensor subclasses with __torch_dispatch__, and active TorchDispatchModes"},
    {"Fake", "FakeTensor (shapes only, no data; torch.compile's tracing)"},
    {"FuncTorchDynamicLayerBackMode", "functorch's transforms (vmap, grad): the back of a transform layer"},
    {"Functionalize", "functionalization: rewrites mutations and views into out-of-place operators"},
    {"Named", "named tensors (names= dimensions)"},
    {"Conjugate", "tensors with a lazy complex conjugation bit (conj())"},
    {"Negative", "tensors with a lazy negation bit"},
    {"ZeroTensor", "efficient all-zero tensors (autograd's zero gradients)"},
    {"ADInplaceOrView", "bumps version counters of in-place operators and sets up views (for autograd)"},
    {"AutogradOther",
     "autograd for tensors of backends without an autograd key of their own (those whose line here says "
     "\"autograd key: AutogradOther\")"},
    {"AutogradNestedTensor", "autograd for nested tensors"},
    {"Tracer", "torch.jit.trace: records the call into a graph"},
    {"AutocastCPU", "torch.autocast(\"cpu\"): casts the inputs to the lower precision, then redispatches"},
    {"AutocastCUDA", "torch.autocast(\"cuda\"): casts the inputs to the lower precision, then redispatches"},
    {"AutocastXPU", "torch.autocast(\"xpu\"): casts the inputs to the lower precision, then redispatches"},
    {"AutocastIPU", "torch.autocast(\"ipu\"): casts the inputs to the lower precision, then redispatches"},
    {"AutocastHPU", "torch.autocast(\"hpu\"): casts the inputs to the lower precision, then redispatches"},
    {"AutocastXLA", "torch.autocast(\"xla\"): casts the inputs to the lower precision, then redispatches"},
    {"AutocastMPS", "torch.autocast(\"mps\"): casts the inputs to the lower precision, then redispatches"},
    {"AutocastMTIA", "torch.autocast(\"mtia\"): casts the inputs to the lower precision, then redispatches"},
    {"AutocastMAIA", "torch.autocast(\"maia\"): casts the inputs to the lower precision, then redispatches"},
    {"AutocastPrivateUse1",
     "torch.autocast on the PrivateUse1 backend: casts the inputs to the lower precision, then redispatches"},
    {"FuncTorchBatched", "functorch's vmap: batching rules over a batched tensor"},
    {"BatchedNestedTensor", "vmap over nested tensors"},
    {"FuncTorchVmapMode", "functorch's vmap: randomness handling inside vmap"},
    {"Batched", "the legacy vmap (torch._vmap_internals)"},
    {"VmapMode", "the legacy vmap's mode (randomness inside it)"},
    {"FuncTorchGradWrapper", "functorch's grad transform: wrapped tensors"},
    {"DeferredInit", "torchdistx's deferred initialisation (fake construction, replayed later)"},
    {"PythonTLSSnapshot", "snapshots Python's thread-local state on entry (for Python modes)"},
    {"FuncTorchDynamicLayerFrontMode", "functorch's transforms: the front of a transform layer (entry)"},
    {"TESTING_ONLY_GenericWrapper", "PyTorch's own tests only"},
    {"TESTING_ONLY_GenericMode", "PyTorch's own tests only"},
    {"PreDispatch", "torch.export's pre-dispatch tracing (above autograd)"},
    {"PythonDispatcher", "torch._C._EnablePythonDispatcher: the whole dispatch done in Python"},
    // Alias keys: a kernel registered there fills the rows listed after it.
    {"Autograd", "a kernel here is the autograd kernel of every backend (all Autograd<Backend> rows)"},
    {"CompositeImplicitAutograd",
     "a decomposition into other operators, used for every backend and for autograd (formerly Math); "
     "skipped on a backend with a kernel of its own"},
    {"FuncTorchBatchedDecomposition", "a decomposition used under vmap (FuncTorchBatched)"},
    {"CompositeImplicitAutogradNestedTensor", "CompositeImplicitAutograd for nested tensors"},
    {"CompositeExplicitAutograd",
     "one kernel for every backend (formerly DefaultBackend), with no autograd of its own: autograd needs "
     "an Autograd kernel"},
    {"CompositeExplicitAutogradNonFunctional",
     "CompositeExplicitAutograd for kernels that mutate or view, not for XLA and Lazy (functional backends)"},
};

// Per-backend building blocks: what a kernel on "<Block><Backend>" is for.
constexpr std::pair<std::string_view, std::string_view> kBlocks[] = {
    {"Dense", "ordinary (strided) tensors on {}"},
    {"Quantized", "quantized tensors on {}"},
    {"Sparse", "sparse COO tensors on {}"},
    {"SparseCsr", "sparse compressed (CSR, CSC, BSR, BSC) tensors on {}"},
    {"NestedTensor", "nested tensors on {}"},
    {"AutogradFunctionality", "autograd for {} tensors: records the backward, then redispatches below autograd"},
};

std::string_view block_of(const Profile& p, KeyId k) {
  for (const auto& [block, text] : kBlocks) {
    const auto b = p.find(block);
    if (!b) continue;
    const auto members = p.building_block_members(*b);
    if (std::find(members.begin(), members.end(), k) != members.end()) return block;
  }
  return {};
}

std::string meaning_of(const Registry& reg, KeyId k) {
  const Profile& p = reg.profile();
  const KeyInfo& info = p.key(k);
  const std::string_view block = info.kind == KeyKind::PerBackend ? block_of(p, k) : std::string_view{};
  if (block.empty()) {
    std::string text = key_meaning_prose(info.name);
    if (text.empty()) text = "(no description)";
    if (info.kind == KeyKind::Alias)
      text += fmt::format("; covers {} rows", p.alias_members(k).size());
    else if (p.is_backend_dispatch_key(k))
      text += "; autograd key: " + p.display_name(p.autograd_key_for_backend_of(k), reg.privateuse1_name);
    return text;
  }
  std::string backend = p.backends().at(static_cast<std::size_t>(info.backend));
  if (backend == "PrivateUse1" && !reg.privateuse1_name.empty()) backend = reg.privateuse1_name;
  std::string text;
  for (const auto& [b, t] : kBlocks)
    if (b == block) text = fmt::format(fmt::runtime(t), backend);
  if (block == "AutogradFunctionality") return text;
  if (const KeyId ag = p.autograd_key_for_backend_of(k); ag != kUndefined)
    text += "; autograd key: " + p.display_name(ag, reg.privateuse1_name);
  if (block == "Dense")
    for (const auto& [index, key] : p.autocast_keys())
      if (index == info.backend) text += "; autocast key: " + p.display_name(key, reg.privateuse1_name);
  return text;
}

}  // namespace

std::string key_meaning_prose(std::string_view name) {
  for (const auto& [n, text] : kProse)
    if (n == name) return std::string(text);
  return {};
}

void render_key_meanings(const Registry& reg, std::string& out) {
  const Profile& p = reg.profile();
  std::size_t width = 3;
  for (KeyId k : p.runtime_keys()) width = std::max(width, p.display_name(k, reg.privateuse1_name).size());
  for (KeyId k : p.alias_keys()) width = std::max(width, p.display_name(k, reg.privateuse1_name).size());
  out += fmt::format("what each key is for ({}), runtime keys in table order (lowest priority first):\n", p.name());
  for (KeyId k : p.runtime_keys())
    out += fmt::format("  {:<{}}  {}\n", p.display_name(k, reg.privateuse1_name), width, meaning_of(reg, k));
  out += "alias keys (registrable, never a row: a kernel there fills the rows they cover):\n";
  for (KeyId k : p.alias_keys())
    out += fmt::format("  {:<{}}  {}\n", p.display_name(k, reg.privateuse1_name), width, meaning_of(reg, k));
}

}  // namespace dt
