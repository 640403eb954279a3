// Selection (--keys, --op) and the readable table's runs of equal rows.
#include <algorithm>

#include "base/text.hpp"
#include "helpers.hpp"
#include "registry/python_dispatcher.hpp"
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
  CHECK(keys_error(l.registry, "CPU,Autogrd") == "unknown dispatch key 'Autogrd' (did you mean 'Autograd'?)");
  CHECK(keys_error(l.registry, "Nonsense") == "unknown dispatch key 'Nonsense'");
  CHECK(keys_error(l.registry, "EndOfFunctionalityKeys").rfind("unknown dispatch key", 0) == 0);  // a marker
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

namespace {

// The readable table of PythonDispatcher's demo operator.
std::string human_table(const Registry& reg, const KeyFilter& f, const HumanStyle& s) {
  std::string out;
  render_table_human(Resolver(reg), *reg.find(kPythonDispatcherOp), f, s, out);
  return out;
}

// Every run the readable view shows ("A … B (N keys)" or "A, B, C") must be
// N consecutive rows of the full table: every runtime key in table order,
// including those without an entry (missing), which the raw dump omits.
void check_runs_are_contiguous(const Registry& reg, const KeyFilter& f, const HumanStyle& s) {
  std::vector<std::string> rows;
  for (KeyId k : reg.profile().runtime_keys()) rows.push_back(reg.profile().display_name(k, reg.privateuse1_name));
  const auto index = [&](const std::string& k) {
    const auto it = std::find(rows.begin(), rows.end(), k);
    REQUIRE_MESSAGE(it != rows.end(), k);
    return static_cast<std::size_t>(it - rows.begin());
  };
  const std::string text = human_table(reg, f, s);
  std::size_t start = text.find('\n') + 1;  // past the schema
  start = text.find('\n', start) + 1;       // past the column header
  int runs = 0;
  for (; start < text.size(); start = text.find('\n', start) + 1) {
    std::string line = text.substr(start, text.find('\n', start) - start);
    if (line.rfind("  + ", 0) == 0) continue;
    const std::string label = line.substr(2, line.find("  ", 2) - 2);
    std::vector<std::string> keys;
    std::size_t n = 0;
    if (const auto dots = label.find(" \u2026 "); dots != std::string::npos) {
      const auto paren = label.find(" (");
      keys = {label.substr(0, dots), label.substr(dots + 5, paren - dots - 5)};
      n = std::stoul(label.substr(paren + 2));
    } else {
      for (std::size_t p = 0;;) {
        const auto comma = label.find(", ", p);
        keys.push_back(label.substr(p, comma - p));
        if (comma == std::string::npos) break;
        p = comma + 2;
      }
      n = keys.size();
    }
    ++runs;
    INFO(line);
    CHECK(index(keys.back()) - index(keys.front()) + 1 == n);
  }
  CHECK(runs > 0);
}

}  // namespace

TEST_CASE("readable table: runs break at hidden rows") {
  Registry reg = python_dispatcher_registry(profile("torch-1.13"));
  REQUIRE(python_dispatcher_register(reg, {"CPU", "CompositeImplicitAutograd"}).has_value());
  // AutogradCPU gets the fallthrough backend fallback (hidden): the math-kernel
  // rows around it are two runs, not "CUDA … AutogradNestedTensor (78 keys)".
  const std::string t = human_table(reg, KeyFilter{}, HumanStyle{});
  CHECK(t.find("  CUDA \u2026 AutogradNestedTensor") == std::string::npos);
  CHECK(t.find("  CUDA \u2026 NestedTensorPrivateUse3 (63 keys)  ") != std::string::npos);
  CHECK(t.find("\n  AutogradOther    ") != std::string::npos);
  CHECK(t.find("  AutogradCUDA \u2026 AutogradNestedTensor (14 keys)  ") != std::string::npos);
  CHECK(t.find("+ 21 keys served by PyTorch's own backend fallbacks") != std::string::npos);
}

TEST_CASE("readable table: runs break at rows --keys leaves out") {
  Registry reg = python_dispatcher_registry(profile("torch-main"));
  REQUIRE(python_dispatcher_register(reg, {"CPU", "CompositeImplicitAutograd"}).has_value());
  const KeySelection sel = keys_ok(reg, "CUDA,XLA,MPS");  // HIP (between CUDA and XLA) is left out
  const std::string t = human_table(reg, sel.table, HumanStyle{});
  CHECK(t.find("\n  CUDA    ") != std::string::npos);
  CHECK(t.find("\n  XLA, MPS  ") != std::string::npos);
  CHECK(t.find("CUDA, XLA") == std::string::npos);
}

TEST_CASE("readable table: runs break at missing rows") {
  // k on CPU and on XLA, nothing on CUDA and HIP between them: two lines, not "CPU, XLA".
  const auto l = must_load("torch-main", {{"a.toml",
                                           "namespace = \"t\"\n[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n"
                                           "dispatch = { \"CPU, XLA\" = \"k\", Autograd = \"ag\" }\n"}});
  std::string t;
  render_table_human(Resolver(l.registry), *l.registry.find("t::foo"), KeyFilter{}, HumanStyle{}, t);
  CHECK(t.find("\n  CPU ") != std::string::npos);
  CHECK(t.find("\n  XLA ") != std::string::npos);
  CHECK(t.find("CPU, XLA") == std::string::npos);
}

TEST_CASE("readable table: every run is a range of consecutive table rows") {
  const std::vector<std::vector<std::string>> registrations = {
      {"CPU", "CompositeImplicitAutograd"}, {"CompositeImplicitAutograd"}, {"CPU", "XLA", "CompositeImplicitAutograd"},
      {"CompositeExplicitAutograd"},        {"CPU", "Autograd"},           {"CPU"}};
  for (const char* prof : {"torch-1.13", "torch-main"}) {
    for (const auto& keys : registrations) {
      Registry reg = python_dispatcher_registry(profile(prof));
      REQUIRE(python_dispatcher_register(reg, keys).has_value());
      INFO(prof << " " << join(keys, ","));
      check_runs_are_contiguous(reg, KeyFilter{}, HumanStyle{});
      check_runs_are_contiguous(reg, KeyFilter{}, HumanStyle{false, true, false});
      check_runs_are_contiguous(reg, keys_ok(reg, "Dense,Autograd").table, HumanStyle{});
      check_runs_are_contiguous(reg, keys_ok(reg, "CUDA,XLA,MPS,AutogradOther,AutogradCUDA").table, HumanStyle{});
    }
  }
}

}  // namespace dt::test

namespace dt::test {
TEST_CASE("readable views escape control characters in names") {
  const auto l = must_load("torch-main", {{"a.toml",
                                           "namespace = \"t\"\n[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n"
                                           "dispatch = { CPU = \"k\\u001b[31m\\r\\nX\" }\n"}});
  const Operator& op = *l.registry.find("t::foo");
  std::string table, regs;
  render_table_human(Resolver(l.registry), op, KeyFilter{}, HumanStyle{}, table);
  render_registrations_human(l.registry, op, KeyFilter{}, HumanStyle{}, regs);
  for (const std::string* out : {&table, &regs}) {
    CHECK(out->find("k\\x1b[31m\\x0d\\x0aX") != std::string::npos);
    CHECK(out->find('\x1b') == std::string::npos);
    CHECK(out->find('\r') == std::string::npos);
  }
}
}  // namespace dt::test
