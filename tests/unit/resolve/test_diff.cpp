// Table differences (resolve/diff.hpp): operators added and removed, schema
// changes, and every key whose resolved entry changed.
#include "call_helpers.hpp"
#include "resolve/diff.hpp"

namespace dt::test {

namespace {

// One side: files loaded under a profile, with its resolver and operators.
struct Side {
  Side(const std::string& prof, const Files& files) : loaded(must_load(prof, files)), r(loaded.registry) {
    for (const auto& op : loaded.registry.operators()) ops.push_back(&op);
  }
  LoadResult loaded;
  Resolver r;
  std::vector<const Operator*> ops;
  [[nodiscard]] DiffSide side() const { return DiffSide{&r, ops}; }
};

TableDiff diff(const Side& a, const Side& b) { return diff_tables(a.side(), b.side()); }

const KeyChange* change(const OpDiff& d, const std::string& key) {
  for (const auto& k : d.keys)
    if (k.key == key) return &k;
  return nullptr;
}

}  // namespace

TEST_CASE("identical sides: nothing differs") {
  const Files f = {{"a.toml", op_file("f(Tensor x) -> Tensor", {"CPU", "Autograd"}, false)}};
  const Side a("torch-1.13", f), b("torch-1.13", f);
  const TableDiff d = diff(a, b);
  CHECK(d.compared == 1);
  CHECK(d.ops.empty());
}

TEST_CASE("a kernel moved from CompositeImplicitAutograd to CompositeExplicitAutograd") {
  const Side a("torch-1.13", {{"a.toml", op_file("f(Tensor x) -> Tensor", {"CompositeImplicitAutograd"}, false)}});
  const Side b("torch-1.13", {{"b.toml", op_file("f(Tensor x) -> Tensor", {"CompositeExplicitAutograd"}, false)}});
  const TableDiff d = diff(a, b);
  REQUIRE(d.ops.size() == 1);
  CHECK(d.ops[0].kind == OpChangeKind::Changed);
  const KeyChange* cpu = change(d.ops[0], "CPU");
  REQUIRE(cpu != nullptr);
  CHECK(cpu->old_entry.provenance == "math kernel");
  CHECK(cpu->new_entry.provenance == "default backend kernel");
  CHECK(cpu->new_entry.source == "CompositeExplicitAutograd");
  // AutogradCPU: the math kernel gives way to PyTorch's fallthrough autograd fallback.
  const KeyChange* ag = change(d.ops[0], "AutogradCPU");
  REQUIRE(ag != nullptr);
  CHECK(ag->new_entry.fallthrough);
  CHECK(ag->new_entry.core_fallback_file == "VariableFallbackKernel.cpp");
  // Keys whose entry is equal on both sides are not listed.
  CHECK(change(d.ops[0], "BackendSelect") == nullptr);
}

TEST_CASE("added, removed, schema change, fallthrough, ambiguity") {
  const Side a("torch-1.13", {{"a.toml", op_file("f(Tensor x) -> Tensor", {"CPU", "XLA"}, false)},
                              {"b.toml", op_file("g(Tensor x) -> Tensor", {"CompositeImplicitAutograd"}, false)}});
  std::string fallthrough = op_file("f(Tensor x, Tensor? y=None) -> Tensor", {"CPU"}, false);
  fallthrough += "[[impl]]\nop = \"f\"\nkey = \"XLA\"\nfallthrough = true\n";
  const Side b("torch-1.13",
               {{"a.toml", fallthrough},
                {"c.toml", op_file("h(Tensor x) -> Tensor", {"CompositeImplicitAutograd", "SparseCPU"}, false)}});
  const TableDiff d = diff(a, b);
  CHECK(d.compared == 3);
  REQUIRE(d.ops.size() == 3);
  CHECK(d.ops[0].name == "t::f");
  CHECK(d.ops[0].old_schema == "t::f(Tensor x) -> Tensor");
  CHECK(d.ops[0].new_schema == "t::f(Tensor x, Tensor? y=None) -> Tensor");
  const KeyChange* xla = change(d.ops[0], "XLA");
  REQUIRE(xla != nullptr);
  CHECK_FALSE(xla->old_entry.fallthrough);
  CHECK(xla->new_entry.fallthrough);
  CHECK(d.ops[1].name == "t::g");
  CHECK(d.ops[1].kind == OpChangeKind::Removed);
  CHECK(d.ops[1].new_schema.empty());
  CHECK(d.ops[2].kind == OpChangeKind::Added);
  const KeyChange* other = change(d.ops[2], "AutogradOther");
  REQUIRE(other != nullptr);
  CHECK_FALSE(other->old_entry.valid);
  CHECK(other->new_entry.provenance == "ambiguous autogradother");
}

TEST_CASE("two profiles: PyTorch's fallbacks compared by file, keys only one profile has") {
  const Files f = {{"a.toml", op_file("f(Tensor x) -> Tensor", {"CompositeExplicitAutograd"}, false)}};
  const Side a("torch-1.13", f), b("torch-main", f);
  const TableDiff d = diff(a, b);
  REQUIRE(d.ops.size() == 1);
  // 1.13's autograd fallback is a fallthrough; main's is a boxed kernel.
  const KeyChange* ag = change(d.ops[0], "AutogradCPU");
  REQUIRE(ag != nullptr);
  CHECK(ag->old_entry.fallthrough);
  CHECK_FALSE(ag->new_entry.fallthrough);
  CHECK(ag->old_entry.core_fallback_file == ag->new_entry.core_fallback_file);
  // Same fallback file, only the debug text's prefix and line differ: not a change.
  CHECK(change(d.ops[0], "Python") == nullptr);
  // Keys only one release has are said once for the whole diff, never as an
  // operator's change (else every operator would differ between releases).
  CHECK(change(d.ops[0], "ORT") == nullptr);
  CHECK(change(d.ops[0], "MTIA") == nullptr);
  CHECK(std::find(d.old_only_keys.begin(), d.old_only_keys.end(), "ORT") != d.old_only_keys.end());
  CHECK(std::find(d.new_only_keys.begin(), d.new_only_keys.end(), "MTIA") != d.new_only_keys.end());
}

TEST_CASE("whole registry: an impl on PyTorch's own operator changes one key, nothing is added") {
  // Issue 19: m.impl("mm", my_mm) on PrivateUse1 on the new side only.
  struct LibSide {
    explicit LibSide(const Files& f)
        : loaded(load_with_library("torch-1.13", f)), r((loaded.registry.materialize_all(), loaded.registry)) {
      ops = loaded.registry.sorted_operators();
    }
    LoadResult loaded;
    Resolver r;
    std::vector<const Operator*> ops;
  };
  const auto side = [](const Files& f) { return std::make_unique<LibSide>(f); };
  const auto a = side({{"old.toml", "namespace = \"aten\"\nkind = \"IMPL\"\ndispatch_key = \"PrivateUse1\"\n"}});
  const auto b = side({{"new.toml", "namespace = \"aten\"\nkind = \"IMPL\"\ndispatch_key = \"PrivateUse1\"\n"
                                    "[[impl]]\nop = \"mm\"\nkernel = \"my_mm\"\n"}});
  const TableDiff d = diff_tables(DiffSide{&a->r, a->ops}, DiffSide{&b->r, b->ops});
  CHECK(d.compared > 3000);
  REQUIRE(d.ops.size() == 1);
  CHECK(d.ops[0].name == "aten::mm");
  CHECK(d.ops[0].kind == OpChangeKind::Changed);
  REQUIRE(d.ops[0].keys.size() == 1);
  CHECK(d.ops[0].keys[0].key == "PrivateUse1");
  CHECK(d.ops[0].keys[0].new_entry.kernel == "my_mm");
}

TEST_CASE("a fallback moved to another file: same entry, counted as moved, listed with locations") {
  const std::string ops = op_file("f(Tensor x) -> Tensor", {"CPU"}, false);
  const std::string fb = "namespace = \"_\"\nkind = \"IMPL\"\ndispatch_key = \"XLA\"\n[[fallback]]\nfallthrough = true\n";
  const Side a("torch-1.13", {{"ops.toml", ops}, {"a.toml", fb}});
  const Side b("torch-1.13", {{"ops.toml", ops}, {"b.toml", "# moved\n\n" + fb}});
  const TableDiff d = diff(a, b);
  REQUIRE(d.ops.size() == 1);
  CHECK_FALSE(d.ops[0].differs());
  CHECK(d.ops[0].moved_count == 1);
  CHECK(d.ops[0].moved.empty());  // kept only with DiffFilter::locations
  DiffFilter f;
  f.locations = true;
  const TableDiff l = diff_tables(a.side(), b.side(), f);
  REQUIRE(l.ops.size() == 1);
  REQUIRE(l.ops[0].moved.size() == 1);
  CHECK(l.ops[0].moved[0].key == "XLA");
  CHECK(l.ops[0].moved[0].old_entry.kernel == "registered at a.toml:4");
  CHECK(l.ops[0].moved[0].new_entry.kernel == "registered at b.toml:6");
  // A named kernel is not a location: renaming it is a change.
  const Side c("torch-1.13", {{"ops.toml", ops},
                              {"c.toml", "namespace = \"_\"\nkind = \"IMPL\"\ndispatch_key = \"XLA\"\n"
                                         "[[fallback]]\nkernel = \"xla_fallback\"\n"}});
  CHECK(diff(a, c).ops.at(0).differs());
}

TEST_CASE("a fallback declared as raising differs from one that serves") {
  const std::string ops = op_file("f(Tensor x) -> Tensor", {"CPU"}, false);
  const std::string fb = "namespace = \"_\"\nkind = \"IMPL\"\ndispatch_key = \"XLA\"\n[[fallback]]\nkernel = \"k\"\n";
  const Side a("torch-1.13", {{"ops.toml", ops}, {"a.toml", fb}});
  const Side b("torch-1.13", {{"ops.toml", ops}, {"a.toml", fb + "raises = true\n"}});
  const TableDiff d = diff(a, b);
  REQUIRE(d.ops.size() == 1);
  const KeyChange* xla = change(d.ops[0], "XLA");
  REQUIRE(xla != nullptr);
  CHECK_FALSE(xla->old_entry.raises);
  CHECK(xla->new_entry.raises);
}

TEST_CASE("same_entry") {
  EntryFacts a;
  a.valid = true;
  a.kernel = "registered at ./x/F.cpp:3";
  a.provenance = "backend fallback";
  a.source = "Python";
  a.core_fallback_file = "F.cpp";
  EntryFacts b = a;
  b.kernel = "registered at <src>/x/F.cpp:<n>";
  CHECK(same_entry(a, b));
  b.fallthrough = true;
  CHECK_FALSE(same_entry(a, b));
  EntryFacts user = a;
  user.core_fallback_file.clear();
  EntryFacts user2 = user;
  user2.kernel = "other";
  CHECK_FALSE(same_entry(user, user2));
  CHECK(same_entry(EntryFacts{}, EntryFacts{}));
  EntryFacts absent;
  absent.key_exists = false;
  CHECK_FALSE(same_entry(absent, EntryFacts{}));
  // Two texts that only say where they were registered: the same kernel.
  EntryFacts here = user, there = user;
  here.kernel = "registered at a.toml:3";
  there.kernel = "registered at b.toml:9";
  CHECK_FALSE(same_entry(here, there));
  here.located = there.located = true;
  CHECK(same_entry(here, there));
  there.raises = true;
  CHECK_FALSE(same_entry(here, there));
}

}  // namespace dt::test

namespace dt::test {

TEST_CASE("registration-only changes: typed to boxed-only, a shadowed alias kernel, never what the table shows") {
  const std::string def = "namespace = \"t\"\n[[def]]\nschema = \"f(Tensor x) -> Tensor\"\n";
  const auto impl = [](const std::string& key, const std::string& kernel, const std::string& extra) {
    return "[[impl]]\nop = \"f\"\nkey = \"" + key + "\"\nkernel = \"" + kernel + "\"\n" + extra;
  };
  // The same kernel on CPU, typed then boxed-only: no table entry changes.
  const Side a("torch-2.14", {{"a.toml", def + impl("CPU", "k", "signature = \"(Tensor _0) -> Tensor _0\"\n")}});
  const Side b("torch-2.14", {{"a.toml", def + impl("CPU", "k", "boxed_only = true\n")}});
  TableDiff d = diff(a, b);
  REQUIRE(d.ops.size() == 1);
  CHECK(d.ops[0].keys.empty());
  REQUIRE(d.ops[0].registrations.size() == 1);
  const RegistrationChange& r = d.ops[0].registrations[0];
  CHECK(r.key == "CPU");
  CHECK(r.old_reg.signature == "(Tensor _0) -> Tensor _0");
  CHECK_FALSE(r.old_reg.boxed_only);
  CHECK(r.new_reg.signature.empty());
  CHECK(r.new_reg.boxed_only);
  CHECK(same_registration(r.old_reg, r.old_reg));
  CHECK_FALSE(same_registration(r.old_reg, r.new_reg));

  // An Autograd kernel under CompositeImplicitAutograd (no backend kernel) serves no row.
  const std::string cia = impl("CompositeImplicitAutograd", "m", "");
  const Side c("torch-2.14", {{"a.toml", def + cia + impl("Autograd", "ag1", "")}});
  const Side e("torch-2.14", {{"a.toml", def + cia + impl("Autograd", "ag2", "")}});
  d = diff(c, e);
  REQUIRE(d.ops.size() == 1);
  CHECK(d.ops[0].keys.empty());
  REQUIRE(d.ops[0].registrations.size() == 1);
  CHECK(d.ops[0].registrations[0].key == "Autograd");
  CHECK(d.ops[0].registrations[0].old_reg.kernel == "ag1");
  CHECK(d.ops[0].registrations[0].new_reg.kernel == "ag2");

  // A CPU kernel replaced: the table shows it, the registrations do not repeat it.
  const Side g("torch-2.14", {{"a.toml", def + impl("CPU", "k1", "")}});
  const Side h("torch-2.14", {{"a.toml", def + impl("CPU", "k2", "")}});
  d = diff(g, h);
  REQUIRE(d.ops.size() == 1);
  CHECK(!d.ops[0].keys.empty());
  CHECK(d.ops[0].registrations.empty());
}

}  // namespace dt::test
