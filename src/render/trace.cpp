#include "render/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "base/json_writer.hpp"
#include "base/text.hpp"
#include "readers/release_yaml.hpp"
#include "registry/library.hpp"
#include "render/raw.hpp"
#include "render/trace_does.hpp"

namespace dt {

namespace {

const Profile& profile_of(const TraceView& v) { return v.ks->profile(); }
const Registry& registry_of(const TraceView& v) { return v.table->resolver().registry(); }
const Operator& op_of(const TraceView& v) { return v.table->op(); }

std::string key_list(const TraceView& v, KeySet ks) {
  const auto names = v.ks->names(ks, registry_of(v).privateuse1_name);
  return names.empty() ? std::string("(empty)") : join(names, ", ");
}

// A TLS set: functionality keys, and backend bits if any (a Meta include adds Dense + the Meta bit).
std::string tls_list(const TraceView& v, KeySet ks) {
  std::string out = join(v.ks->functionality_names(ks), ", ");
  const auto backends = v.ks->backend_names(ks);
  if (!backends.empty()) out += (out.empty() ? "" : "; ") + std::string("backend bits ") + join(backends, ", ");
  return out.empty() ? std::string("(empty)") : out;
}

std::string entry_text(const Profile& p, const Entry& e) { return entry_words(p, e); }

// A picked key as every other key of the trace is named (a renamed PrivateUse1 by its new name where the
// release shows it so).
std::string picked_name(const TraceView& v, const HighestKey& h) {
  return h.key == kUndefined ? h.name : profile_of(v).display_name(h.key, registry_of(v).privateuse1_name);
}

std::string why_text(const TraceView& v, const HighestKey& h) {
  const Profile& p = profile_of(v);
  if (h.functionality == kUndefined) return "the key set is empty: the Undefined slot";
  if (p.key(h.functionality).kind != KeyKind::BuildingBlock)
    return fmt::format("the highest functionality is {}", p.name_of(h.functionality));
  if (h.backend < 0)
    return fmt::format(
        "the highest functionality is {}, and no backend bit is set: the first backend's slot, "
        "named {}",
        p.name_of(h.functionality), h.name);
  const std::string& backend = p.backends()[static_cast<std::size_t>(h.backend)];
  const auto pu1 = p.find("PrivateUse1");
  return fmt::format("the highest functionality is {}, the highest backend {}", p.name_of(h.functionality),
                     backend == "PrivateUse1" && pu1 ? p.display_name(*pu1, registry_of(v).privateuse1_name)
                                                     : backend);
}

// The runtime keys with a valid entry, as listAllDispatchKeys prints them.
std::string available(const TraceView& v) {
  std::vector<std::string> names;
  for (KeyId k : v.trace->result.available) names.push_back(profile_of(v).name_of(k));
  return fmt::format("[{}]", join(names, ", "));
}

std::string computed_table(const TraceView& v) {
  std::string table;
  render_table_raw(v.table->resolver(), op_of(v), KeyFilter{}, table);
  return table;
}

std::string error_type(CallError e) {
  return e == CallError::CouldNotRun || e == CallError::NoTensorArguments || e == CallError::MetaNotImplemented
             ? "NotImplementedError"
             : "RuntimeError";
}


// The operator's name without its overload (FunctionSchema::operator_name().name).
std::string base_name(const Operator& op) {
  if (!op.def) return op.name.substr(0, op.name.find('.'));
  return op.def->schema.ns + "::" + op.def->schema.name;
}

// What backward prints or raises through the call's outputs (empty: nothing).
constexpr std::string_view kNoGradFn = "element 0 of tensors does not require grad and does not have a grad_fn";

std::string backward_warning(const TraceView& v) {
  const Backward b = v.trace->backward.what;
  if (b != Backward::Warn && b != Backward::WarnThroughAlias) return {};
  return replace_all(profile_of(v).quirks().autograd_fallback_warning, "{op}", base_name(op_of(v)));
}

// What backward raises through the call's outputs (empty: it does not raise).
std::string backward_error(const TraceView& v) {
  const Backward b = v.trace->backward.what;
  if (b == Backward::NoGraph) return std::string(kNoGradFn);
  if (b != Backward::NoFormula) return {};
  return custom_op_text(profile_of(v).torch_library().no_autograd_error, op_of(v));
}

std::string backward_summary(Backward b) {
  switch (b) {
    case Backward::NoInputRequiresGrad:
      return "no argument requires grad: no graph is recorded";
    case Backward::NoTensorOutputs:
      return "no Tensor output: nothing to backpropagate through";
    case Backward::AutogradKernel:
      return "computes what the autograd kernel recorded";
    case Backward::Warn:
      return "WARNS; a gradient flows only through the torch operators the kernel computes with (an opaque kernel "
             "gives none: the inputs' .grad stay None)";
    case Backward::WarnThroughAlias:
      return "WARNS; the gradient reaches the aliased input unchanged";
    case Backward::NoGraph:
      return "RAISES RuntimeError: the outputs have no grad_fn";
    case Backward::ThroughAlias:
      return "no warning; the gradient reaches the aliased input unchanged";
    case Backward::NoFormula:
      return "RAISES RuntimeError: no autograd formula was registered (register_autograd)";
    case Backward::Unknown:
      break;
  }
  return "not determined";
}

// The result's kind in the JSON ("kernel", "error", "torch_dispatch", "not_simulated").
const char* result_kind(Next n) {
  switch (n) {
    case Next::Error:
      return "error";
    case Next::TorchDispatch:
      return "torch_dispatch";
    case Next::NotSimulated:
      return "not_simulated";
    default:
      return "kernel";
  }
}

const CallStep* first_input_kernel(const CallTrace& t) {
  for (const auto& s : t.steps)
    if (s.entry.valid() && !s.pytorch && s.entry.why != Provenance::AmbiguousAutogradOther) return &s;
  return nullptr;
}

}  // namespace

std::string call_error_message(const TraceView& v) {
  const CallResult& r = v.trace->result;
  const std::string& op = op_of(v).name;
  const ProfileQuirks& q = profile_of(v).quirks();
  switch (r.error) {
    case CallError::CouldNotRun:
      return fmt::format(
          "Could not run '{}' with arguments from the '{}' backend. This could be because the operator doesn't exist "
          "for this backend, or was omitted during the selective/custom build process (if using custom build). If "
          "you are a Facebook employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for possible "
          "resolutions. '{}' is only available for these backends: {}.\n\n{}",
          op, profile_of(v).error_key_name(r.key_id, registry_of(v).privateuse1_name), op, available(v),
          computed_table(v));
    case CallError::NoTensorArguments:
      return fmt::format(
          "There were no tensor arguments to this function (e.g., you passed an empty list of Tensors), but no "
          "fallback function is registered for schema {}.  This usually means that this function requires a "
          "non-empty list of Tensors, or that you (the operator writer) forgot to register a fallback function.  "
          "Available functions are {}.\n\n{}",
          op, available(v), computed_table(v));
    case CallError::AmbiguousAutogradOther: {
      std::string state;
      render_registrations_raw(registry_of(v), op_of(v), KeyFilter{}, state);
      return fmt::format(
          "{}{} has kernels registered to both CompositeImplicitAutograd and a backend mapped to AutogradOther. This "
          "makes the backend kernel unreachable; the dispatcher will always prefer the CompositeImplicitAutograd "
          "lowering (see Note [Ambiguity in AutogradOther kernel]). If you want to override "
          "CompositeImplicitAutograd, please open an issue to request a dedicated Autograd dispatch key for the "
          "backend.\n{}\nCanonical state\n~~~~~~~~~~~\n{}\n\n",
          q.ambiguity_assert_prefix, op, q.ambiguity_hint, state);
    }
    case CallError::NamedNotSupported:
      return fmt::format(
          "{} is not yet supported with named tensors. Please drop names via `tensor = tensor.rename(None)`, call "
          "the op with an unnamed tensor, and set names on the result of the operation.",
          op);
    case CallError::InvariantAssert:
      return fmt::format(
          "(an internal assert of OperatorEntry::checkInvariants: the runtime table of {} is stale, "
          "so the error for '{}' is not reported; the assert prints the canonical state)",
          op, r.key);
    case CallError::PythonTlsAssert:
      return "(an internal assert of the Python fallback: tls_on_entry.has_value(), because PythonTLSSnapshot did "
             "not run)";
    case CallError::PythonNoInterpreter:
      return "(an internal assert of the Python fallback: no argument has a Python interpreter)";
    case CallError::FallthroughExecuted:
      return "(fallthrough_kernel was executed but it should have been short-circuited by the dispatcher)";
    case CallError::PyDispatcherAttributeError:
      return fmt::format("(an AttributeError from torch/_ops.py: Python cannot name the key '{}')", r.key);
    case CallError::PyDispatcherNoKernel:
      return "could not find kernel";
    case CallError::PyDispatcherAmbiguous:
      return "ambiguous autogradother kernel";
    case CallError::Loop:
      return "(the simulation did not end)";
    case CallError::MetaNotImplemented:
      return replace_all(q.meta_fallback_error, "{op}", op);
    case CallError::ZeroTensorMutable:  // the same in 1.13, 2.6, 2.14 (tools/gen_profile_runtime.py checks it)
      return "ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() if you "
             "want a mutable tensor.";
    case CallError::FunctionalizeAlias:
      return replace_all(q.functionalize_alias_error, "{schema}", op_of(v).def ? op_of(v).def->printed : op);
    case CallError::NoFakeImpl:
      return custom_op_text(profile_of(v).torch_library().no_fake_error, op_of(v));
    case CallError::None:
      break;
  }
  return {};
}

namespace {

void human_header(const TraceView& v, std::string& out) {
  const Operator& op = op_of(v);
  const BoundCall& c = *v.call;
  out += paint(op.def ? op.def->printed : op.name + "  (no schema: every --arg is one Tensor argument, none a Tensor?)",
               "1", v.color);
  if (!op.def)
    out += fmt::format(
        "\nnote: no file defines {0}: PyTorch cannot call it until it is defined (torch.ops finds no such "
        "operator; Dispatcher::findSchemaOrThrow raises \"Could not find schema for {0}\"); the trace shows where a "
        "call would dispatch, with the arguments given",
        op.name);
  out +=
      fmt::format("\na call from Python ({}): Tensor, Tensor?, Tensor[] and Tensor?[] arguments carry dispatch keys\n",
                  profile_of(v).name());
  std::vector<std::array<std::string, 4>> rows;
  for (const auto& a : c.args) {
    std::string value = a.text.empty() ? (a.items.empty() ? "(not given)" : "none (not given)") : a.text;
    rows.push_back({a.name, a.type, value, key_list(v, arguments_keyset(*v.ks, {a}))});
  }
  for (const auto& a : c.ignored) rows.push_back({a.name, a.type, "", "not a dispatch argument"});
  if (!v.extra.empty()) rows.push_back({"--keyset", "", "", key_list(v, v.extra)});
  std::size_t w[3] = {0, 0, 0};
  for (const auto& r : rows)
    for (std::size_t i = 0; i < 3; ++i) w[i] = std::max(w[i], r[i].size());
  out += "\narguments\n";
  if (rows.empty()) out += "  (none)\n";
  for (const auto& r : rows)
    out += fmt::format("  {:<{}}  {:<{}}  {:<{}}  {}\n", r[0], w[0], r[1], w[1], r[2], w[2], r[3]);
  out += "thread-local state\n";
  out += fmt::format("  included  {}\n  excluded  {}\n", tls_list(v, v.tls.included), tls_list(v, v.tls.excluded));
  out += fmt::format("  grad mode {}{}{}; requires_grad and no_grad change no key (the autograd kernel decides)\n",
                     v.tls.grad_mode ? "on" : "off", v.tls.inference_mode ? ", inference mode" : "",
                     v.tls.python_mode ? ", a TorchDispatchMode is active" : "");
}

// "(+BackendSelect, -AutocastCPU)": runtime keys a step added or removed.
std::string change(const TraceView& v, KeySet from, KeySet to) {
  const auto a = v.ks->names(from, registry_of(v).privateuse1_name);
  const auto b = v.ks->names(to, registry_of(v).privateuse1_name);
  std::vector<std::string> parts;
  for (const auto& k : b)
    if (std::find(a.begin(), a.end(), k) == a.end()) parts.push_back("+" + k);
  for (const auto& k : a)
    if (std::find(b.begin(), b.end(), k) == b.end()) parts.push_back("-" + k);
  return parts.empty() ? std::string() : fmt::format("  ({})", join(parts, ", "));
}

void human_fresh_call(const TraceView& v, const CallStep& s, int call, std::string& out) {
  out += paint(fmt::format("call {}{}", call, call == 1 ? "" : " (a fresh call: key set recomputed)"), "1", v.color) +
         "\n";
  if (call > 1)
    out += fmt::format("  thread-local state: included {}; excluded {}\n", tls_list(v, s.tls.included),
                       tls_list(v, s.tls.excluded));
  const std::string mask = s.mask_backend < 0
                               ? std::string("the operator's")
                               : profile_of(v).backends()[static_cast<std::size_t>(s.mask_backend)] + "'s";
  out += fmt::format("  arguments           {}\n", key_list(v, s.arguments));
  out += fmt::format("  with TLS            {}{}\n", key_list(v, s.unmasked), change(v, s.arguments, s.unmasked));
  out += fmt::format("  without fallthrough {}{}  ({} fallthrough mask)\n", key_list(v, s.keyset),
                     change(v, s.unmasked, s.keyset), mask);
}

// Who registered a step's kernel: PyTorch, or where in the input files.
std::string origin_text(const CallStep& s) {
  if (!s.entry.valid() || s.entry.why == Provenance::AmbiguousAutogradOther) return {};
  if (s.pytorch) return "  (PyTorch's)";
  const Location& where = s.entry.fallback != nullptr ? s.entry.fallback->where : s.entry.kernel->where;
  return where.known() ? fmt::format("  ({})", to_string(where)) : std::string();
}

void human_step(const TraceView& v, const CallStep& s, std::size_t n, std::string& out) {
  const Profile& p = profile_of(v);
  out += fmt::format("  {}. {}\n", n, paint(picked_name(v, s.picked), "1", v.color));
  out += fmt::format("     key set  {}\n", key_list(v, s.keyset));
  out += fmt::format("     picked   {}\n", why_text(v, s.picked));
  out += fmt::format("     kernel   {}{}\n", entry_text(p, s.entry), origin_text(s));
  if (s.stale) out += fmt::format("     note     {}\n", stale_note(p, registry_of(v).privateuse1_name, s.answer));
  out += fmt::format("     then     {}{}\n", s.assumed ? "(your kernel; as PyTorch's own for this key) " : "",
                     does_text(s.does));
  if (s.next == Next::Redispatch)
    out += fmt::format("     redispatch with {}{}\n", key_list(v, s.next_keyset), change(v, s.keyset, s.next_keyset));
}

void human_backward(const TraceView& v, std::string& out) {
  const BackwardResult& b = v.trace->backward;
  if (b.what == Backward::Unknown) return;
  out += paint("backward: ", "1", v.color) + backward_summary(b.what) + "\n";
  if (b.what != Backward::NoInputRequiresGrad && b.what != Backward::NoTensorOutputs)
    out += "  " + backward_why(b) + "\n";
  if (const std::string w = backward_warning(v); !w.empty()) out += "  warning: UserWarning: " + w + "\n";
  if (const std::string e = backward_error(v); !e.empty()) out += fmt::format("  error: RuntimeError: {}\n", e);
}

void human_result(const TraceView& v, std::string& out) {
  const CallTrace& t = *v.trace;
  const CallStep& last = t.steps.back();
  out += paint("result: ", "1", v.color);
  switch (t.result.how) {
    case Next::Error:
      out += fmt::format("the call raises {} ({})\n{}\n", error_type(t.result.error), to_string(t.result.error),
                         call_error_message(v));
      return;
    case Next::TorchDispatch:
      out += fmt::format("Python takes over: __torch_dispatch__ of the {}\n", t.result.torch_dispatch);
      return;
    case Next::NotSimulated:
      out += fmt::format("{}: {}; the trace stops here\n", picked_name(v, last.picked), does_text(last.does));
      return;
    default:
      out += fmt::format("{} runs {}\n", picked_name(v, last.picked), entry_text(profile_of(v), last.entry));
  }
}

}  // namespace

// Said when a step runs PyTorch's own kernel, or finds none, on a key a GPU
// (or other) build registers its own kernels on (issue 28): a CPU library does not have them,
// and --build's are torchgen's registrations from the yaml, an estimate.
std::string trace_library_note(const Registry& reg, const Profile& p, const CallTrace& t, BuildAsked build) {
  for (const CallStep& s : t.steps) {
    // PyTorch's kernel or fallback, or none (the call raises where a real build has a kernel).
    if ((!s.pytorch && s.entry.valid()) || s.picked.key == kUndefined) continue;
    const std::string key = p.name_of(s.picked.key);
    for (const auto& [name, keys] : build_backends()) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) continue;
      const std::string first(keys.front());
      if (build.name == name)
        return build_estimate_sentence(fmt::format("PyTorch's {} kernels here", first), build,
                                       reg.library() != nullptr ? reg.library()->origin() : std::string_view());
      if (library_has_backend(reg, first)) return {};
      return cpu_library_sentence(fmt::format("the {} step runs", key), name,
                                  reg.library() != nullptr ? reg.library()->origin() : std::string_view("no library"),
                                  p);
    }
  }
  return {};
}

void render_trace_human(const TraceView& v, std::string& out) {
  human_header(v, out);
  int call = 0;
  std::size_t n = 0;
  for (const auto& s : v.trace->steps) {
    out += '\n';
    if (s.fresh) human_fresh_call(v, s, ++call, out);
    human_step(v, s, ++n, out);
  }
  out += '\n';
  human_result(v, out);
  human_backward(v, out);
  if (!v.library_note.empty()) out += paint("note: ", "1", v.color) + v.library_note + "\n";
}

namespace {


void json_keys(JsonWriter& w, std::string_view name, const std::vector<std::string>& keys) {
  w.key(name);
  w.begin_array();
  for (const auto& k : keys) w.str(k);
  w.end_array();
}

void json_tls(JsonWriter& w, const TraceView& v, const ThreadLocalState& s) {
  w.key("tls");
  w.begin_object();
  for (const auto& [name, set] : {std::pair{"included", s.included}, std::pair{"excluded", s.excluded}}) {
    w.key(name);
    w.begin_object();
    json_keys(w, "functionality", v.ks->functionality_names(set));
    json_keys(w, "backends", v.ks->backend_names(set));
    w.end_object();
  }
  w.bool_member("grad_mode", s.grad_mode);
  w.bool_member("inference_mode", s.inference_mode);
  w.bool_member("python_mode", s.python_mode);
  w.end_object();
}

void json_entry(JsonWriter& w, const Profile& p, const Entry& e) {
  if (!e.valid()) {  // every member is present (docs/json.md): null when missing
    for (const char* m : {"kernel", "provenance", "source_key", "fallthrough"}) w.null_member(m);
    return;
  }
  w.member("kernel", e.debug());
  w.member("provenance", to_string(e.why));
  w.member("source_key", p.name_of(e.source));
  w.bool_member("fallthrough", e.fallthrough());
}

void json_arguments(JsonWriter& w, const TraceView& v) {
  w.key("arguments");
  w.begin_array();
  for (const auto& a : v.call->args) {
    w.begin_object();
    w.member("name", a.name);
    w.member("type", a.type);
    w.member("value", a.text);
    w.key("tensors");
    w.begin_array();
    for (const auto& t : a.items) {
      if (!t) {
        w.null();
        continue;
      }
      w.begin_object();
      w.member("words", t->text);
      auto bits = tensor_keyset(*v.ks, *t);
      json_keys(w, "keyset", v.ks->names(bits ? *bits : KeySet{}, registry_of(v).privateuse1_name));
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("ignored_arguments");
  w.begin_array();
  for (const auto& a : v.call->ignored) {
    w.begin_object();
    w.member("name", a.name);
    w.member("type", a.type);
    w.end_object();
  }
  w.end_array();
}

void json_step(JsonWriter& w, const TraceView& v, const CallStep& s, std::size_t n) {
  const Profile& p = profile_of(v);
  const std::string& pu1 = registry_of(v).privateuse1_name;
  w.begin_object();
  w.member("step", std::uint64_t{n});
  w.member("call", s.fresh ? "fresh" : "redispatch");
  if (s.fresh) {
    json_keys(w, "arguments", v.ks->names(s.arguments, pu1));
    json_keys(w, "with_tls", v.ks->names(s.unmasked, pu1));
    w.nonempty_member("mask_backend",
             s.mask_backend < 0 ? std::string_view()
                                : std::string_view(p.backends()[static_cast<std::size_t>(s.mask_backend)]));
  } else {  // a redispatch looks up the previous step's next_keyset as is
    for (const char* m : {"arguments", "with_tls", "mask_backend"}) w.null_member(m);
  }
  json_keys(w, "keyset", v.ks->names(s.keyset, pu1));
  w.member("key", picked_name(v, s.picked));
  w.member("why", why_text(v, s.picked));
  w.key("entry");
  w.begin_object();
  json_entry(w, p, s.entry);
  w.end_object();
  w.member("origin", !s.entry.valid() ? "none" : s.pytorch ? "pytorch" : "input");
  w.key("stale_computed");
  if (s.stale) {
    w.begin_object();
    json_entry(w, p, s.fresh_entry);
    w.end_object();
  } else {
    w.null();
  }
  json_tls(w, v, s.tls);
  w.member("next", to_string(s.next));
  w.bool_member("assumed", s.assumed);
  w.member("does", does_text(s.does));
  if (s.next == Next::Redispatch)
    json_keys(w, "next_keyset", v.ks->names(s.next_keyset, pu1));
  else
    w.null_member("next_keyset");
  w.end_object();
}

void json_result(JsonWriter& w, const TraceView& v) {
  const CallTrace& t = *v.trace;
  const CallStep& last = t.steps.back();
  w.key("result");
  w.begin_object();
  w.member("kind", result_kind(t.result.how));
  w.member("key", picked_name(v, last.picked));
  if (t.result.how == Next::Ends) {
    w.member("kernel", last.entry.debug());
    w.member("origin", last.pytorch ? "pytorch" : "input");
  } else {
    w.null_member("kernel");
    w.null_member("origin");
  }
  w.key("first_input_kernel");
  if (const CallStep* s = first_input_kernel(t)) {
    w.begin_object();
    w.member("key", picked_name(v, s->picked));
    w.member("kernel", s->entry.debug());
    w.end_object();
  } else {
    w.null();
  }
  const bool error = t.result.how == Next::Error;
  w.nonempty_member("error", error ? to_string(t.result.error) : "");
  w.nonempty_member("exception", error ? error_type(t.result.error) : std::string());
  w.nonempty_member("message", error ? call_error_message(v) : std::string());
  w.nonempty_member("torch_dispatch", t.result.torch_dispatch);
  const BackwardResult& b = t.backward;
  w.key("backward");
  w.begin_object();
  w.member("outcome", to_string(b.what));
  w.member("why", backward_why(b));
  w.nonempty_member("autograd_key", b.key);
  w.nonempty_member("warning", backward_warning(v));
  w.nonempty_member("error", backward_error(v));
  w.end_object();
  w.end_object();
}

}  // namespace

void render_trace_json(const TraceView& v, std::string& out) {
  JsonWriter w(out);
  begin_envelope(w, DT_VERSION, v.profile_label);
  w.member("operator", op_of(v).name);
  w.nonempty_member("schema", op_of(v).def ? std::string_view(op_of(v).def->printed) : std::string_view());
  json_arguments(w, v);
  json_keys(w, "keyset", v.ks->names(v.extra, registry_of(v).privateuse1_name));
  json_tls(w, v, v.tls);
  w.key("steps");
  w.begin_array();
  std::size_t n = 0;
  for (const auto& s : v.trace->steps) json_step(w, v, s, ++n);
  w.end_array();
  json_result(w, v);
  w.nonempty_member("library_note", v.library_note);
  w.end_object();
}

}  // namespace dt
