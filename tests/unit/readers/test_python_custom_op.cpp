// custom_op and triton_op in the Python reader (python_custom_op.cpp):
// mutates_args as a set / dict / list, tags through torch._C.Tag, dtype
// defaults as the profile's infer_schema prints them, defaults the reader
// cannot know (a warning, the op not read), the register_* methods.
#include "python_reader_helpers.hpp"

namespace dt::test {

namespace {

Blocks read(std::string_view text, const char* prof = "torch-2.14") { return read_py(text, prof); }

}  // namespace

TEST_CASE("custom_op: mutates_args set and dict, torch._C.Tag tags, triton_op") {
  const Blocks b = read(
      "import torch\nfrom torch.library import triton_op\n"
      "@torch.library.custom_op('m::s', mutates_args={'out'}, tags=[torch._C.Tag.needs_fixed_stride_order])\n"
      "def s(x: torch.Tensor, out: torch.Tensor) -> None: ...\n"
      "@torch.library.custom_op('m::d', mutates_args={})\ndef d(x: torch.Tensor) -> torch.Tensor: ...\n"
      "@triton_op('m::t', mutates_args={})\ndef t(x: torch.Tensor) -> torch.Tensor: ...\n");
  CHECK(b.warnings.empty());
  REQUIRE(b.blocks.size() == 3);
  const TomlEntry& s = b.blocks[0].entries.at(0);
  CHECK(str(s, "schema") == "(Tensor x, Tensor(a1!) out) -> ()");
  CHECK(str(s, "mutates_args") == "out");
  CHECK(str(s, "tags") == "needs_fixed_stride_order");
  CHECK(str(b.blocks[1].entries.at(0), "mutates_args") == "<none>");
  CHECK(b.blocks[2].note == "torch.library.triton_op");
  CHECK(str(b.blocks[2].entries.at(0), "schema") == "(Tensor x) -> Tensor");
}

TEST_CASE("custom_op: dtype defaults as infer_schema prints them, module constants included") {
  const Blocks b = read(
      "import torch\nE4 = torch.float8_e4m3fn\n"
      "@torch.library.custom_op('m::f', mutates_args=())\n"
      "def f(x: torch.Tensor, a: torch.dtype = torch.float, b: torch.dtype = E4, c: torch.dtype | None = torch.half,\n"
      "      dev: torch.device = torch.device('cuda', 1)) -> torch.Tensor: ...\n");
  CHECK(b.warnings.empty());
  CHECK(str(b.blocks.at(0).entries.at(0), "schema") ==
        "(Tensor x, ScalarType a=float32, ScalarType b=float8_e4m3fn, ScalarType? c=float16, Device dev=\"cuda:1\") "
        "-> Tensor");
}

TEST_CASE("custom_op: a default or an annotation the reader cannot know: a warning, the op not read, the run goes on") {
  const Blocks b = read(
      "import torch\nfrom torchao.float8.config import e4m3_dtype\n"
      "@torch.library.custom_op('m::f', mutates_args=())\n"
      "def f(x: torch.Tensor, d: torch.dtype = e4m3_dtype) -> torch.Tensor: ...\n"
      "@f.register_fake\ndef _(x, d=None): ...\n"
      "@torch.library.custom_op('m::g', mutates_args=())\ndef g(x: torch.Tensor) -> torch.Tensor: ...\n");
  REQUIRE(b.warnings.size() == 1);
  CHECK(b.warnings[0].where == Location{"/src/ops.py", 3, 2});
  CHECK(b.warnings[0].op == "m::f");
  CHECK(b.warnings[0].message.find("torchao.float8.config.e4m3_dtype") != std::string::npos);
  REQUIRE(b.blocks.size() == 1);
  CHECK(str(b.blocks[0].entries.at(0), "name") == "m::g");
}

TEST_CASE("custom_op: what torch itself refuses is an error") {
  auto a = read_python(profile("torch-2.14"), "m.py",
                       "import torch\n@torch.library.custom_op('m::f', mutates_args='x')\n"
                       "def f(x: torch.Tensor) -> None: ...\n");
  REQUIRE_FALSE(a.has_value());
  CHECK(format(a.error()).find("mutates_args must either be a sequence") != std::string::npos);
  auto b = read_python(profile("torch-2.14"), "m.py",
                       "import torch\n@torch.library.custom_op('m::f', mutates_args=None)\n"
                       "def f(x: torch.Tensor) -> None: ...\n");
  REQUIRE_FALSE(b.has_value());
  CHECK(format(b.error()).find("not iterable") != std::string::npos);
}

}  // namespace dt::test
