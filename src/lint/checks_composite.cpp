// Lint rules about alias kernels and how the resolver combines them:
// composite-conflict, ambiguous-autogradother, meta-on-composite,
// shadowed-composite, fallthrough-on-alias and unreachable-kernel.
#include <fmt/format.h>

#include <algorithm>

#include "base/text.hpp"
#include "lint/check.hpp"
#include "registry/library.hpp"

namespace dt::lint {

// ---- composite-conflict --------------------------------------------------------------------

namespace {

std::vector<KeyId> composite_keys(const CheckContext& c) {
  std::vector<KeyId> out;
  for (AliasRule r : {AliasRule::CEA, AliasRule::CEANF, AliasRule::CIA, AliasRule::CIANested})
    if (KeyId k = alias(c, r); k != kUndefined) out.push_back(k);
  return out;
}

// The composite alias keys with kernels, in enum order.
std::vector<KeyId> registered_composites(const CheckContext& c, const Operator& op) {
  std::vector<KeyId> out;
  for (KeyId k : composite_keys(c))
    if (const auto* v = op.all(k); v != nullptr && !v->empty()) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

// torchgen's rule (dispatcher-notes F.9): at most one composite key, or exactly two when one is
// CompositeImplicitAutogradNestedTensor and the other is not CEANF.
bool composite_conflict(const CheckContext& c, const std::vector<KeyId>& present) {
  if (present.size() <= 1) return false;
  if (present.size() > 2) return true;
  const KeyId nested = alias(c, AliasRule::CIANested);
  const KeyId ceanf = alias(c, AliasRule::CEANF);
  const bool has_nested = std::find(present.begin(), present.end(), nested) != present.end();
  const bool has_ceanf = std::find(present.begin(), present.end(), ceanf) != present.end();
  return !(has_nested && !has_ceanf);
}

}  // namespace

void check_composite_conflict(const CheckContext& c, std::vector<Finding>& out) {
  const KeyId cea = alias(c, AliasRule::CEA), cia = alias(c, AliasRule::CIA);
  for (const Operator* op : c.ops) {
    const auto present = registered_composites(c, *op);
    if (!composite_conflict(c, present)) continue;
    std::vector<std::pair<const Kernel*, KeyId>> kernels;
    for (KeyId k : present)
      for (const auto& kern : *op->all(k)) kernels.emplace_back(&kern, k);
    // Anchored at the last kernel in (file, line, column) order, the same in every file order.
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const auto& a, const auto& b) { return a.first->where < b.first->where; });
    const Kernel* last = kernels.back().first;
    const bool cea_and_cia = std::find(present.begin(), present.end(), cea) != present.end() &&
                             std::find(present.begin(), present.end(), cia) != present.end();
    Finding f = finding_at(
        last->where,
        fmt::format("operator {} has kernels on {}: cannot specify more than one of CompositeExplicitAutograd, "
                    "CompositeExplicitAutogradNonFunctional, or CompositeImplicitAutograd on a single kernel; each "
                    "strictly subsumes the other{}",
                    op->name, join_keys(c, present, " and "),
                    cea_and_cia ? " (here CompositeExplicitAutograd wins on every key it covers and the "
                                  "CompositeImplicitAutograd kernel is never used)"
                                : ""),
        op->name, join_keys(c, present, ","));
    for (std::size_t i = 0; i + 1 < kernels.size(); ++i)
      f.notes.push_back(
          {kernels[i].first->where, fmt::format("kernel '{}' on {} is registered here", kernels[i].first->debug,
                                                kernel_key_label(c, kernels[i].second, *kernels[i].first))});
    f.fix =
        "Keep one composite kernel: CompositeExplicitAutograd if you provide autograd yourself, otherwise "
        "CompositeImplicitAutograd only (a CompositeImplicitAutogradNestedTensor kernel may accompany either).";
    out.push_back(std::move(f));
  }
}

// ---- ambiguous-autogradother ------------------------------------------------------------------

void check_ambiguous_autogradother(const CheckContext& c, std::vector<Finding>& out) {
  const auto ao = c.p.find("AutogradOther");
  if (!ao) return;
  const KeyId cia = alias(c, AliasRule::CIA);
  for (const Operator* op : c.ops) {
    const Entry e = c.resolver.compute(*op, *ao);
    if (e.why != Provenance::AmbiguousAutogradOther) continue;
    std::vector<std::pair<KeyId, const Kernel*>> backends;
    for (const auto& kk : op->kernels)
      if (!kk.kernels.empty() && !c.p.is_alias(kk.key) && c.p.autogradother_backends().has_all(c.p.key(kk.key).bits))
        backends.emplace_back(kk.key, &kk.kernels.front());
    std::vector<KeyId> keys;
    for (const auto& b : backends) keys.push_back(b.first);
    const Kernel* math = op->get(cia);
    Finding f = finding_at(
        math->where,
        fmt::format("{} has kernels registered to both CompositeImplicitAutograd and a backend mapped to "
                    "AutogradOther ({}). This makes the backend kernel unreachable; the dispatcher will always "
                    "prefer the CompositeImplicitAutograd lowering: the AutogradOther entry is "
                    "ambiguous_autogradother, {}",
                    op->name, join_keys(c, keys), stale_or(c, runtime_answer(c, *op, *ao), "which raises when called")),
        op->name, "AutogradOther");
    for (const auto& [k, kern] : backends)
      f.notes.push_back({kern->where, fmt::format("kernel '{}' on {} (a backend mapped to AutogradOther) is registered "
                                                  "here",
                                                  kern->debug, key_name(c, k))});
    f.fix =
        "Register a kernel directly on AutogradOther for this operator (a kernel on the Autograd alias does not "
        "help: the ambiguity is decided before the Autograd step), or replace the CompositeImplicitAutograd kernel "
        "by CompositeExplicitAutograd plus an autograd kernel.";
    out.push_back(std::move(f));
  }
}

// ---- meta-on-composite ----------------------------------------------------------------------------

void check_meta_on_composite(const CheckContext& c, std::vector<Finding>& out) {
  const auto meta = c.p.find("Meta");
  if (!meta) return;
  // 1.13 searches the text of _dispatch_dump for "CompositeImplicitAutograd",
  // which CompositeImplicitAutogradNestedTensor also contains; main asks for
  // a kernel on exactly CompositeImplicitAutograd.
  std::vector<KeyId> composites{alias(c, AliasRule::CIA)};
  if (c.p.quirks().meta_on_composite_substring) composites.push_back(alias(c, AliasRule::CIANested));
  for (const Operator* op : c.ops) {
    const Kernel* mk = op->get(*meta);
    if (mk == nullptr) continue;
    Finding f = finding_at(mk->where,
                           fmt::format("We should not register a meta kernel directly to the operator '{}', because "
                                       "it has a CompositeImplicitAutograd kernel in core. Instead we should let the "
                                       "operator decompose, and ensure that we have meta kernels for the base ops "
                                       "that it decomposes into.",
                                       op->name),
                           op->name, "Meta");
    for (KeyId k : composites)
      if (const Kernel* ck = active(*op, k))
        f.notes.push_back({ck->where, fmt::format("kernel '{}' on {} is registered here{}", ck->debug, key_name(c, k),
                                                  k == alias(c, AliasRule::CIANested)
                                                      ? " (this profile's torch.library matches the substring "
                                                        "'CompositeImplicitAutograd' in _dispatch_dump, so it counts)"
                                                      : "")});
    if (f.notes.empty()) continue;
    f.fix =
        "Drop the Meta kernel and let the operator decompose; register Meta kernels for the operators the "
        "decomposition calls instead.";
    out.push_back(std::move(f));
  }
}

namespace {

// Is runtime key `k` a row CompositeImplicitAutograd would fill, other than an autograd key?
bool shadows_decomposition(const CheckContext& c, KeyId k) {
  return k != kUndefined && c.p.is_runtime(k) && c.p.in_alias(k, AliasRule::CIA) &&
         !c.p.in_alias(k, AliasRule::Autograd);
}

// The finding for a kernel on `k` that takes the decomposition's place on `k`
// and on every autograd key whose backend set contains `k`.
Finding shadowed_finding(const CheckContext& c, const Operator& op, KeyId k, const Kernel& kern, const Kernel& math) {
  std::vector<std::string> lost;
  std::vector<Note> notes{
      {math.where, fmt::format("the CompositeImplicitAutograd kernel '{}' is registered here", math.debug)}};
  for (KeyId a : c.p.alias_members(alias(c, AliasRule::Autograd))) {
    if (!c.p.backend_keyset_from_autograd(a).has_all(c.p.key(k).bits)) continue;
    const Entry e = c.resolver.compute(op, a);
    if (e.why == Provenance::Math) continue;
    lost.push_back(fmt::format("{} now resolves to {}{}", key_name(c, a), describe_entry(c, e),
                               stale_suffix(c, runtime_answer(c, op, a))));
    if (e.kernel != nullptr)
      notes.push_back(
          {e.kernel->where, fmt::format("{} resolves to '{}', registered here", key_name(c, a), e.kernel->debug)});
  }
  Finding f = finding_at(
      kern.where,
      fmt::format("kernel '{}' on {} replaces the CompositeImplicitAutograd decomposition '{}' of {} for {}{}",
                  kern.debug, key_name(c, k), math.debug, op.name, key_name(c, k),
                  lost.empty() ? std::string() : fmt::format(" and for its autograd key: {}", join(lost, "; "))),
      op.name, key_name(c, k));
  f.notes = std::move(notes);
  f.fix =
      "Intended for a faster backend kernel: make sure the autograd key has an autograd kernel. Otherwise drop "
      "the backend kernel and let the operator decompose.";
  return f;
}

}  // namespace

void check_shadowed_composite(const CheckContext& c, std::vector<Finding>& out) {
  for (const Operator* op : c.ops) {
    const Kernel* math = active(*op, alias(c, AliasRule::CIA));
    // With a CompositeExplicitAutograd kernel the decomposition is off everywhere (composite-conflict).
    if (math == nullptr || active(*op, alias(c, AliasRule::CEA)) != nullptr) continue;
    for (const auto& kk : op->kernels)
      if (!kk.kernels.empty() && shadows_decomposition(c, kk.key))
        out.push_back(shadowed_finding(c, *op, kk.key, kk.kernels.front(), *math));
  }
}

// ---- fallthrough-on-alias --------------------------------------------------------------------------------

void check_fallthrough_on_alias(const CheckContext& c, std::vector<Finding>& out) {
  std::vector<Entry> table;
  for (const Operator* op : c.ops)
    for (KeyId k : composite_keys(c)) {
      const Kernel* kern = active(*op, k);
      if (kern == nullptr || !kern->fallthrough) continue;
      c.resolver.compute_table(*op, table);
      std::vector<KeyId> rows;
      for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i].kernel == kern) rows.push_back(c.p.runtime_keys()[i]);
      Finding f = finding_at(
          kern->where,
          fmt::format("fallthrough kernel on the alias key {} of {}: it fills {} rows{} with a fallthrough, so calls "
                      "skip the backend with nothing below it to run; reaching it raises \"fallthrough_kernel was "
                      "executed but it should have been short-circuited by the dispatcher\"",
                      key_name(c, k), op->name, rows.size(),
                      rows.empty() ? std::string() : fmt::format(" ({})", join_keys(c, rows))),
          op->name, key_name(c, k));
      f.fix =
          "Register fallthroughs only on keys that have something below them (Autograd, Autocast*, "
          "ADInplaceOrView, FuncTorchBatched, ...); for a composite key register a real kernel.";
      out.push_back(std::move(f));
    }
}

// ---- unreachable-kernel ----------------------------------------------------------------------------------------

namespace {

// The finding for alias kernel `kern` on `k`, given the operator's computed table.
Finding unreachable_finding(const CheckContext& c, const Operator& op, KeyId k, const Kernel& kern,
                            const std::vector<Entry>& table) {
  // Who takes the rows this kernel could fill (each kernel once, in table order).
  std::vector<const Kernel*> winners;
  std::vector<std::string> how;
  const auto members = c.p.alias_members(k);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Entry& e = table[i];
    if (std::find(members.begin(), members.end(), c.p.runtime_keys()[i]) == members.end() || e.kernel == nullptr ||
        std::find(winners.begin(), winners.end(), e.kernel) != winners.end())
      continue;
    winners.push_back(e.kernel);
    how.push_back(fmt::format("'{}' on {} ({})", e.kernel->debug, key_name(c, e.source), to_string(e.why)));
  }
  Finding f = finding_at(kern.where,
                         fmt::format("kernel '{}' on {} of {} is never used: no dispatch-table row resolves to it{}",
                                     kern.debug, key_name(c, k), op.name,
                                     how.empty() ? std::string(" (its rows are served by backend fallbacks)")
                                                 : fmt::format("; its rows resolve to {}", join(how, ", "))),
                         op.name, key_name(c, k));
  for (const Kernel* w : winners)
    f.notes.push_back({w->where, fmt::format("kernel '{}' is registered here", w->debug)});
  f.fix =
      "Remove the dead kernel, or remove what shadows it (computeDispatchTableEntryWithDebug's precedence: direct > "
      "CompositeExplicitAutogradNonFunctional > CompositeExplicitAutograd > nested > CompositeImplicitAutograd > "
      "Autograd).";
  return f;
}

// Whether PyTorch's own kernel `kern` (on alias key `k` of `op`) is already
// unused by PyTorch's registrations alone: then the inputs did not make it
// unreachable (2.14's Autograd kernel of aten::max_pool2d, which the
// CompositeImplicitAutograd decomposition shadows on every autograd key), and
// the rule says nothing, as it speaks of what the user's registrations change.
bool unused_without_inputs(const CheckContext& c, const Operator& op, KeyId k, const Kernel& kern,
                           std::vector<Entry>& table) {
  const OpLibrary* lib = c.reg.library();
  if (lib == nullptr || kern.library >= lib->libraries().size()) return false;  // the inputs' kernel
  const auto i = lib->find(op.name);
  if (!i) return false;
  Operator pristine;
  lib->materialize(*i, pristine);
  const Kernel* own = pristine.get(k);
  if (own == nullptr || own->seq != kern.seq) return false;
  table.clear();
  c.resolver.compute_table(pristine, table);
  return std::none_of(table.begin(), table.end(), [&](const Entry& e) { return e.kernel == own; });
}

}  // namespace

void check_unreachable_kernel(const CheckContext& c, std::vector<Finding>& out) {
  std::vector<Entry> table, alone;
  const auto composites = composite_keys(c);
  for (const Operator* op : c.ops) {
    // Composite kernels of a composite-conflict are that rule's business.
    const bool conflict = composite_conflict(c, registered_composites(c, *op));
    table.clear();
    for (const auto& kk : op->kernels) {
      if (kk.kernels.empty() || !c.p.is_alias(kk.key)) continue;
      if (conflict && std::find(composites.begin(), composites.end(), kk.key) != composites.end()) continue;
      if (table.empty()) c.resolver.compute_table(*op, table);
      const Kernel* kern = &kk.kernels.front();
      if (std::none_of(table.begin(), table.end(), [&](const Entry& e) { return e.kernel == kern; }) &&
          !unused_without_inputs(c, *op, kk.key, *kern, alone))
        out.push_back(unreachable_finding(c, *op, kk.key, *kern, table));
    }
  }
}

}  // namespace dt::lint
