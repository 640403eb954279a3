// Helpers the lint checks share (check.hpp).
#include "lint/check.hpp"

#include <fmt/format.h>

#include "base/limits.hpp"
#include "base/text.hpp"

namespace dt::lint {

std::string key_name(const CheckContext& c, KeyId k) { return c.p.display_name(k, c.reg.privateuse1_name); }

std::string join_keys(const CheckContext& c, const std::vector<KeyId>& keys, std::string_view sep) {
  std::vector<std::string> names;
  names.reserve(keys.size());
  for (KeyId k : keys) names.push_back(key_name(c, k));
  return join(names, sep);
}

KeyId alias(const CheckContext& c, AliasRule r) { return c.p.alias_key(r).value_or(kUndefined); }

// The active kernel on `k`, or nullptr (never for Undefined, an absent alias).
const Kernel* active(const Operator& op, KeyId k) { return k == kUndefined ? nullptr : op.get(k); }

Finding finding_at(const Location& where, std::string message, std::string op, std::string key) {
  Finding f;
  f.where = where;
  f.message = std::move(message);
  f.op = std::move(op);
  f.key = std::move(key);
  return f;
}

namespace {
std::string capped_suffix() { return fmt::format("(a finding lists at most {})", limits::kNotesPerFinding); }
}  // namespace

void cap_notes(Finding& f, std::size_t total) {
  if (total <= limits::kNotesPerFinding || f.notes.size() <= limits::kNotesPerFinding) return;
  Note more{f.notes[limits::kNotesPerFinding].where,
            fmt::format("and {} more location{} not listed, the next one here {}", total - limits::kNotesPerFinding,
                        total - limits::kNotesPerFinding == 1 ? "" : "s", capped_suffix())};
  f.notes.resize(limits::kNotesPerFinding);
  f.notes.push_back(std::move(more));
}

bool notes_capped(const Finding& f) {
  return f.notes.size() == limits::kNotesPerFinding + 1 && f.notes.back().message.ends_with(capped_suffix());
}

std::string kernel_key_label(const CheckContext& c, KeyId k, const Kernel& kern) {
  return kern.catch_all ? key_name(c, k) + " (catch-all)" : key_name(c, k);
}

std::string describe_entry(const CheckContext& c, const Entry& e) {
  if (e.why == Provenance::Missing) return "nothing (missing)";
  if (e.why == Provenance::AmbiguousAutogradOther) return "ambiguous_autogradother";
  if (e.why == Provenance::BackendFallback)
    return e.fallback->fallthrough ? "the fallthrough backend fallback" : "the backend fallback";
  return fmt::format("'{}' on {} ({})", e.kernel->debug, key_name(c, e.source), to_string(e.why));
}

KeyAnswer runtime_answer(const CheckContext& c, const Operator& op, KeyId k) {
  if (c.runtime != nullptr) return c.runtime->answer(op, k);
  KeyAnswer a;
  a.key = k;
  a.slot = static_cast<std::size_t>(c.p.key(k).slot);
  a.entry = a.dumped = c.resolver.compute(op, k);
  a.call = !a.entry.valid()                                  ? KeyCall::Missing
           : a.entry.why == Provenance::AmbiguousAutogradOther ? KeyCall::Ambiguous
           : a.entry.fallthrough()                             ? KeyCall::FallsThrough
                                                               : KeyCall::Runs;
  return a;
}

std::string stale_suffix(const CheckContext& c, const KeyAnswer& a) {
  if (!a.stale) return {};
  return " (" + stale_note(c.p, c.reg.privateuse1_name, a) + ")";
}

std::string stale_or(const CheckContext& c, const KeyAnswer& a, std::string_view otherwise) {
  if (!a.stale) return std::string(otherwise);
  return "but at run time: " + stale_note(c.p, c.reg.privateuse1_name, a);
}

}  // namespace dt::lint
