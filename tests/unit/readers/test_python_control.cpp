// The Python reader's control flow (python_control.cpp): conditions decided
// or read in every branch with warnings and joins, loops unrolled, try /
// except.
#include "python_reader_helpers.hpp"

namespace dt::test {

namespace {

Blocks read(std::string_view text, const char* prof = "torch-2.14") { return read_py(text, prof); }

std::vector<std::string> names(const Blocks& b) { return entry_names(b); }

}  // namespace

TEST_CASE("control: decided conditions take one branch, silently") {
  const Blocks b = read(
      "import torch\nfrom typing import TYPE_CHECKING\nlib = torch.library.Library('m', 'FRAGMENT')\n"
      "if TYPE_CHECKING:\n    lib.define('typing(Tensor x) -> Tensor')\n"
      "elif __name__ == '__main__':\n    lib.define('main(Tensor x) -> Tensor')\n"
      "else:\n    lib.define('real(Tensor x) -> Tensor')\n");
  CHECK(b.warnings.empty());
  CHECK(names(b) == std::vector<std::string>{"real"});
}

TEST_CASE("control: an undecided condition reads every branch, each registration warned at its site") {
  const Blocks b = read(
      "import torch\nlib = torch.library.Library('m', 'FRAGMENT')\n"
      "if hasattr(torch.ops.m, 'a'):\n    lib.define('a(Tensor x) -> Tensor')\n"
      "    key = 'CPU'\n"
      "else:\n    lib.define('b(Tensor x) -> Tensor')\n"
      "    key = 'CUDA'\n"
      "lib.impl('a', lambda x: x, key)\n"
      "if is_cuda():\n    lib.define('c(Tensor x) -> Tensor')\n"
      "else:\n    lib.define('c(Tensor x) -> Tensor')\n");
  CHECK(names(b) == std::vector<std::string>{"a", "b", "c"});
  REQUIRE(b.warnings.size() == 5);
  CHECK(b.warnings[0].where.line == 4);
  CHECK(b.warnings[0].message.find("depends at run time on the condition `hasattr(torch.ops.m, 'a')`") !=
        std::string::npos);
  CHECK(b.warnings[0].op == "m::a");
  CHECK(b.warnings[1].where.line == 7);
  // key differs between the branches: the impl is not read.
  CHECK(b.warnings[2].where.line == 9);
  CHECK(b.warnings[2].message.find("dispatch key") != std::string::npos);
  // The same operator defined in both branches: read once, the second warned.
  CHECK(b.warnings[3].where.line == 11);
  CHECK(b.warnings[4].where.line == 13);
  CHECK(b.warnings[4].message.find("a second definition of m::c") != std::string::npos);
}

TEST_CASE("control: loops over known values are unrolled, try bodies read, except clauses warned") {
  const Blocks b = read(
      "import torch\nlib = torch.library.Library('m', 'IMPL', 'Meta')\n"
      "for n in range(1, 3):\n    lib.impl(f'op_{n}bit', lambda x: x)\n"
      "for name, key in [('p', 'CPU'), ('q', 'CUDA')]:\n    lib.impl(name, lambda x: x, key)\n"
      "    if name == 'q':\n        break\n"
      "else:\n    lib.impl('never', lambda x: x)\n"
      "try:\n    lib.impl('t', lambda x: x)\nexcept AttributeError:\n    lib.impl('u', lambda x: x)\n"
      "with torch.no_grad():\n    lib.impl('w', lambda x: x)\n");
  CHECK(names(b) == std::vector<std::string>{"op_1bit@<none>", "op_2bit@<none>", "p@CPU", "q@CUDA", "t@<none>",
                                             "w@<none>"});
  REQUIRE(b.warnings.size() == 2);
  CHECK(b.warnings[0].where.line == 12);
  CHECK(b.warnings[0].message.find("the try block at /src/ops.py:11 raising nothing") != std::string::npos);
  CHECK(b.warnings[1].where.line == 14);
  CHECK(b.warnings[1].message.find("except clause") != std::string::npos);
}

}  // namespace dt::test
