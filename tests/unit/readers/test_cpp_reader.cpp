// read_cpp: TORCH_LIBRARY blocks into the TOML contract, through the loader
// (the debug strings and inferred schemas are what torch 2.14 prints for the
// same source: tests/oracle/cpp_reader_oracle.py checks them for real).
#include "readers/cpp_reader.hpp"

#include <map>

#include "cpp_reader_helpers.hpp"

namespace dt::test {

namespace {
std::vector<std::string> warnings(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& w : read_cpp_ok(text).warnings) out.push_back(format(w));
  return out;
}
std::string toml(std::string_view text) { return render_toml(read_cpp_ok(text).blocks, "t"); }
}  // namespace

TEST_CASE("read_cpp: the forms, loaded, print what torch 2.14 prints") {
  const std::string src =
      "at::Tensor plain(const at::Tensor& x) { return x; }\n"                      // 1
      "at::Tensor with_int(const at::Tensor& x, int64_t n) { return x; }\n"        // 2
      "at::Tensor sym(const at::Tensor& x, c10::SymInt n) { return x; }\n"         // 3
      "void boxed(const c10::OperatorHandle& op, torch::jit::Stack* s) {}\n"       // 4
      "TORCH_LIBRARY(t, m) {\n"                                                    // 5
      "  m.def(\"a(Tensor x) -> Tensor\");\n"                                      // 6
      "  m.def(\"b(Tensor x, int n) -> Tensor\", &with_int);\n"                    // 7
      "  m.impl(\"a\", torch::dispatch(c10::kCUDA, TORCH_FN(plain)));\n"           // 8
      "  m.def(\"c(Tensor x, SymInt n) -> Tensor\");\n"                            // 9
      "}\n"                                                                        // 10
      "TORCH_LIBRARY_IMPL(t,\n"                                                    // 11
      "    Meta, m) {\n"                                                           // 12
      "  m.impl(\"a\", torch::CppFunction::makeFallthrough());\n"                  // 13
      "  m.impl(\"b\", torch::CppFunction::makeFromBoxedFunction<&boxed>());\n"    // 14
      "  m.impl(\"c\", sym);\n"                                                    // 15
      "  m.impl(\"t::a\", [](const at::Tensor& x) { return x; });\n"               // 16
      "}\n"
      "TORCH_LIBRARY_IMPL(_, PrivateUse2, m) { m.fallback(torch::CppFunction::makeFallthrough()); }\n";  // 18
  // The duplicate Meta kernel of t::a is a re-registration c10 accepts with a warning.
  auto r = load_files("torch-2.14", {{"ops.cpp", src}}, OnRefusal::Fail);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : format(r.error())));
  CHECK(r->source_warnings.empty());
  CHECK(raw_registrations(*r, "t::a") ==
        "name: t::a\nschema: t::a(Tensor x) -> Tensor\ndebug: registered at ops.cpp:5\nalias analysis kind: FROM_SCHEMA\n"
        "CUDA: registered at ops.cpp:5 :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
        "Meta: registered at ops.cpp:11 :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
        "Meta (inactive): registered at ops.cpp:11 :: (none) [ fallthrough boxed ]\n");
  CHECK(raw_registrations(*r, "t::b") ==
        "name: t::b\nschema: t::b(Tensor x, int n) -> Tensor\ndebug: registered at ops.cpp:5\nalias analysis kind: "
        "FROM_SCHEMA\nMeta: registered at ops.cpp:11 :: (none) [ boxed ]\n"
        "CompositeImplicitAutograd[alias]: registered at ops.cpp:5 :: (Tensor _0, int _1) -> Tensor _0 [ boxed unboxed ]\n");
  // A SymInt argument: c10 keeps only the boxed and the SymInt-unboxed entry points.
  CHECK(rows(raw_registrations(*r, "t::c"), {"Meta"}) ==
        "Meta: registered at ops.cpp:11 :: (Tensor _0, SymInt _1) -> Tensor _0 [ boxed ]\n");
  CHECK(rows(raw_table(*r, "t::c"), {"PrivateUse2"}) ==
        "PrivateUse2: fallthrough registered at ops.cpp:18 [backend fallback]\n");
}

TEST_CASE("read_cpp: def(name, fn) takes the schema c10 infers from the kernel, CONSERVATIVE") {
  const std::string src =
      "int64_t cuda_version() { return -1; }\n"                                   // 1
      "at::Tensor scaled(const at::Tensor& x, double s) { return x; }\n"          // 2
      "TORCH_LIBRARY_FRAGMENT(t, m) {\n"                                          // 3
      "  m.def(\"_cuda_version\", &cuda_version);\n"                               // 4
      "  m.def(\"scaled.out\", torch::dispatch(c10::kCPU, TORCH_FN(scaled)));\n"   // 5
      "  m.def(\"bare\");\n"                                                       // 6
      "  m.def(\"elsewhere\", &at::native::declared_in_a_header);\n"               // 7
      "}\n";
  auto r = load_files("torch-2.14", {{"ops.cpp", src}}, OnRefusal::Fail);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : format(r.error())));
  // As torchvision's _cuda_version prints in the real torch.
  CHECK(raw_registrations(*r, "t::_cuda_version") ==
        "name: t::_cuda_version\nschema: t::_cuda_version() -> int _0\ndebug: registered at ops.cpp:3\n"
        "alias analysis kind: CONSERVATIVE\n"
        "CompositeImplicitAutograd[alias]: registered at ops.cpp:3 :: () -> int _0 [ boxed unboxed ]\n");
  CHECK(raw_registrations(*r, "t::scaled.out") ==
        "name: t::scaled.out\nschema: t::scaled.out(Tensor _0, float _1) -> Tensor _0\n"
        "debug: registered at ops.cpp:3\nalias analysis kind: CONSERVATIVE\n"
        "CPU: registered at ops.cpp:3 :: (Tensor _0, float _1) -> Tensor _0 [ boxed unboxed ]\n");
  // No kernel, or one whose signature is not known: c10 has no schema to infer; not read, said where.
  const auto w = warnings(src);
  REQUIRE(w.size() == 2);
  CHECK(w[0].starts_with("ops.cpp:6:5: warning: m.def(\"bare\", ...): a name without a schema"));
  CHECK(w[1].starts_with("ops.cpp:7:5: warning: m.def(\"elsewhere\", ...)"));
}

TEST_CASE("read_cpp: a SymInt return keeps the unboxed entry point, std::array<bool, N> is bool[]") {
  // As in PyTorch 2.6's test/cpp_extensions/open_registration_extension.cpp, loaded into torch 2.14
  // (realworld oracle): only a SymInt argument makes a kernel boxed-only.
  const std::string src =
      "std::tuple<at::Tensor, c10::SymInt> f(const at::Tensor& x, std::array<bool,2> mask) { return {}; }\n"  // 1
      "TORCH_LIBRARY(t, m) { m.def(\"f(Tensor x, bool[2] mask) -> (Tensor, SymInt)\"); }\n"                  // 2
      "TORCH_LIBRARY_IMPL(t, CPU, m) { m.impl(\"f\", &f); }\n";                                              // 3
  auto r = load_files("torch-2.14", {{"ops.cpp", src}}, OnRefusal::Fail);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : format(r.error())));
  CHECK(r->source_warnings.empty());
  CHECK(rows(raw_registrations(*r, "t::f"), {"CPU"}) ==
        "CPU: registered at ops.cpp:3 :: (Tensor _0, bool[] _1) -> (Tensor _0, SymInt _1) [ boxed unboxed ]\n");
}

TEST_CASE("read_cpp: the TOML it writes, with locations in the source") {
  const Blocks b = read_cpp_ok(
      "TORCH_LIBRARY_FRAGMENT(t, m) {\n"
      "  m.def(\"x(Tensor a, \"\n"
      "        \"int n) -> Tensor\", {at::Tag::pointwise});\n"
      "  m.def(torch::schema(R\"(y() -> ())\", c10::AliasAnalysisKind::PURE_FUNCTION));\n"
      "  m.set_python_module(\"t.ops\");\n"
      "}\n"
      "TORCH_LIBRARY_IMPL(t, CatchAll, m) { m.impl(TORCH_SELECTIVE_NAME(\"t::y\"), TORCH_FN(g)); }\n"
      "STABLE_TORCH_LIBRARY_IMPL(t, CPU, m) { m.impl(\"x\", TORCH_BOX(&f)); }\n");
  REQUIRE(b.blocks.size() == 3);
  const TomlEntry& x = b.blocks[0].entries[0];
  CHECK(x.fields[0].key == "schema");
  CHECK(std::get<std::string>(x.fields[0].value) == "x(Tensor a, int n) -> Tensor");
  CHECK(x.fields[0].at.line == 2);
  CHECK(x.fields[0].at.column == 10);
  CHECK(x.fields[0].span == 12);  // "x(Tensor a, ": a column past it is in the next literal
  CHECK(b.blocks[0].note.find("set_python_module(\"t.ops\") at line 5") != std::string::npos);
  const std::string t = render_toml(b.blocks, "t");
  CHECK(t.find("tags = [\"pointwise\"]") != std::string::npos);
  CHECK(t.find("alias_analysis = \"PURE_FUNCTION\"") != std::string::npos);
  CHECK(t.find("dispatch_key = \"CPU\"") != std::string::npos);
  CHECK(b.blocks[1].header.size() == 2);  // CatchAll: no dispatch_key
  REQUIRE(b.blocks[1].entries.size() == 1);  // TORCH_SELECTIVE_NAME("...") is the literal
  CHECK(std::get<std::string>(b.blocks[1].entries[0].fields[0].value) == "t::y");
  CHECK(t.find("boxed_only = true") != std::string::npos);
}

TEST_CASE("read_cpp: an error in an array's bytes is located where the array starts") {
  // A tag whose name holds bytes that are not UTF-8: TOML refuses the
  // translation; the column is the '{', not an offset into the TOML array
  // past the end of the C++ line (found by fuzz_cpp_reader).
  const std::string src = "TORCH_LIBRARY(t, m) {\n  m.def(\"n(Tensor x) -> Tensor\", {at::Tag::p\x97y});\n}\n";
  auto r = load_files("torch-2.14", {{"ops.cpp", src}}, OnRefusal::Fail);
  REQUIRE(!r.has_value());
  CHECK(format(r.error()).starts_with("ops.cpp:2:34: error: "));
}

TEST_CASE("read_cpp: a custom class (m.class_<T>) registers no operator, and no warning") {
  const std::string src =
      "TORCH_LIBRARY(t, m) {\n"                                                       // 1
      "  m.class_<Stack>(\"Stack\").def(torch::init<>()).def(\"push\", &Stack::push);\n"  // 2
      "  auto s = m.class_<Stack>(\"Stack2\");\n"                                   // 3
      "  s.def(\"pop\", &Stack::pop);\n"                                            // 4
      "  m.def(\"f(Tensor x) -> Tensor\");\n"                                       // 5
      "  other.def(\"g\", &g);\n"                                                   // 6
      "}\n";
  const auto w = warnings(src);
  REQUIRE(w.size() == 1);  // only the handle that is neither the library's nor a class's
  CHECK(w[0].starts_with("ops.cpp:6:3: warning: other.def(...): 'other' is not a known library handle"));
  const Blocks b = read_cpp_ok(src);
  REQUIRE(b.blocks.size() == 1);
  CHECK(b.blocks[0].note ==
        "TORCH_LIBRARY; class_ Stack at line 2 (a custom class: registers no operator); class_ Stack2 at line 3 (a "
        "custom class: registers no operator)");
  REQUIRE(b.blocks[0].entries.size() == 1);
  CHECK(b.blocks[0].entries[0].kind == "def");
}

TEST_CASE("read_cpp: what it cannot read statically is a located warning, never dropped silently") {
  auto w = warnings(
      "#define REG(m) m.impl(\"a\", f)\n"                                            // 1
      "#ifdef USE_CUDA\nTORCH_LIBRARY_IMPL(t, CUDA, m) { m.impl(\"a\", f); }\n#endif\n"  // 2-4
      "TORCH_LIBRARY_IMPL(t, CPU, m) {\n"                                           // 5
      "  for (auto n : names) m.impl(n, f);\n"                                      // 6
      "  REG(m);\n"                                                                 // 7
      "  other.impl(\"a\", f);\n"                                                   // 8
      "  m.impl(name, f);\n"                                                        // 9
      "#if X\n  m.impl(\"b\", f);\n#endif\n"                                        // 10-12
      "  m.impl(\"c\", undeclared);\n"                                              // 13
      "  m.impl(\"d\", make_kernel());\n"                                           // 14
      "  m.impl(\"e\", [](MyT x) { return x; });\n"                                 // 15
      "}\n");
  // A compiler's view: REG expands (its registration is read, at its call site); USE_CUDA is not defined, so
  // its group is not compiled, nor #if X's: both said, as the build may define them.
  REQUIRE(w.size() == 9);
  CHECK(w[0].starts_with("ops.cpp:3:1: warning: not read: this registration is in the #if group at line 2, which "
                         "is not compiled because USE_CUDA is not defined here"));
  w.erase(w.begin());
  CHECK(w[0].starts_with("ops.cpp:11:3: warning: not read: this registration is in the #if group at line 10, which "
                         "is not compiled because X is not defined here"));
  CHECK(w[1].starts_with("ops.cpp:6:26: warning: m.impl(...) inside the 'for' statement at line 6: not read"));
  CHECK(w[2].starts_with("ops.cpp:7:3: warning: m.impl(\"a\", f): the kernel's C++ signature is not known (no "
                         "declaration of 'f' in this file or the headers it includes)"));
  CHECK(w[2].find("ops.cpp:1:9: note: expanded from macro 'REG'") != std::string::npos);
  CHECK(w[3].starts_with("ops.cpp:8:3: warning: other.impl(...): 'other' is not a known library handle"));
  CHECK(w[4].starts_with("ops.cpp:9:10: warning: m.impl(name, ...): the operator name is not a string literal"));
  CHECK(w[5].starts_with("ops.cpp:13:15: warning: m.impl(\"c\", undeclared): the kernel's C++ signature is not known "
                         "(no declaration of 'undeclared' in this file or the headers it includes)"));
  CHECK(
      w[6].starts_with("ops.cpp:14:15: warning: m.impl(\"d\", make_kernel()): the kernel's C++ signature is not "
                       "known (a kernel expression dispatchtool does not read): its inferred schema is left out"));
  CHECK(w[7].starts_with("ops.cpp:15:15: warning: m.impl(\"e\", [](MyT x){return x;}): the kernel's C++ signature is "
                         "not known (parameter type 'MyT'): its inferred schema is left out"));
  CHECK(toml("TORCH_LIBRARY_IMPL(t, CPU, m) { m.impl(\"e\", [](MyT x) { return x; }); }").find("op = \"e\"") !=
        std::string::npos);
}

TEST_CASE("read_cpp: a block's key that may be a macro of a header not found is said not read, not refused") {
  const std::string block =
      "at::Tensor f(const at::Tensor& x);\nTORCH_LIBRARY_IMPL(t, MY_DEVICE_KEY, m) {\n  m.impl(\"a\", f);\n}\n";
  const Blocks b = read_cpp_ok("#include \"my_config.h\"\n" + block);
  CHECK(b.blocks.empty());
  REQUIRE(b.warnings.size() == 1);
  CHECK(format(b.warnings[0])
            .starts_with("ops.cpp:3:1: warning: TORCH_LIBRARY_IMPL(..., MY_DEVICE_KEY, ...) is not read: "
                         "'MY_DEVICE_KEY' is no dispatch "
                         "key of torch-2.14 and no macro defined here (its definition may be in a header not found: "
                         "\"my_config.h\" "
                         "(line 1); give the include directories with -I or -p, or -D MY_DEVICE_KEY=KEY)"));
  // Every header found (or none of the project's missing): the key is the loader's to refuse, as a compiler would.
  const Blocks all_found = read_cpp_ok("#include <torch/library.h>\n" + block);
  CHECK(all_found.warnings.empty());
  CHECK(all_found.blocks.size() == 1);
  // A key of the profile, or a device type, is read whatever is missing.
  CHECK(
      read_cpp_ok("#include \"my_config.h\"\nTORCH_LIBRARY_IMPL(t, kCUDA, m) { m.impl(\"a\", f); }\n").blocks.size() ==
      1);
}

TEST_CASE("read_cpp: a kernel made by a helper the reader does not read is a kernel all the same, said") {
  // sglang's shape: m.impl("fwd", torch::kCUDA, make_pytorch_shim(&mha_fwd)): CUDA has a kernel.
  const Blocks b = read_cpp_ok(
      "TORCH_LIBRARY_FRAGMENT(t, m) {\n  m.def(\"fwd(Tensor q) -> Tensor\");\n"
      "  m.impl(\"fwd\", torch::kCUDA, make_shim(&fwd_cuda));\n  m.fallback(make_boxed());\n}\n");
  REQUIRE(b.blocks.size() == 1);
  REQUIRE(b.blocks[0].entries.size() == 2);
  CHECK(b.blocks[0].entries[1].kind == "impl");
  CHECK(std::get<std::string>(b.blocks[0].entries[1].fields.at(1).value) == "CUDA");
  REQUIRE(b.warnings.size() == 2);
  CHECK(format(b.warnings[0])
            .starts_with("ops.cpp:3:31: warning: m.impl(\"fwd\", make_shim(&fwd_cuda)): the kernel's "
                         "C++ signature is not known (a kernel expression dispatchtool does not "
                         "read): its inferred schema is left out"));
  // A fallback's kernel must be boxed: what the expression makes is not known, and it is not read.
  CHECK(format(b.warnings[1])
            .starts_with("ops.cpp:4:14: warning: m.fallback(make_boxed()): a kernel expression dispatchtool does not "
                         "read: not read"));
}

TEST_CASE("read_cpp: a file that is not C++ enough is a located error") {
  auto b = read_cpp(profile("torch-2.14"), "ops.cpp", "TORCH_LIBRARY(t, m) {\n  m.def(\"a(Tensor x) -> Tensor);\n}\n");
  REQUIRE(!b.has_value());
  CHECK(format(b.error()) == "ops.cpp:2:9: error: unterminated string literal\n");
  CHECK(toml("int main() { return 0; }").empty() == false);  // no block: an empty translation, no error
}

TEST_CASE("read_cpp: PyTorch's autocast KERNEL macros come from the profile's prelude, else a warning") {
  const std::string src =
      "at::Tensor logit(const at::Tensor& x) { return x; }\n"
      "TORCH_LIBRARY_IMPL(aten, AutocastCPU, m) {\n"
      "  KERNEL_CPU(logit, fp32)\n"
      "}\n";
  // torch-1.13 has no built-in prelude: the call is not read, and said so where it is.
  auto none = read_cpp(profile("torch-1.13"), "ops.cpp", src);
  REQUIRE(none.has_value());
  REQUIRE(none->warnings.size() == 1);
  CHECK(format(none->warnings[0]) ==
        "ops.cpp:3:3: warning: KERNEL_CPU(...) is one of PyTorch's autocast registration macros, which profile "
        "'torch-1.13' does not define (it has no C++ prelude: dispatchtool-export writes cpp_prelude.h beside "
        "profile.toml when torch's C++ headers and a C++ compiler are at hand): not read\n");
  CHECK(render_toml(none->blocks, "t").find("[[impl]]") == std::string::npos);
  // A project's own macro of that shape, its header not read: said so, not blamed on the profile.
  auto project = read_cpp(profile("torch-2.14"), "ops.cpp",
                          "TORCH_LIBRARY_IMPL(aten, AutocastXLA, m) {\n  KERNEL_XLA(abs, fp32)\n}\n");
  REQUIRE(project.has_value());
  REQUIRE(project->warnings.size() == 1);
  CHECK(format(project->warnings[0]) ==
        "ops.cpp:2:3: warning: KERNEL_XLA(...) is a macro that no source read defines (a project's own autocast "
        "macro? give the folder of its header with -I, or the build's flags with -p/--compile-commands): not read\n");
  // A profile directory's cpp_prelude.h defines it: expanded, registered.
  std::string text;
  for (const auto& e : embedded_profiles())
    if (std::string_view(e.name) == "torch-2.14") text = std::string(e.text);
  std::map<std::string, std::string> files{{"exp/profile.toml", text},
                                           {"exp/cpp_prelude.h", "#define KERNEL_CPU(op, policy) m.impl(#op, &op);\n"}};
  FileSystem fs = memory_filesystem(files);
  auto p = load_profile("exp", fs.read, &fs);
  REQUIRE_MESSAGE(p.has_value(), (p ? "" : format(p.error())));
  auto got = read_cpp(*p, "ops.cpp", src);
  REQUIRE(got.has_value());
  CHECK(got->warnings.empty());
  const std::string toml = render_toml(got->blocks, "t");
  CHECK(toml.find("dispatch_key = \"AutocastCPU\"") != std::string::npos);
  CHECK(toml.find("[[impl]]\nop = \"logit\"\nkernel = \"registered at ops.cpp:2\"") != std::string::npos);
}

}  // namespace dt::test
