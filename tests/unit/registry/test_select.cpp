// Selection: --keys and --op.
#include <algorithm>

#include "helpers.hpp"
#include "registry/select.hpp"

namespace dt::test {

namespace {

std::vector<std::string> names_of(const Profile& p, const std::vector<KeyId>& keys) {
  std::vector<std::string> out;
  for (KeyId k : keys) out.push_back(p.name_of(k));
  return out;
}

KeyId key(const Profile& p, std::string_view name) {
  auto k = p.find(name);
  REQUIRE_MESSAGE(k.has_value(), name);
  return *k;
}

KeySelection keys_ok(const Registry& reg, std::string_view spec) {
  auto r = parse_key_filter(reg, spec);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error().message));
  return std::move(*r);
}

std::string keys_error(const Registry& reg, std::string_view spec) {
  auto r = parse_key_filter(reg, spec);
  REQUIRE_MESSAGE(!r.has_value(), "expected an error for '" << spec << "'");
  return r.error().message;
}

std::vector<std::string> ops_ok(Registry& reg, const std::vector<std::string>& wanted) {
  auto r = select_ops(reg, wanted);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error().message));
  std::vector<std::string> out;
  for (const Operator* op : *r) out.push_back(op->name);
  return out;
}

std::string ops_error(Registry& reg, const std::vector<std::string>& wanted) {
  auto r = select_ops(reg, wanted);
  REQUIRE_MESSAGE(!r.has_value(), "expected an error");
  return r.error().message;
}

const Files kOps = {{"a.toml",
                     "namespace = \"one\"\n"
                     "[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n"
                     "[[def]]\nschema = \"relu(Tensor x) -> Tensor\"\n"
                     "[[def]]\nschema = \"scale.Scalar(Tensor x, Scalar s) -> Tensor\"\n"
                     "[[def]]\nschema = \"add.Tensor(Tensor x, Tensor y) -> Tensor\"\n"
                     "[[def]]\nschema = \"add.out(Tensor x, Tensor y, *, Tensor(a!) out) -> Tensor(a!)\"\n"},
                    {"b.toml",
                     "namespace = \"two\"\n"
                     "[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n"}};

}  // namespace

TEST_CASE("--keys: alias keys expand to their runtime keys, and registrations keep both") {
  const LoadResult l = must_load("torch-main", kOps);
  const Profile& p = l.registry.profile();
  const KeySelection s = keys_ok(l.registry, "Autograd");
  CHECK(s.table.active);
  CHECK(s.registrations.active);
  CHECK(names_of(p, s.table.keys) == names_of(p, p.alias_members(key(p, "Autograd"))));
  CHECK(s.table.allows(key(p, "AutogradCPU")));
  CHECK(s.table.allows(key(p, "AutogradNestedTensor")));
  CHECK_FALSE(s.table.allows(key(p, "CPU")));
  CHECK_FALSE(s.table.allows(key(p, "Autograd")));  // not a table row
  // A kernel registered on Autograd or on AutogradCPU is shown.
  CHECK(s.registrations.allows(key(p, "Autograd")));
  CHECK(s.registrations.allows(key(p, "AutogradCPU")));
  CHECK(s.registrations.allows(key(p, "AutogradOther")));
  CHECK_FALSE(s.registrations.allows(key(p, "CPU")));
  CHECK_FALSE(s.registrations.allows(key(p, "CompositeImplicitAutograd")));
}

TEST_CASE("--keys: building blocks stand for their per-backend keys") {
  const LoadResult l = must_load("torch-main", kOps);
  const Profile& p = l.registry.profile();
  const KeySelection s = keys_ok(l.registry, " Sparse ");
  const auto table = names_of(p, s.table.keys);
  REQUIRE_FALSE(table.empty());
  CHECK(table.front() == "SparseCPU");
  CHECK(std::find(table.begin(), table.end(), "SparseCUDA") != table.end());
  for (const auto& n : table) CHECK(n.rfind("Sparse", 0) == 0);
  CHECK(std::find(table.begin(), table.end(), "SparseCsrCPU") == table.end());
  CHECK(std::is_sorted(s.table.keys.begin(), s.table.keys.end(),
                       [&](KeyId a, KeyId b) { return p.key(a).slot < p.key(b).slot; }));
  CHECK(s.registrations.allows(key(p, "Sparse")));
  CHECK(s.registrations.allows(key(p, "SparseCPU")));
  CHECK_FALSE(s.registrations.allows(key(p, "CPU")));
}

TEST_CASE("--keys: runtime keys in the order given, each once") {
  const LoadResult l = must_load("torch-1.13", kOps);
  const Profile& p = l.registry.profile();
  CHECK(names_of(p, keys_ok(l.registry, "XLA, CPU,XLA,,CPU").table.keys) == std::vector<std::string>{"XLA", "CPU"});
  CHECK(names_of(p, keys_ok(l.registry, "AutogradCPU").registrations.keys) == std::vector<std::string>{"AutogradCPU"});
}

TEST_CASE("--keys: unknown keys and empty lists are errors") {
  const LoadResult l = must_load("torch-main", kOps);
  CHECK(keys_error(l.registry, "CPU,Autogrd") == "could not parse dispatch key: Autogrd (did you mean 'Autograd'?)");
  CHECK(keys_error(l.registry, "Nonsense") == "could not parse dispatch key: Nonsense");
  CHECK(keys_error(l.registry, "EndOfFunctionalityKeys").rfind("could not parse dispatch key: ", 0) == 0);  // a marker
  CHECK(keys_error(l.registry, "") == "no keys given");
  CHECK(keys_error(l.registry, ",") == "no keys given");
  CHECK(keys_error(l.registry, " , ,") == "no keys given");
}

TEST_CASE("--op: exact, unqualified, ambiguous") {
  LoadResult l = must_load("torch-main", kOps);
  Registry& reg = l.registry;
  CHECK(ops_ok(reg, {}) == std::vector<std::string>{"one::add.Tensor", "one::add.out", "one::foo", "one::relu",
                                                    "one::scale.Scalar", "two::foo"});
  CHECK(ops_ok(reg, {"two::foo"}) == std::vector<std::string>{"two::foo"});
  CHECK(ops_ok(reg, {"relu", "one::add.out", "one::relu"}) == std::vector<std::string>{"one::add.out", "one::relu"});
  CHECK(ops_ok(reg, {"scale.Scalar"}) == std::vector<std::string>{"one::scale.Scalar"});
  CHECK(ops_error(reg, {"foo"}) == "operator 'foo' is ambiguous: one::foo, two::foo; qualify it");
}

TEST_CASE("--op: unknown names suggest the closest operator, or its overloads") {
  LoadResult l = must_load("torch-main", kOps);
  Registry& reg = l.registry;
  // A typo of a qualified name.
  CHECK(ops_error(reg, {"one::relux"}) == "unknown operator 'one::relux' (did you mean 'one::relu'?)");
  // An unqualified typo is compared with unqualified names.
  CHECK(ops_error(reg, {"relux"}) == "unknown operator 'relux' (did you mean 'one::relu'?)");
  // The name without its overload name suggests the overload ...
  CHECK(ops_error(reg, {"one::scale"}) == "unknown operator 'one::scale' (did you mean 'one::scale.Scalar'?)");
  CHECK(ops_error(reg, {"scale"}) == "unknown operator 'scale' (did you mean 'one::scale.Scalar'?)");
  CHECK(ops_error(reg, {"one::scal"}) == "unknown operator 'one::scal' (did you mean 'one::scale.Scalar'?)");
  // ... every one, sorted.
  CHECK(ops_error(reg, {"one::add"}) ==
        "unknown operator 'one::add' (did you mean one of 'one::add.Tensor', 'one::add.out'?)");
  CHECK(ops_error(reg, {"add"}) == "unknown operator 'add' (did you mean one of 'one::add.Tensor', 'one::add.out'?)");
  // An operator without overload name is preferred to overloads of the same name.
  CHECK(suggest_operator(reg, "one::fo") == " (did you mean 'one::foo'?)");
  // An unqualified typo that several namespaces have.
  CHECK(suggest_operator(reg, "fooo") == " (did you mean one of 'one::foo', 'two::foo'?)");
  // Nothing close.
  CHECK(ops_error(reg, {"one::completely_different"}) == "unknown operator 'one::completely_different'");
  CHECK(ops_error(reg, {"relu", "nope::x"}).rfind("unknown operator 'nope::x'", 0) == 0);
}

TEST_CASE("--op: an unknown operator of PyTorch's namespaces says when the profile has no library") {
  LoadResult main = must_load("torch-main", kOps);
  CHECK(ops_error(main.registry, {"aten::add.Tensor"}) ==
        "unknown operator 'aten::add.Tensor' (did you mean 'one::add.Tensor'?) (profile torch-main has no operator "
        "library of PyTorch's own "
        "operators; torch-2.14 has one)");
  // Not for the files' own namespaces, nor with a library (or --no-library).
  CHECK(ops_error(main.registry, {"one::completely_different"}) == "unknown operator 'one::completely_different'");
  LoadResult with_library = must_load("torch-2.14", kOps);
  CHECK(ops_error(with_library.registry, {"aten::add_Tensor"}).find("has no operator library") == std::string::npos);
}

TEST_CASE("op filters: namespaces, tags (all of them), excluded tags, a name pattern") {
  LoadResult l =
      must_load("torch-1.13",
                {{"a.toml",
                  "namespace = \"one\"\n"
                  "[[def]]\nschema = \"view_copy(Tensor x) -> Tensor\"\ntags = [\"view_copy\", \"generated\"]\n"
                  "[[def]]\nschema = \"rand(Tensor x) -> Tensor\"\ntags = [\"nondeterministic_seeded\"]\n"
                  "[[def]]\nschema = \"plain(Tensor x) -> Tensor\"\n"},
                 {"b.toml",
                  "namespace = \"two\"\n[[def]]\nschema = \"view_copy(Tensor x) -> Tensor\"\ntags = [\"view_copy\"]\n"
                  "[[impl]]\nop = \"dangling\"\nkey = \"CPU\"\nkernel = \"k\"\n"}});
  const auto all = l.registry.sorted_operators();
  auto names = [&](const OpFilter& f) {
    REQUIRE(check_filter(l.registry, f).has_value());
    std::vector<std::string> out;
    for (const Operator* op : filter_ops(all, f)) out.push_back(op->name);
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(names({}) == V{"one::plain", "one::rand", "one::view_copy", "two::dangling", "two::view_copy"});
  CHECK(names({{"two"}, {}, {}, ""}) == V{"two::dangling", "two::view_copy"});
  CHECK(names({{}, {"view_copy"}, {}, ""}) == V{"one::view_copy", "two::view_copy"});
  CHECK(names({{}, {"view_copy", "generated"}, {}, ""}) == V{"one::view_copy"});
  CHECK(names({{}, {}, {"view_copy"}, ""}) == V{"one::plain", "one::rand", "two::dangling"});
  CHECK(names({{}, {"view_copy"}, {"generated"}, ""}) == V{"two::view_copy"});
  CHECK(names({{}, {}, {}, "*::view_*"}) == V{"one::view_copy", "two::view_copy"});
  CHECK(names({{}, {}, {}, "one::plain"}) == V{"one::plain"});

  auto error = [&](const OpFilter& f, FilterField field) {
    auto r = check_filter(l.registry, f);
    REQUIRE_FALSE(r);
    CHECK(r.error().field == field);
    return r.error().diagnostic.message;
  };
  CHECK(error({{"tow"}, {}, {}, ""}, FilterField::Namespaces) == "unknown namespace 'tow' (did you mean 'two'?)");
  CHECK(error({{}, {"view_cpy"}, {}, ""}, FilterField::Tags)
            .starts_with("unknown tag 'view_cpy' (did you mean 'view_copy'?)"));
  CHECK(error({{}, {}, {"generatd"}, ""}, FilterField::ExcludeTags).starts_with("unknown tag 'generatd'"));
  CHECK(error({{}, {}, {}, "one::plian"}, FilterField::Pattern) ==
        "unknown operator 'one::plian' (did you mean 'one::plain'?)");
  CHECK(check_filter(l.registry, {{}, {}, {}, "nothing*"}).has_value());  // a pattern may match nothing
}

}  // namespace dt::test
