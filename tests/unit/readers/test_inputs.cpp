// expand_inputs: files, trees and @lists as a command's FILE arguments.
#include "readers/inputs.hpp"

#include <map>

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("expand_inputs: a directory is its registration sources, sorted, hidden entries and excludes left out") {
  std::map<std::string, std::string> files{
      {"csrc/b.cpp", ""},     {"csrc/a/ops.cu", ""},   {"csrc/a/ops.cuh", ""},      {"csrc/notes.txt", ""},
      {"csrc/ops.py", ""},    {"csrc/.git/x.cpp", ""}, {"csrc/build/gen.cpp", ""},  {"csrc/native_functions.yaml", ""},
      {"csrc/ci.yaml", ""},   {"list.txt", "# inputs\nx.toml\n\n  y.cpp  \n"}};
  const FileSystem fs = tree_filesystem(files);
  auto e = expand_inputs(fs, {"z.toml", "csrc", "@list.txt"}, {"build"});
  REQUIRE(e.has_value());
  CHECK(e->paths == std::vector<std::string>{"z.toml", "csrc/a/ops.cu", "csrc/a/ops.cuh", "csrc/b.cpp",
                                             "csrc/native_functions.yaml", "csrc/ops.py", "x.toml", "y.cpp"});
  auto missing = expand_inputs(fs, {"@nope.txt"}, {});
  REQUIRE(!missing);
  CHECK(format(missing.error()).find("nope.txt: error: cannot read the input list") == 0);
  // A directory with nothing the readers take: a located error, not an empty run.
  auto empty = expand_inputs(fs, {"csrc"}, {"*"});
  REQUIRE(!empty);
  CHECK(format(empty.error()).find("csrc: error: a directory with no file the readers take by its name") == 0);
}

TEST_CASE("is_registration_source: C++ sources and headers, Python, torchgen's yaml") {
  CHECK(is_registration_source("a/b.cpp"));
  CHECK(is_registration_source("k.cuh"));
  CHECK(is_registration_source("k.hip"));
  CHECK(is_registration_source("x.inl"));
  CHECK(is_registration_source("ops.py"));
  CHECK(is_registration_source("aten/native_functions.yaml"));
  CHECK(is_registration_source("ts_native_functions.yaml"));
  CHECK_FALSE(is_registration_source("pyproject.toml"));
  CHECK_FALSE(is_registration_source(".github/ci.yaml"));
  CHECK_FALSE(is_registration_source("README.md"));
}

TEST_CASE("prepare_sources: -D NAME, NAME=VALUE and a function-like NAME(PARAMS)=VALUE, and -U a name") {
  std::map<std::string, std::string> files{{"a.cpp", ""}};
  const FileSystem fs = memory_filesystem(files);
  SourceOptions o;
  o.defines = {"USE_CUDA", "V=12", "AT_CUDNN_ENABLED()=1", "F(a, b)=a", "G(x, ...)", "H(  )"};
  o.undefines = {"GONE"};
  auto s = prepare_sources(fs, {"a.cpp"}, o);
  REQUIRE(s.has_value());
  const auto& d = s->cpp.defines;
  REQUIRE(d.size() == 7);
  CHECK(d[0] == std::pair<std::string, std::optional<std::string>>{"USE_CUDA", "1"});
  CHECK(d[1] == std::pair<std::string, std::optional<std::string>>{"V", "12"});
  CHECK(d[2] == std::pair<std::string, std::optional<std::string>>{"AT_CUDNN_ENABLED()", "1"});
  CHECK(d[3] == std::pair<std::string, std::optional<std::string>>{"F(a, b)", "a"});
  CHECK(d[6] == std::pair<std::string, std::optional<std::string>>{"GONE", std::nullopt});
  for (const char* bad : {"1X", "F(", "F(1)", "F(a,)", "F(a)b", "A-B"}) {
    o.defines = {bad};
    auto e = prepare_sources(fs, {"a.cpp"}, o);
    REQUIRE_MESSAGE(!e, bad);
    CHECK(e.error().message == fmt::format("-D {}: not a macro name (NAME, NAME=VALUE or NAME(PARAMS)=VALUE)", bad));
  }
  o.defines = {};
  o.undefines = {"F()"};
  CHECK_FALSE(prepare_sources(fs, {"a.cpp"}, o));
}

}  // namespace dt::test
