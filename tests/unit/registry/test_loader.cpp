// load(): reading files, standard input, applying batches in order, recording refusals.
#include "base/limits.hpp"
#include "helpers.hpp"

namespace dt::test {

TEST_CASE("missing files are reported") {
  auto r = load(profile("torch-main"), {"nope.toml"}, memory_reader({}), {});
  REQUIRE_FALSE(r.has_value());
  CHECK(format(r.error()) == "nope.toml: error: cannot read file: No such file or directory\n");
}

TEST_CASE("test helper rows(): lines of the given keys, last line with or without a newline") {
  CHECK(rows("CPU: a\nCUDA: b", {"CUDA"}) == "CUDA: b\n");
  CHECK(rows("CPU: a\nCUDA: b\n", {"CPU", "CUDA"}) == "CPU: a\nCUDA: b\n");
}

TEST_CASE("standard input can be named once, directories are not files") {
  // Two "-" would have two worker threads read std::cin at once.
  auto twice = load(profile("torch-main"), {"-", "a.toml", "-"}, memory_reader({{"a.toml", kDef}}), {});
  REQUIRE_FALSE(twice.has_value());
  CHECK(format(twice.error()) == "<stdin>: error: standard input ('-') can be given only once on a command line\n");
  auto dir = load(profile("torch-main"), {DT_TEST_DATA_DIR}, real_filesystem().read, {});
  REQUIRE_FALSE(dir.has_value());
  CHECK(format(dir.error()) == std::string(DT_TEST_DATA_DIR) + ": error: cannot read file: Is a directory\n");
}

TEST_CASE("every input error of a run is reported, in input order, not the first only") {
  // Two entries of one file, a later file, and the refusal of a block between
  // two input errors of the same file (the refusal in the file's order).
  const std::string bad = "namespace = \"t\"\n[[def]]\nschema = \"a(Tensor x -> Tensor\"\n[[def]]\n"
                          "schema = \"b(Tensor x) -> Tensor\"\n[[def]]\nschema = \"c(Tensr x) -> Tensor\"\n";
  const std::string e = error_of({{"a.toml", bad},
                                  {"b.toml", "namespace = \"u\"\n[[def]]\nschema = \"d(Tensor x) -> Tensor\"\n"
                                             "[[def]]\nschema = \"d(Tensor x) -> Tensor\"\n[[impl]]\nop = 1\n"}});
  CHECK(e.find("a.toml:3:22: error: malformed schema: expected ) but found 'arrow' here\n") == 0);
  CHECK(e.find("\na.toml:7:13: error: malformed schema: ") != std::string::npos);
  const auto dup = e.find("\nb.toml:4:1: error: Tried to register an operator (u::d(Tensor x) -> Tensor) with the "
                          "same name and overload name multiple times.");
  const auto op = e.find("\nb.toml:7:6: error: field 'op' in an [[impl]] entry must be a string, not an integer\n");
  CHECK(dup != std::string::npos);
  CHECK(op != std::string::npos);
  CHECK(dup < op);
}

TEST_CASE("the errors of one run stop at limits::kErrors, with a last one saying so") {
  std::string many = "namespace = \"t\"\n";
  for (int i = 0; i < 70; ++i) many += "[[def]]\nschema = \"a" + std::to_string(i) + "(Tensor x -> Tensor\"\n";
  auto r = load_files("torch-main", {{"a.toml", many}, {"b.toml", many}});
  REQUIRE_FALSE(r.has_value());
  REQUIRE(r.error().more.size() == limits::kErrors);  // 50 errors, then the last one
  CHECK(r.error().more.back().message == "too many errors (50): the rest of the input is not read");
  CHECK_FALSE(r.error().more.back().where.known());
  auto two = load_files("torch-main", {{"a.toml", many}, {"b.toml", many}});  // once more: the same errors
  REQUIRE_FALSE(two.has_value());
  CHECK(format(two.error()) == format(r.error()));
}

TEST_CASE("two DEF libraries for one namespace (F.5)") {
  const std::string def = "namespace = \"t\"\nkind = \"DEF\"\n";
  CHECK(error_of({{"a.toml", def}, {"b.toml", def}})
            .find("b.toml:2:8: error: Only a single TORCH_LIBRARY can be used to register the namespace t;") == 0);
  // Recorded (lint): every later DEF block names the first one, never another refused one;
  // other namespaces' and other kinds' blocks do not count.
  auto r = load_files("torch-main",
                      {{"a.toml", "namespace = \"t\"\nkind = \"FRAGMENT\"\n"},
                       {"b.toml", "namespace = \"u\"\nkind = \"DEF\"\n"},
                       {"c.toml", def},
                       {"d.toml", def},
                       {"e.toml", def}},
                      OnRefusal::Record);
  REQUIRE(r.has_value());
  REQUIRE(r->refusals.size() == 2);
  for (const Diagnostic& d : r->refusals) {
    CHECK(d.message.ends_with("Previous registration of TORCH_LIBRARY was registered at c.toml:2; latest "
                              "registration was registered at " +
                              d.where.file.str() + ":2"));
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].where.file == "c.toml");
  }
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

TEST_CASE("OnRefusal::Record collects every refusal and keeps going") {
  auto r = load_files("torch-main", {{"a.toml", kDef}, {"b.toml", kDef}, {"c.toml", kDef}}, OnRefusal::Record);
  REQUIRE(r.has_value());
  CHECK(r->refusals.size() == 2);
  CHECK(r->registry.find("t::foo") != nullptr);
}

}  // namespace dt::test

namespace dt::test {

TEST_CASE("[[block]] tables: one file holds several library blocks, each with its own kind and key") {
  const std::string two =
      "[[block]]\n"
      "namespace = \"t\"\n"
      "kind = \"DEF\"\n"
      "[[block.def]]\n"
      "schema = \"foo(Tensor x) -> Tensor\"\n"
      "[[block]]\n"
      "namespace = \"t\"\n"
      "kind = \"IMPL\"\n"
      "dispatch_key = \"CPU\"\n"
      "[[block.impl]]\n"
      "op = \"foo\"\n"
      "kernel = \"registered at a.toml:6\"\n";
  const LoadResult l = must_load("torch-2.14", {{"a.toml", two}});
  REQUIRE(l.registry.libraries().size() >= 2);
  const Library& impl = l.registry.libraries().back();
  CHECK(impl.kind == LibraryKind::Impl);
  CHECK(impl.where == Location{"a.toml", 8, 8});
  CHECK(rows(raw_registrations(l, "t::foo"), {"CPU"}) == "CPU: registered at a.toml:6 :: (none) [ boxed unboxed ]\n");
}

TEST_CASE("[[block]] tables: malformed") {
  CHECK(error_of({{"a.toml", "block = 3\n"}}) ==
        "a.toml:1:9: error: 'block' must be an array of tables ([[block]]), one per library block\n");
  CHECK(error_of({{"a.toml", "namespace = \"t\"\n[[block]]\nkind = \"DEF\"\n"}}) ==
        "a.toml:1:13: error: a file of [[block]] tables has nothing else at its top level; move 'namespace' into a "
        "[[block]]\n");
  // The second block's error stops loading; the first block's registrations happened.
  CHECK(error_of({{"a.toml", "[[block]]\nnamespace = \"t\"\n[[block]]\nkind = \"NOPE\"\n"}})
            .starts_with("a.toml:4:8: error: unknown library kind 'NOPE'"));
}

// A custom_op the Python reader cannot read (a warning that names it) and
// register_fake on it: torch may well define the operator, so the
// register_fake is not refused as "operator ... does not exist".
TEST_CASE("register_fake on an operator whose unread definition a warning names is not refused") {
  const std::string text =
      "import torch\nfrom elsewhere import Handle\n"
      "@torch.library.custom_op('t::run', mutates_args=())\n"
      "def run(x: torch.Tensor, h: Handle) -> torch.Tensor:\n    return x.clone()\n"
      "@torch.library.register_fake('t::run')\ndef _(x, h):\n    return torch.empty_like(x)\n";
  const LoadResult l = must_load("torch-2.14", {{"ops.py", text}});
  REQUIRE(l.source_warnings.size() == 1);
  CHECK(l.source_warnings[0].op == "t::run");
  CHECK(rows(raw_table(l, "t::run"), {"Meta"}).starts_with("Meta: "));
  // Without the unread definition the same register_fake is refused, as in torch.
  CHECK(error_of({{"ops.py", "import torch\n@torch.library.register_fake('t::run')\ndef _(x, h):\n    return x\n"}},
                 "torch-2.14") == "ops.py:2:2: error: operator t::run does not exist\n");
}

}  // namespace dt::test
