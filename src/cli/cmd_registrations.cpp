// dispatchtool registrations: the registered kernels of each operator.
#include "cli/cli.hpp"
#include "render/build_note.hpp"
#include "render/python_dispatcher_view.hpp"
#include "render/raw.hpp"
#include "render/readable.hpp"

namespace dt::cli {

Command add_registrations_command(CLI::App& app, const Io& io) {
  struct Options {
    InputOptions in;
    std::string style = "human";
    bool raw = false;
    std::string format = "text";
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("registrations", "Print the registered kernels per operator (_dispatch_dump)");
  add_input_options(*sub, o->in);
  add_style_options(*sub, o->style, o->raw);
  add_format_option(*sub, o->format);
  sub->footer(
      "Examples:\n"
      "  dispatchtool registrations configs/examples/custom_op.toml\n"
      "  dispatchtool registrations --raw --op myops::foo configs/examples/custom_op.toml\n"
      "  dispatchtool registrations --format json configs/examples/npu_backend/*.toml\n"
      "  dispatchtool registrations --style python-dispatcher --register CPU,Autograd");
  return {sub, [o, &io]() -> int {
            auto s = open_session(io, o->in);
            if (!s) return kExitError;
            const Registry& reg = s->loaded->registry;
            // Only the estimate's note: a registration listing claims no kernel is missing.
            s->library_note = build_library_note(reg, s->ops, {o->in.build, o->in.build_source});
            if (is_json(o->format)) {
              Writer w(io.out);
              JsonDocument doc = json_document(o->in.profile, w);
              doc.library_note = s->library_note;
              render_registrations_json(reg, s->ops, s->registration_filter, doc, w.buf());
              return kExitOk;
            }
            const HumanStyle human{s->color, false, false, false};
            print_operators(
                io, s->ops, style_of(o->style, o->raw), s->color,
                [&](const Operator& op, std::string& out) {
                  render_registrations_raw(reg, op, s->registration_filter, out);
                },
                [&](const std::string& raw, std::string& out) {
                  render_registrations_python_dispatcher(*s->profile, raw, out);
                },
                [&](const Operator& op, std::string& out) {
                  render_registrations_human(reg, op, s->registration_filter, human, out);
                });
            if (style_of(o->style, o->raw) == Style::Human) {
              // The files' backend fallbacks, after the operators (or alone).
              Writer w(io.out, text_output(s->color));
              if (s->ops.empty()) render_no_operators(reg, w.buf());
              std::string fallbacks;
              render_fallbacks_human(reg, s->registration_filter, human, fallbacks);
              if (!fallbacks.empty()) w.buf() += (s->ops.empty() ? "" : "\n") + fallbacks;
              append_library_note(w.buf(), s->library_note, s->color);
            }
            return kExitOk;
          }};
}

}  // namespace dt::cli
