// The loader: the input contract, its errors (FILE:LINE:COL), and the
// registrations PyTorch refuses (spec F), with every location involved.
#include "helpers.hpp"

namespace dt::test {
namespace {

std::string error_of(const Files& files, const std::string& prof = "torch-main") {
  auto r = load_files(prof, files);
  REQUIRE_MESSAGE(!r.has_value(), "expected an error");
  return format(r.error());
}

const std::string kDef = "namespace = \"t\"\n[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n";

}  // namespace

TEST_CASE("input errors name the file, line and column") {
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nkernal = \"k\"\n"}}) ==
        "a.toml:7:1: error: unknown field 'kernal' in an [[impl]] entry (did you mean 'kernel'?)\n");
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CPUU\"\nkernel = \"k\"\n"}}) ==
        "a.toml:6:7: error: unknown dispatch key 'CPUU' (did you mean 'CPU'?)\n");
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

TEST_CASE("schema errors point into the file, through escapes, multi-line strings and UTF-8") {
  const std::string head = "namespace = \"t\"\n[[def]]\n";
  const auto at = [&](const std::string& schema_line) {
    const std::string e = error_of({{"a.toml", head + schema_line}});
    return e.substr(0, e.find(": error: malformed schema: unknown type 'Tensr'"));
  };
  CHECK(at(R"(schema = "f(str r=\"a\", Tensr x) -> Tensor")"
           "\n") == "a.toml:3:26");  // escaped quotes
  CHECK(at(R"(schema = "f(str r=\"\u00e9\", Tensr x) -> Tensor")"
           "\n") == "a.toml:3:31");                                                            // \u escape
  CHECK(at("schema = \"f(str r=\\\"\xc3\xa9\\\", Tensr x) -> Tensor\"\n") == "a.toml:3:26");   // é: one column
  CHECK(at("schema = \"\"\"\nf(Tensor x,\n  Tensr y) -> Tensor\"\"\"\n") == "a.toml:5:3");     // multi-line
  CHECK(at("schema = \"\"\"f(Tensor x, \\\n    Tensr y) -> Tensor\"\"\"\n") == "a.toml:4:5");  // line-ending backslash
  CHECK(at(R"(schema = 'f(str r="a", Tensr x) -> Tensor')"
           "\n") == "a.toml:3:24");                                                         // literal string
  CHECK(at("schema = \"f(Tensor x,\\tTensr y) -> Tensor\"\r\n") == "a.toml:3:24");          // \t escape, CRLF
  CHECK(at("schema = '''\r\nf(Tensor x,\r\n  Tensr y) -> Tensor'''\r\n") == "a.toml:5:3");  // literal multi-line
  CHECK(at(R"(schema = "f(str s=\"\U0001F600\", Tensr x) -> Tensor")"
           "\n") == "a.toml:3:35");  // \U escape
  // A byte order mark, with the schema on line 1.
  const std::string bom = error_of({{"a.toml",
                                     "\xEF\xBB\xBF"
                                     "def = [{ schema = \"t::f(str r=\\\"a\\\", Tensr x) -> Tensor\" }]\n"}});
  CHECK(bom.substr(0, bom.find(": error:")) == "a.toml:1:38");
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

TEST_CASE("missing files are reported") {
  auto r = load(profile("torch-main"), {"nope.toml"}, memory_reader({}), {});
  REQUIRE_FALSE(r.has_value());
  CHECK(format(r.error()) == "nope.toml: error: cannot read file: No such file or directory\n");
}

TEST_CASE("test helper rows(): lines of the given keys, last line with or without a newline") {
  CHECK(rows("CPU: a\nCUDA: b", {"CUDA"}) == "CUDA: b\n");
  CHECK(rows("CPU: a\nCUDA: b\n", {"CPU", "CUDA"}) == "CPU: a\nCUDA: b\n");
}

TEST_CASE("standard input can be named once; directories are not files") {
  // Two "-" would have two worker threads read std::cin at once.
  auto twice = load(profile("torch-main"), {"-", "a.toml", "-"}, memory_reader({{"a.toml", kDef}}), {});
  REQUIRE_FALSE(twice.has_value());
  CHECK(format(twice.error()) == "<stdin>: error: standard input ('-') can be given only once on a command line\n");
  auto dir = load(profile("torch-main"), {DT_TEST_DATA_DIR}, real_filesystem().read, {});
  REQUIRE_FALSE(dir.has_value());
  CHECK(format(dir.error()) == std::string(DT_TEST_DATA_DIR) + ": error: cannot read file: Is a directory\n");
}

TEST_CASE("defining an operator twice is refused with both locations (F.5)") {
  CHECK(error_of({{"a.toml", kDef}, {"b.toml", kDef}}) ==
        "b.toml:2:1: error: Tried to register an operator (t::foo(Tensor x) -> Tensor) with the same name and "
        "overload name multiple times. Each overload's schema should only be registered with a single call to "
        "def(). Duplicate registration: registered at b.toml:2. Original registration: registered at a.toml:2\n"
        "a.toml:2:1: note: the original definition is here\n");
}

TEST_CASE("two DEF libraries for one namespace (F.5)") {
  const std::string def = "namespace = \"t\"\nkind = \"DEF\"\n";
  CHECK(error_of({{"a.toml", def}, {"b.toml", def}})
            .find("b.toml:2:8: error: Only a single TORCH_LIBRARY can be used to register the namespace t;") == 0);
}

TEST_CASE("a DEF library for a namespace PyTorch itself owns (F.5: aten already has one)") {
  const std::string aten = "namespace = \"aten\"\nkind = \"DEF\"\n";
  // Message as torch 1.13 prints it for _dispatch_library("DEF", "aten", "").
  const std::string err = error_of({{"a.toml", aten}}, "torch-1.13");
  const std::size_t note = err.find("configs/profiles/torch-1.13.toml:");  // line: where the profile lists aten
  REQUIRE(note != std::string::npos);
  CHECK(
      err.substr(note).ends_with(": note: PyTorch itself registers the TORCH_LIBRARY block for this namespace "
                                 "(profile torch-1.13)\n"));
  CHECK(err.substr(0, note) ==
        "a.toml:2:8: error: Only a single TORCH_LIBRARY can be used to register the namespace aten; please put all "
        "of your definitions in a single TORCH_LIBRARY block.  If you were trying to specify implementations, "
        "consider using TORCH_LIBRARY_IMPL (which can be duplicated).  If you really intended to define operators "
        "for a single namespace in a distributed way, you can use TORCH_LIBRARY_FRAGMENT to explicitly indicate "
        "this.  Previous registration of TORCH_LIBRARY was registered at ./build/aten/src/ATen/RegisterSchema.cpp:6; "
        "latest registration was registered at a.toml:2\n");
  CHECK(error_of({{"a.toml", "namespace = \"quantized\"\nkind = \"DEF\"\n"}}, "torch-1.13")
            .find("was registered at ./aten/src/ATen/native/quantized/library.cpp:16; latest") != std::string::npos);
  CHECK(error_of({{"a.toml", aten}}).find("registered at <src>/build/aten/src/ATen/RegisterSchema.cpp:<n>;") !=
        std::string::npos);
  // FRAGMENT and IMPL blocks for aten are how everybody else registers into it.
  CHECK(load_files("torch-1.13", {{"a.toml", "namespace = \"aten\"\nkind = \"FRAGMENT\"\n"}}).has_value());
  CHECK(load_files("torch-main", {{"a.toml", "namespace = \"aten\"\nkind = \"IMPL\"\n"}}).has_value());
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

TEST_CASE("OnRefusal::Record collects every refusal and keeps going") {
  auto r = load_files("torch-main", {{"a.toml", kDef}, {"b.toml", kDef}, {"c.toml", kDef}}, OnRefusal::Record);
  REQUIRE(r.has_value());
  CHECK(r->refusals.size() == 2);
  CHECK(r->registry.find("t::foo") != nullptr);
}

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

TEST_CASE("dispatch shorthand registers in document order, not in key order") {
  // "CUDA, CPU" sorts before "CPU" in a TOML table; as written, CPU's second
  // kernel is the newer one and wins.
  const auto l = must_load("torch-main", {{"a.toml", kDef + "dispatch = { \"CUDA, CPU\" = \"first\", CPU = \"second\", "
                                                            "AutogradCPU = \"ag\" }\n"}});
  CHECK(rows(raw_registrations(l, "t::foo"), {"CPU", "CPU (inactive)"}) ==
        "CPU: second :: (none) [ boxed unboxed ]\nCPU (inactive): first :: (none) [ boxed unboxed ]\n");
  CHECK(rows(raw_table(l, "t::foo"), {"CPU", "CUDA"}) == "CPU: second [kernel]\nCUDA: first [kernel]\n");
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
  // c10::register_privateuse1_backend refuses in-tree device names.
  CHECK(error_of({{"a.toml", "privateuse1_backend = \"cuda\"\n"}}) ==
        "a.toml:1:23: error: Cannot register privateuse1 backend with in-tree device name: cuda\n");
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

namespace dt::test {

// Files are read, parsed and compiled on worker threads and applied in
// command-line order: results and the first error must not depend on timing
// or on the number of threads (1 = the calling thread alone).
TEST_CASE("files load in command-line order whatever the worker threads do") {
  for (const unsigned threads : {1u, 2u, 5u}) {
    CAPTURE(threads);
    auto err = [&](const Files& files) {
      auto r = load_files("torch-main", files, OnRefusal::Fail, threads);
      REQUIRE_MESSAGE(!r.has_value(), "expected an error");
      return format(r.error());
    };
    // An earlier refusal wins over a later input error.
    CHECK(err({{"a.toml", kDef}, {"b.toml", kDef}, {"c.toml", "x"}}).rfind("b.toml:2:1: error: Tried to", 0) == 0);
    CHECK(err({{"a.toml", kDef}, {"b.toml", kDef + "[[impl]]\nop = \"foo\"\nkye = \"CPU\"\n"}})
              .rfind("b.toml:2:1: error: Tried to register an operator (t::foo", 0) == 0);
    CHECK(err({{"a.toml", kDef}, {"b.toml", kDef}, {"nope.toml", ""}}).rfind("b.toml:2:1: error:", 0) == 0);
    const std::string def_block = "namespace = \"t\"\nkind = \"DEF\"\n";
    CHECK(err({{"a.toml", def_block}, {"b.toml", def_block}, {"c.toml", "x"}})
              .rfind("b.toml:2:8: error: Only a single TORCH_LIBRARY can be used to register the namespace t", 0) == 0);

    // A PrivateUse1 rename applies to the files after it.
    auto l = load_files(
        "torch-main",
        {{"a.toml", "privateuse1_backend = \"npu\"\n"},
         {"b.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"AutogradNpu\"\nkernel = \"ag\"\n"},
         {"c.toml", "namespace = \"t\"\n[[impl]]\nop = \"foo\"\ndevice_types = [\"npu\"]\nkernel = \"dev\"\n"}},
        OnRefusal::Fail, threads);
    REQUIRE(l.has_value());
    CHECK(rows(raw_table(*l, "t::foo"), {"PrivateUse1", "AutogradPrivateUse1"}) ==
          "PrivateUse1: dev [kernel]\nAutogradPrivateUse1: ag [kernel]\n");
    // The renamed device wins over an in-tree device of the same name (main's
    // c10::Device parse_type checks the PrivateUse1 name first; "cpu", "cuda",
    // ... cannot be the name at all).
    l = load_files("torch-main",
                   {{"a.toml", "privateuse1_backend = \"xla\"\n"},
                    {"b.toml", kDef + "[[impl]]\nop = \"foo\"\ndevice_types = [\"xla\"]\nkernel = \"dev\"\n"}},
                   OnRefusal::Fail, threads);
    REQUIRE(l.has_value());
    CHECK(rows(raw_table(*l, "t::foo"), {"XLA", "PrivateUse1"}) == "PrivateUse1: dev [kernel]\n");
    CHECK(err({{"a.toml", "privateuse1_backend = \"npu\"\n"},
               {"b.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"AutogradNpuu\"\nkernel = \"k\"\n"}}) ==
          "b.toml:6:7: error: unknown dispatch key 'AutogradNpuu' (did you mean 'AutogradNpu'?)\n");
    // Before the rename, the new name is unknown.
    CHECK(err({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"npu\"\nkernel = \"k\"\n"},
               {"b.toml", "privateuse1_backend = \"npu\"\n"}}) ==
          "a.toml:6:7: error: unknown dispatch key 'npu' (did you mean 'CPU'?)\n");

    // Refusals are recorded in order, across many files (more than the
    // window of files compiled ahead).
    Files files{{"f00.toml", kDef}};
    std::vector<std::string> want;
    for (int i = 1; i < 40; ++i) {
      const std::string name = fmt::format("f{:02}.toml", i);
      if (i % 3 == 0) {
        files.emplace_back(name, kDef);  // defined again: refused by the registry
        want.push_back(name + ":2:1 duplicate-def");
      } else if (i % 3 == 1) {
        files.emplace_back(name, "namespace = \"t\"\nkind = \"IMPL\"\n[[def]]\nschema = \"bar(Tensor x) -> Tensor\"\n");
        want.push_back(name + ":3:1 library-kind");  // refused while compiling the file
      } else {
        files.emplace_back(name, fmt::format("namespace = \"t\"\n[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nkernel = "
                                             "\"k{}\"\n",
                                             i));
      }
    }
    auto r = load_files("torch-main", files, OnRefusal::Record, threads);
    REQUIRE(r.has_value());
    std::vector<std::string> where;
    for (const auto& d : r->refusals) where.push_back(to_string(d.where) + " " + d.code);
    CHECK(where == want);
    // The newest CPU kernel wins; main warns once for all operators.
    CHECK(rows(raw_table(*r, "t::foo"), {"CPU"}) == "CPU: k38 [kernel]\n");
    CHECK(r->registry.warnings().size() == 1);
  }
}

}  // namespace dt::test
