// What a change does to the dispatch tables (dispatchtool diff): two
// registration sets -- the same files under two profiles, or two sets of
// files under one -- compared operator by operator: operators added and
// removed, schema changes, and every runtime key whose resolved entry changed
// (kernel, provenance, source key, fallthrough-ness, ambiguity).
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
};
// Equal as far as dispatch goes: existence, kernel (PyTorch's fallbacks by
// file), provenance, source key and fallthrough-ness.
bool same_entry(const EntryFacts& a, const EntryFacts& b);

struct KeyChange {
  std::string key;
  std::size_t index = 0;  // position in the compared key order (runs of adjacent keys)
  EntryFacts old_entry, new_entry;
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
};

struct TableDiff {
  std::size_t compared = 0;  // operators on either side
  std::vector<OpDiff> ops;   // only operators that differ, by qualified name
};

struct DiffSide {
  const Resolver* resolver = nullptr;
  std::vector<const Operator*> ops;  // the operators of this side
};

// EntryFacts of one resolved entry.
EntryFacts facts_of(const Profile& p, const Entry& e);

TableDiff diff_tables(const DiffSide& old_side, const DiffSide& new_side);

}  // namespace dt
