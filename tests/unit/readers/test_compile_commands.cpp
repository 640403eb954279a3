// compile_commands.json: each source's preprocessor flags.
#include "readers/compile_commands.hpp"

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("shell_words: quotes and backslashes as sh splits them") {
  CHECK(shell_words(R"(g++ -DA='"x y"' -DB=\"z\" "-I a b" c\ d)") ==
        std::vector<std::string>{"g++", "-DA=\"x y\"", "-DB=\"z\"", "-I a b", "c d"});
}

TEST_CASE("parse_compile_commands: arguments or command, flags joined or apart, paths from the directory") {
  auto db = parse_compile_commands(R"([
    {"directory": "/w/build", "file": "../csrc/ops.cpp",
     "arguments": ["g++", "-DTORCH_EXTENSION_NAME=_C", "-D", "USE_CUDA", "-UNDEBUG", "-I../csrc", "-isystem",
                   "/usr/include/torch", "-iquote", "q", "-include", "pre.h", "-O2", "-c", "../csrc/ops.cpp"]},
    {"directory": "/w/build", "file": "/w/csrc/k.cu",
     "command": "nvcc -Xcompiler -fPIC,-DHOST=1 --define-macro=DEV -I /w/csrc -c /w/csrc/k.cu"}
  ])", "compile_commands.json");
  REQUIRE_MESSAGE(db.has_value(), (db ? "" : format(db.error())));
  CHECK(db->size() == 2);
  const CppOptions* o = db->find("/w/csrc/ops.cpp");
  REQUIRE(o != nullptr);
  CHECK(o->defines.size() == 3);
  CHECK(o->defines[0] == std::pair<std::string, std::optional<std::string>>{"TORCH_EXTENSION_NAME", "_C"});
  CHECK(o->defines[1] == std::pair<std::string, std::optional<std::string>>{"USE_CUDA", "1"});
  CHECK(o->defines[2] == std::pair<std::string, std::optional<std::string>>{"NDEBUG", std::nullopt});
  CHECK(o->include_dirs == std::vector<std::string>{"/w/csrc", "/usr/include/torch"});
  CHECK(o->quote_dirs == std::vector<std::string>{"/w/build/q"});
  CHECK(o->forced_includes == std::vector<std::string>{"/w/build/pre.h"});
  const CppOptions* k = db->find("/w/csrc/k.cu");
  REQUIRE(k != nullptr);
  CHECK(k->defines.size() == 2);
  CHECK(k->defines[0].first == "HOST");
  CHECK(k->defines[1].first == "DEV");
  CHECK(db->find("/w/csrc/other.cpp") == nullptr);
}

TEST_CASE("parse_compile_commands: what is not a compilation database is a located error") {
  CHECK(format(parse_compile_commands("{}", "c.json").error()) ==
        "c.json:1:1: error: a compilation database is a JSON array of entries\n");
  CHECK(format(parse_compile_commands("[{\"file\": \"a.cpp\"}]", "c.json").error()) ==
        "c.json:1:2: error: an entry of a compilation database needs \"directory\" and \"file\" strings\n");
  CHECK(format(parse_compile_commands("[{\"directory\": \"/\", \"file\": \"a.cpp\"}]", "c.json").error()).find(
            "needs \"arguments\" or \"command\"") != std::string::npos);
}

TEST_CASE("normal_path: relative to a directory, . and .. resolved") {
  CHECK(normal_path("/w/build", "../csrc/./a.cpp") == "/w/csrc/a.cpp");
  CHECK(normal_path("/w", "/x/y/../z") == "/x/z");
  CHECK(normal_path("", "a/b/../c") == "./a/c");
}

}  // namespace dt::test
