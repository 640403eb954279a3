// read_python: torch.library forms into the TOML contract, per release; warnings.
#include "python_reader_helpers.hpp"
#include "readers/python_reader.hpp"

namespace dt::test {

namespace {

Blocks read(std::string_view text, const char* prof = "torch-2.14") { return read_py(text, prof); }

const char* kLib =
    "import torch\n"
    "from torch.library import Library, fallthrough_kernel as ft\n"
    "NS = 'myops'\n"
    "lib = Library(NS, 'DEF')\n"
    "lib.define('foo(Tensor x) -> Tensor', tags=torch.Tag.pointwise)\n"
    "lib.impl('foo', lambda x: x, 'CPU')\n"
    "lib.impl('foo', ft, 'AutogradCPU')\n"
    "@torch.library.impl('myops::foo', ['cuda', 'default'])\n"
    "def foo_cuda(x):\n"
    "    return x\n";

}  // namespace

TEST_CASE("read_python: a Library, its define/impl, fallthrough_kernel, torch.library.impl (torch 2.14)") {
  const Blocks b = read(kLib);
  CHECK(b.warnings.empty());
  REQUIRE(b.blocks.size() == 2);
  const TomlBlock& lib = b.blocks[0];
  CHECK(lib.header[0].key == "namespace");
  CHECK(std::get<std::string>(lib.header[0].value) == "myops");
  CHECK(lib.header[0].at == Location{"/src/ops.py", 3, 7});  // the constant's value
  REQUIRE(lib.entries.size() == 3);
  CHECK(str(lib.entries[0], "schema") == "foo(Tensor x) -> Tensor");
  CHECK(str(lib.entries[0], "tags") == "pointwise");
  CHECK(str(lib.entries[0], "debug") == "registered at /src/ops.py:4");
  CHECK(str(lib.entries[1], "key") == "CPU");
  CHECK(str(lib.entries[1], "boxed_only") == "true");
  CHECK(str(lib.entries[2], "fallthrough") == "true");
  const TomlEntry& cuda = b.blocks[1].entries.at(0);
  CHECK(str(cuda, "device_types") == "cuda,default");
  CHECK(str(cuda, "kernel") == "registered at /usr/lib/python3/dist-packages/torch/library.py:940");
}

TEST_CASE("read_python: torch 2.6's debug strings") {
  const Blocks b = read(kLib, "torch-2.6");
  CHECK(str(b.blocks[0].entries[0], "debug") == "registered at /dev/null:488");
  CHECK(str(b.blocks[1].entries[0], "kernel") == "registered at /dev/null:8");  // the decorator's line
}

TEST_CASE("read_python: what cannot be read statically is a located warning, the rest is read") {
  const Blocks b = read(
      "import torch\nlib = torch.library.Library('m', 'DEF')\n"
      "def setup():\n    lib.define('a(Tensor x) -> Tensor')\n"
      "while more():\n    lib.define('w(Tensor x) -> Tensor')\n"
      "lib.define(f'{NAME}(Tensor x) -> Tensor')\n"
      "torch.library.register_fake(torch.ops.m.d, lambda x: x)\n"
      "torch.library.register_fake(name, lambda x: x)\n"
      "lib.define('d(Tensor x) -> Tensor')\n"
      "for n in names():\n    lib.define(n + '(Tensor x) -> Tensor')\n");
  REQUIRE(b.warnings.size() == 6);
  CHECK(b.warnings[0].severity == Severity::Warning);
  CHECK(b.warnings[0].where == Location{"/src/ops.py", 6, 5});  // in a while loop: not read
  CHECK(b.warnings[0].op == "w");
  CHECK(b.warnings[1].where.line == 7);  // an f-string with a name the module never binds
  CHECK(b.warnings[1].message.find("NAME") != std::string::npos);
  // An OpOverloadPacket (torch refuses it) and a computed name.
  CHECK(b.warnings[2].where.line == 8);
  CHECK(b.warnings[2].message.find("torch.library.register_fake") != std::string::npos);
  CHECK(b.warnings[3].where.line == 9);
  CHECK(b.warnings[4].where.line == 12);  // a loop over a value the reader does not know
  // A function that registers and that this file (read alone) never calls.
  CHECK(b.warnings[5].where == Location{"/src/ops.py", 4, 5});
  CHECK(b.warnings[5].message.find("in function 'setup', which is not called") != std::string::npos);
  CHECK(b.warnings[5].op == "a");
  REQUIRE(b.blocks[0].entries.size() == 1);
  CHECK(str(b.blocks[0].entries[0], "schema") == "d(Tensor x) -> Tensor");
}

TEST_CASE("read_python: register_fake on an operator custom_op did not make: a Meta kernel, as each release registers it") {
  const char* text =
      "import torch\n"
      "lib = torch.library.Library('m', 'DEF')\n"
      "lib.define('a(Tensor x) -> Tensor')\n"
      "torch.library.register_fake('m::a', lambda x: x, lib=lib)\n"
      "@torch.library.register_fake('other::b')\n"
      "def b_fake(x):\n"
      "    return x\n"
      "torch.library.register_fake(torch.ops.m.a.out, lambda x: x)\n";
  // torch 2.14: lib.impl(op, fn, "Meta") on the lib= Library, or on one torch/library.py makes.
  const Blocks b = read(text, "torch-2.14");
  CHECK(b.warnings.empty());
  REQUIRE(b.blocks.size() == 3);
  const TomlEntry& a = b.blocks[0].entries.at(1);
  CHECK(a.kind == "impl");
  CHECK(str(a, "op") == "m::a");
  CHECK(str(a, "key") == "Meta");
  CHECK(str(a, "kernel") == "registered at /src/ops.py:2");  // the lib= Library's
  CHECK(str(a, "boxed_only") == "true");
  CHECK(std::get<std::string>(b.blocks[1].header[0].value) == "other");
  CHECK(std::get<std::string>(b.blocks[1].header[1].value) == "FRAGMENT");
  const TomlEntry& fb = b.blocks[1].entries.at(0);
  CHECK(str(fb, "op") == "other::b");
  CHECK(fb.at.line == 5);
  CHECK(str(fb, "kernel") == "registered at /usr/lib/python3/dist-packages/torch/library.py:1012");
  CHECK(str(b.blocks[2].entries.at(0), "op") == "m::a.out");  // an OpOverload's _name
  // impl_abstract, register_fake's deprecated old name, is register_fake.
  const std::string abstract = std::string(text).replace(std::string(text).find("register_fake('m::a'"), 13,
                                                           "impl_abstract");
  const Blocks ba = read(abstract, "torch-2.14");
  CHECK(ba.warnings.empty());
  REQUIRE(ba.blocks.size() == 3);
  CHECK(str(ba.blocks[0].entries.at(1), "key") == "Meta");
  // torch 2.6: fake_impl's own Library, lib= or not: custom_op's fake debug string.
  const Blocks b26 = read(text, "torch-2.6");
  CHECK(b26.warnings.empty());
  REQUIRE(b26.blocks.size() == 4);
  CHECK(b26.blocks[0].entries.size() == 1);
  const TomlEntry& a26 = b26.blocks[1].entries.at(0);
  CHECK(str(a26, "op") == "m::a");
  CHECK(str(a26, "kernel") == "registered at /dev/null:198");
  CHECK(str(b26.blocks[2].entries.at(0), "kernel") == "registered at /dev/null:198");
}

TEST_CASE("read_python: 'if torch.__version__ OP \"X\"' decided with the profile's version; name aliases") {
  const char* text =
      "import torch\n"
      "if torch.__version__ >= '2.10.0':\n"
      "    wrap = torch.library.custom_op\n"
      "else:\n"
      "    def wrap(name, mutates_args):\n"
      "        return lambda f: f\n"
      "@wrap('m::f', mutates_args=())\n"
      "def f(x: torch.Tensor) -> torch.Tensor:\n"
      "    return x\n";
  const Blocks b214 = read(text, "torch-2.14");  // 2.14 >= 2.10 as versions (not as strings)
  CHECK(b214.warnings.empty());
  REQUIRE(b214.blocks.size() == 1);
  CHECK(str(b214.blocks[0].entries.at(0), "schema") == "(Tensor x) -> Tensor");
  const Blocks b26 = read(text, "torch-2.6");  // the else branch: wrap is the user's own
  CHECK(b26.blocks.empty());
}

TEST_CASE("read_python: 'from typing import *' binds typing's names (PyTorch's custom_op_db.py)") {
  const char* text =
      "import torch\n"
      "from torch import Tensor\n"
      "from typing import *  # noqa: F403\n"
      "@torch.library.custom_op('m::f', mutates_args=())\n"
      "def f(x: Tensor, s: Sequence[int], o: Optional[Tensor], u: Union[int, None]) -> Tuple[Tensor, List[Tensor]]:\n"
      "    return x\n";
  const Blocks b = read(text, "torch-2.6");
  CHECK(b.warnings.empty());
  REQUIRE(b.blocks.size() == 1);
  CHECK(str(b.blocks[0].entries.at(0), "schema") ==
        "(Tensor x, SymInt[] s, Tensor? o, SymInt? u) -> (Tensor, Tensor[])");
  // Without the star import, Tuple is a name the module never bound: the op is not read (a warning).
  auto c = read_python(profile("torch-2.6"), "m.py",
                       "import torch\n@torch.library.custom_op('m::f', mutates_args=())\n"
                       "def f(x: torch.Tensor) -> Tuple[torch.Tensor]: ...\n");
  REQUIRE(c.has_value());
  CHECK(c->blocks.empty());
  REQUIRE(c->warnings.size() == 1);
  CHECK(c->warnings[0].message.find("cannot infer its schema statically") != std::string::npos);
}

TEST_CASE("read_python: errors") {
  auto a = read_python(profile("torch-2.14"), "m.py", "x = 'open\n");
  REQUIRE_FALSE(a.has_value());
  CHECK(format(a.error()) == "m.py:1:5: error: unterminated string literal\n");
  auto b = read_python(profile("torch-1.13"), "m.py", "import torch\nlib = torch.library.Library('m', 'DEF')\n");
  REQUIRE_FALSE(b.has_value());
  CHECK(format(b.error()).starts_with("m.py:2:7: error: the Python reader knows the debug strings"));
  auto c =
      read_python(profile("torch-2.14"), "m.py",
                  "import torch\n@torch.library.custom_op('m::f', mutates_args=())\ndef f(x: complex) -> None: ...\n");
  REQUIRE_FALSE(c.has_value());
  CHECK(format(c.error()).starts_with("m.py:3:10: error: infer_schema(func): Parameter x has unsupported type"));
}

}  // namespace dt::test
