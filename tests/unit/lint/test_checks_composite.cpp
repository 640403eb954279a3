// Rules on alias kernels: every rule with a failing and a passing input.
#include "lint_helpers.hpp"

namespace dt::test {

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

TEST_CASE("lint unreachable-kernel: PyTorch's own kernels only where the inputs make them unreachable") {
  // 2.14's Autograd kernel of aten::max_pool2d serves no row even without the
  // inputs (its CompositeImplicitAutograd decomposition takes every autograd
  // key): an XLA autograd kernel for it changes nothing about that.
  const std::string xla = "backend: XLA\ncpp_namespace: t\nsupported:\n- add.Tensor\nautograd:\n- max_pool2d\n";
  CHECK(lint_with_library({{"x.yaml", xla}}, "unreachable-kernel", "torch-2.14").empty());

  // aten::mul.Tensor's Autograd kernel serves every autograd key; kernels on
  // all of them (the inputs' doing) leave it no row: reported at PyTorch's kernel (the
  // command line moves a finding in the library to the input's side).
  const Profile& p = profile("torch-2.14");
  std::string toml = "namespace = \"aten\"\nkind = \"IMPL\"\n";
  for (KeyId k : p.alias_members(*p.find("Autograd")))
    toml += "[[impl]]\nop = \"mul.Tensor\"\nkey = \"" + p.name_of(k) + "\"\nkernel = \"mine\"\n";
  const auto f = lint_with_library({{"a.toml", toml}}, "unreachable-kernel", "torch-2.14");
  REQUIRE(f.size() == 1);
  CHECK(contains(f[0].message, "on Autograd of aten::mul.Tensor is never used"));
  CHECK(contains(to_string(f[0].where), "configs/library/torch-2.14/"));
  REQUIRE(!f[0].notes.empty());
  CHECK(to_string(f[0].notes[0].where) == "a.toml:5:7");
}

}  // namespace dt::test
