// The Python files of a run (python_project.cpp): module names, imports
// resolved between files (absolute and relative), modules loaded for their
// names once, a helper of one file inlined in another.
#include "readers/python_project.hpp"

#include "python_reader_helpers.hpp"

namespace dt::test {

TEST_CASE("normalize_path and PyProject::find / module_name") {
  CHECK(normalize_path("./a//b/../c.py") == "a/c.py");
  CHECK(normalize_path("/x/./y/") == "/x/y");
  PyProject p(profile("torch-2.14"));
  p.add("/r/pkg/__init__.py", std::make_shared<const std::string>(""));
  p.add("/r/pkg/utils/__init__.py", std::make_shared<const std::string>(""));
  p.add("/r/pkg/utils/reg.py", std::make_shared<const std::string>(""));
  p.add("/r/pkg/ops.py", std::make_shared<const std::string>(""));
  p.add("/other/pkg/utils/reg.py", std::make_shared<const std::string>(""));
  CHECK(p.find("pkg.utils.reg", 0, "/r/pkg/ops.py") == "/r/pkg/utils/reg.py");  // the file's own tree first
  CHECK(p.find("pkg.utils.reg", 0, "/other/pkg/x.py") == "/other/pkg/utils/reg.py");
  CHECK(p.find("pkg.utils", 0, "/r/pkg/ops.py") == "/r/pkg/utils/__init__.py");
  CHECK(p.find("utils.reg", 1, "/r/pkg/ops.py") == "/r/pkg/utils/reg.py");
  CHECK(p.find("", 1, "/r/pkg/utils/reg.py") == "/r/pkg/utils/__init__.py");
  CHECK(p.find("missing", 0, "/r/pkg/ops.py").empty());
  CHECK(p.module_name("/r/pkg/utils/reg.py") == "pkg.utils.reg");
  CHECK(p.module_name("/r/pkg/utils/__init__.py") == "pkg.utils");
  // Inside a package, pkg/utils is pkg.utils only: `import utils` is not it
  // (IPEX's intel_extension_for_pytorch/transformers taken for `import transformers`).
  CHECK(p.find("utils", 0, "/r/pkg/ops.py").empty());
  CHECK(p.find("utils.reg", 0, "/r/examples/run.py") == "/other/pkg/utils/reg.py");  // /other/pkg is no package
  // A directory that is no package is one sys.path could hold (a script's own, the tree's root).
  p.add("/r/examples/helpers.py", std::make_shared<const std::string>(""));
  CHECK(p.find("helpers", 0, "/r/examples/run.py") == "/r/examples/helpers.py");
}

TEST_CASE("PyProject::find: relative paths, the longest tree around the importer, ties in path order") {
  PyProject p(profile("torch-2.14"));
  for (const char* f : {"a/m.py", "a/m/__init__.py", "a/b/m.py", "a/b/c/x.py", "m.py", "/abs/m.py"})
    p.add(f, std::make_shared<const std::string>(""));
  CHECK(p.find("m", 0, "a/b/c/x.py") == "a/b/m.py");  // a/b/ is the nearest tree holding an m
  CHECK(p.find("m", 0, "a/y.py") == "a/m.py");        // a/m.py before a/m/__init__.py, as paths sort
  CHECK(p.find("m", 0, "z/y.py") == "m.py");          // the tree "" holds every relative path
  CHECK(p.find("m", 0, "/abs/q.py") == "/abs/m.py");
  CHECK(p.find("b.m", 0, "/elsewhere/q.py") == "a/b/m.py");  // no tree around it: the first in path order
  CHECK(p.find("b.c.x", 0, "q.py") == "a/b/c/x.py");
  CHECK(p.find("c..x", 0, "q.py").empty());
  CHECK(p.find("m.", 0, "a/y.py") == "a/m.py");  // the parts of a name, as the scan of every file read them
  // Module names of at most 32 parts are indexed (a path's suffixes cost its depth squared).
  std::string deep, dotted;
  for (int i = 0; i < 33; ++i) {
    deep += fmt::format("d{}/", i);
    dotted += fmt::format("d{}.", i);
  }
  p.add(deep + "m.py", std::make_shared<const std::string>(""));
  CHECK(p.find(dotted.substr(3) + "m", 0, "q.py").empty());         // 33 parts
  CHECK(p.find(dotted.substr(6) + "m", 0, "q.py") == deep + "m.py");  // 32 parts
}

TEST_CASE("PyProject: a helper defined in one file read is inlined in another, with its module's globals") {
  const char* helper =
      "import torch\nfrom torch.library import Library, infer_schema\n"
      "LIB = Library('p', 'FRAGMENT')\n"
      "def reg(name, fn):\n    LIB.define(name + infer_schema(fn, mutates_args=()))\n";
  const char* ops =
      "import torch\nfrom .helper import reg\n"
      "def f(x: torch.Tensor) -> torch.Tensor: ...\n"
      "reg('f', f)\n";
  PyProject p(profile("torch-2.14"));
  p.add("/r/pkg/helper.py", std::make_shared<const std::string>(helper));
  p.add("/r/pkg/ops.py", std::make_shared<const std::string>(ops));
  auto b = read_python(profile("torch-2.14"), "/r/pkg/ops.py", ops, &p);
  REQUIRE(b.has_value());
  CHECK(b->warnings.empty());
  REQUIRE(b->blocks.size() == 1);
  CHECK(b->blocks[0].note.find("of /r/pkg/helper.py:3") != std::string::npos);  // the other file's Library
  const TomlEntry& e = b->blocks[0].entries.at(0);
  CHECK(str(e, "schema") == "f(Tensor x) -> Tensor");
  CHECK(str(e, "debug") == "registered at /r/pkg/helper.py:3");
  CHECK(e.at == Location{"/r/pkg/ops.py", 4, 1});
  // Alone, the import names nothing: the call is not read.
  auto alone = read_python(profile("torch-2.14"), "/r/pkg/ops.py", ops);
  REQUIRE(alone.has_value());
  CHECK(alone->blocks.empty());
  REQUIRE(alone->warnings.size() == 1);
}

}  // namespace dt::test
