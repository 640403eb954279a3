// dispatchtool explain: why a key of an operator gets the kernel it gets.
#include <fmt/format.h>

#include "cli/cli.hpp"
#include "render/build_note.hpp"
#include "render/explain.hpp"

namespace dt::cli {

Command add_explain_command(CLI::App& app, const Io& io) {
  struct Options {
    InputOptions in;
    std::string format = "text";
  };
  auto opts = std::make_shared<Options>();
  InputOptions* o = &opts->in;
  CLI::App* sub = app.add_subcommand("explain", "Explain, step by step, how a key of an operator gets its kernel");
  add_input_options(*sub, *o);
  add_format_option(*sub, opts->format);
  sub->footer(
      "--keys names the runtime keys to explain; --op the operator (optional when the files define one).\n"
      "Examples:\n"
      "  dispatchtool explain --op myops::myrelu --keys AutogradCPU configs/examples/custom_op.toml\n"
      "  dispatchtool explain --keys AutogradOther configs/examples/autogradother_ambiguity.toml\n"
      "  dispatchtool explain --format json --keys XLA,AutogradXLA --op myops::myadd configs/examples/custom_op.toml\n"
      "  dispatchtool explain --register CPU,CompositeImplicitAutograd --keys AutogradCPU,XLA");
  return {sub, [opts, o, &io]() -> int {
            if (o->keys.empty()) return usage_error(io, "explain needs --keys KEY[,KEY...] (e.g. --keys AutogradCPU)");
            auto s = open_session(io, *o);
            if (!s) return kExitError;
            if (s->ops.size() != 1)
              return usage_error(
                  io, fmt::format("explain needs one operator; {} match (choose one with --op)", s->ops.size()));
            const Resolver resolver(s->loaded->registry);
            Writer w(io.out, is_json(opts->format) ? Output::Exact : text_output(s->color));
            // The note when a key explained is one of the build's.
            const std::string note =
                build_library_note(s->loaded->registry, s->ops, {o->build, o->build_source}, &s->table_filter.keys);
            if (is_json(opts->format)) {
              JsonDocument doc = json_document(o->profile, w);
              doc.library_note = note;
              render_explain_json(resolver, *s->ops.front(), s->table_filter.keys, doc, w.buf());
              return kExitOk;
            }
            const Explainer x(resolver, *s->ops.front());  // one replay for every key
            bool first = true;
            for (KeyId k : s->table_filter.keys) {
              if (!first) w.buf() += '\n';
              first = false;
              render_explain(x, k, HumanStyle{s->color, false, false, false}, w.buf());
            }
            append_library_note(w.buf(), note, s->color);
            return kExitOk;
          }};
}

}  // namespace dt::cli
