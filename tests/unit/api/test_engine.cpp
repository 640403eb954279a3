// The engine behind both front ends (src/api/engine.cpp): errors name their
// parameter and each front end words it; --build, --register, the selection
// and trace behave alike through the command line's words and the API's.
#include "api/engine.hpp"

#include <dispatchtool/analysis.hpp>
#include <dispatchtool/session.hpp>

#include <tuple>

#include "helpers.hpp"
#include "registry/library.hpp"

namespace dt::test {
namespace {

const std::string kOps =
    "namespace = \"myops\"\n[[def]]\nschema = \"myadd(Tensor self, Tensor other) -> Tensor\"\n"
    "dispatch = { CPU = \"myadd_cpu\" }\n";

LoadResult loaded(const std::string& prof, const Files& files) {
  engine::Request r;
  for (const auto& f : files) r.files.push_back(f.first);
  auto l = engine::load(profile(prof), r, memory_reader(files));
  REQUIRE_MESSAGE(l.has_value(), (l ? "" : format(l.error().diagnostic)));
  return std::move(*l);
}

}  // namespace

TEST_CASE("engine: an error names its parameter, worded by each front end") {
  const engine::Error e{engine::Param::Keys, true, make_error("unknown dispatch key 'Nope'")};
  CHECK(engine::worded(e, engine::Front::CommandLine).message == "--keys: unknown dispatch key 'Nope'");
  CHECK(engine::worded(e, engine::Front::Api).message == "keys: unknown dispatch key 'Nope'");
  const engine::Error plain{engine::Param::None, false, make_error("x.toml: cannot open")};
  CHECK(engine::worded(plain, engine::Front::CommandLine).message == "x.toml: cannot open");
  const std::vector<std::tuple<engine::Param, std::string, std::string>> labels = {
      {engine::Param::Build, "--build", "build"},
      {engine::Param::Register, "--register", "register_calls"},
      {engine::Param::Keys, "--keys", "keys"},
      {engine::Param::Keyset, "--keyset", "keyset"},
      {engine::Param::Arg, "--arg", "arg"},
      {engine::Param::None, "", ""},
      {engine::Param::Tags, "--tag", "tags"},
      {engine::Param::ExcludeTags, "--exclude-tag", "exclude_tags"},
      {engine::Param::Namespaces, "--namespace", "namespaces"},
      {engine::Param::Pattern, "--name", "pattern"}};
  for (const auto& [param, cli, api] : labels) {
    CHECK(engine::param_label(param, engine::Front::CommandLine) == cli);
    CHECK(engine::param_label(param, engine::Front::Api) == api);
  }
}

TEST_CASE("engine: open_library -- none, the profile's, or a build on top of it") {
  const Profile& p = profile("torch-2.14");
  auto none = engine::open_library(p, false, {}, real_filesystem(), embedded_libraries());
  REQUIRE(none.has_value());
  CHECK(*none == nullptr);
  auto cpu = engine::open_library(p, true, {"cpu", ""}, real_filesystem(), embedded_libraries());
  REQUIRE(cpu.has_value());
  REQUIRE(*cpu != nullptr);
  auto cuda = engine::open_library(p, true, {"cuda", ""}, real_filesystem(), embedded_libraries());
  REQUIRE(cuda.has_value());
  CHECK((*cuda)->origin().find("the cuda build's native_functions.yaml") != std::string::npos);
  auto no_base = engine::open_library(p, false, {"cuda", ""}, real_filesystem(), embedded_libraries());
  REQUIRE_FALSE(no_base.has_value());
  CHECK(no_base.error().param == engine::Param::Build);
  CHECK(no_base.error().usage);
  // torch-main has no operator library to build on
  auto bare = engine::open_library(profile("torch-main"), true, {"cuda", ""}, real_filesystem(), embedded_libraries());
  REQUIRE_FALSE(bare.has_value());
  CHECK(engine::worded(bare.error(), engine::Front::CommandLine).message ==
        "--build: profile torch-main has no operator library to build on");
  // --build-source adds to a GPU build, and names its tree's errors where they are.
  auto source_alone = engine::open_library(p, true, {"", "pt"}, real_filesystem(), embedded_libraries());
  REQUIRE_FALSE(source_alone.has_value());
  CHECK(engine::worded(source_alone.error(), engine::Front::Api)
            .message.find("build_source: it adds the hand-written "
                          "registrations of a GPU build") == 0);
  auto not_tree = engine::open_library(p, true, {"cuda", DT_TEST_DATA_DIR}, real_filesystem(), embedded_libraries());
  REQUIRE_FALSE(not_tree.has_value());
  CHECK_FALSE(not_tree.error().usage);
  CHECK(not_tree.error().diagnostic.message.find("not a PyTorch source tree") == 0);
}

TEST_CASE("engine: load -- files, or PythonDispatcher's demo operator, which takes no files") {
  CHECK(loaded("torch-2.14", {{"ops.toml", kOps}}).registry.find("myops::myadd") != nullptr);
  engine::Request demo;
  demo.register_calls = {"CPU", "AutogradCPU, CompositeImplicitAutograd"};
  auto d = engine::load(profile("torch-2.14"), demo, memory_reader({}));
  REQUIRE(d.has_value());
  CHECK_FALSE(d->registry.sorted_operators().empty());
  // The demo kernels are placed at the parameter, as each front end names it.
  auto origin = [](const LoadResult& r) {
    const Operator* foo = r.registry.find("__test__::foo");
    REQUIRE(foo != nullptr);
    REQUIRE_FALSE(foo->kernels.empty());
    return std::string(foo->kernels.front().kernels.front().where.file.view());
  };
  CHECK(origin(*d) == "register_calls");
  demo.front = engine::Front::CommandLine;
  auto cli = engine::load(profile("torch-2.14"), demo, memory_reader({}));
  REQUIRE(cli.has_value());
  CHECK(origin(*cli) == "--register");
  demo.files = {"ops.toml"};
  auto both = engine::load(profile("torch-2.14"), demo, memory_reader({{"ops.toml", kOps}}));
  REQUIRE_FALSE(both.has_value());
  CHECK(engine::worded(both.error(), engine::Front::Api).message ==
        "register_calls: it builds PythonDispatcher's demo operator, and takes no files");
  engine::Request bad;
  bad.register_calls = {"NoSuchKey"};
  auto b = engine::load(profile("torch-2.14"), bad, memory_reader({}));
  REQUIRE_FALSE(b.has_value());
  CHECK(b.error().usage);
  // an input's error is the loader's located diagnostic, no parameter
  auto broken = engine::load(profile("torch-2.14"), engine::Request{{"b.toml"}, {}, {}},
                             memory_reader({{"b.toml", "namespace = \n"}}));
  REQUIRE_FALSE(broken.has_value());
  CHECK(broken.error().param == engine::Param::None);
  CHECK_FALSE(broken.error().usage);
  CHECK(broken.error().diagnostic.where.file.view() == "b.toml");
}

TEST_CASE("engine: select -- operators, filter, keys (Param::Keys)") {
  LoadResult l = loaded("torch-2.14", {{"ops.toml", kOps}});
  auto all = engine::select(l.registry, {}, {}, std::nullopt);
  REQUIRE(all.has_value());
  REQUIRE(all->ops.size() == 1);
  auto keys = engine::select(l.registry, {"myadd"}, {}, std::string("CPU"));
  REQUIRE(keys.has_value());
  auto bad = engine::select(l.registry, {}, {}, std::string("NoSuchKey"));
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().param == engine::Param::Keys);
  CHECK(engine::worded(bad.error(), engine::Front::CommandLine).message.rfind("--keys: ", 0) == 0);
  auto missing = engine::select(l.registry, {"nope::nothing"}, {}, std::nullopt);
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().param == engine::Param::None);
  // A filter's error names its field; each front end words it as its users write it.
  OpFilter ns;
  ns.namespaces = {"myopz"};
  auto unknown_ns = engine::select(l.registry, {}, ns, std::nullopt);
  REQUIRE_FALSE(unknown_ns.has_value());
  CHECK(unknown_ns.error().param == engine::Param::Namespaces);
  CHECK(unknown_ns.error().usage);
  CHECK(engine::worded(unknown_ns.error(), engine::Front::CommandLine).message ==
        "--namespace: unknown namespace 'myopz' (did you mean 'myops'?)");
  CHECK(engine::worded(unknown_ns.error(), engine::Front::Api).message ==
        "namespaces: unknown namespace 'myopz' (did you mean 'myops'?)");
  OpFilter tag;
  tag.exclude_tags = {"no_such_tag"};
  auto unknown_tag = engine::check_filter(l.registry, tag);
  REQUIRE_FALSE(unknown_tag.has_value());
  CHECK(unknown_tag.error().param == engine::Param::ExcludeTags);
}

TEST_CASE("engine: trace -- the steps, and errors of keyset, arg and thread-local state") {
  LoadResult l = loaded("torch-2.14", {{"ops.toml", kOps}});
  const Operator& op = *l.registry.find("myops::myadd");
  auto t = engine::trace(l.registry, op, engine::Call{{"cpu", "cpu"}, "", {}});
  REQUIRE(t.has_value());
  REQUIRE_FALSE((*t)->steps().steps.empty());
  CHECK((*t)->steps().steps.back().entry.debug() == "myadd_cpu");
  const TraceView v = (*t)->view("torch-2.14", false, "");
  std::string text;
  render_trace_human(v, text);
  CHECK(text.find("result: CPU runs myadd_cpu") != std::string::npos);

  auto keyset = engine::trace(l.registry, op, engine::Call{{}, "NoSuchKey", {}});
  REQUIRE_FALSE(keyset.has_value());
  CHECK(keyset.error().param == engine::Param::Keyset);
  auto arg = engine::trace(l.registry, op, engine::Call{{"not_a_device"}, "", {}});
  REQUIRE_FALSE(arg.has_value());
  CHECK(arg.error().param == engine::Param::Arg);
  CHECK(arg.error().diagnostic.message.rfind("myops::myadd: ", 0) == 0);
  TlsOptions tls;
  tls.include = {"NoSuchKey"};
  auto state = engine::trace(l.registry, op, engine::Call{{"cpu", "cpu"}, "", tls});
  REQUIRE_FALSE(state.has_value());
  CHECK(state.error().param == engine::Param::Include);
  CHECK(engine::worded(state.error(), engine::Front::Api)
            .message.rfind("include: could not parse dispatch key: "
                           "NoSuchKey",
                           0) == 0);
  CHECK(engine::worded(state.error(), engine::Front::CommandLine).message.rfind("--include: ", 0) == 0);
  tls = {};
  tls.autocast = {"nowhere"};
  auto autocast = engine::trace(l.registry, op, engine::Call{{"cpu", "cpu"}, "", tls});
  REQUIRE_FALSE(autocast.has_value());
  CHECK(autocast.error().param == engine::Param::Autocast);
  CHECK(engine::worded(autocast.error(), engine::Front::Api).message.rfind("autocast: profile ", 0) == 0);
}

TEST_CASE("engine: the public Session takes build and register_calls as the command line does") {
  dispatchtool::SessionOptions o;
  o.register_calls = {"CPU", "AutogradCPU"};
  auto demo = dispatchtool::Session::open(o);
  REQUIRE_MESSAGE(demo.has_value(), (demo ? "" : format(demo.error())));
  CHECK_FALSE(demo->operators().empty());

  dispatchtool::SessionOptions b;
  b.build = "cuda";
  auto cuda = dispatchtool::Session::open(b);
  REQUIRE(cuda.has_value());
  auto t = cuda->table("aten::add.Tensor", "CUDA");
  REQUIRE(t.has_value());
  REQUIRE(t->entries.size() == 1);
  // the build's own CUDA kernel (the CPU library has only the alias key's there)
  CHECK(t->entries.front().kernel == "registered at aten/src/ATen/native/native_functions.yaml:569");
  CHECK(t->entries.front().provenance == "kernel");

  b.library = false;
  auto refused = dispatchtool::Session::open(b);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message == "build: it adds to the profile's operator library, which is left out");
}

}  // namespace dt::test
