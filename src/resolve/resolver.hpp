// computeDispatchTableEntryWithDebug (dispatcher-notes C.2): which kernel a runtime key of
// an operator resolves to, and why.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keys/profile.hpp"
#include "registry/model.hpp"

namespace dt {

enum class Provenance : std::uint8_t {
  Kernel,                  // "kernel"
  DefaultBackend,          // "default backend kernel" (CEANF or CEA)
  Nested,                  // "nested kernel"
  Math,                    // "math kernel"
  AmbiguousAutogradOther,  // "ambiguous autogradother"
  Autograd,                // "autograd kernel"
  Batched,                 // "batched kernel"
  BackendFallback,         // "backend fallback"
  Missing,                 // "missing"
};
const char* to_string(Provenance p);

struct Entry {
  Provenance why = Provenance::Missing;
  const Kernel* kernel = nullptr;      // a registered kernel (not for fallbacks/ambiguity)
  const Fallback* fallback = nullptr;  // for BackendFallback
  KeyId source = kUndefined;           // the key the kernel is registered on

  [[nodiscard]] bool valid() const { return why != Provenance::Missing; }
  [[nodiscard]] std::string_view debug() const;  // the text tables print
  [[nodiscard]] bool fallthrough() const;
};

// Why a CompositeImplicitAutograd kernel was not used for a key (for explain).
struct MathSkip {
  bool has_backend_kernel = false;     // the rule of dispatcher-notes C.2 step 2.3b
  std::vector<KeyId> backend_kernels;  // which registered keys made it true
  bool cea_present = false;
};

// One step of computeDispatchTableEntryWithDebug, recorded to explain a result.
struct TraceStep {
  const char* step;      // "1", "2.1", "2.2", "2.3a", "2.3b", "2.4", "2.5", "3"
  KeyId key;             // step 1/3: the runtime key; otherwise the alias consulted
  bool applies;          // the runtime key is covered by that alias (steps 2.x)
  const Kernel* kernel;  // the kernel registered on that key/alias, if any
  bool taken;            // this step produced the result
  std::string why;       // 2.3b: "ambiguous" or "has_backend_kernel"
};
using Trace = std::vector<TraceStep>;

class Resolver {
 public:
  // One operator prepared for computing many rows: its direct kernels by
  // table slot and its alias kernels, looked up once.
  struct OpView {
    const Operator* op = nullptr;
    std::vector<const Kernel*> direct;  // by slot
    std::vector<KeySet> registered;     // bits of every registered non-alias key
    const Kernel *ceanf = nullptr, *cea = nullptr, *nested = nullptr, *cia = nullptr, *autograd = nullptr,
                 *ftbd = nullptr;
    bool autogradother_backend = false;  // has_any(autogradother_backends)
    // Backend fallbacks by table slot in place of the registry's (replaying
    // registrations in order sees the fallbacks of a moment); null: the registry's.
    const std::vector<const Fallback*>* fallbacks = nullptr;
  };

  explicit Resolver(const Registry& reg);

  void prepare(const Operator& op, OpView& view) const;
  // The view after `kernel` became the newest kernel on `key` (a registration
  // replayed in order): what prepare() would find, in constant time. `added`:
  // `key` had no kernel before.
  void prepare_key(KeyId key, const Kernel* kernel, bool added, OpView& view) const;
  // The entry of the key in table slot `slot` (computeDispatchTableEntryWithDebug).
  // With `trace`, every step considered is recorded (for `explain`).
  [[nodiscard]] Entry compute(const OpView& view, std::size_t slot, Trace* trace = nullptr) const;

  [[nodiscard]] const Profile& profile() const { return *p_; }
  // "Key: " for the key in table slot `slot` (the start of a raw table row).
  [[nodiscard]] std::string_view row_prefix(std::size_t slot) const { return row_prefixes_[slot]; }
  [[nodiscard]] const Registry& registry() const { return *reg_; }
  // A key without a table row (alias, building block) resolves to the missing entry.
  [[nodiscard]] Entry compute(const Operator& op, KeyId k) const;
  // Every runtime key in table order (Undefined first); missing entries included.
  void compute_table(const Operator& op, std::vector<Entry>& out) const;
  // The registered non-alias keys that count as "backend kernels" for k.
  [[nodiscard]] MathSkip math_skip(const Operator& op, KeyId k) const;

 private:
  struct Slot {
    KeyId key = kUndefined;
    bool ceanf = false, cea = false, nested = false, cia = false, autograd = false, ftbd = false;
    KeySet backends_from_autograd;
  };

  const Registry* reg_;
  const Profile* p_;
  std::vector<Slot> slots_;
  std::vector<std::string> row_prefixes_;
  KeyId ceanf_, cea_, nested_, cia_, autograd_, ftbd_, autograd_other_;
};

}  // namespace dt
