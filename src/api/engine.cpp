// The engine behind both front ends (api/engine.hpp).
#include "api/engine.hpp"

#include <fmt/format.h>

#include "readers/release_sources.hpp"
#include "readers/release_yaml.hpp"
#include "registry/python_dispatcher.hpp"

namespace dt::engine {

namespace {

Error usage(Param param, Diagnostic d) { return Error{param, true, std::move(d)}; }
Error usage(Param param, std::string message) { return usage(param, make_error(std::move(message))); }
Error input(Diagnostic d) { return Error{Param::None, false, std::move(d)}; }

// The library of `build`: `cpu` plus the build's registrations, serialized as one library.
Expected<std::shared_ptr<const OpLibrary>, Error> build_library(const Profile& profile,
                                                                std::shared_ptr<const OpLibrary> cpu, Build build,
                                                                const FileSystem& fs) {
  auto blocks = build_registrations(profile, build.name);
  if (!blocks) return unexpected(usage(Param::Build, std::move(blocks.error())));
  std::string origin =
      fmt::format("{} + the {} build's native_functions.yaml registrations", cpu->origin(), build.name);
  if (!build.source.empty()) {
    auto sources =
        build_source_registrations(profile, build.name, std::string(build.source), fs, in_library(cpu.get(), profile));
    if (!sources) return unexpected(input(std::move(sources.error())));
    std::size_t entries = 0;
    for (TomlBlock& b : sources->blocks.blocks) {
      entries += b.entries.size();
      blocks->blocks.push_back(std::move(b));
    }
    origin += fmt::format(
        " and {} hand-written ones from {} ({} files naming its keys read, with {} warnings of the C++ reader: "
        "dispatchtool import with the build's -D flags shows them)",
        entries, build.source, sources->files_read, sources->warnings);
  }
  LoadOptions lo;
  lo.library = std::move(cpu);
  lo.threads = 1;
  auto loaded =
      dt::load_blocks(profile, std::move(*blocks), fmt::format("{}-{}-build", profile.name(), build.name), lo);
  if (!loaded) return unexpected(input(std::move(loaded.error())));
  loaded->registry.materialize_all();
  auto blob = std::make_shared<const std::string>(OpLibrary::serialize(loaded->registry, origin));
  auto lib = OpLibrary::open(*blob, profile, blob);
  if (!lib) return unexpected(input(std::move(lib.error())));
  return std::make_shared<const OpLibrary>(std::move(*lib));
}

}  // namespace

std::string_view param_label(Param param, Front front) {
  const bool cli = front == Front::CommandLine;
  switch (param) {
    case Param::None:
      return "";
    case Param::Build:
      return cli ? "--build" : "build";
    case Param::BuildSource:
      return cli ? "--build-source" : "build_source";
    case Param::Register:
      return cli ? "--register" : "register_calls";
    case Param::Keys:
      return cli ? "--keys" : "keys";
    case Param::Keyset:
      return cli ? "--keyset" : "keyset";
    case Param::Arg:
      return cli ? "--arg" : "arg";
    case Param::Autocast:
      return cli ? "--autocast" : "autocast";
    case Param::Include:
      return cli ? "--include" : "include";
    case Param::Exclude:
      return cli ? "--exclude" : "exclude";
    case Param::Tags:
      return cli ? "--tag" : "tags";
    case Param::ExcludeTags:
      return cli ? "--exclude-tag" : "exclude_tags";
    case Param::Namespaces:
      return cli ? "--namespace" : "namespaces";
    case Param::Pattern:
      return cli ? "--name" : "pattern";
  }
  return "";
}

Diagnostic worded(const Error& e, Front front) {
  Diagnostic d = e.diagnostic;
  if (e.param != Param::None) d.message = fmt::format("{}: {}", param_label(e.param, front), d.message);
  return d;
}

Expected<std::shared_ptr<const OpLibrary>, Error> open_library(const Profile& profile, bool with_library, Build build,
                                                               const FileSystem& fs,
                                                               std::span<const EmbeddedLibrary> libraries) {
  const bool extra_build = !build.name.empty() && build.name != "cpu";
  if (!build.source.empty() && !extra_build)
    return unexpected(usage(Param::BuildSource,
                            "it adds the hand-written registrations of a GPU build: give --build "
                            "cuda, mps, xpu or mtia too"));
  if (!with_library) {
    if (extra_build) return unexpected(usage(Param::Build, "it adds to the profile's operator library, which is left out"));
    return std::shared_ptr<const OpLibrary>();
  }
  auto lib = dt::open_library(profile, fs, libraries);
  if (!lib) return unexpected(input(std::move(lib.error())));
  if (!extra_build) return std::move(*lib);
  if (*lib == nullptr)
    return unexpected(usage(Param::Build, fmt::format("profile {} has no operator library to build on", profile.name())));
  return build_library(profile, std::move(*lib), build, fs);
}

Expected<LoadResult, Error> load(const Profile& profile, const Request& request, const ReadFile& read) {
  if (!request.register_calls.empty()) {
    if (!request.files.empty())
      return unexpected(usage(Param::Register, "it builds PythonDispatcher's demo operator, and takes no files"));
    LoadResult loaded{python_dispatcher_registry(profile), {}, {}};
    for (const auto& call : request.register_calls)
      if (auto registered = python_dispatcher_register(loaded.registry, register_call_keys(call),
                                                       param_label(Param::Register, request.front));
          !registered)
        return unexpected(usage(Param::None, std::move(registered.error())));
    return loaded;
  }
  auto loaded = dt::load(profile, request.files, read, request.load);
  if (!loaded) return unexpected(input(std::move(loaded.error())));
  return std::move(*loaded);
}

Expected<Ok, Error> check_filter(const Registry& reg, const OpFilter& filter) {
  auto ok = dt::check_filter(reg, filter);
  if (ok) return Ok{};
  static constexpr Param kParam[] = {Param::Tags, Param::ExcludeTags, Param::Namespaces, Param::Pattern};
  return unexpected(usage(kParam[static_cast<std::size_t>(ok.error().field)], std::move(ok.error().diagnostic)));
}

Expected<Selection, Error> select(Registry& reg, const std::vector<std::string>& ops, const OpFilter& filter,
                                  const std::optional<std::string>& keys) {
  Selection out;
  auto chosen = select_ops(reg, ops);
  if (!chosen) return unexpected(usage(Param::None, std::move(chosen.error())));
  out.ops = std::move(*chosen);
  if (!filter.empty()) {
    DT_TRY_VOID(engine::check_filter(reg, filter));
    out.ops = filter_ops(out.ops, filter);
  }
  if (keys) {
    auto parsed = parse_key_filter(reg, *keys);
    if (!parsed) return unexpected(usage(Param::Keys, std::move(parsed.error())));
    out.table = std::move(parsed->table);
    out.registrations = std::move(parsed->registrations);
  }
  return out;
}

Trace::Trace(const Registry& reg) : ks_(reg.profile()), resolver_(reg) {}
Trace::~Trace() = default;

TraceView Trace::view(std::string label, bool color, std::string library_note) const {
  return TraceView{&*table_, &ks_, &call_, extra_, tls_, &steps_, std::move(label), color, std::move(library_note)};
}

Expected<std::unique_ptr<Trace>, Error> trace(const Registry& reg, const Operator& op, const Call& call) {
  std::unique_ptr<Trace> t(new Trace(reg));
  const std::string& pu1 = reg.privateuse1_name;
  if (!call.keyset.empty()) {
    auto bits = t->ks_.parse(call.keyset, pu1);
    if (!bits) return unexpected(usage(Param::Keyset, bits.error()));
    t->extra_ = *bits;
  }
  auto bound = bind_arguments(t->ks_, pu1, op.def ? &op.def->schema : nullptr, call.args, !call.keyset.empty());
  if (!bound) return unexpected(usage(Param::Arg, about(op.name, std::move(bound.error()))));
  t->call_ = std::move(*bound);
  auto tls = make_tls(t->ks_, pu1, call.tls);
  if (!tls) {
    const Param param = tls.error().field == TlsError::Field::Autocast  ? Param::Autocast
                        : tls.error().field == TlsError::Field::Include ? Param::Include
                                                                        : Param::Exclude;
    return unexpected(usage(param, std::move(tls.error().diagnostic)));
  }
  t->tls_ = *tls;
  t->table_.emplace(t->resolver_, t->ks_, op);
  t->steps_ = trace_call(*t->table_, t->ks_, CallInput{t->call_.args, t->extra_, t->tls_});
  return t;
}

}  // namespace dt::engine
