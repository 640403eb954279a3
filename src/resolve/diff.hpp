// What a change does to the dispatch tables (dispatchtool diff): two
// registration sets -- the same files under two profiles, or two sets of
// files under one -- compared operator by operator: operators added and
// removed, schema changes, and every runtime key whose resolved entry changed
// (kernel, provenance, source key, fallthrough-ness, raising, ambiguity).
// With PyTorch's own operators (the profile's library) the whole registry is
// compared: an operator the files touch on one side only is still there on
// the other. Registrations of the inputs' kernels are compared too, for what
// the table cannot show (a typed kernel become boxed-only, a shadowed alias
// kernel changed). A kernel text that only says where it was registered
// ("registered at FILE:LINE", or PyTorch's own whose files and lines move
// between releases) is not a change when only that text differs: a moved
// registration (KeyChange in OpDiff::moved, `diff --locations`).
#pragma once

#include <string>
#include <vector>

#include "resolve/resolver.hpp"

namespace dt {

// One side's entry for a key, as the raw table shows it.
struct EntryFacts {
  bool key_exists = true;  // false: this side's profile has no such runtime key
  bool valid = false;      // false: missing (a call raises NotImplementedError)
  std::string kernel;      // debug text (the raw table's kernel column)
  std::string provenance;  // "kernel", "math kernel", ... (to_string(Provenance))
  std::string source;      // the key the kernel is registered on
  bool fallthrough = false;
  // PyTorch's own backend fallback: compared by the file it is registered in
  // ("VariableFallbackKernel.cpp"), since the profiles' debug texts differ in
  // their source prefix and line ("./aten/...:39" vs "<src>/aten/...:<n>").
  std::string core_fallback_file;
  // The kernel text only says where it was registered: the default
  // "registered at FILE:LINE" of an unnamed kernel or fallback of the files,
  // or any "registered at ..." text of PyTorch's own kernels (its generated
  // files are sharded differently from release to release).
  bool located = false;
  bool raises = false;  // a backend fallback declared as raising ([[fallback]] raises = true)
};
// Equal as far as dispatch goes: existence, kernel (PyTorch's fallbacks by
// file; two located texts are the same kernel), provenance, source key,
// fallthrough-ness and raising.
bool same_entry(const EntryFacts& a, const EntryFacts& b);

struct KeyChange {
  std::string key;
  std::size_t index = 0;  // position in the compared key order (runs of adjacent keys)
  EntryFacts old_entry, new_entry;
};

// One side's active registration on a key (alias keys included), as
// _dispatch_dump shows it: "KERNEL :: SIGNATURE [ boxed unboxed ]".
struct RegistrationFacts {
  bool present = false;
  std::string kernel;     // debug text
  std::string signature;  // the inferred schema; empty: "(none)"
  bool fallthrough = false;
  bool boxed_only = false;  // "[ boxed ]": no unboxed entry point (a Python kernel, a boxed C++ function)
  bool located = false;     // the text only says where it was registered (EntryFacts::located)
};
// Equal as _dispatch_dump would print them, a located text matching any located text.
bool same_registration(const RegistrationFacts& a, const RegistrationFacts& b);

// A registration that changed in a way the table does not show: its kind (a
// typed kernel became boxed-only, or the reverse), its signature, or a kernel
// on a key no table row of either side resolves to (an alias kernel shadowed).
struct RegistrationChange {
  std::string key;
  RegistrationFacts old_reg, new_reg;
};

enum class OpChangeKind : std::uint8_t { Added, Removed, Changed };
const char* to_string(OpChangeKind k);

struct OpDiff {
  std::string name;
  OpChangeKind kind = OpChangeKind::Changed;
  // The printed schema on each side; empty when the side has no def (an
  // operator with kernels only) or does not have the operator.
  std::string old_schema, new_schema;
  std::vector<KeyChange> keys;  // Changed: in table order (the old side's, then keys only the new side has)
  std::vector<KeyChange> moved;  // same entry, only its "registered at" text differs (DiffFilter::locations)
  std::size_t moved_count = 0;   // how many keys moved (listed in `moved` or not)
  // Changed registrations of the inputs' kernels (PyTorch's own are compared
  // through the table only), in key order.
  std::vector<RegistrationChange> registrations;
  // Whether anything but moves differs.
  [[nodiscard]] bool differs() const {
    return kind != OpChangeKind::Changed || !keys.empty() || old_schema != new_schema || !registrations.empty();
  }
};

struct TableDiff {
  std::size_t compared = 0;  // operators on either side
  // Runtime keys only one side's profile has (diff between releases): said
  // once here, never a change of any operator.
  std::vector<std::string> old_only_keys, new_only_keys;
  std::vector<OpDiff> ops;   // operators that differ or only moved (OpDiff::differs), by qualified name
};

struct DiffSide {
  const Resolver* resolver = nullptr;
  std::vector<const Operator*> ops;  // the operators of this side
};

// EntryFacts of one resolved entry.
// own_libraries: how many of the registry's libraries are PyTorch's own (the
// profile library's blocks come first).
EntryFacts facts_of(const Profile& p, const Entry& e, std::size_t own_libraries = 0);

struct DiffFilter {
  std::vector<std::string> keys;  // only these runtime keys (by name); empty: every key
  bool locations = false;         // keep the moved entries (OpDiff::moved), not only their count
};

TableDiff diff_tables(const DiffSide& old_side, const DiffSide& new_side, const DiffFilter& filter = {});

}  // namespace dt
