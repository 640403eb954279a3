// The Python reader's calls (python_call.cpp): functions of the files read
// inlined with their arguments and defaults, *args / **kwargs, closures and
// decorator factories, functools.partial, classes and properties; the depth
// and step bounds.
#include "python_reader_helpers.hpp"

namespace dt::test {

namespace {

Blocks read(std::string_view text, const char* prof = "torch-2.14") { return read_py(text, prof); }

const char* kHelper =
    "import functools\nimport torch\nfrom torch.library import Library, infer_schema\n"
    "mylib = Library('h', 'FRAGMENT')\n"
    "def reg(op_name, op_func, mutates_args=None, fake_impl=None, target_lib=None, dispatch_key=None, tags=()):\n"
    "    if mutates_args is None:\n"
    "        mutates_args = []\n"
    "    schema_str = infer_schema(op_func, mutates_args=mutates_args)\n"
    "    my_lib = target_lib or mylib\n"
    "    my_lib.define(op_name + schema_str, tags=tags)\n"
    "    my_lib.impl(op_name, op_func, dispatch_key=dispatch_key or 'CUDA')\n"
    "    if fake_impl is not None:\n"
    "        my_lib._register_fake(op_name, fake_impl)\n"
    "def f(x: torch.Tensor, out: torch.Tensor) -> None:\n"
    "    pass\n";

}  // namespace

TEST_CASE("call: a helper inlined where it is called, its registrations located at the call") {
  const Blocks b = read(std::string(kHelper) +
                        "reg('a', f, mutates_args=['out'], fake_impl=lambda x, out: None)\n"
                        "reg(op_name='b', op_func=f, dispatch_key='CPU', tags=(torch._C.Tag.pointwise,))\n"
                        "other = Library('o', 'FRAGMENT')\n"
                        "reg_other = functools.partial(reg, target_lib=other)\n"
                        "reg_other('c', f)\n");
  CHECK(b.warnings.empty());
  REQUIRE(b.blocks.size() == 2);  // h's Library, then o's
  const auto& h = b.blocks[0].entries;
  REQUIRE(h.size() == 5);
  CHECK(str(h[0], "schema") == "a(Tensor x, Tensor(a1!) out) -> ()");
  CHECK(h[0].at == Location{"/src/ops.py", 16, 1});  // the call, not the helper's line
  CHECK(str(h[0], "debug") == "registered at /src/ops.py:4");
  CHECK(str(h[1], "key") == "CUDA");
  CHECK(str(h[2], "key") == "Meta");
  CHECK(str(h[3], "tags") == "pointwise");
  CHECK(str(h[4], "key") == "CPU");
  // A field's value made inside the helper (dispatch_key or 'CUDA') is shown at
  // the call; one written in the call (dispatch_key='CPU') where it is written.
  const auto field_at = [](const TomlEntry& e, std::string_view key) {
    for (const TomlField& fl : e.fields)
      if (fl.key == key) return fl.at;
    return Location{};
  };
  CHECK(field_at(h[1], "key") == Location{"/src/ops.py", 16, 1});
  CHECK(field_at(h[2], "key") == Location{"/src/ops.py", 16, 1});
  CHECK(field_at(h[4], "key").line == 17);
  CHECK(field_at(h[4], "key").column > 1);
  CHECK(str(b.blocks[1].entries.at(0), "schema") == "c(Tensor x, Tensor out) -> ()");
  CHECK(str(b.blocks[1].entries.at(0), "debug") == "registered at /src/ops.py:18");
}

TEST_CASE("call: decorator factories, closures, *args / **kwargs, classes with properties") {
  const Blocks b = read(std::string(kHelper) +
                        "def register(fn=None, *, op_name=None, **extra):\n"
                        "    def decorator(op_func):\n"
                        "        reg(op_name or op_func.__name__, op_func, **extra)\n"
                        "        return op_func\n"
                        "    return decorator(fn) if fn is not None else decorator\n"
                        "@register\ndef g(x: torch.Tensor) -> torch.Tensor:\n    return x\n"
                        "@register(op_name='renamed', dispatch_key='CPU')\ndef k(x: torch.Tensor) -> torch.Tensor:\n"
                        "    return x\n"
                        "class W:\n"
                        "    def __init__(self, name, fn):\n        self.name = name\n        self.fn = fn\n"
                        "    @property\n    def impl(self):\n        reg(self.name, self.fn)\n        return self.fn\n"
                        "W('viaclass', f).impl\n"
                        "args = ('star', f)\nreg(*args, **{'dispatch_key': 'XPU'})\n");
  CHECK(b.warnings.empty());
  CHECK(entry_names(b, true) == std::vector<std::string>{"g", "renamed", "viaclass", "star"});
}

TEST_CASE("call: recursion stops at the depth bound with a warning, and a helper of a file not read is named") {
  const Blocks b = read(
      "import torch\nfrom vendor.utils import register_thing\n"
      "def r(n):\n    return r(n)\n"
      "r(1)\n"
      "register_thing('x', None)\n");
  REQUIRE(b.warnings.size() == 2);
  CHECK(b.warnings[0].where.line == 5);
  CHECK(b.warnings[0].message.find("calls deep") != std::string::npos);
  CHECK(b.warnings[1].where.line == 6);
  CHECK(b.warnings[1].message.find("defined in vendor.utils, which is not among the files read") !=
        std::string::npos);
}

// Recursion on values the reader does not know (a model's children) would read
// the body again at every level, each as wide as the last: one level is read,
// quietly; recursion on known values goes on (to the depth bound, above).
TEST_CASE("call: recursion on unknown values is read one level deep, and nn.Module's register_* are no helpers") {
  const Blocks b = read(
      "import torch\nlib = torch.library.Library('rec', 'DEF')\n"
      "def walk(m, n):\n    lib.define(n + '(Tensor x) -> Tensor')\n"
      "    for c in m.children():\n        walk(c, n + '_c')\n        walk(c, n + '_d')\n"
      "walk(model, 'top')\n"
      "def count(names):\n    if names:\n        lib.define(names[0] + '(Tensor x) -> Tensor')\n"
      "        count(names[1:])\n"
      "count(['a', 'b', 'c'])\n"
      "model.register_buffer('x', None)\nmodel.register_forward_hook(hook)\n");
  // The loop over m.children() is not run: the registrations of its walk()
  // calls are not read, and the warning says so there (silence before).
  REQUIRE(b.warnings.size() == 1);
  CHECK(b.warnings[0].where.line == 8);  // at the module-level call, as every warning from an inlined call
  CHECK(b.warnings[0].message.starts_with("torch.library registration in a loop over `m.children()`"));
  REQUIRE(b.warnings[0].notes.size() == 2);
  CHECK(b.warnings[0].notes[0].where.line == 4);
  CHECK(b.warnings[0].notes[1].message == "inlined: walk (called at /src/ops.py:8)");
  CHECK(b.warnings[0].notes[0].message == "walk(...), called there, leads to this registration");
  REQUIRE(b.blocks.size() == 1);
  CHECK(entry_names(b, true) == std::vector<std::string>{"top", "a", "b", "c"});
}

// Code not run (a loop over values the reader does not know, an except
// clause) that calls a function of the files read which registers, directly
// or through other functions, by name or as a module's attribute: a located
// warning at the call, with a note at the registration it leads to. A
// function that registers nothing (a cycle included) gives none.
TEST_CASE("call: unread code calling a registering function is a warning, through calls and cycles") {
  const Blocks b = read(
      "import torch\nlib = torch.library.Library('t', 'DEF')\n"
      "def reg(n):\n    lib.define(n + '(Tensor x) -> Tensor')\n"  // 3-4
      "def visit(m):\n    reg(m.name)\n"                             // 5-6
      "def ping(m):\n    return pong(m)\n"                          // 7-8
      "def pong(m):\n    return ping(m)\n"                          // 9-10
      "def loop_a(m):\n    loop_b(m)\n    visit(m)\n"              // 11-13
      "def loop_b(m):\n    loop_a(m)\n"                             // 14-15
      "for c in model.children():\n    ping(c)\n    loop_b(c)\n"  // 16-18
      "try:\n    pass\nexcept ImportError:\n    visit(x)\n");     // 19-22
  REQUIRE(b.warnings.size() == 2);
  CHECK(b.warnings[0].where.line == 18);  // loop_b -> loop_a -> visit -> reg; not ping <-> pong
  REQUIRE(b.warnings[0].notes.size() == 1);
  CHECK(b.warnings[0].notes[0].where.line == 4);
  CHECK(b.warnings[0].notes[0].message == "loop_b(...), called there, leads to this registration");
  CHECK(b.warnings[1].where.line == 22);
  CHECK(b.warnings[1].message.starts_with("torch.library registration in an except clause"));
  CHECK(entry_names(b).empty());
}

// The recursive call not read, of a function that registers: a located
// warning at the module-level call, never silence.
TEST_CASE("call: a registering function's recursion on unknown values is a warning at the call") {
  const Blocks b = read(
      "import torch\nlib = torch.library.Library('rec', 'DEF')\n"
      "def walk(m, n):\n    lib.define(n + '(Tensor x) -> Tensor')\n    walk(m.child, n + '_d')\n"
      "walk(model, 'top')\n"
      "def plain(m):\n    return plain(m.child)\n"
      "plain(model)\n");
  REQUIRE(b.warnings.size() == 1);
  CHECK(b.warnings[0].where.line == 6);
  CHECK(b.warnings[0].message ==
        "walk(...) calls itself on values dispatchtool does not know: its registrations are read for the first "
        "call only, not for the recursive ones");
  CHECK(entry_names(b, true) == std::vector<std::string>{"top"});
}

}  // namespace dt::test
