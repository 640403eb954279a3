// The resolver (and the raw table it is printed as) against the examples of
// the semantics spec (sections C, D, E).
#include "helpers.hpp"

namespace dt::test {

namespace {

const char* const kSig = "signature = \"(Tensor _0) -> Tensor _0\"\n";

std::string impl(const std::string& key, const std::string& kernel) {
  return "[[impl]]\nop = \"foo\"\nkey = \"" + key + "\"\nkernel = \"" + kernel + "\"\n" + kSig;
}

std::string def_foo() {
  return "namespace = \"t\"\n[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\ndebug = \"registered at /dev/null:0\"\n";
}
}  // namespace

TEST_CASE("spec E.1: _dispatch_dump example") {
  const auto l = must_load("torch-1.13", {{"t.toml", def_foo() + impl("CPU", "SECOND") + impl("CPU", "THIRD") +
                                                         impl("CompositeImplicitAutograd", "fn_math")}});
  CHECK(raw_registrations(l, "t::foo") ==
        "name: t::foo\n"
        "schema: t::foo(Tensor x) -> Tensor\n"
        "debug: registered at /dev/null:0\n"
        "alias analysis kind: FROM_SCHEMA\n"
        "CPU: THIRD :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
        "CPU (inactive): SECOND :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
        "CompositeImplicitAutograd[alias]: fn_math :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n");
  // Overriding warns (F.1), naming the first kernel with a C++ signature.
  REQUIRE(l.registry.warnings().size() == 1);
  CHECK(l.registry.warnings()[0].message ==
        "Overriding a previously registered kernel for the same operator and the same dispatch key\n"
        "  operator: t::foo(Tensor x) -> Tensor\n"
        "    registered at /dev/null:0\n"
        "  dispatch key: CPU\n"
        "  previous kernel: SECOND\n"
        "       new kernel: THIRD");
}

TEST_CASE("spec D.1: an operator with only a def prints PyTorch's fallback rows") {
  const auto l = must_load("torch-1.13", {{"t.toml", def_foo()}});
  const std::string t = raw_table(l, "t::foo");
  CHECK(t.find("AutogradCPU: fallthrough registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39 "
               "[backend fallback]\n") != std::string::npos);
  CHECK(t.rfind("BackendSelect: fallthrough registered at ./aten/src/ATen/core/BackendSelectFallbackKernel.cpp:3 "
                "[backend fallback]\n",
                0) == 0);
  std::size_t rows_count = 0;
  for (char c : t) rows_count += c == '\n';
  CHECK(rows_count == 28);
}

TEST_CASE("spec C.4: AutogradOther ambiguity") {
  const auto l = must_load(
      "torch-1.13", {{"t.toml", def_foo() + impl("CompositeImplicitAutograd", "math") + impl("SparseCPU", "sparse")}});
  const std::string t = raw_table(l, "t::foo");
  CHECK(rows(t, {"AutogradOther"}) == "AutogradOther: ambiguous_autogradother [ambiguous autogradother]\n");
  // A direct AutogradOther kernel avoids it.
  const auto l2 = must_load("torch-1.13", {{"t.toml", def_foo() + impl("CompositeImplicitAutograd", "math") +
                                                          impl("SparseCPU", "sparse") + impl("AutogradOther", "ao")}});
  CHECK(rows(raw_table(l2, "t::foo"), {"AutogradOther"}) == "AutogradOther: ao [kernel]\n");
  // A building block counts too (B.7).
  const auto l3 = must_load(
      "torch-1.13", {{"t.toml", def_foo() + impl("CompositeImplicitAutograd", "math") + impl("Quantized", "q")}});
  CHECK(rows(raw_table(l3, "t::foo"), {"AutogradOther"}) ==
        "AutogradOther: ambiguous_autogradother [ambiguous autogradother]\n");
}

TEST_CASE("spec C.2 consequences") {
  SUBCASE("CIA + CEA: CEA wins on its set and disables CIA elsewhere") {
    const auto l = must_load("torch-1.13", {{"t.toml", def_foo() + impl("CompositeImplicitAutograd", "math") +
                                                           impl("CompositeExplicitAutograd", "cea")}});
    const std::string t = raw_table(l, "t::foo");
    CHECK(rows(t, {"Undefined", "CPU", "AutogradCPU", "NestedTensorCPU", "AutogradOther"}) ==
          "Undefined: cea [default backend kernel]\n"
          "CPU: cea [default backend kernel]\n"
          "AutogradOther: fallthrough registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:35 [backend "
          "fallback]\n"
          "AutogradCPU: fallthrough registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39 [backend "
          "fallback]\n");
  }
  SUBCASE("CIA + CEANF: XLA keeps the math kernel, CPU gets CEANF") {
    const auto l = must_load("torch-1.13", {{"t.toml", def_foo() + impl("CompositeImplicitAutograd", "math") +
                                                           impl("CompositeExplicitAutogradNonFunctional", "nf")}});
    CHECK(rows(raw_table(l, "t::foo"), {"Undefined", "CPU", "XLA", "AutogradCPU"}) ==
          "Undefined: nf [default backend kernel]\n"
          "CPU: nf [default backend kernel]\n"
          "XLA: math [math kernel]\n"
          "AutogradCPU: math [math kernel]\n");
  }
  SUBCASE("a Dense kernel counts as a backend kernel for AutogradCPU (B.7)") {
    const auto l = must_load("torch-1.13", {{"t.toml", def_foo() + impl("CompositeImplicitAutograd", "math") +
                                                           impl("Dense", "dense") + impl("Autograd", "ag")}});
    CHECK(rows(raw_table(l, "t::foo"), {"CPU", "AutogradCPU", "AutogradHIP"}) ==
          "CPU: math [math kernel]\n"
          "AutogradCPU: ag [autograd kernel]\n"
          "AutogradHIP: math [math kernel]\n");  // getBackendKeySetFromAutograd(AutogradHIP) is empty
  }
  SUBCASE("the nested kernel fills AutogradNestedTensor even with NestedTensorCPU kernels") {
    const auto l =
        must_load("torch-1.13", {{"t.toml", def_foo() + impl("CompositeImplicitAutogradNestedTensor", "nested") +
                                                impl("NestedTensorCPU", "ntcpu")}});
    CHECK(rows(raw_table(l, "t::foo"), {"NestedTensorCPU", "NestedTensorCUDA", "AutogradNestedTensor"}) ==
          "NestedTensorCPU: ntcpu [kernel]\n"
          "NestedTensorCUDA: nested [nested kernel]\n"
          "AutogradNestedTensor: nested [nested kernel]\n");
  }
  SUBCASE("main: FuncTorchBatchedDecomposition gives a batched kernel") {
    const auto l = must_load("torch-main", {{"t.toml", def_foo() + impl("FuncTorchBatchedDecomposition", "b")}});
    CHECK(rows(raw_table(l, "t::foo"), {"FuncTorchBatched"}) == "FuncTorchBatched: b [batched kernel]\n");
  }
}

TEST_CASE("catch-all registrations are stored as CompositeImplicitAutograd (B.6)") {
  const auto l = must_load("torch-1.13", {{"t.toml", def_foo() + "[[impl]]\nop = \"foo\"\nkernel = \"any\"\n"}});
  CHECK(rows(raw_registrations(l, "t::foo"), {"CompositeImplicitAutograd[alias]"}) ==
        "CompositeImplicitAutograd[alias]: any :: (none) [ boxed unboxed ]\n");
  CHECK(rows(raw_table(l, "t::foo"), {"Undefined"}) == "Undefined: any [math kernel]\n");
}

TEST_CASE("the table does not depend on registration order") {
  const std::string a = impl("CompositeImplicitAutograd", "math"), b = impl("SparseCPU", "sp"),
                    c = impl("CompositeExplicitAutograd", "cea"), d = impl("AutogradCPU", "acpu");
  const auto l1 = must_load("torch-1.13", {{"t.toml", def_foo() + a + b + c + d}});
  const auto l2 = must_load("torch-1.13", {{"t.toml", def_foo() + d + c + b + a}});
  CHECK(raw_table(l1, "t::foo") == raw_table(l2, "t::foo"));
}

TEST_CASE("the explain trace agrees with the computed entry for every key") {
  const auto l = must_load("torch-1.13",
                           {{"t.toml", def_foo() + impl("CompositeImplicitAutograd", "math") + impl("SparseCPU", "sp") +
                                           impl("CPU", "cpu") + impl("CompositeExplicitAutogradNonFunctional", "nf") +
                                           impl("Autograd", "ag") + impl("FuncTorchBatched", "b")}});
  const Resolver r(l.registry);
  Resolver::OpView v;
  r.prepare(*l.registry.find("t::foo"), v);
  const auto& keys = l.registry.profile().runtime_keys();
  for (std::size_t slot = 0; slot < keys.size(); ++slot) {
    CAPTURE(l.registry.profile().name_of(keys[slot]));
    Trace trace;
    const Entry traced = r.compute(v, slot, &trace);
    const Entry plain = r.compute(v, slot);
    CHECK(traced.why == plain.why);
    CHECK(traced.debug() == plain.debug());
    std::size_t taken = 0;
    for (const auto& s : trace) taken += s.taken ? 1 : 0;
    CHECK(taken == (plain.valid() ? 1u : 0u));
    REQUIRE_FALSE(trace.empty());
    if (plain.valid()) CHECK(trace.back().taken);  // the walk stops at the step that decides
  }
}

TEST_CASE("resolver: a key without a table row resolves to the missing entry") {
  const auto l = must_load("torch-main", {{"a.toml",
                                           "namespace = \"t\"\n[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n"
                                           "dispatch = { CompositeImplicitAutograd = \"m\" }\n"}});
  const Resolver r(l.registry);
  const Profile& p = l.registry.profile();
  for (const char* k : {"Autograd", "CompositeImplicitAutograd", "Dense", "AutogradFunctionality"}) {
    CAPTURE(k);
    CHECK(r.compute(*l.registry.find("t::foo"), *p.find(k)).why == Provenance::Missing);
  }
}

}  // namespace dt::test
