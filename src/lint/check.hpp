// Internal to lint: what a check reads (CheckContext), the helpers the checks
// share (check.cpp), and every rule's check, by family: checks_registration.cpp,
// checks_composite.cpp, checks_autograd.cpp, checks_custom_op.cpp, checks_keys.cpp. The rule table
// (rules.cpp) names them.
//
// A check appends findings without rule id and severity; run() stamps them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lint/lint.hpp"
#include "resolve/key_call.hpp"
#include "resolve/resolver.hpp"

namespace dt::lint {

struct CheckContext {
  const Registry& reg;
  const Profile& p;
  const Resolver& resolver;
  const std::vector<Diagnostic>& refusals;
  std::vector<const Operator*> ops;  // sorted by name
  const RuntimeTables* runtime = nullptr;  // what calls do (stale rows); null: the dumps' entries
  // The readers' warnings: registrations seen in C++ / Python / yaml sources
  // but not read statically (LoadResult::source_warnings).
  const std::vector<Diagnostic>& source_warnings;
};

// ---- helpers (check.cpp) ----
// A key's name, PrivateUse1 renamed.
std::string key_name(const CheckContext& c, KeyId k);
std::string join_keys(const CheckContext& c, const std::vector<KeyId>& keys, std::string_view sep = ", ");
// The alias key with that rule, or kUndefined when the profile has none.
KeyId alias(const CheckContext& c, AliasRule r);
// The active kernel on `k`, or nullptr (never for Undefined, an absent alias).
const Kernel* active(const Operator& op, KeyId k);
Finding finding_at(const Location& where, std::string message, std::string op, std::string key);
// "CPU", or "CompositeImplicitAutograd (catch-all)" for a catch-all kernel.
// Keeps the first limits::kNotesPerFinding notes of `f` and replaces the rest
// (`total` notes in all, some maybe never built) by one "and N more" note at
// the first location left out. Needs at least kNotesPerFinding + 1 notes built
// when total exceeds the limit.
void cap_notes(Finding& f, std::size_t total);
// Whether cap_notes already shortened `f`'s notes.
bool notes_capped(const Finding& f);
std::string kernel_key_label(const CheckContext& c, KeyId k, const Kernel& kern);
// What an entry is, for messages: "'k' on CPU (kernel)", "the backend fallback", ...
std::string describe_entry(const CheckContext& c, const Entry& e);
// What a call on runtime key `k` of `op` does (key_call.hpp): the runtime entry, stale or not.
KeyAnswer runtime_answer(const CheckContext& c, const Operator& op, KeyId k);
// " (stale runtime entry: ...)" when that key's runtime entry is not the dumps'; "" otherwise.
std::string stale_suffix(const CheckContext& c, const KeyAnswer& a);
// `otherwise` when the key's runtime entry is the dumps'; else "but at run time: " and the stale note.
std::string stale_or(const CheckContext& c, const KeyAnswer& a, std::string_view otherwise);

// ---- the checks, one per rule ----
// checks_registration.cpp
void check_duplicate_def(const CheckContext& c, std::vector<Finding>& out);
void check_duplicate_fallback(const CheckContext& c, std::vector<Finding>& out);
void check_library_kind(const CheckContext& c, std::vector<Finding>& out);
void check_schema_mismatch(const CheckContext& c, std::vector<Finding>& out);
void check_duplicate_registration(const CheckContext& c, std::vector<Finding>& out);
void check_impl_without_def(const CheckContext& c, std::vector<Finding>& out);
// checks_composite.cpp
void check_composite_conflict(const CheckContext& c, std::vector<Finding>& out);
void check_ambiguous_autogradother(const CheckContext& c, std::vector<Finding>& out);
void check_meta_on_composite(const CheckContext& c, std::vector<Finding>& out);
void check_shadowed_composite(const CheckContext& c, std::vector<Finding>& out);
void check_fallthrough_on_alias(const CheckContext& c, std::vector<Finding>& out);
void check_unread_registration(const CheckContext& c, std::vector<Finding>& out);
void check_unreachable_kernel(const CheckContext& c, std::vector<Finding>& out);
// checks_autograd.cpp
void check_missing_autograd(const CheckContext& c, std::vector<Finding>& out);
void check_custom_op_no_fake(const CheckContext& c, std::vector<Finding>& out);
void check_custom_op_no_autograd(const CheckContext& c, std::vector<Finding>& out);
void check_no_tensor_arguments(const CheckContext& c, std::vector<Finding>& out);
// checks_keys.cpp
void check_building_block_key(const CheckContext& c, std::vector<Finding>& out);
void check_unparseable_key(const CheckContext& c, std::vector<Finding>& out);

}  // namespace dt::lint
