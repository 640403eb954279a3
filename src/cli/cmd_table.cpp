// dispatchtool table: computed dispatch tables.
#include <optional>

#include "cli/cli.hpp"
#include "render/build_note.hpp"
#include "render/python_dispatcher_view.hpp"
#include "render/raw.hpp"
#include "render/readable.hpp"
#include "resolve/key_call.hpp"

namespace dt::cli {

Command add_table_command(CLI::App& app, const Io& io) {
  struct Options {
    InputOptions in;
    std::string style = "human";
    bool raw = false;
    bool fallbacks = false;
    bool expand = false;
    bool all_keys = false;
    std::string format = "text";
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("table", "Compute and print dispatch tables (computeDispatchTableEntryWithDebug)");
  add_input_options(*sub, o->in);
  add_style_options(*sub, o->style, o->raw);
  add_format_option(*sub, o->format);
  sub->add_flag("--fallbacks", o->fallbacks, "readable view: also show rows served by PyTorch's own backend fallbacks");
  sub->add_flag("--all-keys", o->all_keys,
                "readable view: every row, with why: also those served by PyTorch's own backend fallbacks "
                "and the missing ones (no kernel: a call raises \"Could not run\")");
  sub->add_flag("--expand", o->expand, "readable view: one line per key (no 'CPU \u2026 Meta (N keys)' runs)");
  sub->footer(
      "Examples:\n"
      "  dispatchtool table configs/examples/custom_op.toml\n"
      "  dispatchtool table --raw --profile torch-1.13 --op aten::add.Tensor   # PyTorch's own, no files\n"
      "  dispatchtool table --keys CPU,Autograd configs/examples/custom_op.toml\n"
      "  dispatchtool table --all-keys --op myops::myrelu configs/examples/custom_op.toml   # every row, with why\n"
      "  dispatchtool table --format json configs/examples/custom_op.toml\n"
      "  dispatchtool table --style python-dispatcher --register CPU,XLA,CompositeImplicitAutograd");
  return {
      sub, [o, &io]() -> int {
        auto s = open_session(io, o->in);
        if (!s) return kExitError;
        const Resolver resolver(s->loaded->registry);
        if (is_json(o->format)) {
          Writer w(io.out);
          JsonDocument doc = json_document(o->in.profile, w);
          doc.library_note = s->library_note;
          render_table_json(resolver, s->ops, s->table_filter, doc, w.buf());
          return kExitOk;
        }
        const HumanStyle human{s->color, o->fallbacks, o->expand, o->all_keys};
        if (o->all_keys) {  // every row is asked about (a CPU library's GPU rows: build_note.hpp)
          const auto& all = s->profile->runtime_keys();
          s->library_note = build_library_note(s->loaded->registry, s->ops, {o->in.build, o->in.build_source}, &all);
        }
        std::optional<RuntimeTables> runtime;  // shared by the operators (made when the first one needs it)
        print_operators(
            io, s->ops, style_of(o->style, o->raw), s->color,
            [&](const Operator& op, std::string& out) { render_table_raw(resolver, op, s->table_filter, out); },
            [&](const std::string& raw, std::string& out) { render_table_python_dispatcher(*s->profile, raw, out); },
            [&](const Operator& op, std::string& out) {
              if (!runtime && may_be_stale(s->loaded->registry, op)) runtime.emplace(resolver);
              render_table_human(resolver, op, s->table_filter, human, out, runtime ? &*runtime : nullptr);
            });
        if (style_of(o->style, o->raw) == Style::Human) {
          // The files' fallbacks serve every operator: counted even when no operator is shown.
          Writer w(io.out, text_output(s->color));
          const Registry& reg = s->loaded->registry;
          if (s->ops.empty()) render_no_operators(reg, w.buf());
          std::string count;
          render_fallback_count(reg, s->table_filter, human, count);
          if (!count.empty()) w.buf() += (s->ops.empty() ? "" : "\n") + count;
          append_library_note(w.buf(), s->library_note, s->color);
        }
        return kExitOk;
      }};
}

}  // namespace dt::cli
