// The registry: what the dispatcher refuses or warns about when a def, a
// kernel or a fallback is registered (spec F.1, F.5-F.7).
#include "helpers.hpp"

namespace dt::test {

TEST_CASE("defining an operator twice is refused with both locations (F.5)") {
  CHECK(error_of({{"a.toml", kDef}, {"b.toml", kDef}}) ==
        "b.toml:2:1: error: Tried to register an operator (t::foo(Tensor x) -> Tensor) with the same name and "
        "overload name multiple times. Each overload's schema should only be registered with a single call to "
        "def(). Duplicate registration: registered at b.toml:2. Original registration: registered at a.toml:2\n"
        "a.toml:2:1: note: the original definition is here\n");
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

}  // namespace dt::test
