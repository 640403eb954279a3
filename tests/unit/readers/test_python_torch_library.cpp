// The torch.library forms (python_torch_library.cpp) through read_python:
// custom_op and the register_* functions, Library.fallback, torch.library.define,
// rename_privateuse1_backend.
#include "readers/python_reader.hpp"

#include "python_reader_helpers.hpp"

namespace dt::test {

namespace {

Blocks read(std::string_view text, const char* prof = "torch-2.14") { return read_py(text, prof); }

}  // namespace

TEST_CASE("read_python: custom_op with an inferred schema, register_* in every form") {
  const Blocks b = read(
      "import torch\nfrom typing import Optional\n"
      "@torch.library.custom_op('m::f', mutates_args=['y'], device_types='cpu')\n"
      "def f(x: torch.Tensor, y: torch.Tensor, n: Optional[int] = None) -> None:\n  pass\n"
      "@f.register_kernel('cuda')\ndef _(x, y, n=None): pass\n"
      "@f.register_fake\ndef _(x, y, n=None): pass\n"
      "torch.library.register_vmap('m::f', lambda *a: a)\n"
      "torch.library.register_autocast(f, 'cpu', torch.float16)\n");
  CHECK(b.warnings.empty());
  REQUIRE(b.blocks.size() == 1);
  const TomlEntry& e = b.blocks[0].entries.at(0);
  CHECK(e.kind == "custom_op");
  CHECK(str(e, "name") == "m::f");
  CHECK(str(e, "schema") == "(Tensor x, Tensor(a1!) y, SymInt? n=None) -> ()");
  CHECK(str(e, "mutates_args") == "y");
  CHECK(str(e, "device_types") == "cpu");
  CHECK(str(e, "register_kernel") == "cuda");
  CHECK(str(e, "register_fake") == "true");
  CHECK(str(e, "register_vmap") == "true");
  CHECK(str(e, "register_autocast") == "cpu");
}

TEST_CASE("read_python: Library.fallback, torch.library.define with and without lib=") {
  const Blocks b = read(
      "import torch\nF = torch.library.Library('_', 'IMPL')\n"
      "F.fallback(torch.library.fallthrough_kernel, 'PrivateUse3')\n"
      "torch.library.define('m::g', '(Tensor x) -> Tensor', tags=(torch.Tag.pointwise,))\n"
      "torch.library.define('m::h', '(Tensor x) -> Tensor', lib=F)\n");
  CHECK(b.warnings.empty());
  // F's block, torch.library's own Library for m::g, F's block continued (registration order kept).
  REQUIRE(b.blocks.size() == 3);
  const TomlEntry& fb = b.blocks[0].entries.at(0);
  CHECK(fb.kind == "fallback");
  CHECK(str(fb, "fallthrough") == "true");
  CHECK(str(fb, "kernel") == "registered at /src/ops.py:2");
  const TomlEntry& h = b.blocks[2].entries.at(0);
  CHECK(str(h, "name") == "m::h");
  CHECK(str(h, "debug") == "registered at /src/ops.py:2");
  CHECK(b.blocks[2].note.find("(continued)") != std::string::npos);
  const TomlEntry& g = b.blocks[1].entries.at(0);
  CHECK(str(g, "tags") == "pointwise");
  CHECK(str(g, "debug") == "registered at /usr/lib/python3/dist-packages/torch/library.py:750");
}

// The registrations' keys by the new name are checked against torch 2.6.0 and
// 2.14.1 by oracle.torch-2.*.py_reader (tests/oracle/py_modules/privateuse1.py).
TEST_CASE("read_python: rename_privateuse1_backend is a block's privateuse1_backend, device types keep the name") {
  const Blocks b = read(
      "import torch\nNAME = 'npu'\ntorch.utils.rename_privateuse1_backend(NAME)\n"
      "lib = torch.library.Library('m', 'FRAGMENT')\nlib.define('f(Tensor x) -> Tensor')\n"
      "torch.library.impl('m::f', 'npu', lambda x: x)\n");
  CHECK(b.warnings.empty());
  REQUIRE(b.blocks.size() == 3);
  REQUIRE(b.blocks[0].header.size() == 2);
  CHECK(b.blocks[0].header[1].key == "privateuse1_backend");
  CHECK(std::get<std::string>(b.blocks[0].header[1].value) == "npu");
  CHECK(b.blocks[0].at.line == 3);
  const TomlEntry& impl = b.blocks[2].entries.at(0);
  CHECK(str(impl, "device_types") == "npu");
  // A name that cannot be known: a located warning, nothing renamed, the rest read.
  const Blocks u = read(
      "import torch, os\ntorch.utils.rename_privateuse1_backend(os.environ['DEV'])\n"
      "lib = torch.library.Library('m', 'FRAGMENT')\nlib.define('f(Tensor x) -> Tensor')\n");
  REQUIRE(u.warnings.size() == 1);
  CHECK(u.warnings[0].where.line == 2);
  CHECK(u.warnings[0].message.find("rename_privateuse1_backend with a name dispatchtool does not know") !=
        std::string::npos);
  REQUIRE(u.blocks.size() == 1);
  CHECK(u.blocks[0].entries.size() == 1);
}

}  // namespace dt::test
