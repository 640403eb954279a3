// dispatchtool coverage: for every operator, what a backend key and its
// autograd key resolve to, as one status a backend author acts on ("what must
// I still implement?").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "resolve/resolver.hpp"

namespace dt {

// How a key of an operator is served. The vocabulary is fixed (scripts match on it).
enum class CoverageStatus : std::uint8_t {
  Kernel,             // a non-fallthrough kernel registered on the key itself
  CompositeExplicit,  // CompositeExplicitAutograd(NonFunctional)
  CompositeImplicit,  // CompositeImplicitAutograd(NestedTensor); FuncTorchBatchedDecomposition
  Autograd,           // the Autograd alias kernel (autograd keys)
  Fallback,           // a backend fallback (the inputs' or PyTorch's own)
  RaisingFallback,    // a backend fallback that raises ([[fallback]] raises = true; PyTorch's Meta fallback in 2.x)
  Fallthrough,        // a fallthrough kernel or fallback: the call goes on below the key
  Ambiguous,          // ambiguous_autogradother: a call raises
  Missing,            // no entry: a call raises NotImplementedError
};
inline constexpr std::array kCoverageStatuses = {CoverageStatus::Kernel,
                                                 CoverageStatus::CompositeExplicit,
                                                 CoverageStatus::CompositeImplicit,
                                                 CoverageStatus::Autograd,
                                                 CoverageStatus::Fallback,
                                                 CoverageStatus::RaisingFallback,
                                                 CoverageStatus::Fallthrough,
                                                 CoverageStatus::Ambiguous,
                                                 CoverageStatus::Missing};
// "kernel", "composite-explicit", ... ("missing").
std::string_view to_string(CoverageStatus s);
std::optional<CoverageStatus> parse_coverage_status(std::string_view text);
CoverageStatus coverage_status(const Entry& e);
// The same, with the fallbacks that raise told apart (RaisingFallback): one
// declared so in the files, or PyTorch's own Meta fallback where the profile
// records its NotImplementedError (meta_fallback_error, from the real build).
CoverageStatus coverage_status(const Profile& p, const Entry& e, KeyId key);
// Whether a status means a call on the key raises (missing, ambiguous, raising-fallback).
bool call_raises(CoverageStatus s);

// The keys `coverage --backend NAME` reports: the backend's runtime key and
// the autograd key a tensor of that backend carries (getAutogradKeyFromBackend).
struct CoverageKeys {
  KeyId backend = kUndefined;
  KeyId autograd = kUndefined;
};
// NAME is a runtime backend key (CPU, SparseCPU, XLA, Meta, PrivateUse1 or its
// renamed name, ...). Errors name what NAME is instead (an alias, an autograd
// key, a building block) or suggest the key meant; they do not name the
// parameter (the command line's --backend, the API's backend).
Expected<CoverageKeys, Diagnostic> coverage_keys(const Registry& reg, std::string_view name);

struct CoverageRow {
  const Operator* op = nullptr;
  bool dangling = false;  // kernels for an operator nothing defines: not an operator, reported apart
  KeyId key = kUndefined;
  CoverageStatus status = CoverageStatus::Missing;
  Entry entry;
};

// One row per operator and key (backend first), operators in the order given.
std::vector<CoverageRow> compute_coverage(const Resolver& r, const std::vector<const Operator*>& ops,
                                          const CoverageKeys& keys);

// `coverage --against PROFILE`: one operator's statuses on the backend key
// (index 0) and its autograd key (1) under two releases; nullopt where the
// release has no such operator (dangling impls left out).
struct CoverageChange {
  std::string op;
  std::array<std::optional<CoverageStatus>, 2> old_status, new_status;
};
// The operators (byte order) whose status changed on either key between the
// two sides' rows (compute_coverage, backend key before autograd key).
std::vector<CoverageChange> compare_coverage(const std::vector<CoverageRow>& old_rows,
                                             const std::vector<CoverageRow>& new_rows);

}  // namespace dt
