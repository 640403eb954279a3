#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <dispatchtool/version.hpp>
#include <limits>
#include <sstream>

#include "api/engine.hpp"
#include "base/limits.hpp"
#include "base/text.hpp"
#include "cli/cli.hpp"
#include "readers/readers.hpp"
#include "readers/release_yaml.hpp"
#include "registry/loader.hpp"
#include "registry/select.hpp"
#include "render/build_note.hpp"

namespace dt::cli {

void write_out(std::FILE* f, std::string_view text, Output kind) {
  if (kind == Output::Exact) {
    std::fwrite(text.data(), 1, text.size(), f);
    return;
  }
  std::string inert;
  inert.reserve(text.size());
  append_inert(text, inert, kind == Output::ColorText);
  std::fwrite(inert.data(), 1, inert.size(), f);
}

void report(const Io& io, const Diagnostic& d) { write_out(io.err, format(d), Output::Text); }

void report_warnings(const Io& io, const LoadResult& loaded) {
  for (const auto& w : loaded.source_warnings) report(io, w);
  for (const auto& w : loaded.registry.warnings()) report(io, w);
}

int usage_error(const Io& io, const std::string& message) {
  std::string text = "dispatchtool: error: ";
  append_printable(message, text);  // a value from the command line must not cut or split the line
  text += '\n';
  write_out(io.err, text, Output::Text);
  return kExitError;
}

void add_read_options(CLI::App& sub, ReadOptions& o) {
  sub.add_option("--max-input-size", o.max_input_size,
                 "read at most BYTES per file (K, M, G: KiB, MiB, GiB) and 4 times that in all [default: " +
                     byte_count(limits::kInputBytes) + "]");
  sub.add_option("--inside", o.inside,
                 "read only regular files inside DIR, symbolic links followed (every file but -, and what they name; "
                 "repeatable): for CI on untrusted pull requests, e.g. --inside . (docs/security.md)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

namespace {

// "64M", "65536", "1GiB": bytes, or nullopt. Counted in 64 bits; where
// size_t is narrower (the playground's wasm32, docs/playground.md) a limit it
// cannot hold (4 times over, for the total) is as good as none: it is capped.
std::optional<std::size_t> parse_byte_count(std::string_view text) {
  std::size_t digits = 0;
  std::uint64_t value = 0;
  constexpr std::uint64_t kMax = std::uint64_t{1} << 40;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    value = value * 10 + static_cast<std::uint64_t>(text[digits] - '0');
    if (value > kMax) return std::nullopt;
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  const std::string_view unit = text.substr(digits);
  std::uint64_t scale = 1;
  if (unit == "K" || unit == "KiB")
    scale = std::uint64_t{1} << 10;
  else if (unit == "M" || unit == "MiB")
    scale = std::uint64_t{1} << 20;
  else if (unit == "G" || unit == "GiB")
    scale = std::uint64_t{1} << 30;
  else if (!unit.empty())
    return std::nullopt;
  if (value == 0 || value > kMax / scale) return std::nullopt;
  constexpr std::uint64_t kCap = std::numeric_limits<std::size_t>::max() / 4;
  return static_cast<std::size_t>(std::min(value * scale, kCap));
}

}  // namespace

bool apply_read_options(const Io& io, const ReadOptions& o) {
  for (const auto& dir : o.inside)
    if (io.fs.kind(dir) != FileKind::Directory) {
      usage_error(io, fmt::format("--inside: '{}' is not a directory", dir));
      return false;
    }
  if (!o.inside.empty() && io.fs.scope) io.fs.scope->inside = o.inside;
  const std::string& value = o.max_input_size;
  if (value.empty() || !io.fs.budget) return true;
  const auto bytes = parse_byte_count(value);
  if (!bytes) {
    usage_error(io, fmt::format("--max-input-size: expected a size in bytes between 1 and 1 TiB, with an optional K, M "
                                "or G suffix (e.g. 128M); got '{}'",
                                value));
    return false;
  }
  io.fs.budget->per_file = *bytes;
  io.fs.budget->total = 4 * *bytes;
  return true;
}

CLI::Validator one_of(std::vector<std::string> values) {
  std::string description = "{";
  for (std::size_t i = 0; i < values.size(); ++i) description += (i ? "," : "") + values[i];
  description += "}";
  return CLI::Validator(
      [values](std::string& value) -> std::string {
        if (std::find(values.begin(), values.end(), value) != values.end()) return {};
        const std::vector<std::string_view> candidates(values.begin(), values.end());
        std::string expected;
        for (std::size_t i = 0; i < values.size(); ++i)
          expected += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + values[i];
        return fmt::format("unknown value '{}'{}; expected {}", printable(value), did_you_mean(value, candidates),
                           expected);
      },
      description);
}

bool use_color(const Io& io, const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  return io.out_is_tty && !io.no_color_env;
}

void add_profile_option(CLI::App& sub, std::string& profile) {
  sub.add_option("--profile", profile,
                 "PyTorch release: a built-in profile (torch-2.14, the default; torch-2.6, torch-1.13, torch-main), "
                 "a profile file PATH.toml or a directory DIR holding profile.toml (dispatchtool-export)")
      ->capture_default_str();
}

void add_source_options(CLI::App& sub, SourceOptions& o) {
  const auto many = [](CLI::Option* opt) {
    opt->expected(1)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  many(sub.add_option("-D", o.defines, "C++ sources: define a macro, NAME or NAME=VALUE, as a compiler's -D (repeatable)"));
  many(sub.add_option("-U", o.undefines, "C++ sources: undefine a macro, as a compiler's -U (repeatable)"));
  many(sub.add_option("-I", o.include_dirs,
                      "C++ sources: a directory #include \"...\" and <...> search, as a compiler's -I (repeatable)"));
  sub.add_option("-p", o.build_dir,
                 "C++ sources: a build directory whose compile_commands.json gives each source its -D/-I flags");
  sub.add_option("--compile-commands", o.compile_commands, "C++ sources: the compile_commands.json to take flags from");
  many(sub.add_option("--exclude", o.exclude,
                      "leave out of directories given as inputs what matches this shell pattern, by relative path "
                      "or name (repeatable)"));
}

bool prepare_sources(const Io& io, const SourceOptions& o, std::vector<std::string>& files, LoadOptions& lo) {
  auto s = dt::prepare_sources(io.fs, files, o);
  if (!s) {
    report(io, s.error());
    return false;
  }
  for (const Diagnostic& w : s->warnings) report(io, w);
  files = std::move(s->paths);
  lo.cpp = std::move(s->cpp);
  lo.cpp_by_path = std::move(s->by_path);
  return true;
}

void add_input_options(CLI::App& sub, InputOptions& o) {
  sub.add_option("files", o.files, files_help("registration files"));
  add_source_options(sub, o.sources);
  sub.add_option("--register", o.register_calls,
                 "no files: PythonDispatcher's demo operator with fn_KEY kernels on these keys, e.g. "
                 "CPU,XLA,CompositeImplicitAutograd (repeatable: one register() call each)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  add_profile_option(sub, o.profile);
  add_read_options(sub, o.read);
  sub.add_option("--op", o.ops, "only this operator (repeatable; ns::name.overload, or unqualified if unambiguous)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub.add_option("--keys", o.keys, "only these dispatch keys, comma-separated (alias keys expand)")
      ->each([&o](const std::string&) { o.keys_given = true; });
  add_library_options(sub, o.all, o.no_library);
  add_build_option(sub, o.build, o.build_source);
  add_op_filter_options(sub, o.filter);
  sub.add_option("--color", o.color, "colour the readable view: auto (terminal, unless NO_COLOR), always, never")
      ->check(one_of({"auto", "always", "never"}))
      ->capture_default_str();
}

void add_library_options(CLI::App& sub, bool& all, bool& no_library) {
  CLI::Option* all_flag = sub.add_flag(
      "--all", all, "every operator of the profile's operator library (PyTorch's own), not only those the files use");
  sub.add_flag("--no-library", no_library,
               "without PyTorch's own operators: only the registrations of the files (as if nothing else existed)")
      ->excludes(all_flag);
}

void add_style_options(CLI::App& sub, std::string& style, bool& raw) {
  CLI::Option* raw_flag =
      sub.add_flag("--raw", raw, "exactly what PyTorch prints, with a '### ns::name.overload' line per operator");
  sub.add_option("--style", style, "human (default), raw, or python-dispatcher (PythonDispatcher's view)")
      ->check(one_of({"human", "raw", "python-dispatcher"}))
      ->excludes(raw_flag);  // --raw is --style raw: never silently one of two
}

void add_format_option(CLI::App& sub, std::string& format) {
  sub.add_option("--format", format, "text (default) or json (docs/json.md: one versioned document, no colour)")
      ->check(one_of({"text", "json"}))
      ->capture_default_str();
}

JsonDocument json_document(const std::string& profile, Writer& w) {
  return JsonDocument{DT_VERSION, profile, [&w] { w.maybe_flush(); }, {}};
}

Style style_of(const std::string& style, bool raw) {
  if (raw || style == "raw") return Style::Raw;
  if (style == "python-dispatcher") return Style::PythonDispatcher;
  return Style::Human;
}

void print_operators(const Io& io, const std::vector<const Operator*>& ops, Style style, bool color,
                     const RenderOp& raw, const RenderText& python_dispatcher, const RenderOp& human) {
  Writer w(io.out, style == Style::Human ? text_output(color) : Output::Exact);
  std::string text;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const Operator& op = *ops[i];
    switch (style) {
      case Style::Raw:
        w.buf() += "### " + op.name + "\n";
        raw(op, w.buf());
        break;
      case Style::PythonDispatcher:
        if (ops.size() > 1) w.buf() += "### " + op.name + "\n";
        text.clear();
        raw(op, text);
        python_dispatcher(text, w.buf());
        break;
      case Style::Human:
        if (i > 0) w.buf() += '\n';
        human(op, w.buf());
        break;
    }
    w.maybe_flush();
  }
}

std::optional<std::unique_ptr<Profile>> open_profile(const Io& io, const std::string& spec,
                                                     const std::optional<Location>& given_at, const Roots& roots,
                                                     std::string_view option) {
  // A profile a repository's configuration names is read inside the repository.
  auto p = load_profile(spec, roots.empty() ? io.fs.read : reader_inside(io.fs, roots), &io.fs);
  if (!p) {
    Diagnostic d = std::move(p.error());
    if (given_at && !d.where.known()) {
      // "cannot open profile file" names no file once it is located in the
      // config: the file it was (the profile, or a profile directory's profile.toml).
      if (!d.where.file.empty()) d.message = fmt::format("profile '{}': {}", d.where.file.view(), d.message);
      d.where = *given_at;
    } else if (d.where.file.empty()) {
      d.where.file = option;  // an error of the argument itself (an unknown name)
    }
    report(io, d);
    return std::nullopt;
  }
  return std::make_unique<Profile>(std::move(*p));
}

void add_build_option(CLI::App& sub, std::string& build, std::string& build_source) {
  std::vector<std::string> names;
  for (const auto& b : build_backends()) names.emplace_back(b.first);
  sub.add_option("--build", build,
                 "the library of this build of the release: cpu (the package's), or cuda, mps, xpu, mtia: the CPU "
                 "library plus what the release's native_functions.yaml registers on that backend's keys")
      ->check(one_of(names));
  sub.add_option("--build-source", build_source,
                 "with --build: the release's own source tree (a PyTorch checkout of it), whose hand-written C++ "
                 "registrations on the build's keys are added")
      ->type_name("DIR");
}

int engine_error(const Io& io, const engine::Error& e) {
  const Diagnostic d = engine::worded(e, engine::Front::CommandLine);
  if (e.usage) return usage_error(io, d.message);
  report(io, d);
  return kExitError;
}

bool open_library_for(const Io& io, const Profile& profile, bool no_library, std::shared_ptr<const OpLibrary>& library,
                      engine::Build build) {
  auto lib = engine::open_library(profile, !no_library, build, io.fs, io.libraries);
  if (!lib) {
    engine_error(io, lib.error());
    return false;
  }
  library = std::move(*lib);
  return true;
}

std::unique_ptr<LoadResult> load_files_or_library(const Io& io, const Profile& profile, std::vector<std::string> files,
                                                  bool no_library, std::string_view verb, engine::Build build,
                                                  const SourceOptions& sources) {
  LoadOptions lo;
  if (!prepare_sources(io, sources, files, lo)) return nullptr;
  if (!open_library_for(io, profile, no_library, lo.library, build)) return nullptr;
  if (files.empty() && lo.library == nullptr) {
    usage_error(io, no_library ? std::string("no input files (--no-library leaves only the files' operators)")
                               : fmt::format("no input files, and profile {} has no operator library of "
                                             "PyTorch's own operators to {} (torch-2.14, torch-2.6 and torch-1.13 have one)",
                                             profile.name(), verb));
    return nullptr;
  }
  auto loaded = engine::load(profile, engine::Request{std::move(files), {}, std::move(lo)}, io.fs.read);
  if (!loaded) {
    engine_error(io, loaded.error());
    return nullptr;
  }
  report_warnings(io, *loaded);
  return std::make_unique<LoadResult>(std::move(*loaded));
}

std::string no_input_message(bool has_library) {
  if (has_library)
    return "no input files (give registration files: TOML, C++, Python or yaml; - for standard input, --op NAME "
           "or --all for PyTorch's own operators, or --register KEYS)";
  return "no input files (give registration files: TOML, C++, Python or yaml; - for standard input, or --register "
         "KEYS)";
}

std::string files_help(std::string_view what) {
  return fmt::format(
      "{}: TOML, C++ ({}), Python (.py), native_functions or gen_backend_stubs yaml (.yaml .yml); - reads TOML "
      "from standard input",
      what, cpp_extension_list());
}
namespace {

// The registrations: PythonDispatcher's demo operator (--register), or the
// files. Prints errors; nullptr after one.
std::unique_ptr<LoadResult> load_inputs(const Io& io, const InputOptions& o, const Profile& profile,
                                        OnRefusal on_refusal) {
  engine::Request request;
  request.files = o.files;
  request.register_calls = o.register_calls;
  request.front = engine::Front::CommandLine;
  request.load.on_refusal = on_refusal;
  const bool demo = !o.register_calls.empty();  // PythonDispatcher's demo operator: no library, no sources
  if (!demo) {
    if (!prepare_sources(io, o.sources, request.files, request.load)) return nullptr;
    if (!open_library_for(io, profile, o.no_library, request.load.library, {o.build, o.build_source})) return nullptr;
    // With no files, --op, --all or a tag filter asks for PyTorch's own operators.
    if (request.files.empty() &&
        (request.load.library == nullptr || (o.ops.empty() && !o.all && o.filter.empty()))) {
      usage_error(io, no_input_message(request.load.library != nullptr));
      return nullptr;
    }
  }
  auto loaded = engine::load(profile, request, io.fs.read);
  if (!loaded) {
    engine_error(io, loaded.error());
    return nullptr;
  }
  if (!demo && (o.all || (request.files.empty() && o.ops.empty()))) loaded->registry.materialize_all();
  return std::make_unique<LoadResult>(std::move(*loaded));
}

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
#define DT_FREES_ALL 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DT_FREES_ALL 1
#endif
#endif

namespace {

// What a one-shot process (Io::one_shot) leaves to the operating system to
// free: kept reachable until it exits. AddressSanitizer's builds free all,
// and check it.
void keep(std::unique_ptr<const void, void (*)(const void*)> p) {
#ifndef DT_FREES_ALL
  static auto* kept = new std::vector<std::unique_ptr<const void, void (*)(const void*)>>();
  if (p) kept->push_back(std::move(p));
#else
  (void)p;
#endif
}
template <class T>
void keep(std::unique_ptr<T> p) {
  keep({p.release(), [](const void* q) { delete static_cast<const T*>(q); }});
}

}  // namespace

void keep_until_exit(const Io& io, LoadResult&& loaded) {
  if (io.one_shot) keep(std::make_unique<LoadResult>(std::move(loaded)));
}

Session::~Session() {
  if (free_at_end) return;
  keep(std::move(profile));  // a moved-from session holds none: nothing is kept
  keep(std::move(loaded));
}

std::optional<Session> open_session(const Io& io, const InputOptions& o, OnRefusal on_refusal) {
  if (!apply_read_options(io, o.read)) return std::nullopt;
  Session s;
  s.free_at_end = !io.one_shot;
  auto profile = open_profile(io, o.profile);
  if (!profile) return std::nullopt;
  s.profile = std::move(*profile);
  s.loaded = load_inputs(io, o, *s.profile, on_refusal);
  if (!s.loaded) return std::nullopt;
  report_warnings(io, *s.loaded);
  if (const std::size_t more = s.loaded->registry.warnings_not_kept(); more != 0) {
    Diagnostic d =
        make_error(fmt::format("{} more kernel override{} not shown (PyTorch warns about each; at most {} "
                               "of warnings are shown)",
                               more, more == 1 ? "" : "s", byte_count(limits::kOverrideWarningBytes)));
    d.severity = Severity::Warning;
    report(io, d);
  }
  std::optional<std::string> keys;
  if (o.keys_given || !o.keys.empty()) keys = o.keys;
  auto selected = engine::select(s.loaded->registry, o.ops, o.filter, keys);
  if (!selected) {
    engine_error(io, selected.error());
    return std::nullopt;
  }
  s.ops = std::move(selected->ops);
  s.table_filter = std::move(selected->table);
  s.registration_filter = std::move(selected->registrations);
  s.color = use_color(io, o.color);
  // Keys asked about: those --keys names (a CPU library's rows there are no GPU build's).
  s.library_note =
      build_library_note(s.loaded->registry, s.ops, {o.build, o.build_source}, keys ? &s.table_filter.keys : nullptr);
  return s;
}

void append_library_note(std::string& out, const std::string& note, bool color) {
  if (note.empty()) return;
  out += '\n' + paint("note: ", "1", color) + note + "\n";
}

namespace {

// "--styl" -> " (did you mean '--style'?)" among the options of `sub`.
std::string suggest_option(const CLI::App& sub, std::string_view word) {
  if (word.size() <= 2) return {};  // "-x": every short option is as close
  std::vector<std::string> names;
  for (const CLI::Option* opt : sub.get_options()) {
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
  }
  const std::vector<std::string_view> views(names.begin(), names.end());
  return did_you_mean(word.substr(0, word.find('=')), views);
}

// CLI11's parse errors in the tool's style: "dispatchtool: error: ...", with
// did-you-mean for an unknown option (and for values: one_of).
int parse_error(const Io& io, const CLI::ParseError& e, const std::vector<Command>& commands,
                std::string_view command) {
  const CLI::App* sub = nullptr;
  for (const auto& c : commands)
    if (c.sub->get_name() == command) sub = c.sub;
  const std::string see =
      sub != nullptr ? fmt::format("; see 'dispatchtool {} --help'", command) : "; see 'dispatchtool --help'";
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && sub != nullptr) {
    const std::vector<std::string> extras = sub->remaining();
    for (const std::string& extra : extras)
      if (extra.size() > 1 && extra[0] == '-')
        return usage_error(io, fmt::format("{}: unknown option '{}'{}{}", command, printable(extra),
                                           suggest_option(*sub, extra), see));
    return usage_error(io, fmt::format("{}: unexpected argument '{}'{}", command,
                                       printable(extras.empty() ? std::string() : extras.front()), see));
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && sub == nullptr) {
    std::vector<std::string> names;
    for (const auto& c : commands) names.push_back(c.sub->get_name());
    return usage_error(io, fmt::format("a command is required: {}{}", join(names, ", "), see));
  }
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && what.ends_with(" missing"))
    return usage_error(io, fmt::format("{} needs a value{}", printable(what.substr(0, what.find(':'))), see));
  // Values (one_of) already list what is expected; exclusions say it all.
  if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr ||
      dynamic_cast<const CLI::ExcludesError*>(&e) != nullptr)
    return usage_error(io, printable(what));
  return usage_error(io, printable(what) + see);
}

}  // namespace

int run(int argc, const char* const* argv, const Io& io) {
  CLI::App app{
      "dispatchtool: see, check and teach how PyTorch's dispatcher picks a kernel.\n"
      "Reads registrations (C++ TORCH_LIBRARY blocks, Python torch.library code, native_functions.yaml, backend "
      "yaml or TOML) and computes dispatch tables exactly as c10 does.",
      "dispatchtool"};
  app.set_version_flag("--version", std::string("dispatchtool ") + dispatchtool::version());
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  dispatchtool table configs/examples/custom_op.toml\n"
      "  dispatchtool lint csrc/*.cpp ops.py\n"
      "  dispatchtool table --raw --profile torch-1.13 ops/*.toml\n"
      "  dispatchtool table --register CPU,XLA,CompositeImplicitAutograd\n"
      "  dispatchtool registrations --op myops::foo configs/examples/custom_op.toml\n"
      "  dispatchtool explain --op myops::myrelu --keys AutogradCPU configs/examples/custom_op.toml\n"
      "  dispatchtool keys --profile torch-1.13\n"
      "  dispatchtool coverage --profile torch-1.13 --backend PrivateUse1 configs/examples/npu_backend/*.toml\n"
      "  dispatchtool html -o matrix.html configs/examples/*.toml\n"
      "  dispatchtool trace --profile torch-1.13 --op aten::add.Tensor --arg cpu,requires_grad --arg cpu\n"
      "  dispatchtool diff <(git show main:ops.toml) -- ops.toml\n"
      "Run 'dispatchtool SUBCOMMAND --help' for the options of each subcommand.");
  const std::vector<Command> commands = {
      add_table_command(app, io), add_registrations_command(app, io), add_explain_command(app, io),
      add_keys_command(app, io),  add_lint_command(app, io),          add_coverage_command(app, io),
      add_ops_command(app, io),   add_html_command(app, io),          add_trace_command(app, io),
      add_diff_command(app, io),  add_import_command(app, io)};
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string_view> names;
    for (const auto& c : commands) names.emplace_back(c.sub->get_name());
    if (std::find(names.begin(), names.end(), std::string_view(argv[1])) == names.end())
      return usage_error(io, fmt::format("unknown command '{}'{}; commands: {}", argv[1], did_you_mean(argv[1], names),
                                         fmt::join(names, ", ")));
  }
  std::vector<std::string> diff_options;
  for (const auto& c : commands)
    if (c.sub->get_name() == "diff")
      for (const CLI::Option* opt : c.sub->get_options()) {
        for (const auto& l : opt->get_lnames()) diff_options.push_back("--" + l);
        for (const auto& s : opt->get_snames()) diff_options.push_back("-" + s);
      }
  const std::vector<std::string> args = rewrite_diff_separator(argc, argv, diff_options);
  std::vector<const char*> arg_ptrs;
  for (const auto& a : args) arg_ptrs.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(arg_ptrs.size()), arg_ptrs.data());
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) return parse_error(io, e, commands, argc > 1 ? argv[1] : "");
    std::ostringstream out, err;  // --help, --version
    app.exit(e, out, err);
    const std::string help = out.str(), version = err.str();
    std::fwrite(help.data(), 1, help.size(), io.out);
    std::fwrite(version.data(), 1, version.size(), io.err);
    return kExitOk;
  }
  for (const auto& c : commands)
    if (c.sub->parsed()) return c.run();
  return kExitError;
}

}  // namespace dt::cli
