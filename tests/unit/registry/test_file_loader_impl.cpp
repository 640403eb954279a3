// FileLoader: [[impl]] entries on keys, key lists and device types.
#include "helpers.hpp"

namespace dt::test {

TEST_CASE("keys, keys lists, device types, dispatch shorthand") {
  const auto l = must_load(
      "torch-main",
      {{"a.toml",
        kDef + "dispatch = { \"CUDA, HIP\" = \"gpu\", CPU = \"cpu\" }\n"
               "[[impl]]\nop = \"foo\"\ndevice_types = [\"meta\", \"default\"]\nkernel = \"py\"\nboxed_only = true\n"
               "[[impl]]\nop = \"t::foo\"\nkeys = [\"XLA\", \"Lazy\"]\nfallthrough = true\n"}});
  const std::string reg = raw_registrations(l, "t::foo");
  CHECK(reg ==
        "name: t::foo\n"
        "schema: t::foo(Tensor x) -> Tensor\n"
        "debug: registered at a.toml:2\n"
        "alias analysis kind: FROM_SCHEMA\n"
        "CPU: cpu :: (none) [ boxed unboxed ]\n"
        "CUDA: gpu :: (none) [ boxed unboxed ]\n"
        "HIP: gpu :: (none) [ boxed unboxed ]\n"
        "XLA: registered at a.toml:10 :: (none) [ fallthrough boxed ]\n"
        "Lazy: registered at a.toml:10 :: (none) [ fallthrough boxed ]\n"
        "Meta: py :: (none) [ boxed ]\n"
        "CompositeExplicitAutograd[alias]: py :: (none) [ boxed ]\n");
  CHECK(rows(raw_table(l, "t::foo"), {"XLA", "MPS"}) ==
        "XLA: fallthrough registered at a.toml:10 [kernel]\n"
        "MPS: py [default backend kernel]\n");
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\ndevice_types = [\"cdua\"]\nkernel = \"k\"\n"}}) ==
        "a.toml:6:17: error: unknown device type 'cdua' (did you mean 'cuda'?)\n");
  // The device types are the profile's: torch.device parses "ort" in 1.13 only, "metal" in neither.
  const std::string ort = kDef + "[[impl]]\nop = \"foo\"\ndevice_types = [\"ort\"]\nkernel = \"k\"\n";
  CHECK(rows(raw_table(must_load("torch-1.13", {{"a.toml", ort}}), "t::foo"), {"ORT"}) == "ORT: k [kernel]\n");
  CHECK(error_of({{"a.toml", ort}}).find("a.toml:6:17: error: unknown device type 'ort'") == 0);
  for (const char* prof : {"torch-1.13", "torch-main"})
    CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\ndevice_types = [\"metal\"]\nkernel = \"k\"\n"}}, prof)
              .find("unknown device type 'metal'") != std::string::npos);
}

TEST_CASE("[[impl]]: kernels with the same signature text share one printed signature") {
  const std::string sig = "signature = \"(Tensor  _0) -> Tensor _0\"\n";
  const auto l =
      must_load("torch-main", {{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nkernel = \"a\"\n" + sig +
                                              "[[impl]]\nop = \"foo\"\nkey = \"CUDA\"\nkernel = \"b\"\n" + sig}});
  const Profile& p = l.registry.profile();
  const Operator& op = *l.registry.find("t::foo");
  const Kernel* a = op.get(*p.find("CPU"));
  const Kernel* b = op.get(*p.find("CUDA"));
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(*a->signature == "(Tensor _0) -> Tensor _0");  // printed, normalised
  CHECK(a->signature == b->signature);
}

TEST_CASE("[[impl]]: without a key, the file's dispatch_key applies, or the kernel is a catch-all") {
  const auto l =
      must_load("torch-1.13", {{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkernel = \"any\"\n"},
                               {"b.toml",
                                "namespace = \"t\"\nkind = \"IMPL\"\ndispatch_key = \"XLA\"\n[[impl]]\nop = \"foo\"\n"
                                "kernel = \"x\"\n"}});
  const Profile& p = l.registry.profile();
  const Operator& op = *l.registry.find("t::foo");
  const Kernel* any = op.get(*p.find("CompositeImplicitAutograd"));
  REQUIRE(any != nullptr);
  CHECK(any->catch_all);
  CHECK(any->debug == "any");
  CHECK(op.get(*p.find("XLA"))->debug == "x");
  CHECK_FALSE(op.get(*p.find("XLA"))->catch_all);
}

TEST_CASE("[[impl]]: what an entry must and must not contain") {
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nkey = \"CPU\"\nkernel = \"k\"\n"}}) ==
        "a.toml:4:1: error: an [[impl]] entry needs an 'op'\n");
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CPU\"\n"}}) ==
        "a.toml:4:1: error: an [[impl]] entry needs a 'kernel' (or fallthrough = true)\n");
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkeys = []\nkernel = \"k\"\n"}}) ==
        "a.toml:6:8: error: 'keys' must not be empty\n");
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\ndevice_types = []\nkernel = \"k\"\n"}}) ==
        "a.toml:6:16: error: 'device_types' must not be empty\n");
}

TEST_CASE("[[impl]] python_api: torch refuses a Meta kernel from Python on a CompositeImplicitAutograd operator") {
  const std::string def = "namespace = \"t\"\n[[def]]\nschema = \"f(Tensor x) -> Tensor\"\n";
  const std::string cia = "[[impl]]\nop = \"f\"\nkey = \"CompositeImplicitAutograd\"\nkernel = \"py\"\n";
  const auto meta = [](const std::string& op, const std::string& api) {
    return "[[impl]]\nop = \"" + op + "\"\nkey = \"Meta\"\nkernel = \"py\"\nboxed_only = true\npython_api = \"" + api +
           "\"\n";
  };
  const std::string words =
      "because it has a CompositeImplicitAutograd kernel in core. Instead we should let the operator decompose, and "
      "ensure that we have meta kernels for the base ops that it decomposes into.\n";
  // Library.impl names the operator as the call does; register_fake qualified (2.14's words).
  CHECK(error_of({{"a.toml", def + cia + meta("f", "impl")}}, "torch-2.14") ==
        "a.toml:10:7: error: We should not register a meta kernel directly to the operator 'f', " + words);
  CHECK(error_of({{"a.toml", def + cia + meta("t::f", "impl")}}, "torch-2.14").find("operator 't::f'") !=
        std::string::npos);
  CHECK(error_of({{"a.toml", def + cia + meta("f", "register_fake")}}, "torch-2.14") ==
        "a.toml:10:7: error: We should not register a meta kernel directly to the operator 't::f', " + words);
  // 2.6's register_fake has words of its own.
  CHECK(error_of({{"a.toml", def + cia + meta("f", "register_fake")}}, "torch-2.6") ==
        "a.toml:10:7: error: register_fake(...): the operator t::f already has an implementation for this device "
        "type via a pre-existing registration to DispatchKey::CompositeImplicitAutograd.CompositeImplicitAutograd "
        "operators do not need an fake impl; instead, the operator will decompose into its constituents and those "
        "can have fake impls defined on them.\n");
  // Accepted: the Meta kernel first; without python_api (C++); a profile that did not measure the words.
  const std::string cpp_meta = "[[impl]]\nop = \"f\"\nkey = \"Meta\"\nkernel = \"c\"\n";
  for (const auto& text : {def + meta("f", "impl") + cia, def + cia + cpp_meta})
    CHECK(rows(raw_table(must_load("torch-2.14", {{"a.toml", text}}), "t::f"), {"Meta"}).starts_with("Meta: "));
  CHECK(rows(raw_table(must_load("torch-main", {{"a.toml", def + cia + meta("f", "impl")}}), "t::f"), {"Meta"}) ==
        "Meta: py [kernel]\n");
  CHECK(error_of({{"a.toml", def + cia + meta("f", "fake")}}, "torch-2.14") ==
        "a.toml:13:14: error: python_api is \"impl\" (Library.impl, torch.library.impl, register_kernel), "
        "\"register_fake\" (register_fake, impl_abstract), \"register_autograd\", \"register_vmap\" or "
        "\"register_autocast\", not \"fake\"\n");
}

TEST_CASE("[[impl]] python_api: register_fake and register_autograd on an operator not defined yet") {
  const auto impl = [](const std::string& op, const std::string& key, const std::string& api) {
    return "namespace = \"t\"\n[[impl]]\nop = \"" + op + "\"\nkey = \"" + key +
           "\"\nkernel = \"py\"\nboxed_only = true\npython_api = \"" + api + "\"\n";
  };
  CHECK(error_of({{"a.toml", impl("f", "Meta", "register_fake")}}, "torch-2.14") ==
        "a.toml:4:7: error: operator t::f does not exist\n");
  CHECK(error_of({{"a.toml", impl("f.out", "Autograd", "register_autograd")}}, "torch-2.6") ==
        "a.toml:4:7: error: '_OpNamespace' 't' object has no attribute 'f'\n");
  // Defined by another file read: accepted (modules import each other, whatever the command line's order);
  // later in the same file: refused, as the import is.
  const std::string def = "[[def]]\nschema = \"f(Tensor x) -> Tensor\"\n";
  CHECK(rows(raw_table(must_load("torch-2.14", {{"a.toml", impl("f", "Meta", "register_fake")},
                                                {"b.toml", "namespace = \"t\"\n" + def}}),
                       "t::f"),
             {"Meta"}) == "Meta: py [kernel]\n");
  CHECK(error_of({{"a.toml", impl("f", "Meta", "register_fake") + def}}, "torch-2.14") ==
        "a.toml:4:7: error: operator t::f does not exist\n");
  // Library.impl / register_kernel keep a kernel of an undefined operator (c10 does).
  CHECK(rows(raw_table(must_load("torch-2.14", {{"a.toml", impl("f", "CPU", "impl")}}), "t::f"), {"CPU"}) ==
        "CPU: py [kernel]\n");
}

}  // namespace dt::test
