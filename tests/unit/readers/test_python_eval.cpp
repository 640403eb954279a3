// The Python reader's expressions (python_eval.cpp), seen through what
// read_python registers: strings built with + and f-strings, or / and / not,
// comparisons (versions as TorchVersion), subscripts and slices, literals.
#include "python_reader_helpers.hpp"

namespace dt::test {

namespace {

Blocks read(std::string_view text, const char* prof = "torch-2.14") { return read_py(text, prof); }

// The schemas of a module's [[def]] entries, in order.
std::vector<std::string> schemas(const Blocks& b) {
  std::vector<std::string> out;
  for (const auto& blk : b.blocks)
    for (const auto& e : blk.entries)
      if (e.kind == "def") out.push_back(str(e, "schema"));
  return out;
}

}  // namespace

TEST_CASE("eval: strings from +, f-strings, str methods and slices") {
  const Blocks b = read(
      "import torch\nlib = torch.library.Library('m', 'FRAGMENT')\n"
      "NAME = '_op'\nN = 3\n"
      "lib.define(NAME[1:] + '(Tensor x) -> Tensor')\n"
      "lib.define(f'{NAME[1:]}_{N}bit(Tensor x) -> Tensor')\n"
      "lib.define('{}_{}(Tensor x) -> Tensor'.format('fmt', 2))\n"
      "lib.define('UP'.lower() + '(Tensor x) -> Tensor')\n"
      "lib.define('a::b'.split('::')[1] + '(Tensor x) -> Tensor')\n");
  CHECK(b.warnings.empty());
  CHECK(schemas(b) == std::vector<std::string>{"op(Tensor x) -> Tensor", "op_3bit(Tensor x) -> Tensor",
                                               "fmt_2(Tensor x) -> Tensor", "up(Tensor x) -> Tensor",
                                               "b(Tensor x) -> Tensor"});
}

TEST_CASE("eval: or / and / not, comparisons, conditional expressions, containers") {
  const Blocks b = read(
      "import torch\nlib = torch.library.Library('m', 'FRAGMENT')\n"
      "target = None\nchosen = target or lib\n"
      "chosen.define('a(Tensor x) -> Tensor' if not target else 'z(Tensor x) -> Tensor')\n"
      "if 'out' in {'out'} and 2 > 1 and 'x' not in ['y'] and (1, 'a') == (1, 'a'):\n"
      "    lib.define('b(Tensor x) -> Tensor')\n"
      "if torch.__version__ >= '2.10' and torch.__version__ < '3':\n"
      "    lib.define('c(Tensor x) -> Tensor')\n"
      "if {'k': 'd'}.get('k') == 'd' and len([1, 2]) == 2:\n"
      "    lib.define('d(Tensor x) -> Tensor')\n");
  CHECK(b.warnings.empty());
  CHECK(schemas(b) == std::vector<std::string>{"a(Tensor x) -> Tensor", "b(Tensor x) -> Tensor",
                                               "c(Tensor x) -> Tensor", "d(Tensor x) -> Tensor"});
  // As versions: 2.6 < 2.10.
  CHECK(schemas(read("import torch\nlib = torch.library.Library('m', 'FRAGMENT')\n"
                     "if torch.__version__ >= '2.10':\n    lib.define('c(Tensor x) -> Tensor')\n",
                     "torch-2.6"))
            .empty());
}

TEST_CASE("eval: what is not known says why") {
  const Blocks b = read(
      "import torch\nlib = torch.library.Library('m', 'FRAGMENT')\n"
      "lib.define(helper_name() + '(Tensor x) -> Tensor')\n"
      "lib.define(f'{9 ** 99:x}(Tensor x) -> Tensor')\n");
  REQUIRE(b.warnings.size() == 2);
  CHECK(b.warnings[0].message.find("helper_name") != std::string::npos);
  CHECK(b.warnings[1].where.line == 4);
}

}  // namespace dt::test
