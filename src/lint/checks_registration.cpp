// Lint rules about registrations PyTorch refuses or overrides: duplicate-def,
// duplicate-fallback, library-kind, schema-mismatch (recorded by the
// loader), duplicate-registration and impl-without-def.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "base/limits.hpp"
#include "base/suggest.hpp"
#include "base/text.hpp"
#include "lint/check.hpp"
#include "readers/readers.hpp"

namespace dt::lint {

namespace {

std::vector<const Kernel*> all_kernels_by_seq(const Operator& op) {
  std::vector<const Kernel*> out;
  for (const auto& kk : op.kernels)
    for (const auto& k : kk.kernels) out.push_back(&k);
  std::sort(out.begin(), out.end(), [](const Kernel* a, const Kernel* b) { return a->seq < b->seq; });
  return out;
}

}  // namespace

// ---- refusals recorded by the loader ---------------------------------------------

namespace {

// Registrations the loader refused (OnRefusal::Record), with the operator (or
// namespace) and key the loader recorded on them.
void from_refusals(const CheckContext& c, std::string_view code, std::string_view fix, std::vector<Finding>& out) {
  for (const auto& d : c.refusals) {
    if (d.code != code) continue;
    Finding f = finding_at(d.where, d.message, d.op, d.key);
    f.notes = d.notes;
    f.fix = std::string(fix);
    out.push_back(std::move(f));
  }
}

}  // namespace

void check_duplicate_def(const CheckContext& c, std::vector<Finding>& out) {
  from_refusals(c, "duplicate-def",
                "Keep a single def() per operator and overload (one [[def]] in TOML); give a genuinely different "
                "signature its own overload name (name.overload).",
                out);
}

void check_duplicate_fallback(const CheckContext& c, std::vector<Finding>& out) {
  from_refusals(c, "duplicate-fallback",
                "Register one backend fallback per dispatch key; drop this one, or register per-operator kernels "
                "instead of a fallback when PyTorch already provides one for the key.",
                out);
}

void check_library_kind(const CheckContext& c, std::vector<Finding>& out) {
  from_refusals(c, "library-kind",
                "Put def()s in the one TORCH_LIBRARY (or a TORCH_LIBRARY_FRAGMENT) block of their namespace, impls for "
                "one key in a TORCH_LIBRARY_IMPL block for that key, fallbacks in a TORCH_LIBRARY_IMPL(_, KEY) block "
                "(in TOML: DEF, FRAGMENT and IMPL files, namespace \"_\"), and do not define operators in reserved "
                "namespaces.",
                out);
}

void check_schema_mismatch(const CheckContext& c, std::vector<Finding>& out) {
  const std::size_t first = out.size();
  from_refusals(c, "schema-mismatch",
                "Make the kernel's signature match the operator's schema (argument count and types), or fix the "
                "schema in its def().",
                out);
  // PyTorch reports the mismatch at whichever of def and kernel came second;
  // the finding is about the kernel, wherever it was in the command line.
  for (std::size_t i = first; i < out.size(); ++i) {
    Finding& f = out[i];
    const Operator* op = c.reg.find(f.op);
    if (op == nullptr || !op->def || f.where != op->def->where || f.notes.empty()) continue;
    std::swap(f.where, f.notes.front().where);
    f.notes.front().message = "the operator is defined here";
  }
}

void check_duplicate_registration(const CheckContext& c, std::vector<Finding>& out) {
  for (const Operator* op : c.ops)
    for (const auto& kk : op->kernels) {
      const auto& ks = kk.kernels;  // newest first
      if (ks.size() < 2) continue;
      // Overrides PyTorch makes on purpose and silences (custom_op's Python
      // ADInplaceOrView version bump in torch 2.14: custom_ops.py registers it
      // under warnings.filterwarnings) are no finding: the real import warns
      // nothing.
      bool silent = true;
      for (std::size_t i = 0; i + 1 < ks.size(); ++i) silent = silent && ks[i].warning_filtered;
      if (silent) continue;
      // One finding per operator and key, anchored at the last of its kernels
      // in (file, line, column) order -- the same in every file order --,
      // naming the winner and the kernel it replaced; the other kernels are
      // notes in that order (at most limits::kNotesPerFinding of them).
      const Kernel& winner = ks[0];
      const Kernel& replaced = ks[1];
      const std::size_t earlier = ks.size() - 2;
      std::vector<const Kernel*> by_place;
      by_place.reserve(ks.size());
      for (const auto& k : ks) by_place.push_back(&k);
      std::stable_sort(by_place.begin(), by_place.end(),
                       [](const Kernel* a, const Kernel* b) { return a->where < b->where; });
      Finding f = finding_at(
          by_place.back()->where,
          fmt::format("Overriding a previously registered kernel for the same operator and the same dispatch "
                      "key: {} on {}: kernel '{}' replaces '{}'{}; the newest registration silently wins at run "
                      "time",
                      op->name, kernel_key_label(c, kk.key, winner), winner.debug, replaced.debug,
                      earlier == 0 ? std::string()
                                   : fmt::format(" (and {} earlier kernel{})", earlier, earlier == 1 ? "" : "s")),
          op->name, key_name(c, kk.key));
      for (std::size_t i = 0; i + 1 < by_place.size() && f.notes.size() <= limits::kNotesPerFinding; ++i) {
        const Kernel* k = by_place[i];
        f.notes.push_back(
            {k->where, k == &winner
                           ? fmt::format("the kernel that wins at run time, '{}', is registered here", k->debug)
                           : fmt::format("the overridden kernel '{}' is registered here", k->debug)});
      }
      cap_notes(f, ks.size() - 1);
      f.fix =
          "Register one kernel per operator and dispatch key: remove the older registration, or move the "
          "override into the file that owns the key.";
      out.push_back(std::move(f));
    }
}

// ---- impl-without-def -------------------------------------------------------------------

void check_impl_without_def(const CheckContext& c, std::vector<Finding>& out) {
  // For a did-you-mean on typos: the files' operators and PyTorch's own.
  const std::vector<std::string_view> defined = c.reg.defined_names();
  // Shared by every dangling operator: thousands of long names against
  // thousands of defined ones stay bounded (later findings go without).
  SuggestionBudget budget;
  // Operators a registration the readers could not read names (its def may be
  // there): their kernels are not called dangling; unread-registration says
  // where that registration is.
  const std::unordered_set<std::string_view> unread = unread_operators(c.source_warnings);
  for (const Operator* op : c.ops) {
    if (op->def) continue;
    if (!unread.empty() && unread.contains(std::string_view(op->name))) continue;
    // Anchored at the first kernel in file order, not registration order, so
    // that the finding does not move when the command line is reordered.
    auto kernels = all_kernels_by_seq(*op);
    if (kernels.empty()) continue;
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const Kernel* a, const Kernel* b) { return a->where < b->where; });
    Finding f = finding_at(
        kernels.front()->where,
        fmt::format("operator {} has {} but no definition (no def() in any file{}){}: a dangling impl; calling it "
                    "fails with \"Could not find schema for {} but we found an implementation; did you forget to "
                    "def() the operator?\"",
                    op->name, kernels.size() == 1 ? std::string("a kernel") : fmt::format("{} kernels", kernels.size()),
                    c.reg.library() != nullptr ? std::string(" nor among PyTorch's own operators")
                    : !c.reg.profile().operator_library().empty()
                        ? std::string()  // --no-library
                        : fmt::format("; profile {} has no operator library, so PyTorch's own operators are "
                                      "unknown to it (torch-2.14 has one)",
                                      c.reg.profile().name()),
                    did_you_mean(op->name, defined, &budget), op->name),
        op->name, "");
    for (std::size_t i = 1; i < kernels.size(); ++i)
      f.notes.push_back(
          {kernels[i]->where, fmt::format("another kernel for it, '{}', is registered here", kernels[i]->debug)});
    f.fix =
        "Add a def() of the operator's schema (in its namespace's TORCH_LIBRARY or TORCH_LIBRARY_FRAGMENT block, "
        "or a DEF or FRAGMENT file), or fix the operator name in the impl if it has a typo.";
    out.push_back(std::move(f));
  }
}

// ---- unread-registration: the readers' warnings -----------------------------------

void check_unread_registration(const CheckContext& c, std::vector<Finding>& out) {
  for (const auto& d : c.source_warnings) {
    Finding f = finding_at(d.where, d.message, d.op, d.key);
    f.notes = d.notes;
    const bool cpp = detect_source(d.where.file.view(), {}) == SourceKind::Cpp;
    f.fix = cpp ? "give the build's macros and include directories (-D, -U, -I, or -p BUILD_DIR), write the "
                  "registration out literally in the library block, or add the equivalent TOML to the inputs"
                : "write the registration out literally, or add the equivalent TOML to the inputs";
    out.push_back(std::move(f));
  }
}

}  // namespace dt::lint
