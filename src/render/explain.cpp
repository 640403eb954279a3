#include "render/explain.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/text.hpp"

namespace dt {

namespace {

struct Text {
  const Registry& reg;
  bool color;
  [[nodiscard]] std::string key(KeyId k) const { return reg.profile().display_name(k, reg.privateuse1_name); }
  [[nodiscard]] std::string paint(std::string_view s, std::string_view sgr) const { return dt::paint(s, sgr, color); }
  [[nodiscard]] std::string kernel(const Kernel& k) const {
    return fmt::format("{}{}{}", k.fallthrough ? "fallthrough " : "", printable(k.debug),
                       k.where.known() ? paint(fmt::format("  ({})", to_string(k.where)), "2") : "");
  }
};

// Registered non-alias keys of `op` whose keyset lies inside `ks`.
std::vector<std::string> registered_in(const Text& t, const Operator& op, KeySet ks) {
  const Profile& p = t.reg.profile();
  std::vector<std::string> out;
  for (const auto& kk : op.kernels)
    if (!kk.kernels.empty() && !p.is_alias(kk.key) && ks != 0 && Profile::has(ks, p.key(kk.key).bits))
      out.push_back(t.key(kk.key));
  return out;
}

std::string question(const Text& t, const TraceStep& s, KeyId key) {
  const std::string k = t.key(key);
  if (std::string_view(s.step) == "1") return fmt::format("a kernel registered on {} itself?", k);
  if (std::string_view(s.step) == "3") return fmt::format("a backend fallback registered for {}?", k);
  return fmt::format("does {} cover {}?", t.key(s.key), k);
}

std::string answer(const Text& t, const TraceStep& s, const Fallback* fallback) {
  if (std::string_view(s.step) == "3") {
    if (fallback == nullptr) return "no";
    return fmt::format("yes: {}{}{}", fallback->fallthrough ? "fallthrough " : "", printable(fallback->debug),
                       fallback->core ? t.paint("  (PyTorch's own)", "2") : "");
  }
  if (!s.applies) return "no";
  if (s.kernel == nullptr) return std::string_view(s.step) == "1" ? "no" : "yes, but no kernel is registered on it";
  return fmt::format("{}{}",
                     std::string_view(s.step) == "1" ? "yes: " : "yes, and it has a kernel: ", t.kernel(*s.kernel));
}

std::string meaning(const Text& t, const Resolver& r, const Resolver::OpView& view, KeyId key, const Entry& e) {
  const Operator& op = *view.op;
  const Profile& p = t.reg.profile();
  const std::string k = t.key(key);
  if (e.valid() && e.fallthrough())
    return fmt::format(
        "A fallthrough: at run time {} is masked out of this operator's dispatch key set, so a call "
        "continues at the next key below it.",
        k);
  switch (e.why) {
    case Provenance::Kernel:
      return fmt::format("Calls that dispatch to {} run this kernel.", k);
    case Provenance::DefaultBackend:
      return fmt::format(
          "{} is a backend key, and the operator's {} kernel serves every backend without a kernel "
          "of its own.",
          k, p.name_of(e.source));
    case Provenance::Nested:
      return "The CompositeImplicitAutogradNestedTensor kernel decomposes the operator for nested tensors.";
    case Provenance::Math:
      return "The CompositeImplicitAutograd kernel runs and decomposes the operator into other operators; autograd "
             "and every backend work through those.";
    case Provenance::AmbiguousAutogradOther:
      return fmt::format(
          "Calling the operator with autograd on a backend that shares AutogradOther raises:\n  {} has kernels "
          "registered to both CompositeImplicitAutograd and a backend mapped to AutogradOther. This makes the "
          "backend kernel unreachable; the dispatcher will always prefer the CompositeImplicitAutograd lowering "
          "(see Note [Ambiguity in AutogradOther kernel]). If you want to override CompositeImplicitAutograd, "
          "please open an issue to request a dedicated Autograd dispatch key for the backend.\nFix: register a "
          "kernel on AutogradOther, or drop the CompositeImplicitAutograd kernel.",
          op.name);
    case Provenance::Autograd:
      return "The operator's Autograd kernel records the backward and redispatches to the backend below.";
    case Provenance::Batched:
      return "The FuncTorchBatchedDecomposition kernel serves vmap for this operator.";
    case Provenance::BackendFallback:
      return fmt::format(
          "No kernel of this operator covers {}; the backend fallback registered for {} (for every "
          "operator) runs.",
          k, k);
    case Provenance::Missing:
      break;
  }
  // G.4: the error a call would raise, with the keys that do have a kernel.
  std::vector<std::string> valid;
  const auto& keys = p.runtime_keys();
  for (std::size_t slot = 1; slot < keys.size(); ++slot)  // slot 0 is Undefined
    if (r.compute(view, slot).valid()) valid.push_back(p.name_of(keys[slot]));
  if (key == kUndefined)
    return fmt::format(
        "No kernel: a call without tensor arguments raises \"There were no tensor arguments to this "
        "function (e.g., you passed an empty list of Tensors), but no fallback function is registered "
        "for schema {}. ... Available functions are [{}].\"",
        op.name, fmt::join(valid, ", "));
  return fmt::format(
      "No kernel: a call that dispatches to {} raises NotImplementedError \"Could not run '{}' with "
      "arguments from the '{}' backend. ... '{}' is only available for these backends: [{}].\"",
      k, op.name, p.name_of(key), op.name, fmt::join(valid, ", "));
}

}  // namespace

void render_explain(const Resolver& r, const Operator& op, KeyId key, const HumanStyle& style, std::string& out) {
  const Registry& reg = r.registry();
  const Profile& p = reg.profile();
  const Text t{reg, style.color};
  if (p.key(key).slot < 0) {  // callers pass runtime keys (--keys expands aliases)
    out += fmt::format("{} is not a runtime key: it has no row in the dispatch table\n", t.key(key));
    return;
  }
  Resolver::OpView view;
  r.prepare(op, view);
  Trace trace;
  const Entry e = r.compute(view, static_cast<std::size_t>(p.key(key).slot), &trace);

  out += t.paint(op.def ? op.def->printed : op.name, "1") + "\n";
  out += fmt::format("{} resolves {} like computeDispatchTableEntryWithDebug ({}):\n", t.key(key), op.name, p.name());
  std::size_t width = 0;
  for (const auto& s : trace) width = std::max(width, question(t, s, key).size());
  for (const auto& s : trace) {
    out += fmt::format("  {:<5} {:<{}}  {}\n", s.step, question(t, s, key), width,
                       s.taken ? t.paint(answer(t, s, e.fallback), "32") : answer(t, s, e.fallback));
    if (s.why == "ambiguous")
      out += fmt::format("        but the operator also has kernels on keys that share AutogradOther: {}\n",
                         fmt::join(registered_in(t, op, p.autogradother_backends()), ", "));
    if (s.why == "has_backend_kernel") {
      const MathSkip m = r.math_skip(op, key);
      std::vector<std::string> why;
      for (KeyId b : m.backend_kernels) why.push_back("a kernel on " + t.key(b));
      if (m.cea_present) why.emplace_back("a CompositeExplicitAutograd kernel");
      out += fmt::format("        but it is not used: the operator has {} (has_backend_kernel)\n",
                         fmt::join(why, " and "));
    }
  }
  out += "result: ";
  if (e.valid())
    out += t.paint(fmt::format("{}: {}{} [{}]", p.name_of(key), e.fallthrough() ? "fallthrough " : "",
                               printable(e.debug()), to_string(e.why)),
                   "1");
  else
    out += t.paint("missing (no row in the table)", "1;31");
  out += '\n';
  out += meaning(t, r, view, key, e);
  out += '\n';
}

}  // namespace dt
