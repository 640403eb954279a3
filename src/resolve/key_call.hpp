// "What does a call on key K of operator O do?": the one answer table,
// explain, lint, trace and html give. A call whose highest dispatch key is K
// looks K up in the operator's *runtime* dispatch table (runtime_table.hpp),
// which can be stale where _dispatch_dump_table (which computes every row
// afresh) is not: then every command says so with the same words
// (stale_note).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "resolve/runtime_table.hpp"

namespace dt {

enum class KeyCall : std::uint8_t {
  Runs,             // a kernel or a backend fallback runs
  FallsThrough,     // a fallthrough: K is masked out, the call continues at the next key below
  Missing,          // no kernel, no fallback: NotImplementedError "Could not run ..."
  Ambiguous,        // ambiguous_autogradother_kernel raises
  InvariantAssert,  // missing, and OperatorEntry::checkInvariants asserts first (a visibly stale table)
  FallbackRaises,   // PyTorch's own backend fallback raises (Meta in 2.x, Named)
};
const char* to_string(KeyCall c);

struct KeyAnswer {
  KeyId key = kUndefined;
  std::size_t slot = 0;
  KeyCall call = KeyCall::Missing;
  Entry entry;   // the runtime entry: what a call runs
  Entry dumped;  // what _dispatch_dump_table prints
  bool stale = false;
  [[nodiscard]] bool runs() const { return call == KeyCall::Runs; }
};

// The answer for the key in table slot `slot`.
KeyAnswer answer_key(const RuntimeTable& t, std::size_t slot);

// The sentence every command prints for a stale row ("" when not stale), keys
// named as the files name them (a renamed PrivateUse1 by its new name).
std::string stale_note(const Profile& p, std::string_view privateuse1, const KeyAnswer& a);

// An entry in words: "missing (no kernel, no fallback)", "DEBUG [math kernel via CompositeImplicitAutograd]".
std::string entry_words(const Profile& p, const Entry& e);

// Whether a row of the operator's runtime table can differ from the dumps:
// the inputs registered a kernel of it or a backend fallback (PyTorch's own
// operators alone are never stale).
bool may_be_stale(const Registry& reg, const Operator& op);

// The runtime tables of one registry's operators, built on first use.
class RuntimeTables {
 public:
  explicit RuntimeTables(const Resolver& r);
  RuntimeTables(const RuntimeTables&) = delete;
  RuntimeTables& operator=(const RuntimeTables&) = delete;
  RuntimeTables(RuntimeTables&&) = delete;
  RuntimeTables& operator=(RuntimeTables&&) = delete;
  ~RuntimeTables();

  [[nodiscard]] const KeysetAlgebra& keysets() const { return *ks_; }
  // The operator's runtime table; valid until the next call of of() or answer().
  [[nodiscard]] const RuntimeTable& of(const Operator& op) const;
  // `key` must be a runtime key (one with a table row).
  [[nodiscard]] KeyAnswer answer(const Operator& op, KeyId key) const;

 private:
  const Resolver* r_;
  std::unique_ptr<KeysetAlgebra> ks_;
  std::shared_ptr<const RuntimeStart> start_;  // what every table starts from (runtime_table.hpp)
  static constexpr std::size_t kCached = 64;  // tables kept (of)
  mutable std::map<const Operator*, std::unique_ptr<RuntimeTable>> tables_;
};

}  // namespace dt
