// Rules on refused and overridden registrations: every rule with a failing and a
// passing input (rule id, severity and every location).
#include "base/limits.hpp"
#include "lint_helpers.hpp"

namespace dt::test {

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

TEST_CASE("lint duplicate-registration: one finding per operator and key, across files") {
  const auto f = lint_rule({{"a.toml", kDef + impl("CPU", "k1")},
                            {"b.toml", "namespace = \"t\"\n" + impl("CPU", "k2")},
                            {"c.toml", "namespace = \"t\"\n" + impl("CPU", "k3")}},
                           "duplicate-registration");
  REQUIRE(f.size() == 1);
  // At the last kernel in (file, line, column) order, the others as notes in that order.
  CHECK(f[0].severity == Severity::Error);
  CHECK(locations(f[0]) == Locs{"c.toml:4:7", "a.toml:6:7", "b.toml:4:7"});
  CHECK(contains(f[0].message, "kernel 'k3' replaces 'k2' (and 1 earlier kernel);"));
  CHECK(contains(f[0].notes[0].message, "the overridden kernel 'k1'"));
  CHECK(contains(f[0].notes[1].message, "the overridden kernel 'k2'"));
  CHECK(f[0].op == "t::foo");
  CHECK(f[0].key == "CPU");
}

TEST_CASE("lint duplicate-registration: 4,000 overrides give one finding with a bounded number of notes") {
  std::string text = kDef;
  for (int i = 0; i < 4000; ++i) {
    std::string kernel = "k";  // appends: g++ 12 warns falsely on "k" + std::to_string(i)
    kernel += std::to_string(i);
    text += impl("CPU", kernel);
  }
  const auto f = lint_rule({{"a.toml", text}}, "duplicate-registration");
  REQUIRE(f.size() == 1);
  REQUIRE(f[0].notes.size() == limits::kNotesPerFinding + 1);
  CHECK(f[0].notes.back().message ==
        "and 3991 more locations not listed, the next one here (a finding lists at most 8)");
  CHECK(contains(f[0].message, "kernel 'k3999' replaces 'k3998' (and 3998 earlier kernels)"));
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

}  // namespace dt::test
