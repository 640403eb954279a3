#include "render/explain.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "base/text.hpp"

namespace dt {

namespace {

bool is_step(const ExplainStep& s, std::string_view label) { return s.step == label; }

}  // namespace

Explainer::Explainer(const Resolver& r, const Operator& op, const RuntimeTables* runtime)
    : r_(&r), reg_(&r.registry()), runtime_(runtime) {
  r.prepare(op, view_);
  if (runtime_ == nullptr) {
    own_runtime_ = std::make_unique<RuntimeTables>(r);
    runtime_ = own_runtime_.get();
  }
}

std::string Explainer::key_name(KeyId k) const { return reg_->profile().display_name(k, reg_->privateuse1_name); }

Explanation Explainer::explain(KeyId key) const {
  const Profile& p = reg_->profile();
  Explanation e;
  e.key = key;
  Trace trace;
  trace.reserve(8);  // the steps of dispatcher-notes C.2
  e.result = r_->compute(view_, static_cast<std::size_t>(p.key(key).slot), &trace);
  e.steps.reserve(trace.size());
  e.runtime = runtime_->answer(op(), key);
  for (const TraceStep& t : trace) {
    ExplainStep s;
    s.step = t.step;
    s.subject = t.key;
    s.about_alias = !is_step(s, "1") && !is_step(s, "3");
    s.applies = t.applies;
    s.kernel = t.applies ? t.kernel : nullptr;  // a kernel on an alias that does not cover the key is not found
    s.taken = t.taken;
    if (is_step(s, "3")) {
      s.fallback = e.result.fallback;
      s.applies = s.fallback != nullptr;
      if (s.fallback != nullptr && s.fallback->core) s.note = "PyTorch's own";
    } else if (t.why == "ambiguous") {
      std::vector<std::string> keys;  // registered non-alias keys that share AutogradOther
      const KeySet shared = p.autogradother_backends();
      for (const auto& kk : op().kernels)
        if (!kk.kernels.empty() && !p.is_alias(kk.key) && !shared.empty() && shared.has_all(p.key(kk.key).bits))
          keys.push_back(key_name(kk.key));
      s.note = fmt::format("the operator also has kernels on keys that share AutogradOther: {}", fmt::join(keys, ", "));
    } else if (t.why == "has_backend_kernel") {
      const MathSkip m = r_->math_skip(op(), key);
      std::vector<std::string> why;
      for (KeyId b : m.backend_kernels) why.push_back("a kernel on " + key_name(b));
      if (m.cea_present) why.emplace_back("a CompositeExplicitAutograd kernel");
      s.note = fmt::format("it is not used: the operator has {} (has_backend_kernel)", fmt::join(why, " and "));
    }
    e.steps.push_back(std::move(s));
  }
  return e;
}

std::string Explainer::question(const Explanation& e, const ExplainStep& s) const {
  return question(s, key_name(e.key));
}

std::string Explainer::question(const ExplainStep& s, std::string_view k) const {
  if (is_step(s, "1")) return fmt::format("a kernel registered on {} itself?", k);
  if (is_step(s, "3")) return fmt::format("a backend fallback registered for {}?", k);
  return fmt::format("does {} cover {}?", key_name(s.subject), k);
}

std::string Explainer::kernel_text(const Kernel& k, bool color) const {
  return fmt::format("{}{}{}", k.fallthrough ? "fallthrough " : "", printable(readable_debug(k.debug)),
                     k.where.known() ? paint(fmt::format("  ({})", to_string(k.where)), "2", color) : "");
}

std::string Explainer::answer(const ExplainStep& s, bool color) const {
  if (is_step(s, "3")) {
    const Fallback* f = s.fallback;
    if (f == nullptr) return "no";
    const std::string debug = readable_debug(f->debug);
    // A placeholder text already says whose it is.
    const bool says_whose = debug != f->debug;
    return fmt::format("yes: {}{}{}", f->fallthrough ? "fallthrough " : "", printable(debug),
                       s.note.empty() || says_whose ? "" : paint(fmt::format("  ({})", s.note), "2", color));
  }
  if (!s.applies) return "no";
  if (s.kernel == nullptr) return is_step(s, "1") ? "no" : "yes, but no kernel is registered on it";
  return (is_step(s, "1") ? "yes: " : "yes, and it has a kernel: ") + kernel_text(*s.kernel, color);
}

std::string Explainer::note_line(const ExplainStep& s) const {
  if (s.note.empty() || is_step(s, "3")) return {};
  return "but " + s.note;
}

const std::string& Explainer::available() const {
  if (!available_) {
    std::vector<std::string> valid;
    const auto& keys = reg_->profile().runtime_keys();
    for (std::size_t slot = 1; slot < keys.size(); ++slot)  // slot 0 is Undefined
      if (r_->compute(view_, slot).valid()) valid.push_back(key_name(keys[slot]));
    available_ = fmt::format("{}", fmt::join(valid, ", "));
  }
  return *available_;
}

std::string Explainer::runtime_note(const Explanation& e) const {
  return stale_note(reg_->profile(), reg_->privateuse1_name, e.runtime);
}

std::string Explainer::meaning(const Explanation& e) const {
  return meaning(e, op().name, available(), key_name(e.key));
}

std::string Explainer::meaning(const Explanation& e, std::string_view op_name, std::string_view available,
                               std::string_view k) const {
  // A stale row: calls do not do what the dumps' entry says.
  if (const std::string note = runtime_note(e); !note.empty()) return "At run time: " + note;
  const Entry& r = e.result;
  if (r.valid() && r.fallthrough())
    return fmt::format(
        "A fallthrough: at run time {} is masked out of this operator's dispatch key set, so a call "
        "continues at the next key below it.",
        k);
  switch (r.why) {
    case Provenance::Kernel:
      if (r.kernel != nullptr && r.kernel->custom_op == CustomOpKernel::FakeUnset)
        return fmt::format("Calls that dispatch to {} run custom_op's fake kernel, which raises without "
                           "register_fake:\n  RuntimeError: {}",
                           k, custom_op_text(reg_->profile().torch_library().no_fake_error, op()));
      return fmt::format("Calls that dispatch to {} run this kernel.", k);
    case Provenance::DefaultBackend:
      return fmt::format(
          "{} is a backend key, and the operator's {} kernel serves every backend without a kernel "
          "of its own.",
          k, key_name(r.source));
    case Provenance::Nested:
      return "The CompositeImplicitAutogradNestedTensor kernel decomposes the operator for nested tensors.";
    case Provenance::Math:
      return "The CompositeImplicitAutograd kernel runs and decomposes the operator into other operators; autograd "
             "and every backend work through those.";
    case Provenance::AmbiguousAutogradOther:
      return fmt::format(
          "A call that reaches AutogradOther raises: on a tensor whose autograd key is AutogradOther (keys "
          "--meanings), whether or not it requires grad, under no_grad too (inference_mode excludes the "
          "autograd keys):\n  {} has kernels "
          "registered to both CompositeImplicitAutograd and a backend mapped to AutogradOther. This makes the "
          "backend kernel unreachable; the dispatcher will always prefer the CompositeImplicitAutograd lowering "
          "(see Note [Ambiguity in AutogradOther kernel]). If you want to override CompositeImplicitAutograd, "
          "please open an issue to request a dedicated Autograd dispatch key for the backend.\nFix: register a "
          "kernel on AutogradOther, or drop the CompositeImplicitAutograd kernel.",
          op_name);
    case Provenance::Autograd:
      if (r.kernel != nullptr && r.kernel->custom_op == CustomOpKernel::AutogradUnset)
        return fmt::format("custom_op's Autograd kernel records a backward (with grad mode on and an input that "
                           "requires grad) and redispatches to the backend below; without register_autograd, "
                           "backward through its outputs raises:\n  RuntimeError: {}",
                           custom_op_text(reg_->profile().torch_library().no_autograd_error, op()));
      return "The operator's Autograd kernel records the backward and redispatches to the backend below.";
    case Provenance::Batched:
      return "The FuncTorchBatchedDecomposition kernel serves vmap for this operator.";
    case Provenance::BackendFallback:
      if (e.runtime.call == KeyCall::FallbackRaises)
        return fmt::format(
            "No kernel of this operator covers {0}; PyTorch's backend fallback for {0} runs and raises ({1}).", k,
            reg_->profile().name_of(e.key) == "Meta"
                ? "NotImplementedError: no Meta kernel or fake implementation is registered for the operator"
                : "named tensors are not supported by this operator");
      if (const Fallback* f = e.result.fallback; f != nullptr && f->raises)  // [[fallback]] raises = true
        return fmt::format(
            "No kernel of this operator covers {}; the backend fallback registered for {} (for every "
            "operator) runs and raises{}",
            k, k, f->message.empty() ? "." : fmt::format(" \"{}\"", printable(f->message)));
      return fmt::format(
          "No kernel of this operator covers {}; the backend fallback registered for {} (for every "
          "operator) runs.",
          k, k);
    case Provenance::Missing:
      break;
  }
  if (e.runtime.call == KeyCall::InvariantAssert)
    return fmt::format(
        "No kernel, and the error is not reported: the runtime table of {} is stale elsewhere, so a call that "
        "dispatches to {} raises an internal assert of OperatorEntry::checkInvariants (which prints the canonical "
        "state) before the \"Could not run\" error.",
        op_name, k);
  // OperatorEntry::reportError: the error a call would raise, with the keys that do have a kernel.
  if (e.key == kUndefined)
    return fmt::format(
        "No kernel: a call without tensor arguments raises \"There were no tensor arguments to this "
        "function (e.g., you passed an empty list of Tensors), but no fallback function is registered "
        "for schema {}. ... Available functions are [{}].\"",
        op_name, available);
  return fmt::format(
      "No kernel: a call that dispatches to {} raises NotImplementedError \"Could not run '{}' with "
      "arguments from the '{}' backend. ... '{}' is only available for these backends: [{}].\"",
      k, op_name,
      // the headline's own naming (2.x renames PrivateUse1 there only); a template's placeholder stays
      k == key_name(e.key) ? reg_->profile().error_key_name(e.key, reg_->privateuse1_name) : std::string(k), op_name,
      available);
}

void render_explain(const Explainer& x, const Explanation& e, const HumanStyle& style, std::string& out) {
  const Operator& op = x.op();
  const auto paint_if = [&](std::string_view text, std::string_view sgr) { return paint(text, sgr, style.color); };
  out += paint_if(op.def ? op.def->printed : op.name, "1") + "\n";
  out += fmt::format("{} resolves {} like computeDispatchTableEntryWithDebug ({}):\n", x.key_name(e.key), op.name,
                     x.registry().profile().name());
  std::vector<std::string> questions;
  std::size_t width = 0;
  for (const auto& s : e.steps) {
    questions.push_back(x.question(e, s));
    width = std::max(width, questions.back().size());
  }
  for (std::size_t i = 0; i < e.steps.size(); ++i) {
    const ExplainStep& s = e.steps[i];
    const std::string answer = x.answer(s, style.color);
    out += fmt::format("  {:<5} {:<{}}  {}\n", s.step, questions[i], width, s.taken ? paint_if(answer, "32") : answer);
    if (const std::string note = x.note_line(s); !note.empty()) out += "        " + note + "\n";
  }
  out += "result: ";
  const Entry& r = e.result;
  if (r.valid())
    out += paint_if(fmt::format("{}: {}{} [{}]", x.key_name(e.key), r.fallthrough() ? "fallthrough " : "",
                                printable(readable_debug(r.debug())), to_string(r.why)),
                    "1");
  else
    out += paint_if("missing (no row in the table)", "1;31");
  out += '\n';
  out += x.meaning(e);
  out += '\n';
}

void render_explain(const Explainer& x, KeyId key, const HumanStyle& style, std::string& out) {
  if (x.registry().profile().key(key).slot < 0) {  // callers pass runtime keys (--keys expands aliases)
    out += fmt::format("{} is not a runtime key: it has no row in the dispatch table\n", x.key_name(key));
    return;
  }
  render_explain(x, x.explain(key), style, out);
}

void render_explain(const Resolver& r, const Operator& op, KeyId key, const HumanStyle& style, std::string& out) {
  render_explain(Explainer(r, op), key, style, out);
}

}  // namespace dt
