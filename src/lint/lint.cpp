// dispatchtool lint: the rule table and the checks.
//
// Each check reads the loaded registrations (and the refusals the loader
// recorded) and appends findings without severity; run() stamps every finding
// with its rule's id and default severity and sorts them.
#include "lint/lint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <tuple>

#include "base/text.hpp"
#include "resolve/resolver.hpp"

namespace dt::lint {

struct CheckContext {
  const Registry& reg;
  const Profile& p;
  const Resolver& resolver;
  const std::vector<Diagnostic>& refusals;
  std::vector<const Operator*> ops;  // sorted by name
};

namespace {

// ---- helpers -------------------------------------------------------------------

std::string key_name(const CheckContext& c, KeyId k) { return c.p.display_name(k, c.reg.privateuse1_name); }

std::string join_keys(const CheckContext& c, const std::vector<KeyId>& keys, std::string_view sep = ", ") {
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

std::vector<const Kernel*> all_kernels_by_seq(const Operator& op) {
  std::vector<const Kernel*> out;
  for (const auto& kk : op.kernels)
    for (const auto& k : kk.kernels) out.push_back(&k);
  std::sort(out.begin(), out.end(), [](const Kernel* a, const Kernel* b) { return a->seq < b->seq; });
  return out;
}

// ---- refusals recorded by the loader ---------------------------------------------

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

void check_duplicate_def(const CheckContext& c, std::vector<Finding>& out) {
  from_refusals(c, "duplicate-def",
                "Keep a single [[def]] per operator and overload; give a genuinely different signature its own "
                "overload name (name.overload).",
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
                "Put [[def]]s in the one DEF (or a FRAGMENT) file of their namespace, impls for one key in an IMPL "
                "file with that dispatch_key, fallbacks in an IMPL file with namespace \"_\", and do not define "
                "operators in reserved namespaces.",
                out);
}

void check_schema_mismatch(const CheckContext& c, std::vector<Finding>& out) {
  const std::size_t first = out.size();
  from_refusals(c, "schema-mismatch",
                "Make the kernel's signature match the operator's schema (argument count and types), or fix the "
                "schema in the [[def]].",
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

// ---- duplicate-registration ------------------------------------------------------------

std::string kernel_key_label(const CheckContext& c, KeyId k, const Kernel& kern) {
  return kern.catch_all ? key_name(c, k) + " (catch-all)" : key_name(c, k);
}

void check_duplicate_registration(const CheckContext& c, std::vector<Finding>& out) {
  for (const Operator* op : c.ops)
    for (const auto& kk : op->kernels) {
      const auto& ks = kk.kernels;  // newest first
      // One finding per overriding kernel, naming every kernel it shadows:
      // every (older, newer) pair appears in the newer one's finding.
      for (std::size_t i = 0; i + 1 < ks.size(); ++i) {
        const Kernel& newer = ks[i];
        const Kernel& older = ks[i + 1];
        const std::size_t earlier = ks.size() - i - 2;
        Finding f = finding_at(
            newer.where,
            fmt::format("Overriding a previously registered kernel for the same operator and the same dispatch "
                        "key: {} on {}: kernel '{}' replaces '{}'{}; the newest registration silently wins at run "
                        "time",
                        op->name, kernel_key_label(c, kk.key, newer), newer.debug, older.debug,
                        earlier == 0 ? std::string()
                                     : fmt::format(" (and {} earlier kernel{})", earlier, earlier == 1 ? "" : "s")),
            op->name, key_name(c, kk.key));
        for (std::size_t j = i + 1; j < ks.size(); ++j)
          f.notes.push_back({ks[j].where, fmt::format("the overridden kernel '{}' is registered here", ks[j].debug)});
        if (i != 0)
          f.notes.push_back({ks.front().where, fmt::format("the kernel that wins at run time, '{}', is registered here",
                                                           ks.front().debug)});
        f.fix =
            "Register one kernel per operator and dispatch key: remove the older registration, or move the "
            "override into the file that owns the key.";
        out.push_back(std::move(f));
      }
    }
}

// ---- impl-without-def -------------------------------------------------------------------

void check_impl_without_def(const CheckContext& c, std::vector<Finding>& out) {
  std::vector<std::string_view> defined;  // for a did-you-mean on typos
  for (const Operator* op : c.ops)
    if (op->def) defined.emplace_back(op->name);
  for (const Operator* op : c.ops) {
    if (op->def) continue;
    // Anchored at the first kernel in file order, not registration order, so
    // that the finding does not move when the command line is reordered.
    auto kernels = all_kernels_by_seq(*op);
    if (kernels.empty()) continue;
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const Kernel* a, const Kernel* b) { return a->where < b->where; });
    Finding f = finding_at(
        kernels.front()->where,
        fmt::format("operator {} has {} but no definition (no [[def]] in any file){}: a dangling impl; calling it "
                    "fails with \"Could not find schema for {} but we found an implementation; did you forget to "
                    "def() the operator?\"",
                    op->name, kernels.size() == 1 ? std::string("a kernel") : fmt::format("{} kernels", kernels.size()),
                    did_you_mean(op->name, defined), op->name),
        op->name, "");
    for (std::size_t i = 1; i < kernels.size(); ++i)
      f.notes.push_back(
          {kernels[i]->where, fmt::format("another kernel for it, '{}', is registered here", kernels[i]->debug)});
    f.fix =
        "Add a [[def]] with the operator's schema (in its namespace's DEF or FRAGMENT file), or fix the operator "
        "name in the impl if it has a typo.";
    out.push_back(std::move(f));
  }
}

// ---- composite-conflict --------------------------------------------------------------------

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

// torchgen's rule (F.9): at most one composite key, or exactly two when one is
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

void check_composite_conflict(const CheckContext& c, std::vector<Finding>& out) {
  const KeyId cea = alias(c, AliasRule::CEA), cia = alias(c, AliasRule::CIA);
  for (const Operator* op : c.ops) {
    const auto present = registered_composites(c, *op);
    if (!composite_conflict(c, present)) continue;
    std::vector<std::pair<const Kernel*, KeyId>> kernels;
    for (KeyId k : present)
      for (const auto& kern : *op->all(k)) kernels.emplace_back(&kern, k);
    std::sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) { return a.first->seq < b.first->seq; });
    const auto& [newest, newest_key] = kernels.back();
    const bool cea_and_cia = std::find(present.begin(), present.end(), cea) != present.end() &&
                             std::find(present.begin(), present.end(), cia) != present.end();
    Finding f = finding_at(
        newest->where,
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
      if (!kk.kernels.empty() && !c.p.is_alias(kk.key) &&
          Profile::has(c.p.autogradother_backends(), c.p.key(kk.key).bits))
        backends.emplace_back(kk.key, &kk.kernels.front());
    std::vector<KeyId> keys;
    for (const auto& b : backends) keys.push_back(b.first);
    const Kernel* math = op->get(cia);
    Finding f = finding_at(
        math->where,
        fmt::format("{} has kernels registered to both CompositeImplicitAutograd and a backend mapped to "
                    "AutogradOther ({}). This makes the backend kernel unreachable; the dispatcher will always "
                    "prefer the CompositeImplicitAutograd lowering: the AutogradOther entry is "
                    "ambiguous_autogradother, which raises when called",
                    op->name, join_keys(c, keys)),
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

// ---- missing-autograd ----------------------------------------------------------------------------

std::string describe_entry(const CheckContext& c, const Entry& e);

// ---- schema facts (spec G.1) ----

// comparable_type() of the argument types DispatchKeyExtractor reads.
bool is_dispatch_relevant_type(std::string_view t) {
  return t == "Tensor" || t == "Tensor?" || t == "Tensor[]" || t == "Tensor?[]" || t == "Generator" ||
         t == "Generator?";
}
bool is_tensor_type(std::string_view t) {
  return t == "Tensor" || t == "Tensor?" || t == "Tensor[]" || t == "Tensor?[]";
}

// Whether calls can carry a backend's keys: some argument is a Tensor (or a
// Generator). Without a def nothing is known: assume so.
bool has_dispatch_arguments(const Operator& op) {
  if (!op.def) return true;
  return std::any_of(op.def->schema.arguments.begin(), op.def->schema.arguments.end(),
                     [](const SchemaArgument& a) { return is_dispatch_relevant_type(comparable_type(a.type)); });
}

// Whether autograd has anything to track: a Tensor output, or a Tensor
// argument the operator writes (Tensor(a!)). Unknown without a def: assume so.
bool can_carry_gradients(const Operator& op) {
  if (!op.def) return true;
  const Schema& s = op.def->schema;
  if (s.is_varret) return true;
  const auto tensor = [](const SchemaArgument& a) { return is_tensor_type(comparable_type(a.type)); };
  return std::any_of(s.returns.begin(), s.returns.end(), tensor) ||
         std::any_of(s.arguments.begin(), s.arguments.end(),
                     [&](const SchemaArgument& a) { return tensor(a) && a.type.find('!') != std::string::npos; });
}

// Whether an autograd key's entry is worth a missing-autograd finding: it
// resolves to nothing (calls fail), or to a backend fallback while the
// operator has gradients to lose.
bool lacks_autograd(const Operator& op, const Entry& e) {
  return e.why == Provenance::Missing || (e.why == Provenance::BackendFallback && can_carry_gradients(op));
}

// What `keys` (autograd keys that all resolve like `e`) resolve to, and the consequence.
std::string missing_autograd_effect(const CheckContext& c, const Operator& op, const Entry& e,
                                    const std::vector<KeyId>& keys) {
  if (e.why == Provenance::Missing)
    return fmt::format(
        "nothing: calls fail with \"Could not run '{}' with arguments from the '{}' backend\"{}, even "
        "without requires_grad (the key is in every tensor's keyset outside inference mode)",
        op.name, key_name(c, keys.front()), keys.size() > 1 ? " (and likewise for the others)" : "");
  if (e.fallback->fallthrough)
    return "the backend fallback, a fallthrough: outputs of inputs that require grad are not connected to the "
           "autograd graph (gradients are silently lost)";
  return fmt::format("the backend fallback '{}': no derivative is defined for this operator", e.fallback->debug);
}

// "K1, K2 resolve to ...; K3 resolves to ..." for autograd keys grouped by what they resolve to.
std::string describe_missing_autograd(const CheckContext& c, const Operator& op, const std::vector<KeyId>& keys) {
  std::vector<std::pair<Entry, std::vector<KeyId>>> groups;
  for (KeyId a : keys) {
    const Entry e = c.resolver.compute(op, a);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
      // Fallthrough fallbacks read alike whatever their debug string.
      return g.first.why == e.why && g.first.fallthrough() == e.fallthrough() &&
             (e.fallthrough() || g.first.debug() == e.debug());
    });
    if (it == groups.end()) it = groups.insert(groups.end(), {e, {}});
    it->second.push_back(a);
  }
  std::vector<std::string> parts;
  for (const auto& [e, ks] : groups)
    parts.push_back(fmt::format("{} {} to {}", join_keys(c, ks), ks.size() == 1 ? "resolves" : "resolve",
                                missing_autograd_effect(c, op, e, ks)));
  return join(parts, "; ");
}

struct AutogradNeed {
  KeyId autograd_key = kUndefined;
  std::vector<std::pair<KeyId, const Kernel*>> sources;
};

// Quantized tensors cannot require grad (their dtypes are not floating
// point), so their autograd key falling through is intended.
bool is_quantized(const CheckContext& c, KeyId k) {
  const auto q = c.p.find("Quantized");
  return q && c.p.key(k).kind == KeyKind::PerBackend && Profile::has(c.p.key(k).bits, c.p.key(*q).bits);
}

// The autograd key a tensor of runtime key `k` carries: for a backend key its
// backend's (getAutogradKeyFromBackend, B.4); otherwise the autograd key
// whose backend set (B.3) contains `k` (AutogradNestedTensor for
// NestedTensor<B>); kUndefined for keys no tensor carries with an autograd key.
KeyId autograd_key_of(const CheckContext& c, KeyId k) {
  if (c.p.is_backend_dispatch_key(k)) return c.p.autograd_key_for_backend_of(k);
  const auto other = c.p.find("AutogradOther");
  for (KeyId a : c.p.alias_members(alias(c, AliasRule::Autograd)))
    if (a != other && Profile::has(c.p.backend_keyset_from_autograd(a), c.p.key(k).bits)) return a;
  return kUndefined;
}

// Backend kernels (not fallthroughs, building blocks or quantized keys)
// grouped by the autograd key their tensors carry.
std::vector<AutogradNeed> direct_autograd_needs(const CheckContext& c, const Operator& op) {
  std::vector<AutogradNeed> needs;
  for (const auto& kk : op.kernels) {
    if (kk.kernels.empty() || kk.kernels.front().fallthrough) continue;
    const KeyInfo& info = c.p.key(kk.key);
    if (info.kind == KeyKind::Alias || info.kind == KeyKind::BuildingBlock || is_quantized(c, kk.key)) continue;
    const KeyId a = autograd_key_of(c, kk.key);
    if (a == kUndefined) continue;
    auto it = std::find_if(needs.begin(), needs.end(), [&](const AutogradNeed& n) { return n.autograd_key == a; });
    if (it == needs.end()) it = needs.insert(needs.end(), AutogradNeed{a, {}});
    it->sources.emplace_back(kk.key, &kk.kernels.front());
  }
  std::sort(needs.begin(), needs.end(), [&](const AutogradNeed& x, const AutogradNeed& y) {
    return c.p.key(x.autograd_key).slot < c.p.key(y.autograd_key).slot;
  });
  return needs;
}

constexpr std::string_view kMissingAutogradFix =
    "Register an autograd kernel (on Autograd, or Autograd<Backend>), or make the operator "
    "CompositeImplicitAutograd so that autograd comes from its decomposition.";

void check_missing_autograd_direct(const CheckContext& c, const Operator& op, std::vector<KeyId>& reported,
                                   std::vector<Finding>& out) {
  for (const auto& need : direct_autograd_needs(c, op)) {
    reported.push_back(need.autograd_key);
    if (!lacks_autograd(op, c.resolver.compute(op, need.autograd_key))) continue;
    std::vector<KeyId> keys;
    for (const auto& s : need.sources) keys.push_back(s.first);
    Finding f = finding_at(need.sources.front().second->where,
                           fmt::format("operator {} has a kernel for {} but no autograd kernel: {}", op.name,
                                       join_keys(c, keys), describe_missing_autograd(c, op, {need.autograd_key})),
                           op.name, key_name(c, need.autograd_key));
    for (std::size_t i = 1; i < need.sources.size(); ++i)
      f.notes.push_back({need.sources[i].second->where,
                         fmt::format("kernel '{}' on {} is registered here", need.sources[i].second->debug,
                                     key_name(c, need.sources[i].first))});
    f.fix = std::string(kMissingAutogradFix);
    out.push_back(std::move(f));
  }
}

// A CompositeExplicitAutograd[NonFunctional] kernel fills backend keys; their
// autograd keys need an autograd kernel just as for direct backend kernels.
void check_missing_autograd_explicit(const CheckContext& c, const Operator& op, const std::vector<KeyId>& reported,
                                     std::vector<Finding>& out) {
  for (AliasRule r : {AliasRule::CEA, AliasRule::CEANF}) {
    const KeyId ck = alias(c, r);
    const Kernel* kern = active(op, ck);
    if (kern == nullptr || kern->fallthrough) continue;
    std::vector<KeyId> autograd_keys;
    for (KeyId m : c.p.alias_members(ck)) {
      if (is_quantized(c, m)) continue;
      const KeyId a = c.p.autograd_key_for_backend_of(m);
      if (std::find(reported.begin(), reported.end(), a) == reported.end() &&
          std::find(autograd_keys.begin(), autograd_keys.end(), a) == autograd_keys.end())
        autograd_keys.push_back(a);
    }
    std::sort(autograd_keys.begin(), autograd_keys.end(),
              [&](KeyId x, KeyId y) { return c.p.key(x).slot < c.p.key(y).slot; });
    std::vector<KeyId> missing;
    for (KeyId a : autograd_keys)
      if (lacks_autograd(op, c.resolver.compute(op, a))) missing.push_back(a);
    if (missing.empty()) continue;
    Finding f = finding_at(kern->where,
                           fmt::format("operator {} has a {} kernel but no autograd kernel: {}", op.name,
                                       key_name(c, ck), describe_missing_autograd(c, op, missing)),
                           op.name, key_name(c, ck));
    f.fix = std::string(kMissingAutogradFix);
    out.push_back(std::move(f));
  }
}

void check_missing_autograd(const CheckContext& c, std::vector<Finding>& out) {
  for (const Operator* op : c.ops) {
    // Without a Tensor argument no autograd key is ever dispatched to (no-tensor-arguments).
    if (!has_dispatch_arguments(*op)) continue;
    std::vector<KeyId> reported;
    check_missing_autograd_direct(c, *op, reported, out);
    check_missing_autograd_explicit(c, *op, reported, out);
  }
}

// ---- no-tensor-arguments ----------------------------------------------------------------------------

// Kernels on keys only a tensor brings into a call: backend keys, their
// autograd keys, NestedTensor<B>.
bool is_tensor_key(const CheckContext& c, KeyId k) {
  return c.p.is_runtime(k) && k != kUndefined &&
         (autograd_key_of(c, k) != kUndefined || c.p.in_alias(k, AliasRule::Autograd));
}

void check_no_tensor_arguments(const CheckContext& c, std::vector<Finding>& out) {
  const auto backend_select = c.p.find("BackendSelect");
  for (const Operator* op : c.ops) {
    if (!op->def || has_dispatch_arguments(*op)) continue;
    // The factory-function pattern: a BackendSelect kernel computes the
    // backend from the operator's device/dtype arguments and redispatches.
    if (backend_select && op->get(*backend_select) != nullptr) continue;
    std::vector<std::pair<KeyId, const Kernel*>> dead;
    for (const auto& kk : op->kernels)
      if (!kk.kernels.empty() && is_tensor_key(c, kk.key)) dead.emplace_back(kk.key, &kk.kernels.front());
    if (dead.empty()) continue;
    std::vector<KeyId> keys;
    for (const auto& d : dead) keys.push_back(d.first);
    const Entry u = c.resolver.compute(*op, kUndefined);
    Finding f = finding_at(
        dead.front().second->where,
        fmt::format("operator {} has no Tensor argument, so a call's dispatch key set holds only thread-local keys "
                    "(Undefined when no mode is active) and its kernel{} on {} {} never reached; {}",
                    op->name, dead.size() == 1 ? "" : "s", join_keys(c, keys), dead.size() == 1 ? "is" : "are",
                    u.why == Provenance::Missing
                        ? fmt::format("Undefined has no kernel, so calls fail with \"There were no tensor arguments "
                                      "to this function (e.g., you passed an empty list of Tensors), but no fallback "
                                      "function is registered for schema {}.\"",
                                      op->name)
                        : fmt::format("calls run Undefined's entry, {}", describe_entry(c, u))),
        op->name, join_keys(c, keys, ","));
    for (std::size_t i = 1; i < dead.size(); ++i)
      f.notes.push_back({dead[i].second->where, fmt::format("kernel '{}' on {} is registered here",
                                                            dead[i].second->debug, key_name(c, dead[i].first))});
    f.notes.push_back({op->def->where, "the operator is defined here"});
    f.fix =
        "Register a BackendSelect kernel that picks the backend from the operator's device argument (as factory "
        "functions do), or register the implementation on CompositeExplicitAutograd (or as a catch-all) so that "
        "Undefined runs it.";
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

// ---- shadowed-composite ------------------------------------------------------------------------------

std::string describe_entry(const CheckContext& c, const Entry& e) {
  if (e.why == Provenance::Missing) return "nothing (missing)";
  if (e.why == Provenance::AmbiguousAutogradOther) return "ambiguous_autogradother";
  if (e.why == Provenance::BackendFallback)
    return e.fallback->fallthrough ? "the fallthrough backend fallback" : "the backend fallback";
  return fmt::format("'{}' on {} ({})", e.kernel->debug, key_name(c, e.source), to_string(e.why));
}

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
    if (!Profile::has(c.p.backend_keyset_from_autograd(a), c.p.key(k).bits)) continue;
    const Entry e = c.resolver.compute(op, a);
    if (e.why == Provenance::Math) continue;
    lost.push_back(fmt::format("{} now resolves to {}", key_name(c, a), describe_entry(c, e)));
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

// ---- building-block-key ------------------------------------------------------------------------------------

// The first two runtime keys made of a building block, quoted: "\"SparseCPU\", \"SparseCUDA\"".
std::string example_runtime_keys(const CheckContext& c, KeyId block) {
  std::vector<std::string> names;
  for (KeyId k : c.p.building_block_members(block))
    if (names.size() < 2) names.push_back("\"" + key_name(c, k) + "\"");
  return join(names, ", ");
}

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
    f.fix = fmt::format("Register the fallback on the runtime keys it is meant for, one [[fallback]] each (e.g. {}).",
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

// ---- unreachable-kernel ----------------------------------------------------------------------------------------

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
      "Remove the dead kernel, or remove what shadows it (spec C.2 precedence: direct > "
      "CompositeExplicitAutogradNonFunctional > CompositeExplicitAutograd > nested > CompositeImplicitAutograd > "
      "Autograd).";
  return f;
}

void check_unreachable_kernel(const CheckContext& c, std::vector<Finding>& out) {
  std::vector<Entry> table;
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
      if (std::none_of(table.begin(), table.end(), [&](const Entry& e) { return e.kernel == kern; }))
        out.push_back(unreachable_finding(c, *op, kk.key, *kern, table));
    }
  }
}

// ---- the rule table ------------------------------------------------------------------------------------------------

constexpr std::array kRules{
    Rule{"duplicate-def", "DuplicateDef", Severity::Error,
         "An operator is defined twice (two [[def]]s with the same name and overload).",
         "PyTorch refuses the second def() of an operator, even when both schemas are identical or only the alias "
         "analysis differs; the library that contains it fails to load. Keep one [[def]] per operator and overload.",
         "Tried to register an operator (<schema>) with the same name and overload name multiple times. Each "
         "overload's schema should only be registered with a single call to def(). Duplicate registration: <debug>. "
         "Original registration: <debug>",
         "F.5", check_duplicate_def},
    Rule{"duplicate-registration", "DuplicateRegistration", Severity::Error,
         "Two kernels for the same operator and dispatch key; the newer one silently wins at run time.",
         "The dispatcher keeps every kernel registered for an operator and key, newest first, and uses only the "
         "newest: which kernel runs depends on the order libraries were loaded. PyTorch only warns (and in recent "
         "releases only once per process). Every overriding pair is reported, across files.",
         "Overriding a previously registered kernel for the same operator and the same dispatch key", "C.1, F.1",
         check_duplicate_registration},
    Rule{"duplicate-fallback", "DuplicateFallback", Severity::Error,
         "Two backend fallbacks for the same dispatch key (PyTorch's own fallbacks included).",
         "A backend fallback serves every operator without a kernel for its key; PyTorch allows one per runtime key "
         "and refuses the second registration, including one that collides with a fallback PyTorch itself "
         "registers (e.g. the autograd fallbacks).",
         "Tried to register multiple backend fallbacks for the same dispatch key <K>; previous registration <debug>, "
         "new registration <debug>",
         "D, F.7", check_duplicate_fallback},
    Rule{"impl-without-def", "ImplWithoutDef", Severity::Error,
         "A kernel for an operator that no file defines (a dangling impl).",
         "The dispatcher accepts impls before (or without) the def, so the mistake only shows when the operator is "
         "called: it has no schema. Usually the operator name has a typo, the overload is missing, or the defining "
         "file was not loaded (lint every file that registers into a namespace together).",
         "Could not find schema for <name> but we found an implementation; did you forget to def() the operator?",
         "F.4", check_impl_without_def},
    Rule{"composite-conflict", "CompositeConflict", Severity::Error,
         "More than one of the composite alias keys on one operator, which torchgen forbids.",
         "CompositeExplicitAutograd, CompositeExplicitAutogradNonFunctional and CompositeImplicitAutograd each "
         "subsume the other: with CompositeExplicitAutograd present the CompositeImplicitAutograd kernel is never "
         "used, and the incrementally maintained runtime table then depends on registration order. Exception: "
         "CompositeImplicitAutogradNestedTensor may accompany one other composite kernel, except "
         "CompositeExplicitAutogradNonFunctional.",
         "cannot specify more than one of CompositeExplicitAutograd, CompositeExplicitAutogradNonFunctional, or "
         "CompositeImplicitAutograd on a single kernel; each strictly subsumes the other.  If you wanted to provide "
         "an explicit autograd implementation, specify CompositeExplicitAutograd; otherwise specify "
         "CompositeImplicitAutograd only",
         "F.9, C.2, G.5", check_composite_conflict},
    Rule{"ambiguous-autogradother", "AmbiguousAutogradOther", Severity::Error,
         "A CompositeImplicitAutograd kernel plus a kernel on a backend that maps to AutogradOther.",
         "Backends without their own autograd key (Sparse*, Quantized*, SparseCsr*, MkldnnCPU, FPGA, ...) share "
         "AutogradOther. With a CompositeImplicitAutograd kernel the dispatcher cannot tell whether AutogradOther "
         "should decompose or reach the backend kernel, so the entry becomes ambiguous_autogradother, which raises "
         "when a tensor of such a backend is used with autograd. The resolver's ambiguous entry is the ground truth; "
         "every offending backend kernel is listed.",
         "<op> has kernels registered to both CompositeImplicitAutograd and a backend mapped to AutogradOther. This "
         "makes the backend kernel unreachable; the dispatcher will always prefer the CompositeImplicitAutograd "
         "lowering (see Note [Ambiguity in AutogradOther kernel]). If you want to override "
         "CompositeImplicitAutograd, please open an issue to request a dedicated Autograd dispatch key for the "
         "backend.",
         "C.4, F.10", check_ambiguous_autogradother},
    Rule{"library-kind", "LibraryKind", Severity::Error,
         "A registration its library block forbids (def in an IMPL file, two DEF files for a namespace, an impl key "
         "or namespace contradicting its file, a misplaced fallback, a reserved namespace).",
         "Each input file is one TORCH_LIBRARY / TORCH_LIBRARY_IMPL / TORCH_LIBRARY_FRAGMENT block (or "
         "torch.library.Library); PyTorch checks every def(), impl() and fallback() against its block and refuses "
         "the ones that do not belong there, so the whole library fails to load.",
         "def(\"<name>\"): Cannot define an operator inside of a TORCH_LIBRARY_IMPL block.  All def()s should be "
         "placed in the (unique) TORCH_LIBRARY block for their namespace.  (and the other messages of spec F.7/F.8)",
         "F.5, F.7, F.8", check_library_kind},
    Rule{"schema-mismatch", "SchemaMismatch", Severity::Warning,
         "A kernel's signature disagrees with its operator's schema (argument count or types).",
         "When a kernel carries an inferred C++ schema (signature = ...), PyTorch compares it with the operator's "
         "schema when the second of the two is registered and refuses a mismatch. The kernel would read its "
         "arguments from the wrong stack slots.",
         "Inferred operator schema for a C++ kernel function doesn't match the expected function schema.\n  "
         "operator: <name>\n  expected schema: <schema>\n    <debug>\n  inferred schema: <signature>\n    <debug>\n  "
         "reason: <reason>",
         "F.6", check_schema_mismatch},
    Rule{"missing-autograd", "MissingAutograd", Severity::Warning,
         "An operator with backend kernels whose autograd key resolves to no autograd kernel (only a fallback, or "
         "nothing).",
         "A backend kernel (or a CompositeExplicitAutograd kernel) disables the CompositeImplicitAutograd "
         "decomposition on the backend's autograd key, so that key needs its own kernel. Without one it resolves to "
         "the autograd backend fallback: in 1.13 a fallthrough, so results silently do not track gradients; in "
         "main a kernel that warns when backpropagating. With no fallback at all (e.g. AutogradMeta in 1.13) every "
         "call outside inference mode fails. NestedTensor<B> kernels count for AutogradNestedTensor. Operators without "
         "a "
         "Tensor output or a Tensor written in place have nothing to differentiate and are only reported where the "
         "key resolves to nothing.",
         "", "B.3, B.4, C.2, D, G.1", check_missing_autograd},
    Rule{"no-tensor-arguments", "NoTensorArguments", Severity::Warning,
         "Backend kernels of an operator without Tensor arguments and without a BackendSelect kernel.",
         "The dispatcher computes a call's keys from its Tensor (and Generator) arguments. Without any, only "
         "thread-local keys remain and the call lands on Undefined (filled only by CompositeExplicitAutograd, "
         "CompositeImplicitAutograd or a catch-all kernel), so kernels on CPU, CUDA, ... and their autograd keys "
         "are never reached. Factory functions solve this with a BackendSelect kernel that reads the device "
         "argument.",
         "There were no tensor arguments to this function (e.g., you passed an empty list of Tensors), but no "
         "fallback function is registered for schema <op>.  This usually means that this function requires a "
         "non-empty list of Tensors, or that you (the operator writer) forgot to register a fallback function.",
         "G.1, G.3, G.4", check_no_tensor_arguments},
    Rule{"meta-on-composite", "MetaOnComposite", Severity::Warning,
         "A Meta kernel on an operator that has a CompositeImplicitAutograd kernel.",
         "torch.library refuses a Meta impl for an operator with a CompositeImplicitAutograd kernel: the Meta "
         "kernel replaces the decomposition on Meta and disables it on AutogradMeta. PyTorch 1.13 decides by "
         "searching the text of _dispatch_dump for the substring 'CompositeImplicitAutograd' (so a "
         "CompositeImplicitAutogradNestedTensor kernel also counts); main asks for a kernel on exactly "
         "CompositeImplicitAutograd. The profile's meta_on_composite quirk selects the behaviour.",
         "We should not register a meta kernel directly to the operator '<name>', because it has a "
         "CompositeImplicitAutograd kernel in core. Instead we should let the operator decompose, and ensure that we "
         "have meta kernels for the base ops that it decomposes into.",
         "F.8", check_meta_on_composite},
    Rule{"shadowed-composite", "ShadowedComposite", Severity::Info,
         "A backend kernel that disables a CompositeImplicitAutograd decomposition for its backend (and the "
         "backend's autograd key).",
         "A kernel on a runtime key wins over CompositeImplicitAutograd on that key, and makes the key's autograd "
         "key skip the decomposition too (has_backend_kernel), so autograd must come from an Autograd kernel. This "
         "is legitimate for faster backend kernels, hence informational; the finding names what each affected "
         "autograd key resolves to instead.",
         "", "C.2, B.3", check_shadowed_composite},
    Rule{"fallthrough-on-alias", "FallthroughOnAlias", Severity::Warning,
         "A fallthrough kernel on a composite alias key (CompositeImplicitAutograd, CompositeExplicitAutograd, ...).",
         "A fallthrough means \"skip this key\"; on a composite alias it marks every backend row (and Undefined) as "
         "fallthrough, so there is nothing left below to run and the call ends in the fallthrough function itself "
         "or in a missing kernel. Fallthroughs belong on wrapper keys (Autograd, Autocast*, ADInplaceOrView, "
         "FuncTorchBatched, ...), where something runs below them.",
         "fallthrough_kernel was executed but it should have been short-circuited by the dispatcher. ...", "F.3, G.2",
         check_fallthrough_on_alias},
    Rule{"building-block-key", "BuildingBlockKey", Severity::Warning,
         "A kernel or backend fallback on a per-backend building block (Dense, Sparse, Quantized, NestedTensor, "
         "AutogradFunctionality, SparseCsr) that never fills a dispatch-table row.",
         "Building blocks are functionality bits, not runtime keys; the dispatcher accepts kernels on them and "
         "lists them in _dispatch_dump, but no table row ever uses them. They still count in the subset tests of "
         "the CompositeImplicitAutograd rules: a Dense kernel disables the decomposition on Autograd<Backend>, a "
         "Sparse or Quantized kernel makes AutogradOther ambiguous. A fallback on a building block is accepted and "
         "serves no row at all.",
         "", "B.7", check_building_block_key},
    Rule{"unparseable-key", "UnparseableKey", Severity::Info,
         "A Python kernel (boxed-only, no signature) on a dispatch key that Python cannot name.",
         "Most per-backend runtime keys exist and have table rows but are missing from parseDispatchKey's table "
         "(e.g. AutogradHIP, QuantizedXLA, SparseMeta in 1.13). A kernel registered from Python (torch.library, "
         "boxed_only = true) on such a key cannot be written: the registration raises.",
         "could not parse dispatch key: <name>", "A.5", check_unparseable_key},
    Rule{"unreachable-kernel", "UnreachableKernel", Severity::Warning,
         "A kernel on an alias key that no dispatch-table row resolves to.",
         "Alias kernels fill rows only where nothing of higher precedence does (direct kernel > "
         "CompositeExplicitAutogradNonFunctional > CompositeExplicitAutograd > CompositeImplicitAutogradNestedTensor "
         "> CompositeImplicitAutograd > Autograd). A typical case: an Autograd kernel next to a "
         "CompositeImplicitAutograd kernel and no backend kernels, where the decomposition takes every autograd row "
         "and the Autograd kernel never runs.",
         "", "C.2", check_unreachable_kernel},
};

}  // namespace

std::span<const Rule> rules() { return kRules; }

const Rule* find_rule(std::string_view id) {
  for (const auto& r : kRules)
    if (r.id == id) return &r;
  return nullptr;
}

std::size_t rule_index(std::string_view id) {
  for (std::size_t i = 0; i < kRules.size(); ++i)
    if (kRules[i].id == id) return i;
  return kRules.size();
}

Expected<const Rule*, Diagnostic> rule_by_id(std::string_view id) {
  if (const Rule* rule = find_rule(id)) return rule;
  std::vector<std::string_view> ids;
  for (const auto& r : kRules) ids.push_back(r.id);
  return unexpected(make_error(fmt::format("unknown lint rule '{}'{}", id, did_you_mean(id, ids))));
}

void sort_findings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.where.file, a.where.line, a.where.column, a.rule, a.message, a.op, a.key) <
           std::tie(b.where.file, b.where.line, b.where.column, b.rule, b.message, b.op, b.key);
  });
}

std::vector<Finding> run(const LoadResult& loaded) {
  const Resolver resolver(loaded.registry);
  const CheckContext ctx{loaded.registry, loaded.registry.profile(), resolver, loaded.refusals,
                         loaded.registry.sorted_operators()};
  std::vector<Finding> all;
  std::vector<Finding> one;
  for (const auto& rule : kRules) {
    one.clear();
    rule.check(ctx, one);
    for (auto& f : one) {
      f.rule = std::string(rule.id);
      f.severity = rule.severity;
      all.push_back(std::move(f));
    }
  }
  sort_findings(all);
  return all;
}

}  // namespace dt::lint
