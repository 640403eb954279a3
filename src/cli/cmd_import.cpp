// dispatchtool import: C++, Python and yaml registrations translated into the
// TOML contract (docs/input-format.md), exactly as every command loads them,
// each entry with a comment naming its source FILE:LINE:COL.
#include <fmt/format.h>

#include "base/io.hpp"
#include "cli/cli.hpp"
#include "readers/readers.hpp"

namespace dt::cli {

namespace {

struct ImportOptions {
  std::vector<std::string> files;
  std::string profile = std::string(kDefaultProfile);
  std::string output;          // -o FILE ("" or "-": standard output)
  std::string max_input_size;  // --max-input-size
};

int run_import(const Io& io, const ImportOptions& o) {
  if (!apply_max_input_size(io, o.max_input_size)) return kExitError;
  auto profile = open_profile(io, o.profile);
  if (!profile) return kExitError;
  std::vector<TomlBlock> blocks;
  std::vector<Diagnostic> warnings;
  std::vector<std::string> names;
  for (const auto& path : o.files) {
    const FileName shown = display_path(path);
    auto text = io.fs.read(path);
    if (!text) {
      report(io, read_error(std::move(text.error()), shown, "cannot read file"));
      return kExitError;
    }
    const SourceKind kind = detect_source(path, *text);
    if (kind == SourceKind::Toml) {
      report(io, make_error(Location{shown, 0, 0},
                            "already TOML: import reads C++ (.cpp .cc .cxx .cu .mm .h .hpp), Python (.py) and "
                            "yaml (.yaml .yml) files"));
      return kExitError;
    }
    auto read = read_blocks(**profile, kind, shown, *text);
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
  if (o.output.empty() || o.output == "-") {
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
  add_profile_option(*sub, o->profile);
  add_max_input_size_option(*sub, o->max_input_size);
  sub->add_option("-o,--output", o->output, "write the TOML to this file (default: standard output)");
  sub->footer(
      "Every entry is preceded by a comment naming its source FILE:LINE:COL; registrations the readers\n"
      "cannot read statically are warnings (on standard error and as comments at the top).\n"
      "Examples:\n"
      "  dispatchtool import csrc/ops.cpp -o ops.toml\n"
      "  dispatchtool import my_backend_native_functions.yaml");
  return {sub, [o, &io]() -> int { return run_import(io, *o); }};
}

}  // namespace dt::cli
