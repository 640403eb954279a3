// dispatchtool keys: the dispatch-key universe of a profile, and of the files'
// PrivateUse1 rename and fallbacks.
#include "cli/cli.hpp"
#include "render/json.hpp"
#include "render/key_meanings.hpp"
#include "render/keys.hpp"

namespace dt::cli {

Command add_keys_command(CLI::App& app, const Io& io) {
  struct Options {
    std::vector<std::string> files;
    std::string profile = std::string(kDefaultProfile);
    bool names = false;
    bool meanings = false;
    ReadOptions read;
    bool no_library = false;
    std::string format = "text";
    SourceOptions sources;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "keys", "List the runtime keys and alias keys of a profile (and the files' PrivateUse1 name and fallbacks)");
  sub->add_option("files", o->files,
                  "registration files (TOML; - reads standard input): their privateuse1_backend "
                  "and backend fallbacks are shown");
  add_source_options(*sub, o->sources);
  add_profile_option(*sub, o->profile);
  add_read_options(*sub, o->read);
  CLI::Option* names = sub->add_flag(
      "--names", o->names, "only the names a registration may use, one per line (for scripts and completion)");
  CLI::Option* meanings = sub->add_flag(
      "--meanings", o->meanings,
      "what each key is for, one line each, with the autograd and autocast keys a backend's tensors carry");
  meanings->excludes(names);
  sub->add_flag("--no-library", o->no_library, "load the files without PyTorch's own operators");
  add_format_option(*sub, o->format);
  sub->get_option("--format")->excludes(names);
  sub->get_option("--format")->excludes(meanings);
  sub->footer(
      "Examples:\n"
      "  dispatchtool keys\n"
      "  dispatchtool keys --profile torch-1.13\n"
      "  dispatchtool keys --meanings                                              # what each key is for\n"
      "  dispatchtool keys configs/examples/privateuse1.toml                       # PrivateUse1 renamed npu\n"
      "  dispatchtool keys --format json --profile torch-1.13 configs/examples/npu_backend/npu_fallback.toml\n"
      "  dispatchtool keys --names | grep Autograd");
  return {sub, [o, &io]() -> int {
            if (!apply_read_options(io, o->read)) return kExitError;
            auto p = open_profile(io, o->profile);
            if (!p) return kExitError;
            LoadOptions lo;
            std::vector<std::string> files = o->files;
            if (!prepare_sources(io, o->sources, files, lo)) return kExitError;
            // Without files nothing is registered on top of PyTorch's operators: they are not needed.
            if (!open_library_for(io, **p, o->no_library || files.empty(), lo.library)) return kExitError;
            auto loaded = engine::load(**p, engine::Request{std::move(files), {}, std::move(lo)}, io.fs.read);
            if (!loaded) return engine_error(io, loaded.error());
            report_warnings(io, *loaded);
            Writer w(io.out, is_json(o->format) && !o->names && !o->meanings ? Output::Exact : Output::Text);
            if (o->names)
              render_key_names(**p, w.buf());
            else if (o->meanings)
              render_key_meanings(loaded->registry, w.buf());
            else if (is_json(o->format))
              render_keys_json(loaded->registry, json_document(o->profile, w), w.buf());
            else
              render_keys(loaded->registry, w.buf());
            return kExitOk;
          }};
}

}  // namespace dt::cli
