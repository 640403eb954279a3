// dispatchtool import: C++, Python and yaml registrations translated into the
// TOML contract (docs/input-format.md), exactly as every command loads them,
// each entry with a comment naming its source FILE:LINE:COL.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "base/io.hpp"
#include "base/text.hpp"
#include "cli/cli.hpp"
#include "readers/python_project.hpp"
#include "readers/readers.hpp"
#include "registry/loader.hpp"

namespace dt::cli {

namespace {

struct ImportOptions {
  std::vector<std::string> files;
  std::string profile = std::string(kDefaultProfile);
  std::string output;          // -o FILE ("" or "-": standard output)
  ReadOptions read;            // --max-input-size, --inside
  SourceOptions sources;       // -D -U -I -p --compile-commands --exclude
  bool no_library = false;     // a native_functions.yaml's aten functions defined by none
};

// Whether the translation loads as every command would read it (its schemas,
// keys, kernels; PyTorch's refusals are lint's business): import never prints
// or writes TOML that does not. The blocks are loaded as they are (the text
// they print as loads to the same registrations: cli.import-equivalence, and
// the readers' fuzzers parse every text they print), and the text must be
// UTF-8 as TOML is. `name`: what the text would be called (the output file,
// or standard output).
Expected<Ok, Diagnostic> check_loads(const Profile& profile, const std::string& name, const std::string& text,
                                     Blocks blocks) {
  if (detect_source(name, text) != SourceKind::Toml)
    return unexpected(make_error(fmt::format("-o: '{}' would be read as {}, not as TOML; name the output file .toml",
                                             name, to_string(detect_source(name, text)))));
  const auto fail = [](Diagnostic d) {
    d.message = "the translation does not load, so it was not written: " + d.message;
    return unexpected(std::move(d));
  };
  LoadOptions lo;
  lo.on_refusal = OnRefusal::Record;
  lo.threads = 1;
  if (auto loaded = load_blocks(profile, std::move(blocks), display_path(name), lo); !loaded)
    return fail(std::move(loaded.error()));
  if (const std::size_t bad = utf8_valid_prefix(text); bad != text.size()) {
    // Where: the line of the first byte that is not UTF-8.
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
    return fail(make_error(Location{display_path(name), static_cast<std::uint32_t>(line), 0},
                           "a string holds bytes that are not UTF-8, which TOML cannot hold"));
  }
  return Ok{};
}

int run_import(const Io& io, const ImportOptions& o) {
  if (!apply_read_options(io, o.read)) return kExitError;
  auto profile = open_profile(io, o.profile);
  if (!profile) return kExitError;
  std::vector<TomlBlock> blocks;
  std::vector<Diagnostic> warnings;
  std::vector<std::string> names;
  std::vector<std::string> files = o.files;
  LoadOptions lo;
  if (!prepare_sources(io, o.sources, files, lo)) return kExitError;
  // The profile's library, for a native_functions.yaml: which of its aten
  // functions are new (defined by the yaml), as every command reads it.
  bool library_opened = false;
  InLibrary in_lib;
  // A Python file may import a helper from any other one given, as every
  // command reads them (registry/loader.cpp).
  const std::unique_ptr<PyProject> python = PyProject::of(**profile, files, io.fs.read);
  for (const auto& path : files) {
    const FileName shown = display_path(path);
    auto text = io.fs.read(path);
    if (!text) {
      report(io, read_error(std::move(text.error()), shown, "cannot read file"));
      return kExitError;
    }
    const SourceKind kind = detect_source(path, *text);
    if (kind == SourceKind::Toml) {
      report(io, make_error(Location{shown, 0, 0},
                            fmt::format("already TOML: import reads C++ ({}), Python (.py) and yaml (.yaml .yml) files",
                                        cpp_extension_list())));
      return kExitError;
    }
    if (kind == SourceKind::NativeYaml && !library_opened) {
      if (!open_library_for(io, **profile, o.no_library, lo.library, {})) return kExitError;
      in_lib = in_library(lo.library.get(), **profile);
      library_opened = true;
    }
    auto read = read_blocks(**profile, kind, shown, *text, lo.cpp_for(path), python.get(), in_lib);
    if (!read) {
      report(io, read.error());
      return kExitError;
    }
    for (auto& b : read->blocks) blocks.push_back(std::move(b));
    for (auto& w : read->warnings) warnings.push_back(std::move(w));
    names.push_back(fmt::format("{} ({})", shown, to_string(kind)));
  }
  for (const auto& w : warnings) report(io, w);
  std::string title = "read by dispatchtool import from ";
  for (std::size_t i = 0; i < names.size(); ++i) title += (i != 0 ? ", " : "") + names[i];
  std::string toml = render_toml(blocks, title);
  std::string text;
  for (const auto& w : warnings) {
    std::string one = format(w);
    while (!one.empty() && one.back() == '\n') one.pop_back();
    for (char& c : one)
      if (c == '\n') c = ' ';
    text += fmt::format("# {}\n", one);
  }
  if (text.empty()) text = std::move(toml);
  else text += toml;
  const bool to_stdout = o.output.empty() || o.output == "-";
  if (auto loads = check_loads(**profile, to_stdout ? std::string("-") : o.output, text,
                               Blocks{std::move(blocks), std::move(warnings)});
      !loads) {
    if (!loads.error().where.known()) return usage_error(io, loads.error().message);
    report(io, loads.error());
    return kExitError;
  }
  if (to_stdout) {
    Writer w(io.out);
    w.buf().swap(text);  // one write of the whole text, not a copy
    return kExitOk;
  }
  if (auto written = io.fs.write(o.output, text); !written) {
    report(io, written.error());
    return kExitError;
  }
  return kExitOk;
}

}  // namespace

Command add_import_command(CLI::App& app, const Io& io) {
  auto o = std::make_shared<ImportOptions>();
  CLI::App* sub = app.add_subcommand(
      "import", "Translate C++, Python and yaml registrations into TOML, as every command reads them");
  sub->add_option("files", o->files, "C++ (TORCH_LIBRARY blocks), Python (torch.library) or yaml files")
      ->required();
  add_source_options(*sub, o->sources);
  add_profile_option(*sub, o->profile);
  add_read_options(*sub, o->read);
  sub->add_option("-o,--output", o->output, "write the TOML to this file (default: standard output)");
  sub->add_flag("--no-library", o->no_library,
                "read a native_functions.yaml without PyTorch's own operators: its aten functions get no [[def]]");
  sub->footer(
      "Every entry is preceded by a comment naming its source FILE:LINE:COL; registrations the readers\n"
      "cannot read statically are warnings (on standard error and as comments at the top).\n"
      "Examples:\n"
      "  dispatchtool import csrc/ops.cpp -o ops.toml\n"
      "  dispatchtool import my_backend_native_functions.yaml");
  return {sub, [o, &io]() -> int { return run_import(io, *o); }};
}

}  // namespace dt::cli
