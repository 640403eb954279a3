// preprocess_cpp: directives, conditions, includes, macros as the reader sees them.
#include "readers/cpp_preprocessor.hpp"

#include <map>

#include "helpers.hpp"

namespace dt::test {

namespace {

struct Pp {
  std::map<std::string, std::string> files;
  CppOptions options;
  FileSystem fs;
  Pp() {
    fs = memory_filesystem(files);
    options.fs = &fs;
  }
  CppScan run(const std::string& name, const std::string& text, const std::string& profile_name = "torch-2.14") {
    files[name] = text;
    auto s = preprocess_cpp(profile(profile_name), name, files[name], options, true);
    REQUIRE_MESSAGE(s.has_value(), (s ? "" : format(s.error())));
    return std::move(*s);
  }
};

// The tokens as text, one space apart.
std::string spelled(const CppScan& s) {
  std::string out;
  for (const CppToken& t : s.tokens) {
    if (!out.empty()) out += ' ';
    out += t.kind == CppToken::Kind::String ? "\"" + t.value + "\"" : std::string(t.text);
  }
  return out;
}

}  // namespace

TEST_CASE("preprocess_cpp: object and function-like macros, # and ##, rescanning") {
  Pp p;
  const CppScan s = p.run("a.cpp",
                          "#define N 3\n"
                          "#define STR(x) #x\n"
                          "#define CAT(a, b) a##b\n"
                          "#define TWICE(x) x x\n"
                          "#define SELF SELF + 1\n"
                          "N STR(a  \"b\" c) CAT(foo, N) TWICE(N) SELF\n");
  CHECK(spelled(s) == "3 \"a \"b\" c\" fooN 3 3 SELF + 1");
}

TEST_CASE("preprocess_cpp: variadic macros, __VA_OPT__, GNU comma elision") {
  Pp p;
  const CppScan s = p.run("a.cpp",
                          "#define F(a, ...) g(a, __VA_ARGS__)\n"
                          "#define G(a, ...) g(a __VA_OPT__(,) __VA_ARGS__)\n"
                          "#define H(fmt, args...) h(fmt, ## args)\n"
                          "F(1, 2, 3) G(1) G(1, 2) H(x) H(x, y)\n");
  CHECK(spelled(s) == "g ( 1 , 2 , 3 ) g ( 1 ) g ( 1 , 2 ) h ( x ) h ( x , y )");
}

TEST_CASE("preprocess_cpp: a macro's tokens are located at the outermost invocation, __LINE__ too") {
  Pp p;
  const CppScan s = p.run("a.cpp",
                          "#define INNER(x) x.impl(\"f\", __LINE__)\n"
                          "#define OUTER(x) INNER(x)\n"
                          "\n"
                          "OUTER(\n"
                          "  m);\n");
  REQUIRE(s.tokens.size() == 9);
  CHECK(s.tokens[0].text == "m");
  CHECK(s.tokens[0].line == 5);  // an argument keeps its own place
  CHECK(s.tokens[2].text == "impl");
  CHECK(s.tokens[2].line == 4);
  CHECK(s.tokens[2].col == 1);
  CHECK(s.tokens[6].text == "4");  // __LINE__: the outermost macro's line, as GCC has it
  const auto notes = s.notes(s.tokens[2]);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].message == "expanded from macro 'INNER'");
  CHECK(notes[0].where == Location{"a.cpp", 1, 9});
}

TEST_CASE("preprocess_cpp: #if, #ifdef, #elif, #else, defined, -D and -U") {
  Pp p;
  p.options.defines = {{"USE_CUDA", "1"}, {"VERSION", "12"}, {"GONE", "1"}, {"GONE", std::nullopt}};
  const CppScan s = p.run("a.cpp",
                          "#ifdef USE_CUDA\na\n#else\nb\n#endif\n"
                          "#ifndef USE_ROCM\nc\n#endif\n"
                          "#if VERSION >= 12 && defined(USE_CUDA)\nd\n#elif 1\ne\n#else\nf\n#endif\n"
                          "#if defined GONE || (0 && 1 / 0)\ng\n#endif\n"
                          "#if 0\n#if 1\nh\n#endif\n#else\ni\n#endif\n");
  CHECK(spelled(s) == "a c d i");
  // What rests on a name nothing defines is recorded (USE_ROCM); a name -U undefined (GONE) is settled.
  REQUIRE(s.conditions.size() == 1);
  CHECK(s.conditions[0].unknown == std::vector<std::string>{"USE_ROCM"});
  CHECK(s.conditions[0].taken);
}

TEST_CASE("preprocess_cpp: -D of a function-like macro, as a compiler takes -D'F(x)=body'") {
  Pp p;
  // PyTorch's generated CUDAConfig.h defines AT_CUDNN_ENABLED() so; a build is read with it as -D.
  p.options.defines = {{"AT_CUDNN_ENABLED()", "1"}, {"TWICE(x)", "x x"}};
  const CppScan s = p.run("a.cpp", "#if AT_CUDNN_ENABLED()\na\n#else\nb\n#endif\nTWICE(c)\n");
  CHECK(spelled(s) == "a c c");
  CHECK(s.conditions.empty());
}

TEST_CASE("preprocess_cpp: an include guard is not a condition on an unknown name") {
  Pp p;
  const CppScan s = p.run("a.h", "#ifndef A_H\n#define A_H\na\n#endif\n#if !defined(B_H)\n#define B_H\nb\n#endif\n");
  CHECK(spelled(s) == "a b");
  CHECK(s.conditions.empty());
}

TEST_CASE("preprocess_cpp: a condition on a name nothing defines is 0, and recorded") {
  Pp p;
  const CppScan s = p.run("a.cpp",
                          "#if CUDA_VERSION >= 12000\na\n#else\nb\n#endif\n"
                          "#if defined(X) && X > 1\nc\n#endif\n");
  CHECK(spelled(s) == "b");
  REQUIRE(s.conditions.size() == 3);
  CHECK(s.conditions[0].unknown == std::vector<std::string>{"CUDA_VERSION"});
  CHECK_FALSE(s.conditions[0].taken);
  CHECK(s.conditions[1].taken);  // the #else
  CHECK(s.tokens[0].cond == 2);
  CHECK(s.conditions[2].unknown == std::vector<std::string>{"X"});  // defined(X): 0, and recorded
  CHECK_FALSE(s.conditions[2].taken);
}

TEST_CASE("preprocess_cpp: a registration in a group skipped for an undefined name is said not read") {
  Pp p;
  const CppScan s = p.run("a.cpp", "#if TORCH_VERSION_MAJOR > 1\nTORCH_LIBRARY(x, m) {}\n#endif\n#ifdef USE_ROCM\nTORCH_LIBRARY(y, m) {}\n#endif\n");
  CHECK(s.tokens.empty());
  REQUIRE(s.warnings.size() == 2);  // #if X and #ifdef X alike: the build may define X
  CHECK(format(s.warnings[0]).find("a.cpp:2:1: warning: not read: this registration is in the #if group at line 1, "
                                   "which is not compiled because TORCH_VERSION_MAJOR is not defined here") == 0);
  CHECK(format(s.warnings[1]).find("a.cpp:5:1: warning: not read: this registration is in the #if group at line 4, "
                                   "which is not compiled because USE_ROCM is not defined here") == 0);
}

TEST_CASE(
    "preprocess_cpp: a header __has_include does not find is recorded, and said where a registration rests on it") {
  Pp p;
  const std::string text =
      "TORCH_LIBRARY(x, m) {\n#if __has_include(<cuda_fp8.h>)\n  m.def(\"fp8(Tensor x) -> Tensor\");\n#endif\n"
      "#if __has_include(\"cfg.h\") && defined(USE_X)\n  m.def(\"both(Tensor x) -> Tensor\");\n#endif\n"
      "#ifdef __has_include\n  m.def(\"always(Tensor x) -> Tensor\");\n#endif\n}\n";
  const CppScan s = p.run("a.cpp", text);
  REQUIRE(s.warnings.size() == 2);
  CHECK(format(s.warnings[0])
            .find("a.cpp:3:3: warning: not read: this registration is in the #if group at line 2, "
                  "which is not compiled because the header <cuda_fp8.h> is not found here "
                  "(__has_include takes it as 0); give its directory with -I to read it") == 0);
  CHECK(format(s.warnings[1])
            .find("a.cpp:6:3: warning: not read: this registration is in the #if group at line 5, "
                  "which is not compiled because USE_X is not defined here (a compiler takes it as "
                  "0) and the header \"cfg.h\" is not found here (__has_include takes it as 0); "
                  "define it with -D and give its directory with -I to read it") == 0);
  // #ifdef __has_include is true, as defined(__has_include) is.
  CHECK(spelled(s).find("always") != std::string::npos);
  // Found through -I: read.
  Pp q;
  q.files["inc/cuda_fp8.h"] = "";
  q.options.include_dirs = {"inc"};
  const CppScan found = q.run("a.cpp", text);
  CHECK(spelled(found).find("fp8(Tensor x)") != std::string::npos);
  CHECK(found.warnings.size() == 1);
}

TEST_CASE("preprocess_cpp: a macro whose arguments do not close is said not expanded, at its name") {
  Pp p;
  // Before a directive, and at the end of the file (found by fuzzing: the warning had no line there).
  const CppScan s = p.run("a.cpp", "#define F(x) x\nint a;\n  F(1,\n#define G 2\nint b; F(2\n");
  REQUIRE(s.warnings.size() == 2);
  CHECK(format(s.warnings[0]).find("a.cpp:3:3: warning: the arguments of macro 'F' go on past this preprocessor line") == 0);
  CHECK(format(s.warnings[1]).find("a.cpp:5:8: warning: the arguments of macro 'F' go on past this preprocessor line") == 0);
  CHECK(spelled(s) == "int a ; F ( 1 , int b ; F ( 2");
}

TEST_CASE("preprocess_cpp: the defs of a group not read are recorded with their group's warning") {
  Pp p;
  const CppScan s = p.run("a.cpp",
                          "TORCH_LIBRARY(x, m) {\n#ifdef USE_ROCM\n  m.impl(\"a\", f);\n  m.def(\"rocm_only(Tensor x) -> "
                          "Tensor\");\n  m.def(\"ns2::other\", g);\n#endif\n}\n");
  REQUIRE(s.warnings.size() == 1);
  REQUIRE(s.unread_defs.size() == 2);
  CHECK(s.unread_defs[0].name == "rocm_only");
  CHECK(s.unread_defs[0].warning == 0);
  CHECK(s.unread_defs[0].at == Location{"a.cpp", 4, 9});
  CHECK(s.unread_defs[1].name == "ns2::other");
}

TEST_CASE("preprocess_cpp: #include \"...\" from the file's directory and -I, <...> from -I only, #pragma once") {
  Pp p;
  p.files["src/ops.h"] = "#pragma once\n#define REG(m) m.def(\"f(Tensor x) -> Tensor\")\nint declared;\n";
  p.files["inc/lib/macros.h"] = "#define NS mylib\n";
  p.options.include_dirs = {"inc"};
  const CppScan s = p.run("src/a.cpp",
                          "#include \"ops.h\"\n#include \"ops.h\"\n#include <lib/macros.h>\n#include <vector>\n"
                          "#include \"missing.h\"\n#include <torch/library.h>\nNS REG(m);\n");
  CHECK(spelled(s) == "int declared ; mylib m . def ( \"f(Tensor x) -> Tensor\" ) ;");
  REQUIRE(s.files.size() == 3);
  CHECK(s.files[1] == "src/ops.h");
  CHECK(s.files[2] == "inc/lib/macros.h");
  CHECK(s.tokens[0].file == 1);
  REQUIRE(s.missing_includes.size() == 2);  // <vector> and "missing.h"; PyTorch's own headers are never read
  CHECK(s.missing_includes[0].name == "<vector>");
  CHECK(s.missing_includes[1].name == "\"missing.h\"");
}

TEST_CASE("preprocess_cpp: includes nested too deep are an error, not a crash") {
  Pp p;
  p.files["loop.h"] = "#include \"loop.h\"\n";
  p.files["a.cpp"] = "#include \"loop.h\"\n";
  auto s = preprocess_cpp(profile("torch-2.14"), "a.cpp", p.files["a.cpp"], p.options, true);
  REQUIRE(!s);
  CHECK(s.error().message.find("#include nested deeper than 64 files") == 0);
}

TEST_CASE("preprocess_cpp: macros that grow without end stop at the bound") {
  Pp p;
  // A bound of 100,000 tokens here (the default's 4 M takes seconds,
  // minutes under the sanitizers; the default itself: hostile.cpp-macro-growth).
  p.options.max_expanded_tokens = 100'000;
  std::string text = "#define A0 x x\n";
  for (int i = 1; i < 30; ++i) text += fmt::format("#define A{} A{} A{}\n", i, i - 1, i - 1);
  text += "A29\n";
  p.files["a.cpp"] = text;
  auto s = preprocess_cpp(profile("torch-2.14"), "a.cpp", p.files["a.cpp"], p.options, true);
  REQUIRE(!s);
  CHECK(s.error().message.find("makes more than 100000 tokens") != std::string::npos);
}

TEST_CASE("preprocess_cpp: the block macros stay for the reader, their namespace as the release stringizes it") {
  Pp p;
  p.options.defines = {{"TORCH_EXTENSION_NAME", "_C"}};
  const std::string src = "TORCH_LIBRARY(TORCH_EXTENSION_NAME, m) {}\nTORCH_LIBRARY_FRAGMENT(TORCH_EXTENSION_NAME, m) {}\n";
  // torch 2.14: C10_STRINGIZE(ns) expands it; 2.6: #ns does not (but FRAGMENT passes it on first).
  CHECK(spelled(p.run("a.cpp", src, "torch-2.14")) ==
        "TORCH_LIBRARY ( _C , m ) { } TORCH_LIBRARY_FRAGMENT ( _C , m ) { }");
  CHECK(spelled(p.run("b.cpp", src, "torch-2.6")) ==
        "TORCH_LIBRARY ( TORCH_EXTENSION_NAME , m ) { } TORCH_LIBRARY_FRAGMENT ( _C , m ) { }");
}

TEST_CASE("preprocess_cpp: autocast's KERNEL macros of the release's prelude expand to m.impl") {
  Pp p;
  const CppScan s = p.run("a.cpp", "KERNEL_CUDA(mm, lower_precision_fp)\n");
  const std::string t = spelled(s);
  CHECK(t.find("m . impl ( TORCH_SELECTIVE_NAME ( \"aten::mm\" ) , & :: at :: autocast :: WrapFunction <") == 0);
  CHECK(t.find("c10 :: DeviceType :: CUDA") != std::string::npos);
}

TEST_CASE("preprocess_cpp: adjacent literals are joined after macros") {
  Pp p;
  const CppScan s = p.run("a.cpp", "#define OP(n) \"op_\" #n \"(Tensor x) -> Tensor\"\nOP(8) \"a\" \"b\"\n");
  REQUIRE(s.tokens.size() == 1);
  CHECK(s.tokens[0].value == "op_8(Tensor x) -> Tensorab");
}

TEST_CASE("preprocess_cpp: a file that cannot start a block keeps no token") {
  Pp p;
  p.files["a.cpp"] = "#define X 1\nint f() { return X; }\n";
  auto s = preprocess_cpp(profile("torch-2.14"), "a.cpp", p.files["a.cpp"], p.options);
  REQUIRE(s);
  CHECK(s->tokens.empty());
  p.files["b.h"] = "#define REG TORCH_LIBRARY(b, m)\n";
  p.files["b.cpp"] = "#include \"b.h\"\nREG {}\n";
  auto b = preprocess_cpp(profile("torch-2.14"), "b.cpp", p.files["b.cpp"], p.options);
  REQUIRE(b);
  CHECK(spelled(*b) == "TORCH_LIBRARY ( b , m ) { }");
}

TEST_CASE("preprocess_cpp: an included file outside the roots is never read, as a header not found") {
  Pp p;
  p.files["/etc/secret.h"] = "#define LEAK 1\n";
  p.files["../up.h"] = "#define LEAK 1\n";
  p.files["inc/ok.h"] = "#define OK 1\n";
  p.options.include_dirs = {"inc"};
  const CppScan s =
      p.run("src/a.cpp", "#include \"/etc/secret.h\"\n#include \"../../up.h\"\n#include <ok.h>\nLEAK OK\n");
  CHECK(spelled(s) == "LEAK 1");  // only the header below a root was read
  CHECK(s.warnings.empty());
  REQUIRE(s.missing_includes.size() == 2);
}

}  // namespace dt::test
