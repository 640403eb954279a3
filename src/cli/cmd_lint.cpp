// dispatchtool lint: registration conflicts, with every location involved.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <tuple>

#include "base/text.hpp"
#include "cli/cli.hpp"
#include "lint/lint.hpp"

namespace dt::cli {

namespace {

struct LintOptions {
  std::vector<std::string> files;
  std::vector<std::string> context;  // loaded first; their own findings are not reported
  std::string profile;
  std::string format = "text";
  std::vector<std::string> select, ignore, severity;
  std::string fail_on;
  std::string config;
  bool no_config = false;
  std::string baseline, write_baseline;
  bool list_rules = false;
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

// Reads `path` and parses it; reports what goes wrong ("cannot read lint baseline: ...").
template <class T>
std::optional<T> read_and_parse(const Io& io, const std::string& path, std::string_view what,
                                Expected<T, Diagnostic> (*parse)(std::string_view, const std::string&)) {
  auto text = io.fs.read(path);
  if (!text) {
    report(io, make_error(Location{path, 0, 0}, fmt::format("cannot read {}: {}", what, text.error().message)));
    return std::nullopt;
  }
  auto parsed = parse(*text, path);
  if (!parsed) {
    report(io, parsed.error());
    return std::nullopt;
  }
  return std::move(*parsed);
}

// --config FILE, or .dispatchtool-lint.toml in the current directory.
std::optional<lint::Config> file_config(const Io& io, const LintOptions& o) {
  std::string path = o.config;
  if (path.empty()) {
    if (o.no_config || !std::filesystem::is_regular_file(std::string(lint::kConfigFileName))) return lint::Config{};
    path = std::string(lint::kConfigFileName);
  }
  auto c = read_and_parse(io, path, "lint configuration", lint::parse_config);
  if (!c) return std::nullopt;
  // Relative baseline and profile paths are relative to the configuration file.
  const auto beside_config = [&](const std::string& p) {
    return (std::filesystem::path(path).parent_path() / p).lexically_normal().string();
  };
  if (c->baseline && std::filesystem::path(*c->baseline).is_relative()) c->baseline = beside_config(*c->baseline);
  if (c->profile && c->profile->ends_with(".toml") && std::filesystem::path(*c->profile).is_relative())
    c->profile = beside_config(*c->profile);
  return std::move(*c);
}

int write_baseline_file(const Io& io, const std::string& path, const std::vector<lint::Finding>& findings) {
  const lint::Baseline b = lint::make_baseline(findings);
  const std::string text = lint::write_baseline(b);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || std::fwrite(text.data(), 1, text.size(), f) != text.size()) {
    if (f != nullptr) std::fclose(f);
    return usage_error(io, fmt::format("cannot write baseline '{}': {}", path, std::strerror(errno)));
  }
  if (std::fclose(f) != 0) return usage_error(io, fmt::format("cannot write baseline '{}'", path));
  std::fprintf(io.err, "dispatchtool lint: wrote %s: %zu %s accepting %zu %s\n", path.c_str(), b.entries.size(),
               b.entries.size() == 1 ? "entry" : "entries", findings.size(),
               findings.size() == 1 ? "finding" : "findings");
  return kExitOk;
}

// --context PATH: a file, or every *.toml in a directory (sorted by name).
std::optional<std::vector<std::string>> context_files(const Io& io, const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      out.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec))
      if (entry.path().extension() == ".toml") found.push_back(entry.path().string());
    if (ec) {
      usage_error(io, fmt::format("--context: cannot list '{}': {}", path, ec.message()));
      return std::nullopt;
    }
    if (found.empty()) {
      usage_error(io, fmt::format("--context: no .toml files in '{}'", path));
      return std::nullopt;
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

int run_lint(const Io& io, const LintOptions& o) {
  if (o.list_rules) {
    std::string out;
    lint::render_rule_list(out);
    std::fputs(out.c_str(), io.out);
    return kExitOk;
  }
  auto cli_config = command_line_config(io, o);
  if (!cli_config) return kExitError;
  auto from_file = file_config(io, o);
  if (!from_file) return kExitError;
  const lint::Config config = lint::merge(std::move(*from_file), *cli_config);
  if (o.files.empty()) return usage_error(io, "no input files (give the TOML registration files to lint)");

  auto profile = open_profile(io, config.profile.value_or(std::string(kDefaultProfile)), config.profile_where);
  if (!profile) return kExitError;
  auto context = context_files(io, o.context);
  if (!context) return kExitError;
  std::vector<std::string> paths = *context;
  paths.insert(paths.end(), o.files.begin(), o.files.end());
  LoadOptions options;
  options.on_refusal = OnRefusal::Record;
  auto loaded = load(**profile, paths, io.fs.read, options);
  if (!loaded) {
    report(io, loaded.error());
    return kExitError;
  }
  std::vector<lint::Finding> findings = lint::run(*loaded);
  // Context files take part in the analysis; only findings that involve a
  // linted file count, anchored there (a backend kernel that makes a core
  // operator ambiguous is reported at the backend kernel, not at the core's).
  if (!context->empty()) {
    std::set<std::string, std::less<>> linted;
    for (const auto& f : o.files) linted.insert(display_path(f));
    const auto is_linted = [&](const Location& l) { return linted.count(l.file.view()) != 0; };
    std::erase_if(findings, [&](lint::Finding& f) {
      if (is_linted(f.where)) return false;
      const auto note = std::find_if(f.notes.begin(), f.notes.end(), [&](const Note& n) { return is_linted(n.where); });
      if (note == f.notes.end()) return true;
      const Location context_side = f.where;
      f.where = note->where;
      *note = Note{context_side, "the other side of this finding, in a --context file"};
      return false;
    });
    lint::sort_findings(findings);
  }
  lint::apply(config, findings);
  if (!o.write_baseline.empty()) return write_baseline_file(io, o.write_baseline, findings);

  lint::BaselineUse baselined;
  if (config.baseline) {
    auto baseline = read_and_parse(io, *config.baseline, "lint baseline", lint::parse_baseline);
    if (!baseline) return kExitError;
    baselined = lint::apply_baseline(*baseline, findings, config);
  }

  const lint::Summary summary = lint::summarize(findings, baselined);
  std::error_code ec;
  const lint::OutputInfo info{DT_VERSION, (*profile)->name(), std::filesystem::current_path(ec).string()};
  std::string out;
  lint::render(*lint::parse_format(o.format), findings, info, summary, out);
  std::fputs(out.c_str(), io.out);
  std::fprintf(io.err, "dispatchtool lint: %s\n", lint::summary_line(summary).c_str());
  return lint::fails(findings, config.fail_on.value_or(Severity::Error)) ? kExitFindings : kExitOk;
}

}  // namespace

Command add_lint_command(CLI::App& app, const Io& io) {
  auto o = std::make_shared<LintOptions>();
  CLI::App* sub = app.add_subcommand("lint", "Check registrations for conflicts and dispatcher pitfalls (CI-friendly)");
  sub->add_option("files", o->files, "registration files (TOML); - reads standard input");
  sub->add_option("--context", o->context,
                  "registrations to lint against without reporting their own findings, e.g. PyTorch's own "
                  "(tools/export_corpus.py): a TOML file or a directory of them (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--profile", o->profile,
                  "PyTorch release: a built-in profile (torch-main, torch-1.13) or a profile file PATH.toml "
                  "[default: the config's profile, else torch-main]");
  sub->add_option("--format", o->format,
                  "text (default), json, sarif (GitHub code scanning) or github (workflow commands)")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}));
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
      ->check(CLI::IsMember({"error", "warning", "info"}));
  sub->add_option("--config", o->config,
                  std::string("lint configuration (TOML); default: ") + std::string(lint::kConfigFileName) +
                      " in the current directory, if present");
  sub->add_flag("--no-config", o->no_config, "do not read " + std::string(lint::kConfigFileName));
  sub->add_option("--baseline", o->baseline, "accept the findings listed in this baseline file; only new ones count");
  sub->add_option("--write-baseline", o->write_baseline,
                  "write the current findings to this baseline file (TOML) and exit 0");
  sub->add_flag("--list-rules", o->list_rules, "list the rules with their default severity and exit");
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
