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
  const KeyChange* ort = change(d.ops[0], "ORT");
  REQUIRE(ort != nullptr);
  CHECK_FALSE(ort->new_entry.key_exists);
  const KeyChange* mtia = change(d.ops[0], "MTIA");
  REQUIRE(mtia != nullptr);
  CHECK_FALSE(mtia->old_entry.key_exists);
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
}

}  // namespace dt::test
