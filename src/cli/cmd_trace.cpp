// dispatchtool trace: which kernels run, in which order, when an operator is
// called with given arguments under given thread-local state.
#include <fmt/format.h>

#include "cli/cli.hpp"
#include "render/keyset_svg.hpp"
#include "render/trace.hpp"

namespace dt::cli {

namespace {

struct TraceOptions {
  InputOptions input;
  std::vector<std::string> args;
  std::string keyset;
  TlsOptions tls;
  std::string format = "text";
};

void repeatable(CLI::Option* opt) {
  opt->expected(1)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

int run_trace(const Io& io, const TraceOptions& o) {
  auto s = open_session(io, o.input);
  if (!s) return kExitError;
  if (s->ops.size() != 1)
    return usage_error(io, fmt::format("trace needs one operator; {} match (choose one with --op)", s->ops.size()));
  const Registry& reg = s->loaded->registry;
  auto t = engine::trace(reg, *s->ops.front(), engine::Call{o.args, o.keyset, o.tls});
  if (!t) return engine_error(io, t.error());
  const TraceView view =
      (*t)->view(o.input.profile, s->color,
                 trace_library_note(reg, *s->profile, (*t)->steps(), {o.input.build, o.input.build_source}));
  if (o.format == "svg") {
    std::string svg;
    if (!render_keyset_svg(view, svg)) {
      report(io, make_error(fmt::format("no key set to draw: the call stops before the dispatcher looks one up ({})",
                                        call_error_message(view))));
      return kExitError;
    }
    Writer w(io.out, Output::Exact);
    w.buf().swap(svg);
    return kExitOk;
  }
  Writer w(io.out, o.format == "json" ? Output::Exact : text_output(s->color));
  if (o.format == "json")
    render_trace_json(view, w.buf());
  else
    render_trace_human(view, w.buf());
  return kExitOk;
}

}  // namespace

Command add_trace_command(CLI::App& app, const Io& io) {
  auto o = std::make_shared<TraceOptions>();
  CLI::App* sub = app.add_subcommand(
      "trace", "Which kernels run, in which order, when an operator is called with these arguments and this state");
  InputOptions& in = o->input;
  sub->add_option("files", in.files, files_help("registration files"));
  add_profile_option(*sub, in.profile);
  repeatable(
      sub->add_option("--op", in.ops, "the operator to call (ns::name.overload, or unqualified if unambiguous)"));
  repeatable(
      sub->add_option("--arg", o->args,
                      "one per tensor argument, in schema order: [LAYOUT_]DEVICE[,MODIFIER...] (cpu, "
                      "cuda,requires_grad, sparse_cpu, nested_cuda,inference, ...), none, 'a;b' or [] for lists"));
  sub->add_option("--keyset", o->keyset,
                  "keys added to the arguments' key set, comma-separated (a raw escape hatch; missing --args are then "
                  "no error)");
  sub->add_flag("--no-grad", o->tls.no_grad, "under torch.no_grad() (grad mode off: changes no key)");
  sub->add_flag("--inference-mode", o->tls.inference_mode,
                "under torch.inference_mode() (ADInplaceOrView not included, autograd keys excluded)");
  repeatable(sub->add_option("--autocast", o->tls.autocast,
                             "under torch.autocast(DEVICE): its autocast key is no longer excluded (cpu, cuda, ...)"));
  sub->add_flag("--python-mode", o->tls.python_mode,
                "a TorchDispatchMode is active (Python and PythonTLSSnapshot included)");
  repeatable(sub->add_option("--include", o->tls.include,
                             "keys added to the thread-local included set (repeatable, comma-separated)"));
  repeatable(sub->add_option("--exclude", o->tls.exclude,
                             "keys added to the thread-local excluded set, as ExcludeDispatchKeyGuard (repeatable, "
                             "comma-separated; Autograd = _AutoDispatchBelowAutograd)"));
  sub->add_option("--format", o->format,
                  "text (default), json, or svg: a picture of the key set the call is dispatched on (functionality "
                  "rows x backend columns)")
      ->check(one_of({"text", "json", "svg"}));
  sub->add_flag("--no-library", in.no_library, "without PyTorch's own operators: only the files' registrations");
  add_build_option(*sub, in.build, in.build_source);
  add_read_options(*sub, in.read);
  sub->add_option("--color", in.color, "colour the readable view: auto (terminal, unless NO_COLOR), always, never")
      ->check(one_of({"auto", "always", "never"}))
      ->capture_default_str();
  sub->footer(
      "Tensor words: a device (cpu, cuda, xla, meta, privateuseone, ...; a renamed PrivateUse1 by its name),\n"
      "optionally with a layout prefix (sparse_, sparse_csr_, quantized_, mkldnn_, nested_), and modifiers:\n"
      "requires_grad, inference (made in inference mode), conj, neg, zerotensor, python (a __torch_dispatch__\n"
      "subclass), named, functional (wrapped by functionalization).\n"
      "Examples:\n"
      "  dispatchtool trace --profile torch-1.13 --op aten::add.Tensor --arg cpu,requires_grad --arg cpu\n"
      "  dispatchtool trace --op myops::myadd --arg cuda,requires_grad --arg cuda --no-grad "
      "configs/examples/custom_op.toml\n"
      "  dispatchtool trace --profile torch-1.13 --op aten::mm --arg cpu --arg cpu --autocast cpu\n"
      "  dispatchtool trace --profile torch-1.13 --op aten::empty.memory_format --include Meta --format json");
  return {sub, [o, &io]() -> int { return run_trace(io, *o); }};
}

}  // namespace dt::cli
