// dispatchtool lint: registration conflicts, with every location involved.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <tuple>

#include "base/text.hpp"
#include "cli/cli.hpp"
#include "lint/baseline.hpp"
#include "lint/config.hpp"
#include "lint/context.hpp"
#include "lint/lint.hpp"
#include "lint/output.hpp"
#include "lint/suppress.hpp"

namespace dt::cli {

namespace {

struct LintOptions {
  std::vector<std::string> files;
  std::vector<std::string> context;  // loaded first; their own findings are not reported
  std::string profile;
  std::string format = "text";
  std::string color = "auto";
  std::vector<std::string> select, ignore, severity;
  std::string fail_on;
  std::string config;
  bool no_config = false;
  std::string baseline, write_baseline;
  bool list_rules = false;
  ReadOptions read;         // --max-input-size, --inside
  bool no_library = false;  // without PyTorch's own operators (the profile's library)
  std::string build;        // --build
  std::string build_source;  // --build-source DIR
  std::vector<std::string> ignore_tags;
  SourceOptions sources;  // -D -U -I -p --compile-commands --exclude
};

// "a,b" -> {"a", "b"}, for options that take lists.
std::vector<std::string> split_commas(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& v : values)
    for (const std::string_view part : split_list(v)) out.emplace_back(part);
  return out;
}

// Rule ids given on the command line; false (after a usage error) if one is unknown.
bool check_rule_ids(const Io& io, std::string_view option, const std::vector<std::string>& ids) {
  for (const auto& id : ids)
    if (auto rule = lint::rule_by_id(id); !rule) {
      usage_error(io, fmt::format("{}: {}", option, rule.error().message));
      return false;
    }
  return true;
}

// The configuration the command line gives; std::nullopt after a usage error.
std::optional<lint::Config> command_line_config(const Io& io, const LintOptions& o) {
  lint::Config c;
  c.select = split_commas(o.select);
  c.ignore = split_commas(o.ignore);
  for (auto& tag : split_commas(o.ignore_tags)) c.ignore_tags.emplace_back(std::move(tag), Location{});
  // An empty list would silently mean "every rule".
  for (const auto& [option, given, ids] :
       {std::tuple{"--select", &o.select, &c.select}, {"--ignore", &o.ignore, &c.ignore}})
    if (!given->empty() && ids->empty()) {
      usage_error(io, fmt::format("{}: no rule ids given", option));
      return std::nullopt;
    }
  if (!check_rule_ids(io, "--select", c.select) || !check_rule_ids(io, "--ignore", c.ignore)) return std::nullopt;
  for (const auto& spec : split_commas(o.severity)) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos) {
      usage_error(io, fmt::format("--severity: expected RULE=LEVEL, got '{}'", spec));
      return std::nullopt;
    }
    const std::string rule = spec.substr(0, eq);
    if (!check_rule_ids(io, "--severity", {rule})) return std::nullopt;
    auto sev = lint::parse_severity(spec.substr(eq + 1));
    if (!sev) {
      usage_error(io, fmt::format("--severity: unknown level '{}' for {}; expected error, warning or info",
                                  spec.substr(eq + 1), rule));
      return std::nullopt;
    }
    c.severity.push_back({rule, *sev});
  }
  if (!o.fail_on.empty()) c.fail_on = lint::parse_severity(o.fail_on);
  if (!o.baseline.empty()) c.baseline = o.baseline;
  if (!o.profile.empty()) c.profile = o.profile;
  return c;
}

// The configuration: the file's (--config, or .dispatchtool-lint.toml unless
// --no-config) under the command line's; std::nullopt after an error.
std::optional<lint::Config> configuration(const Io& io, const LintOptions& o) {
  auto cli_config = command_line_config(io, o);
  if (!cli_config) return std::nullopt;
  auto from_file = lint::load_config(io.fs, o.config, !o.no_config);
  if (!from_file) {
    report(io, from_file.error());
    return std::nullopt;
  }
  return lint::merge(std::move(*from_file), *cli_config);
}

// Loads the --context files and the linted files and runs the rules; only
// findings that involve a linted file count. std::nullopt after an error.
std::optional<std::vector<lint::Finding>> lint_files(const Io& io, const LintOptions& o, const lint::Config& config,
                                                     const Profile& profile) {
  auto context = lint::context_files(io.fs, o.context);
  if (!context) {
    usage_error(io, "--context: " + context.error().message);
    return std::nullopt;
  }
  LoadOptions options;
  options.on_refusal = OnRefusal::Record;
  std::vector<std::string> linted = o.files;
  if (!prepare_sources(io, o.sources, linted, options)) return std::nullopt;
  std::vector<std::string> paths = context->paths;
  paths.insert(paths.end(), linted.begin(), linted.end());
  if (!open_library_for(io, profile, o.no_library, options.library, {o.build, o.build_source})) return std::nullopt;
  // The suppression comments of the files read, collected as they are read.
  auto marked = std::make_shared<lint::MarkedLines>();
  const ReadFile context_read = lint::context_reader(io.fs, *context);
  const ReadFile read = [context_read, marked](const std::string& path) -> Expected<std::string, Diagnostic> {
    auto text = context_read(path);
    if (text) marked->collect(path, *text);
    return text;
  };
  const std::shared_ptr<const OpLibrary> library = options.library;  // the request takes the options
  auto loaded = engine::load(profile, engine::Request{std::move(paths), {}, std::move(options)}, read);
  if (!loaded) {
    engine_error(io, loaded.error());
    return std::nullopt;
  }
  std::vector<lint::Finding> findings = lint::run(*loaded);
  lint::drop_suppressed(findings, *marked);
  // PyTorch's own registrations and the context files take part in the
  // analysis; only findings that involve a linted file are reported.
  if (!context->paths.empty() || library != nullptr) lint::keep_linted(findings, linted, library.get());
  lint::drop_ignored_tags(config, loaded->registry, findings);
  keep_until_exit(io, std::move(*loaded));
  return findings;
}

int write_baseline(const Io& io, const std::string& path, const std::vector<lint::Finding>& findings) {
  auto b = lint::save_baseline(io.fs, path, findings);
  if (!b) return usage_error(io, b.error().message);
  const std::string line = fmt::format("dispatchtool lint: wrote {}: {} {} accepting {} {}\n", printable(path),
                                       b->entries.size(), b->entries.size() == 1 ? "entry" : "entries", findings.size(),
                                       findings.size() == 1 ? "finding" : "findings");
  write_out(io.err, line, Output::Text);
  return kExitOk;
}

int run_lint(const Io& io, const LintOptions& o) {
  if (o.list_rules) {
    std::string out;
    lint::render_rule_list(out);
    write_out(io.out, out, Output::Text);
    return kExitOk;
  }
  if (!apply_read_options(io, o.read)) return kExitError;
  const auto config = configuration(io, o);
  if (!config) return kExitError;
  if (o.files.empty()) return usage_error(io, "no input files (give the registration files to lint: TOML, C++, Python or yaml)");
  auto profile = open_profile(io, config->profile.value_or(std::string(kDefaultProfile)), config->profile_where,
                              config->profile_where ? Roots{config->directory} : Roots{});
  if (!profile) return kExitError;
  if (auto tags = lint::check_ignore_tags(*config, **profile); !tags) {
    if (tags.error().where.known()) {
      report(io, tags.error());
      return kExitError;
    }
    return usage_error(io, "--ignore-tag: " + tags.error().message);
  }
  auto findings = lint_files(io, o, *config, **profile);
  if (!findings) return kExitError;
  lint::apply(*config, *findings);
  if (!o.write_baseline.empty()) return write_baseline(io, o.write_baseline, *findings);

  lint::BaselineUse baselined;
  if (config->baseline) {
    // A baseline the configuration names is the repository's: read inside its directory.
    auto baseline =
        lint::load_baseline(io.fs, *config->baseline, config->baseline_where ? Roots{config->directory} : Roots{});
    if (!baseline) {
      report(io, baseline.error());
      return kExitError;
    }
    baselined = lint::apply_baseline(*baseline, *findings, *config);
  }

  const lint::Summary summary = lint::summarize(*findings, baselined);
  std::error_code ec;
  const lint::OutputInfo info{DT_VERSION, (*profile)->name(), std::filesystem::current_path(ec).string()};
  std::string out;
  const lint::Format format = *lint::parse_format(o.format);
  const bool color = use_color(io, o.color);
  lint::render(format, *findings, info, summary, out, color);
  // All of it (a NUL in a kernel name must not end it); the text format as
  // text (nothing a CI log acts on), the others as their own quoting made them.
  write_out(io.out, out, format == lint::Format::Text ? text_output(color) : Output::Exact);
  write_out(io.err, "dispatchtool lint: " + lint::summary_line(summary) + "\n", Output::Text);
  return lint::fails(*findings, config->fail_on.value_or(Severity::Error)) ? kExitFindings : kExitOk;
}

}  // namespace

Command add_lint_command(CLI::App& app, const Io& io) {
  auto o = std::make_shared<LintOptions>();
  CLI::App* sub = app.add_subcommand("lint", "Check registrations for conflicts and dispatcher pitfalls (CI-friendly)");
  sub->add_option("files", o->files, files_help("registration files"));
  add_source_options(*sub, o->sources);
  sub->add_option("--context", o->context,
                  "registrations to lint against without reporting their own findings, e.g. PyTorch's own "
                  "(tools/export_corpus.py): a registration file (TOML, C++, Python or yaml) or a directory of TOML files "
                  "(repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--profile", o->profile,
                  "PyTorch release: a built-in profile (torch-2.14, torch-2.6, torch-1.13, torch-main), a profile file "
                  "PATH.toml or a directory DIR holding profile.toml [default: the config's profile, else torch-2.14]");
  sub->add_option("--format", o->format,
                  "text (default), json, sarif (GitHub code scanning) or github (workflow commands)")
      ->check(one_of({"text", "json", "sarif", "github"}));
  sub->add_option("--color", o->color,
                  "colour severities and rule ids of the text format: auto (terminal, unless NO_COLOR), always, "
                  "never; the other formats are never coloured")
      ->check(one_of({"auto", "always", "never"}))
      ->capture_default_str();
  // One value per occurrence (repeatable), so that FILE... after them stays a file.
  auto repeatable = [](CLI::Option* opt) {
    opt->expected(1)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  repeatable(sub->add_option("--select", o->select, "only these rules (comma-separated or repeated)"));
  repeatable(sub->add_option("--ignore", o->ignore, "skip these rules (comma-separated or repeated)"));
  repeatable(
      sub->add_option("--severity", o->severity, "RULE=LEVEL: report RULE as error, warning or info (repeatable)"));
  sub->add_option("--fail-on", o->fail_on,
                  "exit 1 when a finding is at least this severe: error (default), warning, info")
      ->check(one_of({"error", "warning", "info"}));
  sub->add_option("--config", o->config,
                  std::string("lint configuration (TOML); default: ") + std::string(lint::kConfigFileName) +
                      " in the current directory, if present");
  sub->add_flag("--no-config", o->no_config, "do not read " + std::string(lint::kConfigFileName));
  sub->add_option("--ignore-tag", o->ignore_tags,
                  "drop the findings about operators with this tag (comma-separated or repeated; also "
                  "ignore-tags in the configuration)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_flag("--no-library", o->no_library,
                "lint without PyTorch's own operators (the profile's operator library): only the files and --context");
  add_build_option(*sub, o->build, o->build_source);
  sub->add_option("--baseline", o->baseline, "accept the findings listed in this baseline file; only new ones count");
  sub->add_option("--write-baseline", o->write_baseline,
                  "write the current findings to this baseline file (TOML) and exit 0");
  sub->add_flag("--list-rules", o->list_rules, "list the rules with their default severity and exit");
  add_read_options(*sub, o->read);
  sub->footer(
      "Exit status: 0 nothing at or above --fail-on, 1 findings, 2 bad input or usage.\n"
      "Examples:\n"
      "  dispatchtool lint ops/*.toml\n"
      "  dispatchtool lint --format sarif ops/*.toml > lint.sarif\n"
      "  dispatchtool lint --select duplicate-registration,impl-without-def --fail-on warning ops/*.toml\n"
      "  dispatchtool lint --write-baseline lint-baseline.toml ops/*.toml   # then: --baseline lint-baseline.toml\n"
      "  dispatchtool lint --profile torch-1.13 --context torch-corpus/ my_backend.toml   # an out-of-tree backend\n"
      "Rules: dispatchtool lint --list-rules; docs/lint.md");
  return {sub, [o, &io]() -> int { return run_lint(io, *o); }};
}

}  // namespace dt::cli
