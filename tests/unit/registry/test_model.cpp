// The registry: what the dispatcher refuses or warns about when a def, a
// kernel or a fallback is registered (spec F.1, F.5-F.7).
#include <fmt/format.h>

#include <chrono>
#include <iterator>
#include <memory>

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("def_library: the first DEF block of a namespace, PyTorch's own (from the library) first") {
  Registry reg(profile("torch-main"));
  CHECK(reg.def_library("t") == nullptr);
  reg.add_library(Library{"t", LibraryKind::Fragment, true, std::nullopt, Location{"a.toml", 1, 1}});
  CHECK(reg.def_library("t") == nullptr);
  const std::uint32_t first = reg.add_library(Library{"t", LibraryKind::Def, true, std::nullopt, Location{"b.toml", 1, 1}});
  reg.add_library(Library{"t", LibraryKind::Def, true, std::nullopt, Location{"c.toml", 1, 1}});
  REQUIRE(reg.def_library("t") != nullptr);
  CHECK(reg.def_library("t") == &reg.libraries()[first]);
  CHECK(reg.def_library("u") == nullptr);
}

TEST_CASE("defining an operator twice is refused with both locations (F.5)") {
  CHECK(error_of({{"a.toml", kDef}, {"b.toml", kDef}}) ==
        "b.toml:2:1: error: Tried to register an operator (t::foo(Tensor x) -> Tensor) with the same name and "
        "overload name multiple times. Each overload's schema should only be registered with a single call to "
        "def(). Duplicate registration: registered at b.toml:2. Original registration: registered at a.toml:2\n"
        "a.toml:2:1: note: the original definition is here\n");
}

TEST_CASE("a kernel signature parsed for one operator is compared afresh with the next one's schema") {
  // The same signature text on two operators: it fits f and not g (the
  // second comparison uses the parse kept from the first).
  const std::string file = "namespace = \"t\"\n[[def]]\nschema = \"f(Tensor x) -> Tensor\"\n"
                           "[[def]]\nschema = \"g(Tensor x, int n) -> Tensor\"\n"
                           "[[impl]]\nop = \"f\"\nkey = \"CPU\"\nkernel = \"kf\"\nsignature = \"(Tensor _0) -> Tensor _0\"\n"
                           "[[impl]]\nop = \"g\"\nkey = \"CPU\"\nkernel = \"kg\"\nsignature = \"(Tensor _0) -> Tensor _0\"\n";
  const std::string err = error_of({{"a.toml", file}});
  CHECK(err.starts_with("a.toml:13:7: error: Inferred operator schema for a C++ kernel function doesn't match"));
  CHECK(err.find("operator: t::g") != std::string::npos);
  CHECK(err.find("reason: The number of arguments is different. 2 vs 1.") != std::string::npos);
}

TEST_CASE("schema mismatch prints the def with real types, as torch 1.13 does") {
  // Text of torch 1.13 for _dispatch_library("IMPL", "h7", "CPU").impl_t_t("foo", "CPU", "k").
  CHECK(error_of({{"a.toml",
                   "namespace = \"h7\"\n[[def]]\nschema = \"foo(Tensor x, SymInt n, SymInt[] s, SymInt? o) -> "
                   "Tensor\"\ndebug = \"registered at /dev/null:0\"\n[[impl]]\nop = \"foo\"\nkey = \"CPU\"\n"
                   "kernel = \"k\"\nsignature = \"(Tensor _0) -> Tensor _0\"\n"}},
                 "torch-1.13") ==
        "a.toml:7:7: error: Inferred operator schema for a C++ kernel function doesn't match the expected function "
        "schema.\n  operator: h7::foo\n  expected schema: h7::foo(Tensor x, int n, int[] s, int? o) -> Tensor\n"
        "    registered at /dev/null:0\n  inferred schema: (Tensor _0) -> Tensor _0\n    k\n"
        "  reason: The number of arguments is different. 4 vs 1.\n"
        "a.toml:2:1: note: the operator is defined here\n");
}

TEST_CASE("override warning: 'previous kernel' falls back to the first SymInt kernel") {
  // torch 1.13, overriding Tracer on aten::_reshape_alias_copy (typed SymInt
  // kernels only): "previous kernel: registered at ...NonFunctional.cpp:21389".
  const std::string sym = "boxed_only = true\nsignature = \"(Tensor _0) -> Tensor _0\"\n";
  const auto l = must_load("torch-1.13",
                           {{"a.toml", kDef +
                                           "[[impl]]\nop = \"foo\"\nkey = \"CompositeExplicitAutogradNonFunctional\"\n"
                                           "kernel = \"first_sym\"\n" +
                                           sym + "[[impl]]\nop = \"foo\"\nkey = \"Tracer\"\nkernel = \"t1\"\n" + sym +
                                           "[[impl]]\nop = \"foo\"\nkey = \"Tracer\"\nkernel = \"t2\"\n" + sym}});
  REQUIRE(l.registry.warnings().size() == 1);
  CHECK(l.registry.warnings()[0].message.find("\n  previous kernel: first_sym\n       new kernel: t2") !=
        std::string::npos);
}

TEST_CASE("fallbacks on building blocks are accepted and fill no row, as in torch 1.13") {
  // _dispatch_library("IMPL", "_", "Dense").fallback_fallthrough() succeeds, twice,
  // and no operator's table changes.
  const std::string fb = "namespace = \"_\"\nkind = \"IMPL\"\n[[fallback]]\nkey = \"Dense\"\nfallthrough = true\n";
  for (const char* prof : {"torch-1.13", "torch-main"}) {
    CAPTURE(prof);
    const auto plain = must_load(prof, {{"a.toml", kDef}});
    const auto with = must_load(prof, {{"a.toml", kDef}, {"b.toml", fb}, {"c.toml", fb}});
    CHECK(raw_table(with, "t::foo") == raw_table(plain, "t::foo"));
    CHECK(with.registry.user_fallbacks().size() == 2);
  }
}

TEST_CASE("backend fallbacks: one per key, PyTorch's own included (F.7)") {
  const std::string fb =
      "namespace = \"_\"\nkind = \"IMPL\"\ndispatch_key = \"XLA\"\n[[fallback]]\nkernel = \"xla_fb\"\n";
  CHECK(load_files("torch-main", {{"a.toml", fb}}).has_value());
  CHECK(error_of({{"a.toml", fb}, {"b.toml", fb}}) ==
        "b.toml:4:1: error: Tried to register multiple backend fallbacks for the same dispatch key XLA; previous "
        "registration xla_fb, new registration xla_fb\n"
        "a.toml:4:1: note: the previous fallback is registered here\n");
  const std::string ag = "[[fallback]]\nkey = \"AutogradCPU\"\nkernel = \"mine\"\n";
  const std::string err = error_of({{"a.toml", ag}}, "torch-1.13");
  CHECK(err.find("a.toml:2:7: error: Tried to register multiple backend fallbacks for the same dispatch key "
                 "AutogradCPU; previous registration registered at "
                 "./aten/src/ATen/core/VariableFallbackKernel.cpp:39, new registration mine\n") == 0);
  CHECK(err.find("configs/profiles/torch-1.13.toml:") != std::string::npos);
  CHECK(err.find(": note: the previous fallback is registered by PyTorch itself (profile torch-1.13)\n") !=
        std::string::npos);
}

namespace {

Definition def_of(const std::string& schema, const Location& where) {
  Definition d;
  d.schema = *parse_schema(schema);
  d.printed = print_schema(d.schema);
  d.debug = fmt::format("registered at {}:{}", where.file, where.line);
  d.where = where;
  return d;
}

Kernel kernel(const std::string& name, const Location& where) {
  Kernel k;
  k.debug = name;
  k.where = where;
  return k;
}

Fallback fallback_on(KeyId key, std::string debug) {
  Fallback f;
  f.key = key;
  f.debug = std::move(debug);
  return f;
}

}  // namespace

TEST_CASE("Registry: kernels per key, newest first, operators in registration order and by name") {
  Registry reg(profile("torch-main"));
  const KeyId cpu = *reg.profile().find("CPU");
  REQUIRE(reg.impl("t::foo", cpu, kernel("k1", {"a.toml", 1, 1})).has_value());
  REQUIRE(reg.impl("t::foo", cpu, kernel("k2", {"a.toml", 2, 1})).has_value());
  REQUIRE(reg.impl("s::bar", cpu, kernel("k3", {"a.toml", 3, 1})).has_value());
  const Operator* foo = reg.find("t::foo");
  REQUIRE(foo != nullptr);
  CHECK(foo->get(cpu)->debug == "k2");
  REQUIRE(foo->all(cpu)->size() == 2);
  CHECK(foo->all(cpu)->back().debug == "k1");
  CHECK(foo->get(*reg.profile().find("CUDA")) == nullptr);
  CHECK(foo->all(*reg.profile().find("CUDA")) == nullptr);
  CHECK(reg.operators().front().name == "t::foo");
  std::vector<std::string> sorted;
  for (const Operator* op : reg.sorted_operators()) sorted.push_back(op->name);
  CHECK(sorted == std::vector<std::string>{"s::bar", "t::foo"});
  // Overriding warns, and main warns once for all operators.
  REQUIRE(reg.impl("s::bar", cpu, kernel("k4", {"a.toml", 4, 1})).has_value());
  REQUIRE(reg.warnings().size() == 1);
  CHECK(reg.warnings()[0].severity == Severity::Warning);
  CHECK(reg.warnings()[0].code == "duplicate-registration");
  CHECK(to_string(reg.warnings()[0].where) == "a.toml:2:1");
  CHECK(to_string(reg.warnings()[0].notes[0].where) == "a.toml:1:1");
}

TEST_CASE("Registry: overriding appends in constant time (issue 11: insertion at the front was quadratic)") {
  Registry reg(profile("torch-main"));
  const KeyId cpu = *reg.profile().find("CPU");
  const auto t0 = std::chrono::steady_clock::now();
  bool all_registered = true;
  for (std::uint32_t i = 0; i < 200000; ++i)
    all_registered = reg.impl("t::foo", cpu, kernel(fmt::format("k{}", i), {"a.toml", i + 1, 1})).has_value() &&
                     all_registered;
  CHECK(all_registered);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
  const KernelStack& ks = *reg.find("t::foo")->all(cpu);
  REQUIRE(ks.size() == 200000);
  CHECK(ks.front().debug == "k199999");
  CHECK(ks[1].debug == "k199998");
  CHECK(ks.back().debug == "k0");
  CHECK(std::next(ks.begin(), 2)->debug == "k199997");
  CHECK(reg.warnings().size() == 1);  // main warns once
}

TEST_CASE("KernelStack::erase_if: asks newest first, keeps the others in order") {
  Registry reg(profile("torch-main"));
  const KeyId cpu = *reg.profile().find("CPU");
  for (const char* k : {"a", "b", "c", "d"}) REQUIRE(reg.impl("t::foo", cpu, kernel(k, {"a.toml", 1, 1})).has_value());
  KernelStack ks = *reg.find("t::foo")->all(cpu);
  std::string asked;
  ks.erase_if([&](const Kernel& k) {
    asked += k.debug;
    return k.debug == "b" || k.debug == "d";
  });
  CHECK(asked == "dcba");
  REQUIRE(ks.size() == 2);
  CHECK(ks.front().debug == "c");
  CHECK(ks.back().debug == "a");
}

TEST_CASE("Registry::define: the operator is named by its schema, a second def is refused") {
  Registry reg(profile("torch-main"));
  CHECK(reg.define(def_of("t::foo.out(Tensor x) -> Tensor", {"a.toml", 2, 1})).empty());
  REQUIRE(reg.find("t::foo.out") != nullptr);
  CHECK(reg.find("t::foo.out")->def->printed == "t::foo.out(Tensor x) -> Tensor");
  const auto refused = reg.define(def_of("t::foo.out(Tensor y) -> Tensor", {"b.toml", 2, 1}));
  REQUIRE(refused.size() == 1);
  CHECK(refused[0].code == "duplicate-def");
  CHECK(refused[0].op == "t::foo.out");
  CHECK(to_string(refused[0].where) == "b.toml:2:1");
  CHECK(to_string(refused[0].notes[0].where) == "a.toml:2:1");
  CHECK(reg.find("t::foo.out")->def->printed == "t::foo.out(Tensor x) -> Tensor");  // the first one stays
}

TEST_CASE("Registry::define: kernels whose signature contradicts the def are dropped, one refusal each") {
  Registry reg(profile("torch-1.13"));
  Kernel k = kernel("k", {"a.toml", 5, 7});
  k.signature = std::make_shared<const std::string>("(Tensor _0, Tensor _1) -> Tensor _0");
  REQUIRE(reg.impl("t::foo", *reg.profile().find("CPU"), k).has_value());  // no def yet: accepted
  const auto refused = reg.define(def_of("t::foo(Tensor x) -> Tensor", {"a.toml", 2, 1}));
  REQUIRE(refused.size() == 1);
  CHECK(refused[0].code == "schema-mismatch");
  CHECK(refused[0].key == "CPU");
  CHECK(to_string(refused[0].where) == "a.toml:2:1");  // reported where the second of the two arrives
  CHECK(refused[0].message.find("reason: The number of arguments is different. 1 vs 2.") != std::string::npos);
  CHECK(reg.find("t::foo")->kernels.empty());
}

TEST_CASE("Registry::fallback: an alias key fills each of its runtime keys, a building block fills none") {
  Registry reg(profile("torch-1.13"));
  const Profile& p = reg.profile();
  Fallback f = fallback_on(*p.find("CompositeImplicitAutogradNestedTensor"), "nt");
  f.debug_after_first = "registered at b.toml:1";
  f.where = {"b.toml", 2, 7};
  REQUIRE(reg.fallback(f).has_value());
  const auto members = p.alias_members(f.key);
  REQUIRE(members.size() > 1);
  CHECK(reg.fallback_for(members.front())->debug == "nt");
  CHECK(reg.fallback_for(members.back())->debug == "registered at b.toml:1");
  CHECK(reg.user_fallbacks().size() == members.size());
  const Fallback dense = fallback_on(*p.find("Dense"), "d");
  REQUIRE(reg.fallback(dense).has_value());
  CHECK(reg.fallback_for(*p.find("CPU")) == nullptr);
  CHECK(reg.user_fallbacks().back().key == dense.key);
  // PyTorch's own fallback on AutogradCPU makes a second one a refusal.
  const Fallback again = fallback_on(*p.find("AutogradCPU"), "mine");
  auto refused = reg.fallback(again);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == "duplicate-fallback");
  CHECK(refused.error().key == "AutogradCPU");
}

TEST_CASE("register_autograd_takes: functional operators, views with one Tensor in and out where allowed") {
  auto takes = [](const char* schema, bool views) { return register_autograd_takes(*parse_schema(schema), views); };
  CHECK(takes("f(Tensor x, Tensor[] y) -> Tensor", false));
  CHECK_FALSE(takes("f(Tensor(a!) x) -> Tensor", true));
  CHECK_FALSE(takes("f(Tensor x) -> ()", true));
  CHECK(takes("f(Tensor(a) x) -> Tensor(a)", true));
  CHECK_FALSE(takes("f(Tensor(a) x) -> Tensor(a)", false));
  CHECK_FALSE(takes("f(Tensor(a) x, Tensor y) -> Tensor(a)", true));
}

TEST_CASE("custom_op_text: the operator, the function and the overload as Python prints them") {
  Operator op;
  op.name = "co::f";
  Definition d;
  d.custom_op_function = "my_f";
  op.def = d;
  CHECK(custom_op_text("{op} {function} {overload}", op) == "co::f my_f co.f.default");
  op.name = "co::f.out";
  CHECK(custom_op_text("{op} {overload}", op) == "co::f co.f.out");
}

TEST_CASE("readable_debug: PyTorch's own registrations without a known line read as such") {
  CHECK(readable_debug("registered at <src>/aten/src/ATen/core/MetaFallbackKernel.cpp:<n>") ==
        "PyTorch's own fallback (aten/src/ATen/core/MetaFallbackKernel.cpp)");
  CHECK(readable_debug("registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39") ==
        "registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39");
  CHECK(readable_debug("myadd_cpu") == "myadd_cpu");
}

}  // namespace dt::test
