// dispatchtool coverage: what a backend and its autograd key resolve to, for
// every operator (PyTorch's own and the files'): what a backend author still
// has to implement.
#include <fmt/format.h>

#include "base/text.hpp"
#include "cli/cli.hpp"
#include "render/coverage.hpp"

namespace dt::cli {

namespace {

struct CoverageOptions {
  std::vector<std::string> files;
  std::string profile = std::string(kDefaultProfile);
  std::string against;  // --against PROFILE
  std::string backend;
  std::vector<std::string> status, fail_on;
  std::string format = "text";
  std::string color = "auto";
  bool no_library = false;
  std::string build;  // --build
  std::string build_source;  // --build-source DIR
  ReadOptions read;   // --max-input-size, --inside
  OpFilter filter;  // --namespace, --name, --tag, --exclude-tag
  SourceOptions sources;  // -D -U -I -p --compile-commands --exclude
};

// "missing,fallback" (repeatable) -> statuses; nullopt after a usage error.
std::optional<std::vector<CoverageStatus>> parse_statuses(const Io& io, std::string_view option,
                                                          const std::vector<std::string>& values) {
  std::vector<CoverageStatus> out;
  std::vector<std::string_view> vocabulary;
  for (CoverageStatus s : kCoverageStatuses) vocabulary.push_back(to_string(s));
  for (const auto& v : values)
    for (std::string_view name : split_list(v)) {
      auto s = parse_coverage_status(name);
      if (!s) {
        usage_error(io, fmt::format("{}: unknown status '{}'{}; statuses: {}", option, name,
                                    did_you_mean(name, vocabulary), fmt::join(vocabulary, ", ")));
        return std::nullopt;
      }
      out.push_back(*s);
    }
  return out;
}

bool has_status(const std::vector<CoverageStatus>& set, CoverageStatus s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// One release's coverage: its profile, registrations, operators and rows
// (members point into each other, so a side is never moved).
struct CoverageSide {
  std::unique_ptr<Profile> profile;
  std::unique_ptr<LoadResult> loaded;
  CoverageKeys keys;
  std::vector<const Operator*> ops;
  std::vector<CoverageRow> rows;
  std::size_t dangling = 0;
};

bool open_side(const Io& io, const CoverageOptions& o, const std::string& profile_name, CoverageSide& s,
               std::string_view option = "--profile") {
  auto profile = open_profile(io, profile_name, std::nullopt, {}, option);
  if (!profile) return false;
  s.profile = std::move(*profile);
  s.loaded =
      load_files_or_library(io, *s.profile, o.files, o.no_library, "cover", {o.build, o.build_source}, o.sources);
  if (!s.loaded) return false;
  Registry& reg = s.loaded->registry;
  auto keys = coverage_keys(reg, o.backend);
  if (!keys) return usage_error(io, "--backend: " + keys.error().message), false;
  s.keys = *keys;
  if (auto ok = engine::check_filter(reg, o.filter); !ok) return engine_error(io, ok.error()), false;
  reg.materialize_all();
  const Resolver resolver(reg);
  s.ops = filter_ops(reg.sorted_operators(), o.filter);
  s.rows = compute_coverage(resolver, s.ops, s.keys);
  s.dangling =
      static_cast<std::size_t>(std::count_if(s.ops.begin(), s.ops.end(), [](const Operator* op) { return !op->def; }));
  return true;
}

int run_coverage(const Io& io, const CoverageOptions& o) {
  auto statuses = parse_statuses(io, "--status", o.status);
  auto fail_on = parse_statuses(io, "--fail-on", o.fail_on);
  if (!statuses || !fail_on) return kExitError;
  if (!apply_read_options(io, o.read)) return kExitError;
  const bool against = !o.against.empty();
  if (against && std::find(o.files.begin(), o.files.end(), "-") != o.files.end())
    return usage_error(io, "coverage --against reads the files twice: give them as files, not - (standard input)");
  if (against && !statuses->empty()) return usage_error(io, "--status lists one release's rows: not with --against");
  CoverageSide side, next;
  if (!open_side(io, o, o.profile, side)) return kExitError;
  if (against && !open_side(io, o, o.against, next, "--against")) return kExitError;
  const CoverageSide& last = against ? next : side;
  // Dangling impls are no operators: a CI gate never fails on them. With
  // --against the gate is the new release's.
  const bool fails = std::any_of(last.rows.begin(), last.rows.end(), [&](const CoverageRow& r) {
    return !r.dangling && has_status(*fail_on, r.status);
  });
  const auto view_of = [&](const CoverageSide& s) {
    return CoverageView{&s.loaded->registry, s.keys, s.ops.size() - s.dangling, use_color(io, o.color), s.dangling};
  };
  Writer w(io.out, o.format == "json" ? Output::Exact : text_output(use_color(io, o.color)));
  if (against) {
    const std::vector<CoverageChange> changes = compare_coverage(side.rows, next.rows);
    if (o.format == "json")
      render_coverage_against_json(changes, view_of(next), w.buf());
    else
      render_coverage_against(side.rows, next.rows, changes, view_of(side), view_of(next), w.buf());
    return fails ? kExitFindings : kExitOk;
  }
  std::vector<CoverageRow> rows = side.rows;
  if (!statuses->empty()) std::erase_if(rows, [&](const CoverageRow& r) { return !has_status(*statuses, r.status); });
  if (o.format == "json")
    render_coverage_json(rows, view_of(side), w.buf());
  else if (!statuses->empty())
    render_coverage_rows(rows, view_of(side), w.buf());
  else
    render_coverage_summary(rows, view_of(side), w.buf());
  return fails ? kExitFindings : kExitOk;
}

}  // namespace

Command add_coverage_command(CLI::App& app, const Io& io) {
  auto o = std::make_shared<CoverageOptions>();
  CLI::App* sub = app.add_subcommand(
      "coverage", "For every operator, what a backend key and its autograd key resolve to: what is left to implement");
  sub->add_option("files", o->files,
                  files_help("registration files loaded on top of PyTorch's own"));
  add_source_options(*sub, o->sources);
  sub->add_option("--backend", o->backend,
                  "the backend's runtime key: CPU, CUDA, XLA, Meta, SparseCPU, PrivateUse1 (or its renamed name), ...")
      ->required();
  add_profile_option(*sub, o->profile);
  sub->add_option("--against", o->against,
                  "what changes from --profile (the release you ship on) to this release: counts under both, and "
                  "the operators whose status changes (--fail-on applies to this release)");
  add_read_options(*sub, o->read);
  auto repeatable = [](CLI::Option* opt) {
    opt->expected(1)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  repeatable(sub->add_option("--status", o->status,
                             "list only the rows with these statuses (comma-separated or repeated): kernel, "
                             "composite-explicit, composite-implicit, autograd, fallback, raising-fallback, fallthrough, "
                             "ambiguous, missing"));
  repeatable(sub->add_option("--fail-on", o->fail_on,
                             "exit 1 when any operator has one of these statuses (e.g. missing), for CI"));
  sub->add_option("--format", o->format, "text (default) or json (an array of rows)")->check(one_of({"text", "json"}));
  sub->add_flag("--no-library", o->no_library, "only the files' operators, without PyTorch's own");
  repeatable(sub->add_option("--namespace", o->filter.namespaces, "only operators of this namespace (repeatable)"));
  sub->add_option("--name", o->filter.pattern,
                  "only operators whose qualified name matches this pattern (* ? [...], e.g. 'aten::*_copy')");
  add_build_option(*sub, o->build, o->build_source);
  add_op_filter_options(*sub, o->filter);
  sub->add_option("--color", o->color, "colour the readable view: auto (terminal, unless NO_COLOR), always, never")
      ->check(one_of({"auto", "always", "never"}))
      ->capture_default_str();
  sub->footer(
      "Statuses: kernel (on the key itself), composite-explicit, composite-implicit, autograd (the Autograd\n"
      "alias kernel), fallback (a backend fallback), raising-fallback (a backend fallback that raises:\n"
      "[[fallback]] raises = true, PyTorch's Meta fallback in 2.x), fallthrough, ambiguous, missing (a call raises).\n"
      "Dangling impls (kernels for operators nothing defines) are listed apart, never counted as operators.\n"
      "Exit status: 0, or 1 with --fail-on when a row has one of its statuses; 2 bad input or usage.\n"
      "Examples:\n"
      "  dispatchtool coverage --profile torch-1.13 --backend XLA\n"
      "  dispatchtool coverage --profile torch-1.13 --backend PrivateUse1 configs/examples/npu_backend/*.toml\n"
      "  dispatchtool coverage --profile torch-1.13 --backend Meta --status missing\n"
      "  dispatchtool coverage --profile torch-1.13 --backend XLA --tag view_copy --exclude-tag generated\n"
      "  dispatchtool coverage --profile torch-2.14 --backend XPU --namespace aten --name 'aten::*_copy*'\n"
      "  dispatchtool coverage --profile torch-1.13 --backend PrivateUse1 --fail-on missing --format json my.toml\n"
      "  dispatchtool coverage --profile torch-2.6 --against torch-2.14 --backend PrivateUse1 my.toml");
  return {sub, [o, &io]() -> int { return run_coverage(io, *o); }};
}

}  // namespace dt::cli
