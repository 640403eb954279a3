// detect_source and translate: which reader a file goes to.
#include "readers/readers.hpp"

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("detect_source: by extension, yaml by content") {
  CHECK(detect_source("a.toml", "") == SourceKind::Toml);
  CHECK(detect_source("-", "namespace = \"x\"") == SourceKind::Toml);
  CHECK(detect_source("noext", "") == SourceKind::Toml);
  CHECK(detect_source(".cpp", "") == SourceKind::Toml);  // a hidden file named ".cpp" has no extension
  for (const char* p : {"x.cpp", "d/x.cc", "x.cxx", "x.cu", "x.mm", "x.h", "x.hpp"})
    CHECK(detect_source(p, "") == SourceKind::Cpp);
  CHECK(detect_source("dir.py/ops.toml", "") == SourceKind::Toml);
  CHECK(detect_source("ops.py", "") == SourceKind::Python);
  CHECK(detect_source("native_functions.yaml", "- func: add(Tensor self) -> Tensor\n") == SourceKind::NativeYaml);
  CHECK(detect_source("xpu.yml", "backend: XPU\ncpp_namespace: at\n") == SourceKind::BackendYaml);
  CHECK(detect_source("b.yaml", "# c\ncpp_namespace: x\nbackend: XLA\n") == SourceKind::BackendYaml);
  CHECK(detect_source("n.yaml", "- func: f()\n  backend: x\n") == SourceKind::NativeYaml);  // not top level
}

}  // namespace dt::test
