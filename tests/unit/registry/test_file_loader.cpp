// FileLoader: the input contract's top level and the library-level rules,
// errors at FILE:LINE:COL, and refusals with every location involved (spec F).
#include "helpers.hpp"

namespace dt::test {

TEST_CASE("input errors name the file, line and column") {
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nkernal = \"k\"\n"}}) ==
        "a.toml:7:1: error: unknown field 'kernal' in an [[impl]] entry (did you mean 'kernel'?)\n");
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CPUU\"\nkernel = \"k\"\n"}}) ==
        "a.toml:6:7: error: could not parse dispatch key: CPUU (did you mean 'CPU'?)\n");
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = 3\nkernel = \"k\"\n"}}) ==
        "a.toml:6:7: error: field 'key' in an [[impl]] entry must be a string, not an integer\n");
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nkeys = [\"CUDA\"]\nkernel = \"k\"\n"}}) ==
        "a.toml:7:8: error: give at most one of 'key', 'keys' and 'device_types'\n");
  CHECK(error_of({{"a.toml", "namespace = \"t\"\nkinds = \"DEF\"\n"}}) ==
        "a.toml:2:1: error: unknown field 'kinds' in the file's top level (did you mean 'kind'?)\n");
  CHECK(error_of({{"a.toml", "namespace = \"t\"\nkind = \"DEFF\"\n"}}) ==
        "a.toml:2:8: error: unknown library kind 'DEFF' (did you mean 'DEF'?); expected \"DEF\", \"IMPL\" or "
        "\"FRAGMENT\"\n");
  CHECK(error_of({{"a.toml", "namespace = \"t\"\n[[def]]\nschema = \"(Tensor x) -> Tensor\"\n"}}) ==
        "a.toml:3:10: error: a nameless schema \"(...) -> ...\" needs a 'name' field "
        "(torch.library.define(qualname, schema))\n");
  CHECK(
      error_of({{"a.toml", "namespace = \"t\"\n[[def]]\nname = \"t::foo\"\nschema = \"foo(Tensor x) -> Tensor\"\n"}}) ==
      "a.toml:4:10: error: with 'name' given, 'schema' must be nameless, like \"(Tensor x) -> Tensor\"\n");
  CHECK(error_of({{"a.toml", "[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n"}})
            .find("a.toml:2:10: error: operator name 'foo' has no namespace") == 0);
  CHECK(error_of({{"a.toml", "namespace = \"t\"\n[def]\n"}}) ==
        "a.toml:2:1: error: field 'def' in the file's top level must be an array of tables, not a table\n");
  // Control characters from the input are escaped: a NUL cannot cut the message short.
  CHECK(error_of({{"a.toml", "namespace = \"x\\u0000y\\u001b[2K\"\n"}}) ==
        "a.toml:1:13: error: invalid namespace 'x\\x00y\\x1b[2K'\n");
  // TOML syntax errors keep toml++'s description.
  CHECK(error_of({{"a.toml", "namespace = \"t\n"}}).rfind("a.toml:1:", 0) == 0);
  CHECK(error_of({{"a.toml", kDef}, {"b.toml", "x"}}).rfind("b.toml:1:", 0) == 0);
}

TEST_CASE("library-kind rules (F.7, F.8)") {
  CHECK(
      error_of({{"a.toml",
                 "namespace = \"t\"\nkind = \"IMPL\"\ndispatch_key = \"CPU\"\n[[def]]\nschema = \"foo() -> ()\"\n"}}) ==
      "a.toml:4:1: error: def(\"foo\"): Cannot define an operator inside of a TORCH_LIBRARY_IMPL block.  All def()s "
      "should be placed in the (unique) TORCH_LIBRARY block for their namespace.  (Error occurred while "
      "processing TORCH_LIBRARY_IMPL block at a.toml:2)\n");
  CHECK(error_of({{"a.toml",
                   "namespace = \"t\"\nkind = \"IMPL\"\ndispatch_key = \"CPU\"\n[[impl]]\nop = \"foo\"\nkey = "
                   "\"CUDA\"\nkernel = \"k\"\n"}}) ==
        "a.toml:6:7: error: impl(\"foo\", ...): Explicitly provided dispatch key (CUDA) is inconsistent with the "
        "dispatch key of the enclosing TORCH_LIBRARY_IMPL block (CPU).  Please declare a separate TORCH_LIBRARY_IMPL "
        "block for this dispatch key and move your impl() there.  (Error occurred while processing "
        "TORCH_LIBRARY_IMPL block at a.toml:2)\n");
  CHECK(error_of({{"a.toml", "namespace = \"t\"\n[[def]]\nschema = \"u::foo() -> ()\"\n"}})
            .find("a.toml:3:10: error: Explicitly provided namespace (u) in schema string does not match namespace of "
                  "enclosing TORCH_LIBRARY_FRAGMENT block (t).") == 0);
  CHECK(error_of({{"a.toml", "namespace = \"_\"\nkind = \"DEF\"\n"}})
            .find("a.toml:2:8: error: TORCH_LIBRARY: cannot define TORCH_LIBRARY with the wildcard namespace _") == 0);
  CHECK(error_of({{"a.toml", "namespace = \"prim\"\nkind = \"DEF\"\n"}}) ==
        "a.toml:1:13: error: ('prim', ' is a reserved namespace. Please try creating a library with another "
        "name.')\n");
  CHECK(error_of({{"a.toml", "namespace = \"t\"\nkind = \"DEF\"\n[[fallback]]\nkey = \"XLA\"\nkernel = \"f\"\n"}})
            .find("a.toml:3:1: error: fallback(...): Cannot define an operator inside of a TORCH_LIBRARY block.") == 0);
  CHECK(error_of(
            {{"a.toml", "namespace = \"t\"\nkind = \"IMPL\"\ndispatch_key = \"XLA\"\n[[fallback]]\nkernel = \"f\"\n"}})
            .find("a.toml:4:1: error: fallback(...): Fallback functions which apply to only a single namespace (you "
                  "specified t) are not supported.") == 0);
}

TEST_CASE("edge cases of impls and fallbacks, as torch 1.13 treats them") {
  // An Undefined (CatchAll) key in a keyed IMPL block means "no key": the
  // block's key applies (_dispatch_library("IMPL", ns, "CPU").impl_t_t(op,
  // "Undefined") lands on CPU).
  const auto undef = must_load("torch-1.13", {{"a.toml", kDef},
                                              {"b.toml",
                                               "namespace = \"t\"\nkind = \"IMPL\"\ndispatch_key = \"CPU\"\n"
                                               "[[impl]]\nop = \"foo\"\nkey = \"Undefined\"\nkernel = \"k\"\n"}});
  CHECK(rows(raw_registrations(undef, "t::foo"), {"CPU"}) == "CPU: k :: (none) [ boxed unboxed ]\n");
  // An empty kernel name is replaced by where it is registered (c10's debugString).
  const auto empty =
      must_load("torch-1.13", {{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CUDA\"\nkernel = \"\"\n" +
                                              "[[fallback]]\nkey = \"XLA\"\nkernel = \"\"\n"}});
  CHECK(rows(raw_table(empty, "t::foo"), {"CUDA", "XLA"}) ==
        "CUDA: registered at a.toml:4 [kernel]\nXLA: registered at a.toml:8 [backend fallback]\n");
  // A fallback on an alias key: c10::Library::_fallback moves its debug string
  // into the first runtime key's registration; the others get "registered at".
  const auto alias_fb = must_load("torch-1.13", {{"a.toml", kDef},
                                                 {"b.toml",
                                                  "[[fallback]]\nkey = "
                                                  "\"CompositeImplicitAutogradNestedTensor\"\n"
                                                  "kernel = \"fbnested\"\n"}});
  CHECK(rows(raw_table(alias_fb, "t::foo"), {"NestedTensorCPU", "NestedTensorCUDA", "AutogradNestedTensor"}) ==
        "NestedTensorCPU: fbnested [backend fallback]\nNestedTensorCUDA: registered at b.toml:1 [backend fallback]\n"
        "AutogradNestedTensor: registered at b.toml:1 [backend fallback]\n");
  // Without a custom string (C++ passes none: the debug string is the default
  // "registered at FILE:LINE"), every runtime key prints it.
  const auto plain_fb = must_load("torch-1.13", {{"a.toml", kDef},
                                                 {"b.toml",
                                                  "[[fallback]]\nkey = "
                                                  "\"CompositeImplicitAutogradNestedTensor\"\n"
                                                  "fallthrough = true\n"
                                                  "kernel = \"registered at x.cpp:9\"\n"}});
  CHECK(rows(raw_table(plain_fb, "t::foo"), {"NestedTensorCPU", "AutogradNestedTensor"}) ==
        "NestedTensorCPU: fallthrough registered at x.cpp:9 [backend fallback]\n"
        "AutogradNestedTensor: fallthrough registered at x.cpp:9 [backend fallback]\n");
  // ... which is also what a collision on a later runtime key quotes.
  CHECK(error_of({{"a.toml", "[[fallback]]\nkey = \"CUDA\"\nkernel = \"a\"\n"},
                  {"b.toml", "[[fallback]]\nkey = \"CompositeExplicitAutograd\"\nkernel = \"b\"\n"}},
                 "torch-1.13")
            .find("Tried to register multiple backend fallbacks for the same dispatch key CUDA; previous registration "
                  "a, new registration registered at b.toml:1\n") != std::string::npos);
  // A fallback on Undefined has no key: c10::Library::_fallback asserts.
  CHECK(error_of({{"a.toml", "[[fallback]]\nkey = \"Undefined\"\nfallthrough = true\n"}}, "torch-1.13")
            .find("a.toml:2:7: error: fallback(...): dispatch_key.has_value() INTERNAL ASSERT FAILED") == 0);
  // Impls in a wildcard IMPL block: undefined behaviour in c10 (torch 1.13
  // crashes on a qualified name), refused here.
  const std::string wild = "namespace = \"_\"\nkind = \"IMPL\"\ndispatch_key = \"CPU\"\n[[impl]]\nop = ";
  CHECK(error_of({{"a.toml", kDef}, {"b.toml", wild + "\"t::foo\"\nkernel = \"k\"\n"}})
            .find("b.toml:5:6: error: impl(\"t::foo\", ...): a TORCH_LIBRARY_IMPL block with the wildcard namespace _ "
                  "only takes fallbacks") == 0);
  CHECK(error_of({{"b.toml", wild + "\"foo\"\nkernel = \"k\"\n"}}).find("b.toml:5:6: error: impl(\"foo\", ...): ") ==
        0);
  // Input errors: no operator name, a dispatch entry without a key, a
  // signature on a kernel that cannot have one.
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"\"\nkey = \"CPU\"\nkernel = \"k\"\n"}}) ==
        "a.toml:5:6: error: invalid operator name ''; expected name, name.overload or ns::name.overload\n");
  CHECK(error_of({{"a.toml", kDef + "dispatch = { \"\" = \"k\" }\n"}}) ==
        "a.toml:4:14: error: dispatch entry '' names no dispatch key\n");
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nfallthrough = true\n"
                                    "signature = \"(Tensor _0) -> Tensor _0\"\n"}})
            .find("a.toml:8:13: error: 'signature' is the schema inferred from a C++ kernel; a fallthrough kernel "
                  "has none") == 0);
  // Boxed-only C++ kernels may have one (torch 1.13's Tracer kernels do).
  CHECK(load_files("torch-1.13", {{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"Tracer\"\nkernel = \"t\"\n"
                                                    "boxed_only = true\nsignature = \"(Tensor _0) -> Tensor _0\"\n"}})
            .has_value());
}

TEST_CASE("privateuse1_backend renames PrivateUse1 keys (main only)") {
  const auto l = must_load("torch-main", {{"a.toml",
                                           "namespace = \"t\"\nprivateuse1_backend = \"npu\"\n"
                                           "[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n"
                                           "dispatch = { npu = \"a\", AutogradNpu = \"b\", SparseNpu = \"c\" }\n"}});
  CHECK(rows(raw_table(l, "t::foo"), {"PrivateUse1", "AutogradPrivateUse1", "SparsePrivateUse1"}) ==
        "PrivateUse1: a [kernel]\nSparsePrivateUse1: c [kernel]\nAutogradPrivateUse1: b [kernel]\n");
  CHECK(error_of({{"a.toml", "namespace = \"t\"\nprivateuse1_backend = \"npu\"\n"}}, "torch-1.13")
            .find("a.toml:2:23: error: profile torch-1.13 has no torch.utils.rename_privateuse1_backend") == 0);
  CHECK(error_of({{"a.toml", "privateuse1_backend = \"npu\"\n"}, {"b.toml", "privateuse1_backend = \"xpu2\"\n"}})
            .find("b.toml:1:23: error: PrivateUse1 is already renamed to 'npu'") == 0);
  // c10::register_privateuse1_backend refuses in-tree device names: the same
  // six in 2.6 and 2.14 as in main (measured by tools/gen_profile.py in the
  // real builds: rename_privateuse1_backend("cuda") raises "Cannot register
  // privateuse1 backend with in-tree device name: cuda"); other device names
  // ("meta", "xla") are accepted.
  for (const char* prof : {"torch-main", "torch-2.14", "torch-2.6"})
    for (const char* name : {"cpu", "cuda", "hip", "mps", "mtia", "xpu"}) {
      INFO(prof << " " << name);
      CHECK(error_of({{"ops.toml", "namespace = \"t\"\nprivateuse1_backend = \"" + std::string(name) + "\"\n"}},
                     prof) ==
            "ops.toml:2:23: error: Cannot register privateuse1 backend with in-tree device name: " + std::string(name) +
                "\n");
    }
  for (const char* prof : {"torch-2.14", "torch-2.6"})
    for (const char* name : {"meta", "xla", "npu"})
      CHECK(load_files(prof, {{"a.toml", "privateuse1_backend = \"" + std::string(name) + "\"\n"}}).has_value());
  // A second rename is refused before the name is looked at, as c10 does
  // ("has already been set" for rename("foo") then rename("cuda")).
  CHECK(error_of({{"a.toml", "privateuse1_backend = \"npu\"\n"}, {"b.toml", "privateuse1_backend = \"cuda\"\n"}},
                 "torch-2.14")
            .find("b.toml:1:23: error: PrivateUse1 is already renamed to 'npu'") == 0);
  // PyTorch main's own spelling: the upper-cased name (parseDispatchKey's retry).
  const auto upper = must_load("torch-main", {{"a.toml",
                                               "namespace = \"t\"\nprivateuse1_backend = \"npu\"\n"
                                               "[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n"
                                               "dispatch = { NPU = \"a\", AutogradNPU = \"b\" }\n"
                                               "[[impl]]\nop = \"foo\"\ndevice_types = [\"npu\"]\nkernel = \"c\"\n"}});
  CHECK(rows(raw_registrations(upper, "t::foo"), {"PrivateUse1", "PrivateUse1 (inactive)", "AutogradPrivateUse1"}) ==
        "PrivateUse1: c :: (none) [ boxed unboxed ]\nPrivateUse1 (inactive): a :: (none) [ boxed unboxed ]\n"
        "AutogradPrivateUse1: b :: (none) [ boxed unboxed ]\n");
}

}  // namespace dt::test
