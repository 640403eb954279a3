// dispatchtool keys: the dispatch-key universe of a profile.
#include "cli/cli.hpp"
#include "render/keys.hpp"

namespace dt::cli {

Command add_keys_command(CLI::App& app, const Io& io) {
  struct Options {
    std::string profile = std::string(kDefaultProfile);
    bool names = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("keys", "List the runtime keys (table rows) and alias keys of a profile");
  add_profile_option(*sub, o->profile);
  sub->add_flag("--names", o->names,
                "only the names a registration may use, one per line (for scripts and completion)");
  sub->footer(
      "Examples:\n"
      "  dispatchtool keys\n"
      "  dispatchtool keys --profile torch-1.13\n"
      "  dispatchtool keys --names | grep Autograd");
  return {sub, [o, &io]() -> int {
            auto p = open_profile(io, o->profile);
            if (!p) return kExitError;
            Writer w(io.out);
            if (o->names)
              render_key_names(**p, w.buf());
            else
              render_keys(**p, w.buf());
            return kExitOk;
          }};
}

}  // namespace dt::cli
