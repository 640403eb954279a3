// The Python reader's statements (python_exec.cpp): with, classes, imports,
// assignments and unpacking, one-line bodies.
#include "python_reader_helpers.hpp"

namespace dt::test {

namespace {

Blocks read(std::string_view text, const char* prof = "torch-2.14") { return read_py(text, prof); }

std::vector<std::string> names(const Blocks& b) { return entry_names(b); }

}  // namespace

TEST_CASE("exec: names bound by imports, assignments, unpacking, classes, one-line bodies") {
  const Blocks b = read(
      "import torch as T\nfrom torch.library import Library as L, impl\n"
      "a, (b, c) = 'x', ('y', 'z')\n"
      "d = {}\nd['k'] = 'w'\n"
      "class Reg:\n    NS = 'm'\n    @staticmethod\n    def make(): return L(Reg.NS, 'FRAGMENT')\n"
      "lib = Reg.make()\n"
      "if True: lib.define(a + '(Tensor x) -> Tensor'); lib.define(c + '(Tensor x) -> Tensor')\n"
      "lib.define(d['k'] + '(Tensor x) -> Tensor')\n");
  CHECK(b.warnings.empty());
  CHECK(names(b) == std::vector<std::string>{"x", "z", "w"});
}

}  // namespace dt::test
