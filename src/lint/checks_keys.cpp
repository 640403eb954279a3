// Lint rules about the keys kernels are registered on: building-block-key
// and unparseable-key.
#include <fmt/format.h>

#include <algorithm>

#include "base/text.hpp"
#include "lint/check.hpp"

namespace dt::lint {

// ---- building-block-key ------------------------------------------------------------------------------------

namespace {

// The first two runtime keys made of a building block, quoted: "\"SparseCPU\", \"SparseCUDA\"".
std::string example_runtime_keys(const CheckContext& c, KeyId block) {
  std::vector<std::string> names;
  for (KeyId k : c.p.building_block_members(block))
    if (names.size() < 2) names.push_back(fmt::format("\"{}\"", key_name(c, k)));
  return join(names, ", ");
}

}  // namespace

void check_building_block_key(const CheckContext& c, std::vector<Finding>& out) {
  for (const Operator* op : c.ops)
    for (const auto& kk : op->kernels) {
      if (kk.kernels.empty() || c.p.key(kk.key).kind != KeyKind::BuildingBlock) continue;
      const Kernel& kern = kk.kernels.front();
      Finding f = finding_at(
          kern.where,
          fmt::format("kernel '{}' of {} is registered on the building block {}, which is not a runtime key: it "
                      "never fills a dispatch-table row, yet it counts as a backend kernel for the "
                      "CompositeImplicitAutograd rules",
                      kern.debug, op->name, key_name(c, kk.key)),
          op->name, key_name(c, kk.key));
      f.fix = fmt::format(
          "Register the kernel on the runtime keys it is meant for (e.g. keys = [{}]), or on "
          "CompositeExplicitAutograd for every backend.",
          example_runtime_keys(c, kk.key));
      out.push_back(std::move(f));
    }
  for (const Fallback& fb : c.reg.user_fallbacks()) {
    if (c.p.key(fb.key).kind != KeyKind::BuildingBlock) continue;
    Finding f = finding_at(fb.where,
                           fmt::format("backend fallback '{}' is registered on the building block {}, which is not a "
                                       "runtime key: PyTorch accepts it, but it serves no dispatch-table row",
                                       fb.debug, key_name(c, fb.key)),
                           "", key_name(c, fb.key));
    f.fix = fmt::format("Register the fallback on the runtime keys it is meant for, one fallback() each (e.g. {}).",
                        example_runtime_keys(c, fb.key));
    out.push_back(std::move(f));
  }
}

// ---- unparseable-key ------------------------------------------------------------------------------------------

void check_unparseable_key(const CheckContext& c, std::vector<Finding>& out) {
  for (const Operator* op : c.ops)
    for (const auto& kk : op->kernels) {
      if (c.p.key(kk.key).parseable) continue;
      for (const auto& kern : kk.kernels) {
        // A Python kernel: boxed-only and without an inferred schema (boxed-only
        // kernels with a signature are typed C++ SymInt kernels, e.g. torch
        // 1.13's RegisterSparseMeta.cpp registrations).
        if (!kern.boxed_only || kern.signature) continue;
        Finding f = finding_at(kern.where,
                               fmt::format("boxed-only (Python) kernel '{}' of {} is registered on {}, a key Python "
                                           "cannot name: torch.library raises \"could not parse dispatch key: {}\"",
                                           kern.debug, op->name, key_name(c, kk.key), key_name(c, kk.key)),
                               op->name, key_name(c, kk.key));
        f.fix =
            "Register it from C++ (TORCH_LIBRARY_IMPL), or on a key torch.library accepts (the alias Autograd "
            "instead of an unnamed Autograd<Backend>, the backend key instead of an unnamed Sparse/Quantized "
            "variant).";
        out.push_back(std::move(f));
      }
    }
}

}  // namespace dt::lint
