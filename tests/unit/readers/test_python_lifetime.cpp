// Library lifetimes (python_lifetime.cpp) through read_python: a Library
// freed before the module has been read takes its registrations with it, as
// torch/library.py's finalizer does (oracle.*.py_reader checks
// tests/oracle/py_modules/library_lifetime.py against the releases); one
// that may still be referenced keeps them.
#include "python_reader_helpers.hpp"
#include "readers/python_reader.hpp"

namespace dt::test {

namespace {

// The operators defined by the blocks read, in order.
std::vector<std::string> defined(const Blocks& b) {
  std::vector<std::string> out;
  for (const TomlBlock& block : b.blocks)
    for (const TomlEntry& e : block.entries)
      if (e.kind == "def") out.push_back(str(e, "schema").substr(0, str(e, "schema").find('(')));
  return out;
}

std::vector<std::string> warned(const Blocks& b) {
  std::vector<std::string> out;
  for (const Diagnostic& d : b.warnings) out.push_back(format(d));
  return out;
}

const std::string kHead = "import torch\nfrom torch.library import Library\n";

}  // namespace

TEST_CASE("read_python: a temporary Library's registrations are gone once its statement has run") {
  const Blocks b = read_py(kHead +
                           "Library('t', 'FRAGMENT').define('a(Tensor x) -> Tensor')\n"                // 3
                           "torch.library.Library('t', 'FRAGMENT').define('b(Tensor x) -> Tensor')\n"  // 4
                           "lib = Library('t', 'FRAGMENT')\nlib.define('c(Tensor x) -> Tensor')\n");
  CHECK(defined(b) == std::vector<std::string>{"c"});
  const auto w = warned(b);
  REQUIRE(w.size() == 2);
  CHECK(w[0].starts_with(
      "/src/ops.py:3:1: warning: torch.library.Library(\"t\", \"FRAGMENT\") here is a temporary, freed once "
      "this statement has run: torch.library then removes what was registered through it (1 "
      "registration: t::a), and dispatchtool leaves it out; keep the Library referenced (a "
      "module-level name) to keep them"));
  CHECK(w[1].starts_with("/src/ops.py:4:1: warning:"));
}

TEST_CASE("read_python: a function's local Library is freed when the function returns, unless it may escape") {
  const Blocks b = read_py(kHead +
                           "keep = []\n"                                                             // 3
                           "def local():\n"                                                          // 4
                           "    lib = Library('t', 'FRAGMENT')\n"                                    // 5
                           "    lib.define('local(Tensor x) -> Tensor')\n"                           // 6
                           "    lib.impl('local', lambda x: x, 'CPU')\n"                             // 7
                           "    del lib\n"                                                           // 8
                           "def returned():\n    lib = Library('t', 'FRAGMENT')\n"                   // 9-10
                           "    lib.define('returned(Tensor x) -> Tensor')\n    return lib\n"        // 11-12
                           "def appended():\n    lib = Library('t', 'FRAGMENT')\n"                   // 13-14
                           "    lib.define('appended(Tensor x) -> Tensor')\n    keep.append(lib)\n"  // 15-16
                           "def closure():\n    lib = Library('t', 'FRAGMENT')\n"                    // 17-18
                           "    lib.define('closure(Tensor x) -> Tensor')\n"                         // 19
                           "    def later():\n        lib.define('later(Tensor x) -> Tensor')\n"     // 20-21
                           "    return later\n"                                                      // 22
                           "def in_lambda():\n    lib = Library('t', 'FRAGMENT')\n"                  // 23-24
                           "    lib.define('in_lambda(Tensor x) -> Tensor')\n"                       // 25
                           "    return lambda: lib\n"                                                // 26
                           "def made_global():\n    global g\n    g = Library('t', 'FRAGMENT')\n"    // 27-29
                           "    g.define('made_global(Tensor x) -> Tensor')\n"                       // 30
                           "def attribute():\n    lib = Library('t', 'FRAGMENT')\n"                  // 31-32
                           "    lib.define('attribute(Tensor x) -> Tensor')\n    return lib.m\n"     // 33-34
                           "local()\nkept = returned()\nappended()\nlater = closure()\nf = in_lambda()\n"
                           "made_global()\nm = attribute()\n");
  CHECK(defined(b) ==
        std::vector<std::string>{"returned", "appended", "closure", "in_lambda", "made_global", "attribute"});
  const auto w = warned(b);
  REQUIRE(w.size() == 1);
  CHECK(w[0].starts_with(
      "/src/ops.py:5:11: warning: torch.library.Library(\"t\", \"FRAGMENT\") here is a local of local(), "
      "freed when it returns (called at /src/ops.py:35): torch.library then removes what was registered "
      "through it (2 registrations: t::local)"));
}

TEST_CASE("read_python: a local bound in an undecided branch dies with the frame too, a class attribute lives on") {
  const Blocks b = read_py(kHead +
                           "import os\n"
                           "def setup():\n"
                           "    if os.environ.get('X'):\n"
                           "        lib = Library('t', 'FRAGMENT')\n"
                           "        lib.define('maybe(Tensor x) -> Tensor')\n"
                           "class Holder:\n"
                           "    lib = Library('t', 'FRAGMENT')\n"
                           "    lib.define('held(Tensor x) -> Tensor')\n"
                           "setup()\n");
  CHECK(defined(b) == std::vector<std::string>{"held"});
  const auto w = warned(b);
  REQUIRE(!w.empty());
  CHECK(w.back().find("is a local of setup(), freed when it returns") != std::string::npos);
}

TEST_CASE("read_python: a module-level Library deleted or rebound is said, and kept (not decided)") {
  // torch frees it if nothing else refers to it (both releases remove deleted's and rebound's operators
  // when nothing does); whether anything does the reader does not decide.
  const Blocks b = read_py(kHead +
                           "d = Library('t', 'FRAGMENT')\nd.define('deleted(Tensor x) -> Tensor')\n"  // 3-4
                           "del d\n"                                                                  // 5
                           "r = Library('t', 'FRAGMENT')\nr.define('rebound(Tensor x) -> Tensor')\n"  // 6-7
                           "r = None\n"                                                               // 8
                           "k = Library('t', 'FRAGMENT')\nk.define('kept(Tensor x) -> Tensor')\n"     // 9-10
                           "k = k\nunused = Library('t', 'FRAGMENT')\ndel unused\n");
  CHECK(defined(b) == std::vector<std::string>{"deleted", "rebound", "kept"});
  const auto w = warned(b);
  REQUIRE(w.size() == 2);  // k bound to itself, and a Library with no registration, say nothing
  CHECK(
      w[0].starts_with("/src/ops.py:5:1: warning: del d: torch.library removes what was registered through the "
                       "torch.library.Library(\"t\", \"FRAGMENT\") of line 3 once nothing refers to it, which "
                       "dispatchtool does not decide: its registrations are kept"));
  CHECK(w[1].starts_with("/src/ops.py:8:1: warning: rebinding r:"));
}

TEST_CASE("read_python: a function called twice defines again what its freed Library defined") {
  // torch accepts the second definition: the first Library is gone (no "defined twice").
  const Blocks b = read_py(kHead +
                           "def setup():\n    lib = Library('t', 'DEF')\n    lib.define('f(Tensor x) -> Tensor')\n"
                           "setup()\nsetup()\nkept = Library('t', 'FRAGMENT')\nkept.impl('f', lambda x: x, 'CPU')\n");
  CHECK(defined(b).empty());
  REQUIRE(b.blocks.size() == 1);  // kept's impl, on an operator no Library defines any more
  CHECK(b.warnings.size() == 2);
}

}  // namespace dt::test
