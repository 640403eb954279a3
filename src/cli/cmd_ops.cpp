// dispatchtool ops: the operator registry as users query it (names, schemas,
// tags, the keys with kernels), PyTorch's own operators and the files'.
#include <fmt/format.h>

#include "cli/cli.hpp"
#include "render/ops.hpp"

namespace dt::cli {

namespace {

struct OpsOptions {
  std::vector<std::string> files;
  std::string profile = std::string(kDefaultProfile);
  OpFilter filter;
  std::string format = "text";
  bool count = false;
  bool list_tags = false;
  bool no_library = false;
  std::string build;  // --build
  std::string build_source;  // --build-source DIR
  ReadOptions read;       // --max-input-size, --inside
  SourceOptions sources;  // -D -U -I -p --compile-commands --exclude
};

int list_tags(const Io& io, const Profile& p) {
  Writer w(io.out, Output::Text);
  std::size_t width = 0;
  for (const auto& t : p.tags()) width = std::max(width, t.name.size());
  for (const auto& t : p.tags()) w.buf() += fmt::format("{:<{}}  {}\n", t.name, width, t.description);
  return kExitOk;
}

int run_ops(const Io& io, const OpsOptions& o) {
  if (!apply_read_options(io, o.read)) return kExitError;
  auto profile = open_profile(io, o.profile);
  if (!profile) return kExitError;
  if (o.list_tags) return list_tags(io, **profile);
  auto loaded =
      load_files_or_library(io, **profile, o.files, o.no_library, "list", {o.build, o.build_source}, o.sources);
  if (!loaded) return kExitError;
  Registry& reg = loaded->registry;
  if (auto ok = engine::check_filter(reg, o.filter); !ok) return engine_error(io, ok.error());
  reg.materialize_all();
  const std::vector<const Operator*> ops = filter_ops(reg.sorted_operators(), o.filter);
  const OpsView view{&reg, DT_VERSION};
  Writer w(io.out, o.format == "json" ? Output::Exact : Output::Text);
  if (o.count)
    (o.format == "json" ? render_ops_count_json : render_ops_count_text)(ops, view, w.buf());
  else
    (o.format == "json" ? render_ops_json : render_ops_text)(ops, view, w.buf());
  return kExitOk;
}

}  // namespace

void add_op_filter_options(CLI::App& sub, OpFilter& f) {
  auto repeatable = [](CLI::Option* opt) {
    opt->expected(1)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  repeatable(sub.add_option("--tag", f.tags, "only operators with this tag (repeatable: all must match)"));
  repeatable(sub.add_option("--exclude-tag", f.exclude_tags, "leave out operators with this tag (repeatable)"));
}

Command add_ops_command(CLI::App& app, const Io& io) {
  auto o = std::make_shared<OpsOptions>();
  CLI::App* sub = app.add_subcommand(
      "ops", "List operators (PyTorch's own and the files'): schema, tags, keys with kernels; filter by tag");
  sub->add_option("files", o->files,
                  files_help("registration files loaded on top of PyTorch's own"));
  add_source_options(*sub, o->sources);
  add_profile_option(*sub, o->profile);
  add_read_options(*sub, o->read);
  sub->add_option("--namespace", o->filter.namespaces, "only operators of this namespace (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  add_op_filter_options(*sub, o->filter);
  sub->add_option("--name", o->filter.pattern,
                  "only operators whose qualified name matches this pattern (* ? [...], e.g. 'aten::*_copy')");
  sub->add_option("--format", o->format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
  sub->add_flag("--count", o->count, "only the number of operators per namespace and per tag");
  sub->add_flag("--list-tags", o->list_tags, "list the profile's operator tags with their descriptions and exit");
  sub->add_flag("--no-library", o->no_library, "only the files' operators, without PyTorch's own");
  add_build_option(*sub, o->build, o->build_source);
  sub->footer(
      "Examples:\n"
      "  dispatchtool ops --profile torch-1.13 --tag view_copy\n"
      "  dispatchtool ops --profile torch-1.13 --namespace aten --exclude-tag generated --count\n"
      "  dispatchtool ops --profile torch-1.13 --name 'aten::add*' --format json\n"
      "  dispatchtool ops --profile torch-1.13 --list-tags");
  return {sub, [o, &io]() -> int { return run_ops(io, *o); }};
}

}  // namespace dt::cli
