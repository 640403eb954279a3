// dispatchtool registrations: the registered kernels of each operator.
#include "cli.hpp"

namespace dt::cli {

Command add_registrations_command(CLI::App& app, const Io& io) {
  struct Options {
    InputOptions in;
    std::string style = "human";
    bool raw = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("registrations", "Print the registered kernels per operator (_dispatch_dump)");
  add_input_options(*sub, o->in);
  add_style_options(*sub, o->style, o->raw);
  sub->footer(
      "Examples:\n"
      "  dispatchtool registrations configs/examples/custom_op.toml\n"
      "  dispatchtool registrations --raw --op myops::foo configs/examples/custom_op.toml\n"
      "  dispatchtool registrations --style python-dispatcher --register CPU,Autograd");
  return {sub, [o, &io]() -> int {
            auto s = open_session(io, o->in);
            if (!s) return kExitError;
            const Registry& reg = s->loaded->registry;
            const Style style = style_of(o->style, o->raw);
            Writer w(io.out);
            std::string raw;
            const HumanStyle human{s->color, false, false};
            bool first = true;
            for (const Operator* op : s->ops) {
              switch (style) {
                case Style::Raw:
                  w.buf() += "### " + op->name + "\n";
                  render_registrations_raw(reg, *op, s->registration_filter, w.buf());
                  break;
                case Style::PythonDispatcher:
                  if (s->ops.size() > 1) w.buf() += "### " + op->name + "\n";
                  raw.clear();
                  render_registrations_raw(reg, *op, s->registration_filter, raw);
                  render_registrations_python_dispatcher(raw, w.buf());
                  break;
                case Style::Human:
                  if (!first) w.buf() += '\n';
                  render_registrations_human(reg, *op, s->registration_filter, human, w.buf());
                  break;
              }
              first = false;
              w.maybe_flush();
            }
            return kExitOk;
          }};
}

}  // namespace dt::cli
