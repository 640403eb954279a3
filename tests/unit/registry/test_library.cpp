// The operator library: serialize / open / materialize round trips, a
// Registry on top of a library (PyTorch's semantics for what the files add),
// the built-in torch-1.13 library, and where a profile's library comes from.
#include "helpers.hpp"
#include "registry/library.hpp"
#include "render/raw.hpp"

namespace dt::test {

namespace {

// A small "PyTorch": every kind of state a library must keep.
const Files kCore = {
    {"lib/a.toml",
     "namespace = \"core\"\nkind = \"FRAGMENT\"\n"
     "[[def]]\nschema = \"core::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\"\n"
     "debug = \"registered at core.cpp:1\"\ntags = [\"generated\", \"view_copy\"]\n"
     "[[impl]]\nop = \"add.Tensor\"\nkey = \"CPU\"\nkernel = \"add_cpu_old\"\n"
     "signature = \"(Tensor _0, Tensor _1, Scalar _2) -> Tensor _0\"\n"
     "[[impl]]\nop = \"add.Tensor\"\nkey = \"CPU\"\nkernel = \"add_cpu\"\n"
     "signature = \"(Tensor _0, Tensor _1, Scalar _2) -> Tensor _0\"\n"
     "[[impl]]\nop = \"add.Tensor\"\nkey = \"Autograd\"\nkernel = \"add_autograd\"\nboxed_only = true\n"
     "[[impl]]\nop = \"add.Tensor\"\nkey = \"Tracer\"\nfallthrough = true\n"
     "[[def]]\nschema = \"core::view(Tensor(a) self, SymInt[] size) -> Tensor(a)\"\nalias_analysis = \"CONSERVATIVE\"\n"
     "[[impl]]\nop = \"view\"\nkernel = \"view_math\"\n"},
    {"lib/b.toml",
     "namespace = \"other\"\n"
     "[[impl]]\nop = \"other::dangling\"\nkey = \"XLA\"\nkernel = \"dangling_xla\"\n"},
};

// The library made from kCore, for `prof`.
std::shared_ptr<const OpLibrary> library_of(const std::string& prof, const Files& files = kCore) {
  const LoadResult core = must_load(prof, files);
  auto blob = std::make_shared<const std::string>(OpLibrary::serialize(core.registry, "lib"));
  auto lib = OpLibrary::open(*blob, profile(prof), blob);
  REQUIRE_MESSAGE(lib.has_value(), (lib ? "" : format(lib.error())));
  return std::make_shared<const OpLibrary>(std::move(*lib));
}

Expected<LoadResult, Diagnostic> load_on(const std::shared_ptr<const OpLibrary>& lib, const std::string& prof,
                                         const Files& files, OnRefusal on_refusal = OnRefusal::Fail) {
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.first);
  LoadOptions o;
  o.library = lib;
  o.on_refusal = on_refusal;
  return load(profile(prof), paths, memory_reader(files), o);
}

}  // namespace

TEST_CASE("library: every operator materializes exactly as it was registered") {
  for (const std::string prof : {"torch-1.13", "torch-main"}) {
    CAPTURE(prof);
    const LoadResult core = must_load(prof, kCore);
    const auto lib = library_of(prof);
    CHECK(lib->size() == 3);
    CHECK(lib->origin() == "lib");
    CHECK(lib->kernel_count() == 6);
    CHECK(lib->name(0) == "core::add.Tensor");  // sorted by name
    CHECK(lib->name(2) == "other::dangling");
    CHECK(lib->find("core::view") == std::optional<std::size_t>(1));
    CHECK_FALSE(lib->find("core::nope").has_value());
    CHECK(lib->contains(Location{"lib/b.toml", 3, 1}));
    CHECK_FALSE(lib->contains(Location{"user.toml", 3, 1}));

    LoadResult mine{Registry(profile(prof), lib), {}, {}};
    mine.registry.materialize_all();
    CHECK(mine.registry.operators().size() == 3);
    for (const std::string op : {"core::add.Tensor", "core::view", "other::dangling"}) {
      CAPTURE(op);
      CHECK(raw_table(mine, op) == raw_table(core, op));
      CHECK(raw_registrations(mine, op) == raw_registrations(core, op));
      const Operator& a = *mine.registry.find(op);
      const Operator& b = *core.registry.find(op);
      CHECK(a.library);
      CHECK_FALSE(b.library);
      CHECK(a.first_seen == b.first_seen);
      CHECK(a.def.has_value() == b.def.has_value());
      if (a.def) {
        CHECK(a.def->schema == b.def->schema);
        CHECK(a.def->tags == b.def->tags);
        CHECK(a.def->where == b.def->where);
      }
      REQUIRE(a.kernels.size() == b.kernels.size());
      for (std::size_t i = 0; i < a.kernels.size(); ++i) {
        REQUIRE(a.kernels[i].kernels.size() == b.kernels[i].kernels.size());
        for (std::size_t j = 0; j < a.kernels[i].kernels.size(); ++j) {
          const Kernel &x = a.kernels[i].kernels[j], &y = b.kernels[i].kernels[j];
          CHECK(x.debug == y.debug);
          CHECK(x.where == y.where);
          CHECK(x.seq == y.seq);
          CHECK(x.catch_all == y.catch_all);
          CHECK(mine.registry.libraries()[x.library].where == core.registry.libraries()[y.library].where);
        }
      }
      CHECK(a.cpp_signature.has_value() == b.cpp_signature.has_value());
      CHECK(a.sym_cpp_signature.has_value() == b.sym_cpp_signature.has_value());
    }
    CHECK(mine.registry.find("core::view")->def->alias == AliasAnalysis::Conservative);
  }
}

TEST_CASE("library: open refuses what is not a library of this universe") {
  CHECK(OpLibrary::open("", profile("torch-1.13")).error().message ==
        "operator library of profile torch-1.13: not a serialized library of this version of dispatchtool");
  const LoadResult core = must_load("torch-1.13", kCore);
  const std::string blob = OpLibrary::serialize(core.registry, "lib");
  CHECK(OpLibrary::open(std::string_view(blob).substr(0, blob.size() - 1), profile("torch-1.13")).error().message ==
        "operator library of profile torch-1.13: the serialized library is truncated");
  // A key that only main has.
  const LoadResult mtia = must_load("torch-main", {{"m.toml",
                                                    "namespace = \"m\"\n[[def]]\nschema = \"f(Tensor x) -> Tensor\"\n"
                                                    "[[impl]]\nop = \"f\"\nkey = \"MTIA\"\nkernel = \"f_mtia\"\n"}});
  const std::string main_blob = OpLibrary::serialize(mtia.registry, "m");
  CHECK(OpLibrary::open(main_blob, profile("torch-1.13")).error().message ==
        "operator library of profile torch-1.13: its registrations use the dispatch key 'MTIA', which the profile "
        "does not have");
}

TEST_CASE("library: the files' registrations go on top of PyTorch's") {
  const auto lib = library_of("torch-1.13");
  SUBCASE("an impl adds to the library's operator, which is materialized first") {
    const auto l = load_on(lib, "torch-1.13",
                           {{"mine.toml",
                             "namespace = \"core\"\nkind = \"IMPL\"\ndispatch_key = \"XLA\"\n"
                             "[[impl]]\nop = \"add.Tensor\"\nkernel = \"add_xla\"\n"
                             "signature = \"(Tensor _0, Tensor _1, Scalar _2) -> Tensor _0\"\n"}});
    REQUIRE(l.has_value());
    REQUIRE(l->registry.operators().size() == 1);  // only what the file touched
    const Operator& op = *l->registry.find("core::add.Tensor");
    CHECK(op.library);
    CHECK(op.get(*profile("torch-1.13").find("CPU"))->debug == "add_cpu");
    const Kernel* xla = op.get(*profile("torch-1.13").find("XLA"));
    REQUIRE(xla != nullptr);
    CHECK(xla->debug == "add_xla");
    CHECK(xla->seq >= lib->kernel_count());  // after PyTorch's own
    CHECK(l->registry.warnings().empty());
  }
  SUBCASE("a kernel on a key the library has one for overrides it, with PyTorch's warning") {
    const auto l = load_on(lib, "torch-1.13",
                           {{"mine.toml",
                             "namespace = \"core\"\n[[impl]]\nop = \"add.Tensor\"\nkey = \"CPU\"\n"
                             "kernel = \"my_add_cpu\"\n"}});
    REQUIRE(l.has_value());
    REQUIRE(l->registry.warnings().size() == 1);
    const Diagnostic& w = l->registry.warnings()[0];
    CHECK(w.message ==
          "Overriding a previously registered kernel for the same operator and the same dispatch key\n"
          "  operator: core::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
          "    registered at core.cpp:1\n"
          "  dispatch key: CPU\n"
          "  previous kernel: add_cpu_old\n"
          "       new kernel: my_add_cpu");
    REQUIRE(w.notes.size() == 1);
    CHECK(w.notes[0].where.file == "lib/a.toml");
  }
  SUBCASE("a def of an existing operator is PyTorch's error, with the library's location") {
    const auto l = load_on(lib, "torch-1.13",
                           {{"mine.toml", "namespace = \"core\"\n[[def]]\nschema = \"view(Tensor x) -> Tensor\"\n"}});
    REQUIRE_FALSE(l.has_value());
    CHECK(l.error().code == "duplicate-def");
    CHECK(l.error().where == Location{"mine.toml", 2, 1});
    REQUIRE(l.error().notes.size() == 1);
    CHECK(l.error().notes[0].where.file == "lib/a.toml");
  }
  SUBCASE("nothing is materialized that the files do not touch; lookups do not materialize") {
    LoadResult only{Registry(profile("torch-1.13"), lib), {}, {}};
    CHECK(only.registry.operators().empty());
    CHECK(only.registry.find("core::view") == nullptr);
    CHECK(only.registry.knows("core::view"));
    CHECK_FALSE(only.registry.knows("core::vieww"));
    CHECK(only.registry.names() == std::vector<std::string_view>{"core::add.Tensor", "core::view", "other::dangling"});
    const Operator* v = only.registry.materialize("core::view");
    REQUIRE(v != nullptr);
    CHECK(only.registry.materialize("core::view") == v);  // once
    CHECK(only.registry.materialize("core::nope") == nullptr);
    CHECK(only.registry.operators().size() == 1);
    CHECK(only.registry.libraries().size() == 2);  // the library's blocks come first
  }
}

TEST_CASE("library: the built-in torch-1.13 library") {
  const Profile& p = profile("torch-1.13");
  auto lib = open_library(p, real_filesystem(), embedded_libraries());
  REQUIRE_MESSAGE(lib.has_value(), (lib ? "" : format(lib.error())));
  REQUIRE(*lib != nullptr);
  CHECK((*lib)->size() == 3380);
  CHECK((*lib)->origin() == "configs/library/torch-1.13");
  LoadResult l{Registry(p, *lib), {}, {}};
  const Operator* add = l.registry.materialize("aten::add.Tensor");
  REQUIRE(add != nullptr);
  REQUIRE(add->def.has_value());
  CHECK(add->def->printed == "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  CHECK(add->def->where.file.view().starts_with("configs/library/torch-1.13/aten-"));
  CHECK(add->get(*p.find("CPU"))->debug.starts_with("registered at ./build/aten/src/ATen/RegisterCPU.cpp:"));
  CHECK(l.registry.materialize("aten::t_")->def->tags == std::vector<std::string>{"inplace_view"});
  // torch-main has none (yet).
  auto none = open_library(profile("torch-main"), real_filesystem(), embedded_libraries());
  REQUIRE(none.has_value());
  CHECK(*none == nullptr);
}

TEST_CASE("library: a profile file's own library, read through the FileSystem") {
  std::map<std::string, std::string> files;
  for (const auto& [name, text] : kCore) files["dir/" + name] = text;
  std::string profile_text = read_text(std::string(DT_SOURCE_DIR) + "/configs/profiles/torch-1.13.toml");
  profile_text.replace(profile_text.find("paths = [\"../library/torch-1.13\"]"),
                       std::string("paths = [\"../library/torch-1.13\"]").size(), "paths = [\"lib\"]");
  files["dir/p.toml"] = profile_text;
  const FileSystem fs = memory_filesystem(files);
  auto p = Profile::parse(files["dir/p.toml"], "dir/p.toml");
  REQUIRE(p.has_value());
  CHECK(p->operator_library() == std::vector<std::string>{"lib"});
  auto listed = library_files(*p, fs);
  REQUIRE(listed.has_value());
  CHECK(*listed == std::vector<std::string>{"dir/lib/a.toml", "dir/lib/b.toml"});
  auto lib = open_library(*p, fs, embedded_libraries());  // not built in: the embedded one is not used
  REQUIRE_MESSAGE(lib.has_value(), (lib ? "" : format(lib.error())));
  CHECK((*lib)->size() == 3);
  CHECK((*lib)->origin() == "dir/lib");

  files.erase("dir/lib/a.toml");
  files.erase("dir/lib/b.toml");
  auto missing = library_files(*p, memory_filesystem(files));
  REQUIRE_FALSE(missing.has_value());
  CHECK(format(missing.error()).starts_with("dir/p.toml:"));
  CHECK(missing.error().message == "operator library 'dir/lib' is not a file or directory");
}

TEST_CASE("library: a profile's operator library lies inside the profile's directory, read inside it (issue 32)") {
  std::map<std::string, std::string> files;
  for (const auto& [name, text] : kCore) files["dir/" + name] = text;  // dir/lib/a.toml, dir/lib/b.toml
  std::string profile_text = read_text(std::string(DT_SOURCE_DIR) + "/configs/profiles/torch-1.13.toml");
  const std::string original = "paths = [\"../library/torch-1.13\"]";
  const auto with_paths = [&](const std::string& paths) {
    std::string t = profile_text;
    t.replace(t.find(original), original.size(), "paths = " + paths);
    auto p = Profile::parse(t, "dir/p.toml");
    REQUIRE(p.has_value());
    return std::move(*p);
  };
  FileSystem fs = memory_filesystem(files);
  std::vector<std::pair<std::string, Roots>> inside;
  const ReadInside read_inside = fs.read_inside;
  fs.read_inside = [&](const std::string& path, const Roots& roots) {
    inside.emplace_back(path, roots);
    return read_inside(path, roots);
  };
  CHECK(library_roots(with_paths("[\"lib\"]")) == Roots{"dir"});
  auto lib = open_library(with_paths("[\"lib\"]"), fs, embedded_libraries());
  REQUIRE_MESSAGE(lib.has_value(), (lib ? "" : format(lib.error())));
  CHECK(inside ==
        std::vector<std::pair<std::string, Roots>>{{"dir/lib/a.toml", Roots{"dir"}}, {"dir/lib/b.toml", Roots{"dir"}}});
  // Outside: an absolute path, '..', a file beside the profile's directory; the error is at `paths`.
  files["other/x.toml"] = "";
  for (const char* paths : {"[\"/etc/passwd\"]", "[\"../..\"]", "[\"../other/x.toml\"]", "[\"lib\", \"/proc/kmsg\"]"}) {
    CAPTURE(paths);
    auto out = library_files(with_paths(paths), fs);
    REQUIRE_FALSE(out.has_value());
    CHECK(format(out.error()).starts_with("dir/p.toml:"));
    CHECK(out.error().message.find("lies outside the profile's directory") != std::string::npos);
  }
  // The built-ins' generator gives wider roots: configs/ for configs/profiles/*.toml.
  CHECK(library_files(with_paths("[\"../other/x.toml\"]"), fs, {"."}).has_value());
}

}  // namespace dt::test
