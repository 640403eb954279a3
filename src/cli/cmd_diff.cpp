// dispatchtool diff: what a change does to the dispatch tables -- two sets of
// registration files (OLD... -- NEW...), or the same files under two profiles
// (--profile P --against Q). Exit 0: no difference; 1: differences; 2: error.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "base/text.hpp"
#include "cli/cli.hpp"
#include "render/diff.hpp"
#include "resolve/diff.hpp"

namespace dt::cli {

namespace {

struct DiffOptions {
  std::vector<std::string> old_files, new_files;
  std::string profile = std::string(kDefaultProfile);
  std::string against;
  std::vector<std::string> ops;
  std::string keys;  // --keys
  std::string format = "text";
  std::string color = "auto";
  bool expand = false;
  bool locations = false;
  bool no_library = false;
  ReadOptions read;       // --max-input-size, --inside
  SourceOptions sources;  // -D -U -I -p --compile-commands --exclude (both sides)
};

// One side: its profile, registrations and operators (members point into
// each other, so a side is never moved).
struct Side {
  std::unique_ptr<Profile> profile;
  std::unique_ptr<LoadResult> loaded;
  std::unique_ptr<Resolver> resolver;
  std::vector<const Operator*> ops;
};

bool open_side(const Io& io, const DiffOptions& o, const std::string& profile, std::vector<std::string> files, Side& s,
               std::string_view option = "--profile") {
  auto p = open_profile(io, profile, std::nullopt, {}, option);
  if (!p) return false;
  s.profile = std::move(*p);
  LoadOptions lo;
  if (!prepare_sources(io, o.sources, files, lo)) return false;
  if (!open_library_for(io, *s.profile, o.no_library, lo.library)) return false;
  auto loaded = engine::load(*s.profile, engine::Request{std::move(files), {}, std::move(lo)}, io.fs.read);
  if (!loaded) {
    engine_error(io, loaded.error());
    return false;
  }
  s.loaded = std::make_unique<LoadResult>(std::move(*loaded));
  report_warnings(io, *s.loaded);
  s.resolver = std::make_unique<Resolver>(s.loaded->registry);
  if (o.ops.empty()) {
    // The whole registry: PyTorch's own operators too, so that an operator
    // the files touch on one side only is the same operator on the other.
    s.loaded->registry.materialize_all();
    s.ops = s.loaded->registry.sorted_operators();
    return true;
  }
  // --op: an operator one side lacks is added or removed, not an error.
  for (const auto& name : o.ops)
    if (auto one = select_ops(s.loaded->registry, {name}); one)
      for (const Operator* op : *one)
        if (std::find(s.ops.begin(), s.ops.end(), op) == s.ops.end()) s.ops.push_back(op);
  return true;
}

int run_diff(const Io& io, const DiffOptions& o) {
  if (!apply_read_options(io, o.read)) return kExitError;
  const bool against = !o.against.empty();
  if (against && !o.new_files.empty())
    return usage_error(io, "diff takes OLD... -- NEW... or --against PROFILE FILE..., not both");
  if (!against && o.new_files.empty() && o.old_files.empty())
    return usage_error(io,
                       "diff needs two sides: OLD... -- NEW... (files, - for standard input), or --profile P "
                       "--against Q FILE...");
  if (!against && o.new_files.empty())
    return usage_error(io, "diff needs '--' between the old and the new files (OLD... -- NEW...)");
  if (against && o.old_files.empty() && o.ops.empty())
    return usage_error(io, "diff --against needs files, or --op NAME for PyTorch's own operators");
  const std::vector<std::string>& new_files = against ? o.old_files : o.new_files;
  if (!against && std::count(o.old_files.begin(), o.old_files.end(), "-") +
                          std::count(o.new_files.begin(), o.new_files.end(), "-") >
                      1)
    return usage_error(io, "- (standard input) can be read once; give the other side as files");
  Side old_side, new_side;
  if (!open_side(io, o, o.profile, o.old_files, old_side)) return kExitError;
  if (!open_side(io, o, against ? o.against : o.profile, new_files, new_side, against ? "--against" : "--profile"))
    return kExitError;
  DiffFilter filter;
  filter.locations = o.locations;
  if (!o.keys.empty()) {
    // Each side's names for the keys (an alias stands for its runtime keys); a
    // key one release lacks is fine as long as the other has it.
    for (std::string_view name : split_list(o.keys)) {
      auto a = parse_key_filter(old_side.loaded->registry, name);
      auto b = parse_key_filter(new_side.loaded->registry, name);
      if (!a && !b) return usage_error(io, "--keys: " + (against ? b : a).error().message);
      for (const auto* side : {&a, &b}) {
        if (!*side) continue;
        const Profile& p = (side == &a ? old_side : new_side).loaded->registry.profile();
        for (KeyId k : (*side)->table.keys)
          if (std::find(filter.keys.begin(), filter.keys.end(), p.name_of(k)) == filter.keys.end())
            filter.keys.push_back(p.name_of(k));
      }
    }
  }
  const TableDiff d = diff_tables(DiffSide{old_side.resolver.get(), old_side.ops},
                                  DiffSide{new_side.resolver.get(), new_side.ops}, filter);
  DiffView v{
      &d,          {o.profile, o.old_files}, {against ? o.against : o.profile, new_files}, use_color(io, o.color),
      o.expand,    o.locations};
  Writer w(io.out, o.format == "json" ? Output::Exact : text_output(v.color));
  if (o.format == "json")
    render_diff_json(v, w.buf());
  else
    render_diff_human(v, w.buf());
  return count(d).differ == 0 ? kExitOk : kExitFindings;
}

}  // namespace

std::vector<std::string> rewrite_diff_separator(int argc, const char* const* argv,
                                                const std::vector<std::string>& options) {
  std::vector<std::string> out(argv, argv + argc);
  if (argc < 2 || std::string_view(argv[1]) != "diff") return out;
  auto sep = std::find(out.begin() + 2, out.end(), "--");
  if (sep == out.end()) return out;
  // Options may still follow the new files ("A -- B --format json"): a word
  // that names one of diff's options stays an option, and so does the value
  // of the options that take one; any other word ("-", standard input; a
  // file named "-x.toml") is a new file.
  static constexpr std::array<std::string_view, 6> kTakesValue = {"--profile", "--against", "--op",
                                                                  "--keys",    "--format",  "--color"};
  bool value_next = false;
  for (auto it = sep + 1; it != out.end(); ++it) {
    if (value_next) {
      value_next = false;
      continue;
    }
    const std::string_view name = std::string_view(*it).substr(0, it->find('='));
    if (it->size() > 1 && it->front() == '-' && std::find(options.begin(), options.end(), name) != options.end()) {
      value_next = std::find(kTakesValue.begin(), kTakesValue.end(), *it) != kTakesValue.end();
      continue;
    }
    *it = "--new=" + *it;
  }
  out.erase(sep);
  return out;
}

Command add_diff_command(CLI::App& app, const Io& io) {
  auto o = std::make_shared<DiffOptions>();
  CLI::App* sub = app.add_subcommand(
      "diff", "What a change does to the dispatch tables: OLD... -- NEW..., or the files under two profiles");
  sub->add_option("files", o->old_files, files_help("the old side's registration files"));
  add_source_options(*sub, o->sources);
  sub->add_option("--new", o->new_files, "the new side's files (what follows --)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group("");
  add_profile_option(*sub, o->profile);
  sub->add_option("--against", o->against,
                  "compare the files under --profile (old) with the same files under this profile (new)");
  sub->add_option("--op", o->ops, "only these operators (ns::name.overload; PyTorch's own too)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--keys", o->keys,
                  "only these dispatch keys (comma-separated; an alias stands for its runtime keys), e.g. "
                  "PrivateUse1,AutogradPrivateUse1: what changed for one backend");
  sub->add_option("--format", o->format, "text (default) or json")->check(one_of({"text", "json"}));
  sub->add_flag("--expand", o->expand, "readable view: one line per key (no 'CPU \u2026 Meta (N keys)' runs)");
  sub->add_flag("--locations", o->locations,
                "also list entries that only moved: the same kernel whose text is only where it was registered "
                "(\"registered at FILE:LINE\", PyTorch's own kernels between releases); never a difference");
  sub->add_flag("--no-library", o->no_library, "without PyTorch's own operators: only the files' registrations");
  add_read_options(*sub, o->read);
  sub->add_option("--color", o->color, "colour the readable view: auto (terminal, unless NO_COLOR), always, never")
      ->check(one_of({"auto", "always", "never"}))
      ->capture_default_str();
  sub->footer(
      "Compares the whole registry: PyTorch's own operators (the profile's library) with the files' on top.\n"
      "Exit status: 0 no difference (only a one-line summary is printed), 1 differences, 2 error.\n"
      "Examples:\n"
      "  dispatchtool diff <(git show main:ops.toml) -- ops.toml\n"
      "  dispatchtool diff old/*.toml -- new/*.toml --format json\n"
      "  dispatchtool diff --profile torch-2.6 --against torch-2.14 configs/examples/custom_op.toml\n"
      "  dispatchtool diff --profile torch-2.6 --against torch-2.14 --keys PrivateUse1,AutogradPrivateUse1 npu/*.toml");
  return {sub, [o, &io]() -> int { return run_diff(io, *o); }};
}

}  // namespace dt::cli
