// dispatchtool lint: every rule with a failing and a passing input (rule id,
// severity and every location), configuration, baselines and output formats.
#include <algorithm>
#include <set>

#include "base/text.hpp"
#include "helpers.hpp"
#include "lint/baseline.hpp"
#include "lint/config.hpp"
#include "lint/lint.hpp"
#include "lint/output.hpp"

namespace dt::test {
namespace {

using lint::Finding;

std::vector<Finding> lint_files(const Files& files, const std::string& prof = "torch-main") {
  auto r = load_files(prof, files, OnRefusal::Record);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : format(r.error())));
  return lint::run(*r);
}

std::vector<Finding> of_rule(const std::vector<Finding>& all, std::string_view rule) {
  std::vector<Finding> out;
  for (const auto& f : all)
    if (f.rule == rule) out.push_back(f);
  return out;
}

std::vector<Finding> lint_rule(const Files& files, std::string_view rule, const std::string& prof = "torch-main") {
  return of_rule(lint_files(files, prof), rule);
}

// The primary location, then every note's location.
std::vector<std::string> locations(const Finding& f) {
  std::vector<std::string> out{to_string(f.where)};
  for (const auto& n : f.notes) out.push_back(to_string(n.where));
  return out;
}

using Locs = std::vector<std::string>;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A FRAGMENT file of namespace t defining foo.
const std::string kDef = "namespace = \"t\"\n[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n";
// An [[impl]] of t::foo (the key value sits at column 7 of the key line).
std::string impl(const std::string& key, const std::string& kernel, const std::string& extra = "") {
  return "[[impl]]\nop = \"foo\"\nkey = \"" + key + "\"\nkernel = \"" + kernel + "\"\n" + extra;
}

}  // namespace

TEST_CASE("lint: the rule table is complete and stable") {
  const auto rules = lint::rules();
  std::set<std::string_view> ids;
  for (const auto& r : rules) {
    CHECK(ids.insert(r.id).second);
    CHECK((r.check != nullptr));
    CHECK(!r.summary.empty());
    CHECK(!r.help.empty());
    CHECK(!r.spec.empty());
    CHECK(std::all_of(r.id.begin(), r.id.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; }));
    CHECK(lint::find_rule(r.id) == &r);
    CHECK(lint::rule_index(r.id) == static_cast<std::size_t>(&r - rules.data()));
  }
  for (std::string_view id : {"duplicate-def", "duplicate-registration", "duplicate-fallback", "impl-without-def",
                              "composite-conflict", "ambiguous-autogradother", "library-kind", "schema-mismatch",
                              "missing-autograd", "meta-on-composite", "shadowed-composite"})
    CHECK(ids.count(id) == 1);
  CHECK(lint::find_rule("duplicate-def")->severity == Severity::Error);
  CHECK(lint::find_rule("schema-mismatch")->severity == Severity::Warning);
  CHECK(lint::find_rule("shadowed-composite")->severity == Severity::Info);
  CHECK(lint::rule_by_id("duplicate-defs").error().message ==
        "unknown lint rule 'duplicate-defs' (did you mean 'duplicate-def'?)");
  CHECK(lint::rule_by_id("missing-autograd").value() == lint::find_rule("missing-autograd"));
}

TEST_CASE("lint: docs/lint.md documents every rule") {
  const std::string doc = read_text(std::string(DT_TEST_DATA_DIR) + "/../../../docs/lint.md");
  for (const auto& r : lint::rules()) {
    CHECK_MESSAGE(contains(doc, "## `" + std::string(r.id) + "`"), r.id);
    CHECK_MESSAGE(contains(doc, "Default severity: **" + std::string(to_string(r.severity)) + "**"), r.id);
  }
}

TEST_CASE("lint: a clean input has no findings") {
  const auto all =
      lint_files({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CompositeImplicitAutograd\"\nkernel = \"m\"\n"}});
  CHECK(all.empty());
}

// ---- duplicate-def -----------------------------------------------------------------

TEST_CASE("lint duplicate-def: every second definition, with the original") {
  const auto f = lint_rule({{"a.toml", kDef}, {"b.toml", kDef}, {"c.toml", kDef}}, "duplicate-def");
  REQUIRE(f.size() == 2);
  CHECK(f[0].severity == Severity::Error);
  CHECK(locations(f[0]) == Locs{"b.toml:2:1", "a.toml:2:1"});
  CHECK(locations(f[1]) == Locs{"c.toml:2:1", "a.toml:2:1"});
  CHECK(f[0].op == "t::foo");
  CHECK(f[0].key.empty());
  CHECK(f[0].message.rfind("Tried to register an operator (t::foo(Tensor x) -> Tensor) with the same name", 0) == 0);
  CHECK(lint_rule(
            {{"a.toml", kDef}, {"b.toml", "namespace = \"t\"\n[[def]]\nschema = \"foo.out(Tensor x) -> Tensor\"\n"}},
            "duplicate-def")
            .empty());
}

// ---- duplicate-registration --------------------------------------------------------------

TEST_CASE("lint duplicate-registration: every overriding pair, across files") {
  const auto f = lint_rule({{"a.toml", kDef + impl("CPU", "k1")},
                            {"b.toml", "namespace = \"t\"\n" + impl("CPU", "k2")},
                            {"c.toml", "namespace = \"t\"\n" + impl("CPU", "k3")}},
                           "duplicate-registration");
  REQUIRE(f.size() == 2);
  // Sorted by file: b.toml's k2 overrides k1 (and k3 wins); c.toml's k3
  // overrides k2 and, through it, k1: all three pairs appear.
  CHECK(f[0].severity == Severity::Error);
  CHECK(locations(f[0]) == Locs{"b.toml:4:7", "a.toml:6:7", "c.toml:4:7"});
  CHECK(contains(f[0].message, "kernel 'k2' replaces 'k1';"));
  CHECK(contains(f[0].notes[1].message, "'k3'"));
  CHECK(locations(f[1]) == Locs{"c.toml:4:7", "b.toml:4:7", "a.toml:6:7"});
  CHECK(contains(f[1].message, "kernel 'k3' replaces 'k2' (and 1 earlier kernel);"));
  CHECK(contains(f[1].notes[1].message, "the overridden kernel 'k1'"));
  CHECK(f[1].op == "t::foo");
  CHECK(f[1].key == "CPU");
}

TEST_CASE("lint duplicate-registration: a catch-all overrides CompositeImplicitAutograd") {
  const auto f = lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "math") +
                                           "[[impl]]\nop = \"foo\"\nkernel = \"catchall\"\n"}},
                           "duplicate-registration");
  REQUIRE(f.size() == 1);
  CHECK(locations(f[0]) == Locs{"a.toml:9:6", "a.toml:6:7"});
  CHECK(contains(f[0].message, "on CompositeImplicitAutograd (catch-all): kernel 'catchall' replaces 'math'"));
}

TEST_CASE("lint duplicate-registration: different keys do not collide") {
  CHECK(lint_rule({{"a.toml", kDef + impl("CPU", "k1") + impl("CUDA", "k2")}}, "duplicate-registration").empty());
}

// ---- duplicate-fallback --------------------------------------------------------------------

TEST_CASE("lint duplicate-fallback: user fallbacks and PyTorch's own") {
  const std::string fb =
      "namespace = \"_\"\nkind = \"IMPL\"\ndispatch_key = \"XLA\"\n[[fallback]]\nkernel = \"xla_fb\"\n";
  const auto f = lint_rule({{"a.toml", fb}, {"b.toml", fb}}, "duplicate-fallback");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(locations(f[0]) == Locs{"b.toml:4:1", "a.toml:4:1"});
  CHECK(f[0].key == "XLA");
  CHECK(f[0].op.empty());

  const auto core = lint_rule({{"a.toml", "[[fallback]]\nkey = \"AutogradCPU\"\nkernel = \"mine\"\n"}},
                              "duplicate-fallback", "torch-1.13");
  REQUIRE(core.size() == 1);
  REQUIRE(core[0].notes.size() == 1);
  CHECK(to_string(core[0].where) == "a.toml:2:7");
  CHECK(core[0].notes[0].where.file == "configs/profiles/torch-1.13.toml");
  CHECK(contains(core[0].notes[0].message, "registered by PyTorch itself"));
  CHECK(core[0].key == "AutogradCPU");

  CHECK(lint_rule({{"a.toml", fb}}, "duplicate-fallback").empty());
}

// ---- impl-without-def --------------------------------------------------------------------------

TEST_CASE("lint impl-without-def: a dangling impl with every kernel") {
  const auto f =
      lint_rule({{"a.toml", "namespace = \"t\"\n" + impl("CPU", "k1") + impl("CUDA", "k2")}}, "impl-without-def");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(locations(f[0]) == Locs{"a.toml:4:7", "a.toml:8:7"});
  CHECK(f[0].op == "t::foo");
  CHECK(contains(f[0].message, "Could not find schema for t::foo but we found an implementation"));
  CHECK(
      lint_rule({{"a.toml", "namespace = \"t\"\n" + impl("CPU", "k1")}, {"b.toml", kDef}}, "impl-without-def").empty());
  // Anchored at the first kernel in file order: reordering the command line
  // does not move the finding (nor change its SARIF fingerprint).
  const Files x{{"x.toml", "namespace = \"t\"\n" + impl("CPU", "kx")},
                {"y.toml", "namespace = \"t\"\n" + impl("CUDA", "ky")}};
  const auto xy = lint_rule(x, "impl-without-def");
  const auto yx = lint_rule({x[1], x[0]}, "impl-without-def");
  REQUIRE(xy.size() == 1);
  REQUIRE(yx.size() == 1);
  CHECK(locations(xy[0]) == Locs{"x.toml:4:7", "y.toml:4:7"});
  CHECK(locations(yx[0]) == locations(xy[0]));
  CHECK(yx[0].message == xy[0].message);
}

// ---- composite-conflict ------------------------------------------------------------------------------

TEST_CASE("lint composite-conflict: torchgen's rule, with its NestedTensor exception") {
  const auto f = lint_rule(
      {{"a.toml", kDef + impl("CompositeImplicitAutograd", "math") + impl("CompositeExplicitAutograd", "explicit")}},
      "composite-conflict");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(locations(f[0]) == Locs{"a.toml:10:7", "a.toml:6:7"});
  CHECK(f[0].key == "CompositeImplicitAutograd,CompositeExplicitAutograd");
  CHECK(contains(f[0].message, "cannot specify more than one of CompositeExplicitAutograd"));
  CHECK(contains(f[0].message, "CompositeImplicitAutograd kernel is never used"));

  // Nested + CIA or Nested + CEA are allowed; Nested + CEANF is not; three never.
  CHECK(lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "m") +
                                  impl("CompositeImplicitAutogradNestedTensor", "n")}},
                  "composite-conflict")
            .empty());
  CHECK(lint_rule({{"a.toml", kDef + impl("CompositeExplicitAutograd", "e") +
                                  impl("CompositeImplicitAutogradNestedTensor", "n")}},
                  "composite-conflict")
            .empty());
  const auto ceanf = lint_rule({{"a.toml", kDef + impl("CompositeExplicitAutogradNonFunctional", "e") +
                                               impl("CompositeImplicitAutogradNestedTensor", "n")}},
                               "composite-conflict");
  REQUIRE(ceanf.size() == 1);
  CHECK(locations(ceanf[0]) == Locs{"a.toml:10:7", "a.toml:6:7"});
  const auto three = lint_rule(
      {{"a.toml", kDef + impl("CompositeImplicitAutograd", "m") + impl("CompositeImplicitAutogradNestedTensor", "n") +
                      impl("CompositeExplicitAutograd", "e")}},
      "composite-conflict");
  REQUIRE(three.size() == 1);
  CHECK(locations(three[0]) == Locs{"a.toml:14:7", "a.toml:6:7", "a.toml:10:7"});
}

// ---- ambiguous-autogradother ------------------------------------------------------------------------------

TEST_CASE("lint ambiguous-autogradother: CIA plus backends mapped to AutogradOther") {
  const Files files{
      {"a.toml", kDef + impl("CompositeImplicitAutograd", "math") + impl("SparseCPU", "sp") + impl("CPU", "dense")},
      {"b.toml", "namespace = \"t\"\n" + impl("QuantizedCPU", "q")}};
  const auto f = lint_rule(files, "ambiguous-autogradother");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  // The CIA kernel, then the offending backend kernels (enum order); CPU is not one.
  CHECK(locations(f[0]) == Locs{"a.toml:6:7", "b.toml:4:7", "a.toml:10:7"});
  CHECK(contains(f[0].message, "(QuantizedCPU, SparseCPU)"));
  CHECK(f[0].key == "AutogradOther");
  // The resolver's entry is the ground truth: with a direct AutogradOther kernel there is no ambiguity.
  Files fixed = files;
  fixed[0].second += impl("AutogradOther", "ag");
  CHECK(lint_rule(fixed, "ambiguous-autogradother").empty());
  // An Autograd alias kernel does not resolve it (2.3b runs before 2.4; torch
  // 1.13 still prints ambiguous_autogradother), and the hint does not suggest it.
  Files alias_only = files;
  alias_only[0].second += impl("Autograd", "ag");
  const auto still = lint_rule(alias_only, "ambiguous-autogradother");
  REQUIRE(still.size() == 1);
  CHECK(contains(still[0].fix, "directly on AutogradOther"));
  CHECK(contains(still[0].fix, "does not help"));
  CHECK(lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "m") + impl("CPU", "c")}},
                  "ambiguous-autogradother")
            .empty());
}

// ---- library-kind ----------------------------------------------------------------------------------------------

TEST_CASE("lint library-kind: the block-kind refusals, with their subjects") {
  const auto f =
      lint_rule({{"impl.toml",
                  "namespace = \"t\"\nkind = \"IMPL\"\ndispatch_key = \"CPU\"\n[[def]]\nschema = \"bar(Tensor x) -> "
                  "Tensor\"\n[[impl]]\nop = \"foo\"\nkey = \"CUDA\"\nkernel = \"k\"\n"},
                 {"d1.toml", "namespace = \"u\"\nkind = \"DEF\"\n"},
                 {"d2.toml", "namespace = \"u\"\nkind = \"DEF\"\n"},
                 {"prim.toml", "namespace = \"prim\"\nkind = \"FRAGMENT\"\n"}},
                "library-kind");
  REQUIRE(f.size() == 4);
  for (const auto& x : f) CHECK(x.severity == Severity::Error);
  CHECK(locations(f[0]) == Locs{"d2.toml:2:8", "d1.toml:2:8"});
  CHECK(f[0].op == "u");
  CHECK(locations(f[1]) == Locs{"impl.toml:4:1"});
  CHECK(f[1].op == "t::bar");  // qualified, as baselines key every other finding
  CHECK(contains(f[1].message, "Cannot define an operator inside of a TORCH_LIBRARY_IMPL block"));
  CHECK(locations(f[2]) == Locs{"impl.toml:8:7"});
  CHECK(f[2].op == "t::foo");
  CHECK(f[2].key == "CUDA");
  CHECK(locations(f[3]) == Locs{"prim.toml:1:13"});
  CHECK(f[3].op == "prim");
  CHECK(f[3].message == "('prim', ' is a reserved namespace. Please try creating a library with another name.')");
  // 1.13 reserves prim only for DEF libraries.
  CHECK(
      lint_rule({{"prim.toml", "namespace = \"prim\"\nkind = \"FRAGMENT\"\n"}}, "library-kind", "torch-1.13").empty());
  CHECK(lint_rule({{"impl.toml", "namespace = \"t\"\nkind = \"IMPL\"\ndispatch_key = \"CPU\"\n" + impl("CPU", "k")},
                   {"d.toml", kDef}},
                  "library-kind")
            .empty());
}

// ---- schema-mismatch ------------------------------------------------------------------------------------------------

TEST_CASE("lint schema-mismatch: PyTorch's message, kernel and def") {
  const std::string bad = impl("CPU", "k", "signature = \"(Tensor _0, Tensor _1) -> Tensor _0\"\n");
  const auto f = lint_rule({{"a.toml", kDef + bad}}, "schema-mismatch");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(locations(f[0]) == Locs{"a.toml:6:7", "a.toml:2:1"});
  CHECK(f[0].op == "t::foo");
  CHECK(f[0].message.rfind("Inferred operator schema for a C++ kernel function doesn't match the expected function "
                           "schema.\n  operator: t::foo\n",
                           0) == 0);
  CHECK(contains(f[0].message, "reason: The number of arguments is different. 1 vs 2."));
  CHECK(f[0].key == "CPU");
  // PyTorch checks when the second of the two arrives (kernel first, def
  // second here) and refuses that one; lint reports the kernel either way, and
  // the def stays: no impl-without-def cascade, same findings in both orders.
  const Files kernel_first{{"a.toml", "namespace = \"t\"\n" + bad}, {"b.toml", kDef}};
  const Files def_first{kernel_first[1], kernel_first[0]};
  const auto late = lint_files(kernel_first);
  REQUIRE(late.size() == 1);
  CHECK(late[0].rule == "schema-mismatch");
  CHECK(locations(late[0]) == Locs{"a.toml:4:7", "b.toml:2:1"});
  const auto early = lint_files(def_first);
  REQUIRE(early.size() == 1);
  CHECK(locations(early[0]) == locations(late[0]));
  CHECK(early[0].message == late[0].message);
  // Every kernel that contradicts the def is reported; one without a signature stays.
  const auto two =
      lint_files({{"a.toml", "namespace = \"t\"\n" + bad +
                                 impl("CUDA", "k2", "signature = \"(Tensor _0, Tensor _1) -> Tensor _0\"\n") +
                                 impl("XLA", "ok") + impl("Autograd", "ag")},
                  {"b.toml", kDef}});
  CHECK(of_rule(two, "schema-mismatch").size() == 2);
  CHECK(of_rule(two, "impl-without-def").empty());
  CHECK(two.size() == 2);

  // Argument names are not part of a C++ type: no mismatch.
  CHECK(lint_files(
            {{"a.toml", kDef + impl("CPU", "k1", "signature = \"(Tensor self) -> Tensor\"\n") +
                            impl("CUDA", "k2", "signature = \"(Tensor _0) -> Tensor _0\"\n") + impl("Autograd", "ag")}})
            .empty());
  // Kernel against kernel (OperatorEntry's C++ signature check, before any def):
  // the second typed kernel with another signature is refused.
  const auto cpp = lint_rule(
      {{"a.toml", "namespace = \"t\"\n" + bad + impl("CUDA", "k2", "signature = \"(int _0) -> Tensor _0\"\n")}},
      "schema-mismatch");
  REQUIRE(cpp.size() == 1);
  CHECK(locations(cpp[0]) == Locs{"a.toml:9:7", "a.toml:4:7"});
  CHECK(cpp[0].key == "CUDA");
  CHECK(cpp[0].message ==
        "Mismatch in kernel C++ signatures\n  operator: t::foo\n    no debug info\n"
        "  kernel 1: (Tensor _0, Tensor _1) -> Tensor _0\n    dispatch key: CPU\n    k\n"
        "  kernel 2: (int _0) -> Tensor _0\n    dispatch key: CUDA\n    k2");
  CHECK(
      lint_rule({{"a.toml", kDef + impl("CPU", "k", "signature = \"(Tensor _0) -> Tensor _0\"\n")}}, "schema-mismatch")
          .empty());
}

// ---- missing-autograd
// -------------------------------------------------------------------------------------------------

TEST_CASE("lint missing-autograd: backend kernels whose autograd key has no kernel") {
  const auto f = lint_rule({{"a.toml", kDef + impl("CPU", "c") + impl("SparseCPU", "s") + impl("CUDA", "g")}},
                           "missing-autograd", "torch-1.13");
  REQUIRE(f.size() == 2);
  CHECK(f[0].severity == Severity::Warning);
  // AutogradCPU: the CPU kernel, and SparseCPU whose autograd key is AutogradCPU too.
  CHECK(locations(f[0]) == Locs{"a.toml:6:7", "a.toml:10:7"});
  CHECK(f[0].key == "AutogradCPU");
  CHECK(contains(f[0].message,
                 "has a kernel for CPU, SparseCPU but no autograd kernel: AutogradCPU resolves to the "
                 "backend fallback, a fallthrough"));
  CHECK(locations(f[1]) == Locs{"a.toml:14:7"});
  CHECK(f[1].key == "AutogradCUDA");

  // No fallback at all (AutogradMeta in 1.13): calls fail.
  const auto meta = lint_rule({{"a.toml", kDef + impl("Meta", "m")}}, "missing-autograd", "torch-1.13");
  REQUIRE(meta.size() == 1);
  CHECK(contains(meta[0].message,
                 "AutogradMeta resolves to nothing: calls fail with \"Could not run 't::foo' with "
                 "arguments from the 'AutogradMeta' backend\""));
  // main: the autograd fallback is a real kernel.
  const auto main = lint_rule({{"a.toml", kDef + impl("CPU", "c")}}, "missing-autograd");
  REQUIRE(main.size() == 1);
  CHECK(contains(main[0].message, "resolves to the backend fallback 'registered at "));

  // A CompositeExplicitAutograd kernel: one finding listing its autograd keys.
  const auto cea = lint_rule({{"a.toml", kDef + impl("CompositeExplicitAutograd", "e")}}, "missing-autograd");
  REQUIRE(cea.size() == 1);
  CHECK(locations(cea[0]) == Locs{"a.toml:6:7"});
  CHECK(cea[0].key == "CompositeExplicitAutograd");
  CHECK(contains(cea[0].message, "AutogradCPU"));

  // Passing: an Autograd kernel; a decomposition; quantized kernels (no grad); fallthrough kernels.
  CHECK(lint_rule({{"a.toml", kDef + impl("CPU", "c") + impl("Autograd", "ag")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", kDef + impl("CPU", "c") + impl("AutogradCPU", "ag")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "m")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", kDef + impl("QuantizedCPU", "q")}}, "missing-autograd").empty());
  CHECK(
      lint_rule({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nfallthrough = true\n"}}, "missing-autograd")
          .empty());

  // NestedTensor kernels: their tensors carry AutogradNestedTensor, which has
  // no fallback in either profile (torch 1.13: "Could not run 't::foo' with
  // arguments from the 'AutogradNestedTensor' backend").
  for (const char* prof : {"torch-1.13", "torch-main"}) {
    CAPTURE(prof);
    const auto nt = lint_rule({{"a.toml", kDef + impl("NestedTensorCPU", "nt")}}, "missing-autograd", prof);
    REQUIRE(nt.size() == 1);
    CHECK(nt[0].key == "AutogradNestedTensor");
    CHECK(locations(nt[0]) == Locs{"a.toml:6:7"});
    CHECK(contains(nt[0].message, "AutogradNestedTensor resolves to nothing: calls fail"));
    CHECK(lint_rule({{"a.toml", kDef + impl("NestedTensorCPU", "nt") + impl("AutogradNestedTensor", "ag")}},
                    "missing-autograd", prof)
              .empty());
  }

  // Nothing for autograd to lose: no Tensor output and no Tensor written in
  // place. Reported only where the key resolves to nothing.
  const auto def = [](const std::string& schema) {
    return "namespace = \"t\"\n[[def]]\nschema = \"" + schema + "\"\n";
  };
  CHECK(lint_rule({{"a.toml", def("foo(Tensor x) -> int") + impl("CPU", "c")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", def("foo(Tensor x) -> ()") + impl("CPU", "c")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", def("foo(Tensor(a!) x) -> ()") + impl("CPU", "c")}}, "missing-autograd").size() == 1);
  CHECK(lint_rule({{"a.toml", def("foo(Tensor x) -> (int, Tensor)") + impl("CPU", "c")}}, "missing-autograd").size() ==
        1);
  CHECK(lint_rule({{"a.toml", def("foo(Tensor x) -> int") + impl("Meta", "m")}}, "missing-autograd", "torch-1.13")
            .size() == 1);
  // No Tensor argument: the autograd key is never dispatched to (no-tensor-arguments reports it).
  CHECK(lint_rule({{"a.toml", def("foo(int n) -> Tensor") + impl("CPU", "c")}}, "missing-autograd").empty());
}

// ---- no-tensor-arguments ----------------------------------------------------------------------------------------

TEST_CASE("lint no-tensor-arguments: backend kernels nothing can dispatch to") {
  const std::string def = "namespace = \"t\"\n[[def]]\nschema = \"foo(int n, *, Device? device=None) -> Tensor\"\n";
  const auto f = lint_rule({{"a.toml", def + impl("CPU", "c") + impl("CUDA", "g")}}, "no-tensor-arguments");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(locations(f[0]) == Locs{"a.toml:6:7", "a.toml:10:7", "a.toml:2:1"});
  CHECK(f[0].op == "t::foo");
  CHECK(f[0].key == "CPU,CUDA");
  CHECK(contains(f[0].message,
                 "kernels on CPU, CUDA are never reached; Undefined has no kernel, so calls fail with "
                 "\"There were no tensor arguments to this function"));
  // With a composite kernel Undefined runs it.
  const auto cea =
      lint_rule({{"a.toml", def + impl("CPU", "c") + impl("CompositeExplicitAutograd", "e")}}, "no-tensor-arguments");
  REQUIRE(cea.size() == 1);
  CHECK(contains(cea[0].message, "calls run Undefined's entry, 'e' on CompositeExplicitAutograd"));
  // Passing: a BackendSelect kernel (factory functions), a Tensor, Tensor[] or
  // Generator argument, or only composite kernels.
  CHECK(lint_rule({{"a.toml", def + impl("CPU", "c") + impl("BackendSelect", "bs")}}, "no-tensor-arguments").empty());
  for (const char* args : {"Tensor x", "Tensor[] xs", "Tensor? x", "Generator? g", "Tensor(a!) out"}) {
    CAPTURE(args);
    const std::string d = "namespace = \"t\"\n[[def]]\nschema = \"foo(" + std::string(args) + ") -> Tensor\"\n";
    CHECK(lint_rule({{"a.toml", d + impl("CPU", "c")}}, "no-tensor-arguments").empty());
  }
  CHECK(lint_rule({{"a.toml", def + impl("CompositeExplicitAutograd", "e")}}, "no-tensor-arguments").empty());
}

// ---- meta-on-composite
// ----------------------------------------------------------------------------------------------------

TEST_CASE("lint meta-on-composite: torch.library's rule, 1.13 substring vs main exact") {
  const auto f = lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "m") + impl("Meta", "meta")}},
                           "meta-on-composite");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(locations(f[0]) == Locs{"a.toml:10:7", "a.toml:6:7"});
  CHECK(f[0].message.rfind("We should not register a meta kernel directly to the operator 't::foo', because it has a "
                           "CompositeImplicitAutograd kernel in core.",
                           0) == 0);
  const Files nested{{"a.toml", kDef + impl("CompositeImplicitAutogradNestedTensor", "n") + impl("Meta", "meta")}};
  const auto old = lint_rule(nested, "meta-on-composite", "torch-1.13");
  REQUIRE(old.size() == 1);
  CHECK(locations(old[0]) == Locs{"a.toml:10:7", "a.toml:6:7"});
  CHECK(contains(old[0].notes[0].message, "substring"));
  CHECK(lint_rule(nested, "meta-on-composite", "torch-main").empty());
  CHECK(lint_rule({{"a.toml", kDef + impl("Meta", "meta")}}, "meta-on-composite").empty());
}

// ---- shadowed-composite
// ------------------------------------------------------------------------------------------------------

TEST_CASE("lint shadowed-composite: a backend kernel turns the decomposition off") {
  const auto f =
      lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "m") + impl("CPU", "c") + impl("Autograd", "ag")}},
                "shadowed-composite");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(locations(f[0]) == Locs{"a.toml:10:7", "a.toml:6:7", "a.toml:14:7"});
  CHECK(contains(f[0].message,
                 "for CPU and for its autograd key: AutogradCPU now resolves to 'ag' on Autograd (autograd kernel)"));
  CHECK(f[0].key == "CPU");
  // HIP has no autograd key of its own in getBackendKeySetFromAutograd: only its row is affected.
  const auto hip =
      lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "m") + impl("HIP", "h")}}, "shadowed-composite");
  REQUIRE(hip.size() == 1);
  CHECK(locations(hip[0]) == Locs{"a.toml:10:7", "a.toml:6:7"});
  CHECK(hip[0].message.ends_with("for HIP"));
  CHECK(lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "m") + impl("AutogradCPU", "ag")}},
                  "shadowed-composite")
            .empty());
}

// ---- fallthrough-on-alias
// ---------------------------------------------------------------------------------------------------

TEST_CASE("lint fallthrough-on-alias: a fallthrough on a composite key") {
  const std::string ft = "[[impl]]\nop = \"foo\"\nkey = \"CompositeExplicitAutograd\"\nfallthrough = true\n";
  const auto f = lint_rule({{"a.toml", kDef + ft}}, "fallthrough-on-alias");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(locations(f[0]) == Locs{"a.toml:6:7"});
  CHECK(contains(f[0].message, "fills 70 rows (Undefined, CPU,"));
  CHECK(f[0].key == "CompositeExplicitAutograd");
  CHECK(lint_rule({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"Autograd\"\nfallthrough = true\n"}},
                  "fallthrough-on-alias")
            .empty());
}

// ---- building-block-key
// -------------------------------------------------------------------------------------------------------

TEST_CASE("lint building-block-key: kernels on Dense, Sparse, ...") {
  const auto f = lint_rule({{"a.toml", kDef + impl("Dense", "d") + impl("Sparse", "s")}}, "building-block-key");
  REQUIRE(f.size() == 2);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(locations(f[0]) == Locs{"a.toml:6:7"});
  CHECK(f[0].key == "Dense");
  CHECK(contains(f[0].fix, "keys = [\"CPU\", \"CUDA\"]"));
  CHECK(locations(f[1]) == Locs{"a.toml:10:7"});
  CHECK(contains(f[1].fix, "keys = [\"SparseCPU\", \"SparseCUDA\"]"));
  CHECK(lint_rule({{"a.toml", kDef + impl("CPU", "c")}}, "building-block-key").empty());
}

// ---- unparseable-key
// --------------------------------------------------------------------------------------------------------------

TEST_CASE("lint unparseable-key: a boxed-only kernel on a key Python cannot name") {
  const auto f = lint_rule({{"a.toml", kDef + impl("AutogradHIP", "py", "boxed_only = true\n")}}, "unparseable-key");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(locations(f[0]) == Locs{"a.toml:6:7"});
  CHECK(contains(f[0].message, "could not parse dispatch key: AutogradHIP"));
  CHECK(lint_rule({{"a.toml", kDef + impl("AutogradHIP", "cpp")}}, "unparseable-key").empty());
  CHECK(lint_rule({{"a.toml", kDef + impl("AutogradCPU", "py", "boxed_only = true\n")}}, "unparseable-key").empty());
  // Boxed-only with an inferred schema: a typed C++ SymInt kernel, as torch
  // 1.13's RegisterSparseMeta.cpp registers on SparseMeta.
  CHECK(lint_rule({{"a.toml",
                    kDef + impl("SparseMeta", "cpp", "boxed_only = true\nsignature = \"(Tensor _0) -> Tensor _0\"\n")}},
                  "unparseable-key", "torch-1.13")
            .empty());
}

// ---- unreachable-kernel
// ------------------------------------------------------------------------------------------------------------

TEST_CASE("lint unreachable-kernel: an alias kernel no row uses") {
  const auto f = lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "m") + impl("Autograd", "ag")}},
                           "unreachable-kernel");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(locations(f[0]) == Locs{"a.toml:10:7", "a.toml:6:7"});
  CHECK(contains(f[0].message, "its rows resolve to 'm' on CompositeImplicitAutograd (math kernel)"));
  // With a backend kernel the Autograd kernel serves AutogradCPU.
  CHECK(
      lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "m") + impl("Autograd", "ag") + impl("CPU", "c")}},
                "unreachable-kernel")
          .empty());
  // CIA next to CEA is composite-conflict's business.
  CHECK(lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "m") + impl("CompositeExplicitAutograd", "e")}},
                  "unreachable-kernel")
            .empty());
}

// ---- configuration
// ---------------------------------------------------------------------------------------------------------------

TEST_CASE("lint config: parse, merge, apply") {
  auto c = lint::parse_config(
      "select = [\"duplicate-def\", \"missing-autograd\"]\nignore = [\"missing-autograd\"]\nfail-on = \"warning\"\n"
      "baseline = \"base.toml\"\nprofile = \"torch-1.13\"\n[severity]\nduplicate-def = \"info\"\n",
      "cfg.toml");
  REQUIRE(c.has_value());
  CHECK(c->select == std::vector<std::string>{"duplicate-def", "missing-autograd"});
  CHECK(c->ignore == std::vector<std::string>{"missing-autograd"});
  CHECK(c->fail_on == Severity::Warning);
  CHECK(c->baseline == "base.toml");
  CHECK(c->profile == "torch-1.13");
  REQUIRE(c->severity.size() == 1);

  std::vector<Finding> fs(3);
  fs[0].rule = "duplicate-def", fs[0].severity = Severity::Error;
  fs[1].rule = "missing-autograd", fs[1].severity = Severity::Warning;
  fs[2].rule = "impl-without-def", fs[2].severity = Severity::Error;
  lint::apply(*c, fs);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].rule == "duplicate-def");
  CHECK(fs[0].severity == Severity::Info);
  CHECK(!lint::fails(fs, Severity::Warning));
  CHECK(lint::fails(fs, Severity::Info));

  lint::Config cli;
  cli.severity.push_back({"duplicate-def", Severity::Error});
  cli.ignore.push_back("schema-mismatch");
  const auto m = lint::merge(*c, cli);
  CHECK(m.select == c->select);
  CHECK(m.ignore == std::vector<std::string>{"missing-autograd", "schema-mismatch"});
  std::vector<Finding> again(1);
  again[0].rule = "duplicate-def";
  lint::apply(m, again);
  CHECK(again[0].severity == Severity::Error);  // the command line's override is the later one
}

TEST_CASE("lint config: errors point into the file") {
  auto err = [](const std::string& text) {
    auto c = lint::parse_config(text, "cfg.toml");
    REQUIRE(!c.has_value());
    return format(c.error());
  };
  CHECK(err("select = [\"duplicate-defs\"]\n") ==
        "cfg.toml:1:11: error: unknown lint rule 'duplicate-defs' (did you mean 'duplicate-def'?)\n");
  CHECK(err("[severity]\nmissing-autograd = \"fatal\"\n") ==
        "cfg.toml:2:20: error: unknown severity 'fatal'; expected \"error\", \"warning\" or \"info\"\n");
  CHECK(err("[severity]\nmising-autograd = \"info\"\n") ==
        "cfg.toml:2:1: error: unknown lint rule 'mising-autograd' (did you mean 'missing-autograd'?)\n");
  CHECK(err("fail_on = \"error\"\n") ==
        "cfg.toml:1:1: error: unknown field 'fail_on' in the lint configuration (did you "
        "mean 'fail-on'?)\n");
}

// ---- baseline
// ------------------------------------------------------------------------------------------------------------------------

TEST_CASE("lint baseline: keyed on rule, operator and key; counts; round trip") {
  const Files before{{"a.toml", kDef + impl("CPU", "k1") + impl("CPU", "k2")}};
  auto findings = lint_files(before);
  const auto baseline = lint::make_baseline(findings);
  const std::string text = lint::write_baseline(baseline);
  CHECK(text.find("a.toml") == std::string::npos);  // no files, no line numbers
  CHECK(contains(text, "[[accept]]\nrule = \"duplicate-registration\"\nop = \"t::foo\"\nkey = \"CPU\"\ncount = 1\n"));
  auto parsed = lint::parse_baseline(text, "base.toml");
  REQUIRE(parsed.has_value());
  CHECK(parsed->entries == baseline.entries);

  // The same findings after lines moved: all accepted.
  auto moved = lint_files({{"a.toml", "# a comment\n\n" + kDef + impl("CPU", "k1") + impl("CPU", "k2")}});
  CHECK(lint::apply_baseline(*parsed, moved, {}).accepted == findings.size());
  CHECK(moved.empty());

  // A third kernel is a new finding (count 1 accepts one of the two pairs).
  auto more = lint_files({{"a.toml", kDef + impl("CPU", "k1") + impl("CPU", "k2") + impl("CPU", "k3")}});
  const auto dup = of_rule(more, "duplicate-registration").size();
  CHECK(dup == 2);
  CHECK(lint::apply_baseline(*parsed, more, {}).unmatched == 0);
  CHECK(of_rule(more, "duplicate-registration").size() == 1);

  // Fixed: the entry matches nothing, and the summary says so (a problem that
  // comes back would otherwise be accepted silently by the stale entry).
  auto fixed = lint_files({{"a.toml", kDef + impl("CPU", "k1")}});
  const lint::BaselineUse use = lint::apply_baseline(*parsed, fixed, {});
  CHECK(use.accepted == 1);   // missing-autograd on CPU is still there
  CHECK(use.unmatched == 1);  // the duplicate registration is gone
  CHECK(lint::summary_line(lint::summarize(fixed, use)) ==
        "no findings; 1 accepted by the baseline; 1 finding the baseline accepts no longer occurs (fixed? refresh it "
        "with --write-baseline)");
  // With that rule not run (--ignore), its entry is not stale: it was not looked for.
  lint::Config ignore_dup;
  ignore_dup.ignore = {"duplicate-registration"};
  auto fixed2 = lint_files({{"a.toml", kDef + impl("CPU", "k1")}});
  lint::apply(ignore_dup, fixed2);
  CHECK(lint::apply_baseline(*parsed, fixed2, ignore_dup).unmatched == 0);

  auto bad = lint::parse_baseline("version = 1\n[[accept]]\nrule = \"nope\"\n", "base.toml");
  REQUIRE(!bad.has_value());
  CHECK(format(bad.error()) == "base.toml:3:8: error: unknown lint rule 'nope'\n");
  CHECK(!lint::parse_baseline("version = 2\n", "base.toml").has_value());
  CHECK(!lint::parse_baseline("version = 1\n[[accept]]\nrule = \"duplicate-def\"\ncount = 0\n", "b.toml").has_value());
}

// ---- output
// -----------------------------------------------------------------------------------------------------------------------------

TEST_CASE("lint output: escaping") {
  CHECK(json_quote("a\"b\\c\n\t\x01\x7f") == "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\"");
  CHECK(json_quote("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
  CHECK(lint::github_escape_data("100% a:b,c\r\nd") == "100%25 a:b,c%0D%0Ad");
  CHECK(lint::github_escape_property("100% a:b,c\r\nd") == "100%25 a%3Ab%2Cc%0D%0Ad");
  CHECK(lint::path_to_uri("./ops/a b.toml", "") == "ops/a%20b.toml");
  CHECK(lint::path_to_uri("/work/repo/ops/a.toml", "/work/repo") == "ops/a.toml");
  CHECK(lint::path_to_uri("/elsewhere/a.toml", "/work/repo") == "file:///elsewhere/a.toml");
  CHECK(lint::path_to_uri("<stdin>", "") == "%3Cstdin%3E");
}

TEST_CASE("lint output: text cannot be forged by kernel names") {
  // A newline in a kernel name must not start a line that reads like a
  // finding of its own; other control characters are written as \xNN.
  const auto f =
      lint_files({{"a.toml", kDef + "dispatch = { CPU = \"k1\\nfake.toml:1:1: error: forged [x]\\r\\u001b[2K\" }\n" +
                                 impl("CPU", "k2") + impl("Autograd", "ag")}});
  REQUIRE(f.size() == 1);
  std::string out;
  lint::render_text(f, out);
  std::size_t headlines = 0;
  for (std::size_t start = 0; start < out.size();) {
    const std::size_t end = out.find('\n', start);
    const std::string line = out.substr(start, end - start);
    if (line.rfind("    ", 0) != 0) {
      ++headlines;
      CHECK(line.rfind("a.toml:7:7: error: ", 0) == 0);
    }
    start = end + 1;
  }
  CHECK(headlines == 1);
  // Lines at the notes' indent are notes and hints the tool wrote, never text
  // from a name (a message's further lines go deeper).
  const auto forged =
      lint_files({{"a.toml", kDef + "dispatch = { CPU = \"k1\" }\n" +
                                 impl("CPU", "k2\\n    f.toml:1:1: note: all good") + impl("Autograd", "ag")}});
  REQUIRE(forged.size() == 1);
  std::string text;
  lint::render_text(forged, text);
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    if (line.rfind("    ", 0) == 0 && line[4] != ' ')
      CHECK_MESSAGE((line.rfind("    a.toml:", 0) == 0 || line.rfind("    help: ", 0) == 0), line);
    start = end + 1;
  }
  CHECK(contains(text, "\n          f.toml:1:1: note: all good"));
  CHECK(contains(out, "\n        fake.toml:1:1: error: forged [x]\\x0d\\x1b[2K' is registered here\n"));
  CHECK(out.find('\r') == std::string::npos);
  CHECK(out.find('\x1b') == std::string::npos);
}

TEST_CASE("lint output: SARIF locations stay inside the analysed repository") {
  // A second fallback on AutogradCPU: the note points at PyTorch's own
  // fallback in the built-in profile, which is no file of the repository.
  const auto f = lint_files({{"a.toml", "[[fallback]]\nkey = \"AutogradCPU\"\nkernel = \"mine\"\n"}}, "torch-1.13");
  REQUIRE(f.size() == 1);
  REQUIRE(f[0].notes.size() == 1);
  std::string sarif;
  lint::render_sarif(f, lint::OutputInfo{"0", "torch-1.13", ""}, sarif);
  CHECK(!contains(sarif, "relatedLocations"));
  CHECK(contains(sarif, "\"uri\": \"a.toml\",\n"));
  CHECK(contains(sarif, "\"uriBaseId\": \"%SRCROOT%\""));
  // A file outside the directory lint ran in is not relative to %SRCROOT%.
  auto outside = f;
  outside[0].where.file = "../elsewhere/a.toml";
  std::string sarif2;
  lint::render_sarif(outside, lint::OutputInfo{"0", "torch-1.13", ""}, sarif2);
  CHECK(contains(sarif2, "\"uri\": \"../elsewhere/a.toml\"\n"));
  CHECK(!contains(sarif2, "uriBaseId"));
}

TEST_CASE("lint output: fingerprints do not depend on line numbers") {
  Finding a;
  a.rule = "duplicate-registration";
  a.op = "t::foo";
  a.key = "CPU";
  a.where = {"a.toml", 4, 7};
  Finding b = a;
  b.where = {"a.toml", 40, 1};
  b.message = "moved";
  CHECK(lint::fingerprint(a, 0) == lint::fingerprint(b, 0));
  CHECK(lint::fingerprint(a, 0) != lint::fingerprint(a, 1));
  b.key = "CUDA";
  CHECK(lint::fingerprint(a, 0) != lint::fingerprint(b, 0));
  CHECK(lint::fingerprint(a, 0).size() == 16);
}

TEST_CASE("lint output: text, json, sarif and github formats") {
  const auto findings = lint_files({{"a.toml", kDef + impl("CPU", "k1") + impl("CPU", "k\\\"2")}});
  const auto dup = of_rule(findings, "duplicate-registration");
  REQUIRE(dup.size() == 1);
  const lint::OutputInfo info{"9.9.9", "torch-main", ""};
  const auto summary = lint::summarize(dup, {2, 0});
  CHECK(lint::summary_line(summary) == "1 finding (1 error, 0 warnings, 0 info); 2 accepted by the baseline");
  CHECK(lint::summary_line(lint::summarize({})) == "no findings");

  std::string text;
  lint::render_text(dup, text);
  CHECK(text.rfind("a.toml:10:7: error: Overriding a previously registered kernel", 0) == 0);
  CHECK(contains(text,
                 " [duplicate-registration]\n    a.toml:6:7: note: the overridden kernel 'k1' is registered here\n"
                 "    help: "));

  std::string json;
  lint::render_json(dup, info, summary, json);
  CHECK(json.rfind(
            "{\n  \"version\": 1,\n  \"tool\": {\n    \"name\": \"dispatchtool\",\n    \"version\": \"9.9.9\"\n  },",
            0) == 0);
  CHECK(contains(json, "kernel 'k\\\"2' replaces 'k1'"));
  CHECK(contains(
      json, "\"location\": {\n        \"file\": \"a.toml\",\n        \"line\": 10,\n        \"column\": 7\n      }"));
  CHECK(contains(json, "\"baselined\": 2"));

  std::string sarif;
  lint::render_sarif(dup, info, sarif);
  CHECK(contains(sarif, "\"version\": \"2.1.0\""));
  CHECK(contains(sarif, "\"ruleId\": \"duplicate-registration\""));
  CHECK(contains(sarif, "\"ruleIndex\": " + std::to_string(lint::rule_index("duplicate-registration"))));
  CHECK(contains(sarif, "\"startLine\": 10"));
  CHECK(contains(sarif, "\"relatedLocations\""));
  CHECK(contains(sarif, "\"dispatchtoolFinding/v1\": \"" + lint::fingerprint(dup[0], 0) + "\""));

  std::string gh;
  lint::render_github(dup, gh);
  CHECK(gh.rfind("::error file=a.toml,line=10,col=7,title=duplicate-registration::Overriding a previously registered "
                 "kernel for the same operator and the same dispatch key: t::foo on CPU: kernel 'k\"2' replaces 'k1'",
                 0) == 0);
  CHECK(contains(gh, "%0Aa.toml:6:7: note: the overridden kernel 'k1' is registered here%0Ahelp: "));
  CHECK(std::count(gh.begin(), gh.end(), '\n') == 1);
}

TEST_CASE("lint: findings are sorted by file, line, column and rule") {
  const auto all = lint_files({{"b.toml", "namespace = \"t\"\n" + impl("CPU", "k")},
                               {"a.toml", kDef + impl("CompositeImplicitAutograd", "m") + impl("Meta", "x")}});
  REQUIRE(all.size() >= 3);
  for (std::size_t i = 1; i < all.size(); ++i)
    CHECK(std::tie(all[i - 1].where.file, all[i - 1].where.line, all[i - 1].where.column, all[i - 1].rule) <=
          std::tie(all[i].where.file, all[i].where.line, all[i].where.column, all[i].rule));
  CHECK(all.front().where.file == "a.toml");
}

}  // namespace dt::test
