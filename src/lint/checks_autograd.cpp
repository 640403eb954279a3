// Lint rules about what calls can reach: missing-autograd (backend kernels
// whose autograd key has no autograd kernel) and no-tensor-arguments.
#include <fmt/format.h>

#include <algorithm>

#include "base/text.hpp"
#include "lint/check.hpp"

namespace dt::lint {

// ---- schema facts (DispatchKeyExtractor, FunctionSchema) ----

namespace {

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
  if (!op.def->differentiable) return false;  // declared: integer or bool outputs only
  const Schema& s = op.def->schema;
  if (s.is_varret) return true;
  const auto tensor = [](const SchemaArgument& a) { return is_tensor_type(comparable_type(a.type)); };
  return std::any_of(s.returns.begin(), s.returns.end(), tensor) ||
         std::any_of(s.arguments.begin(), s.arguments.end(),
                     [&](const SchemaArgument& a) { return tensor(a) && a.type.find('!') != std::string::npos; });
}

// Whether an autograd key's entry lacks an autograd kernel: it resolves to
// nothing (calls fail), or to a backend fallback.
bool lacks_autograd(const Entry& e) { return e.why == Provenance::Missing || e.why == Provenance::BackendFallback; }

// What `keys` (autograd keys that all resolve like `e`) resolve to, and the consequence.
std::string missing_autograd_effect(const CheckContext& c, const Operator& op, const Entry& e,
                                    const std::vector<KeyId>& keys) {
  if (e.why == Provenance::Missing)
    return fmt::format(
        "nothing: calls fail with \"Could not run '{}' with arguments from the '{}' backend\"{}, even "
        "without requires_grad (the key is in every tensor's keyset outside inference mode)",
        op.name, c.p.error_key_name(keys.front(), c.reg.privateuse1_name),
        keys.size() > 1 ? " (and likewise for the others)" : "");
  if (e.fallback->fallthrough)
    return "the backend fallback, a fallthrough: outputs of inputs that require grad are not connected to the "
           "autograd graph (gradients are silently lost)";
  // PyTorch's own fallback whose line the profile does not know reads as such, not as placeholders.
  if (const std::string readable = readable_debug(e.fallback->debug); readable != e.fallback->debug)
    return readable + ": no derivative is defined for this operator";
  return fmt::format("the backend fallback '{}': no derivative is defined for this operator", e.fallback->debug);
}

// "K1, K2 resolve to ...; K3 resolves to ..." for autograd keys grouped by what they resolve to.
std::string describe_missing_autograd(const CheckContext& c, const Operator& op, const std::vector<KeyId>& keys) {
  std::vector<std::pair<Entry, std::vector<KeyId>>> groups;
  std::string stale;
  for (KeyId a : keys) {
    const KeyAnswer answer = runtime_answer(c, op, a);
    const Entry e = answer.entry;  // what calls do (the runtime entry)
    if (stale.empty()) stale = stale_suffix(c, answer);
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
  return join(parts, "; ") + stale;
}

// Quantized tensors cannot require grad (their dtypes are not floating
// point), so their autograd key falling through is intended.
bool is_quantized(const CheckContext& c, KeyId k) {
  const auto q = c.p.find("Quantized");
  return q && c.p.key(k).kind == KeyKind::PerBackend && c.p.key(k).bits.has_all(c.p.key(*q).bits);
}

// The autograd key a tensor of runtime key `k` carries: for a backend key its
// backend's (getAutogradKeyFromBackend, dispatcher-notes B.4); otherwise the autograd key
// whose backend set (dispatcher-notes B.3) contains `k` (AutogradNestedTensor for
// NestedTensor<B>); kUndefined for keys no tensor carries with an autograd key.
KeyId autograd_key_of(const CheckContext& c, KeyId k) {
  if (c.p.is_backend_dispatch_key(k)) return c.p.autograd_key_for_backend_of(k);
  const auto other = c.p.find("AutogradOther");
  for (KeyId a : c.p.alias_members(alias(c, AliasRule::Autograd)))
    if (a != other && c.p.backend_keyset_from_autograd(a).has_all(c.p.key(k).bits)) return a;
  return kUndefined;
}

// A kernel that makes autograd keys need an autograd kernel: a backend kernel
// (not a fallthrough, building block or quantized key) or a
// CompositeExplicitAutograd[NonFunctional] kernel, which fills backend keys.
struct AutogradSource {
  KeyId key = kUndefined;
  const Kernel* kernel = nullptr;
  std::vector<KeyId> autograd_keys;  // the autograd keys of the backends it serves
};

std::vector<AutogradSource> autograd_sources(const CheckContext& c, const Operator& op) {
  std::vector<AutogradSource> out;
  for (const auto& kk : op.kernels) {
    if (kk.kernels.empty() || kk.kernels.front().fallthrough) continue;
    const KeyInfo& info = c.p.key(kk.key);
    if (info.kind == KeyKind::Alias || info.kind == KeyKind::BuildingBlock || is_quantized(c, kk.key)) continue;
    if (const KeyId a = autograd_key_of(c, kk.key); a != kUndefined) out.push_back({kk.key, &kk.kernels.front(), {a}});
  }
  std::stable_sort(out.begin(), out.end(), [&](const AutogradSource& x, const AutogradSource& y) {
    return c.p.key(x.autograd_keys.front()).slot < c.p.key(y.autograd_keys.front()).slot;
  });
  // The composite kernel serves the backends without a kernel of their own:
  // the autograd keys the backend kernels above answer for are theirs.
  std::vector<KeyId> claimed;
  for (const AutogradSource& s : out) claimed.push_back(s.autograd_keys.front());
  for (AliasRule r : {AliasRule::CEA, AliasRule::CEANF}) {
    const KeyId ck = alias(c, r);
    const Kernel* kern = active(op, ck);
    if (kern == nullptr || kern->fallthrough) continue;
    AutogradSource s{ck, kern, {}};
    for (KeyId m : c.p.alias_members(ck)) {
      if (is_quantized(c, m)) continue;
      const KeyId a = c.p.autograd_key_for_backend_of(m);
      if (std::find(claimed.begin(), claimed.end(), a) == claimed.end() &&
          std::find(s.autograd_keys.begin(), s.autograd_keys.end(), a) == s.autograd_keys.end())
        s.autograd_keys.push_back(a);
    }
    if (!s.autograd_keys.empty()) out.push_back(std::move(s));
  }
  return out;
}

constexpr std::string_view kMissingAutogradFix =
    "Register an autograd kernel (on Autograd, or Autograd<Backend>), or make the operator "
    "CompositeImplicitAutograd so that autograd comes from its decomposition.";

}  // namespace

// One finding per operator: every backend (and CompositeExplicitAutograd)
// kernel whose autograd key lacks an autograd kernel, at the last of them in
// (file, line, column) order.
void check_missing_autograd(const CheckContext& c, std::vector<Finding>& out) {
  for (const Operator* op : c.ops) {
    // A dangling impl cannot be called at all: impl-without-def says so.
    if (!op->def) continue;
    // Without a Tensor argument no autograd key is ever dispatched to (no-tensor-arguments).
    if (!has_dispatch_arguments(*op)) continue;
    // Nothing for autograd to track (no Tensor output, no Tensor written in place).
    if (!can_carry_gradients(*op)) continue;
    std::vector<const AutogradSource*> lacking_sources;
    std::vector<KeyId> lacking;
    const std::vector<AutogradSource> sources = autograd_sources(c, *op);
    for (const AutogradSource& s : sources) {
      bool lacks = false;
      for (KeyId a : s.autograd_keys)
        if (lacks_autograd(runtime_answer(c, *op, a).entry)) {
          lacks = true;
          if (std::find(lacking.begin(), lacking.end(), a) == lacking.end()) lacking.push_back(a);
        }
      if (lacks) lacking_sources.push_back(&s);
    }
    if (lacking.empty()) continue;
    std::sort(lacking.begin(), lacking.end(), [&](KeyId x, KeyId y) { return c.p.key(x).slot < c.p.key(y).slot; });
    std::vector<KeyId> keys;
    for (const AutogradSource* s : lacking_sources) keys.push_back(s->key);
    // Anchored at the last kernel on these keys in (file, line, column) order,
    // overridden ones included, so that it is the same in every file order.
    std::vector<std::pair<KeyId, const Kernel*>> placed;
    for (const AutogradSource* s : lacking_sources)
      for (const Kernel& kern : *op->all(s->key)) placed.emplace_back(s->key, &kern);
    std::stable_sort(placed.begin(), placed.end(),
                     [](const auto& a, const auto& b) { return a.second->where < b.second->where; });
    Finding f = finding_at(placed.back().second->where,
                           fmt::format("operator {} has {} for {} but no autograd kernel: {}", op->name,
                                       keys.size() == 1 ? "a kernel" : "kernels", join_keys(c, keys),
                                       describe_missing_autograd(c, *op, lacking)),
                           op->name, key_name(c, alias(c, AliasRule::Autograd)));
    for (std::size_t i = 0; i + 1 < placed.size(); ++i) {
      const auto& [k, kern] = placed[i];
      f.notes.push_back({kern->where, fmt::format("kernel '{}' on {}{} is registered here", kern->debug, key_name(c, k),
                                                  kern == op->get(k) ? "" : " (overridden)")});
    }
    f.fix = std::string(kMissingAutogradFix);
    out.push_back(std::move(f));
  }
}

// ---- no-tensor-arguments ----------------------------------------------------------------------------

namespace {

// Kernels on keys only a tensor brings into a call: backend keys, their
// autograd keys, NestedTensor<B>.
bool is_tensor_key(const CheckContext& c, KeyId k) {
  return c.p.is_runtime(k) && k != kUndefined &&
         (autograd_key_of(c, k) != kUndefined || c.p.in_alias(k, AliasRule::Autograd));
}

}  // namespace

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

}  // namespace dt::lint
