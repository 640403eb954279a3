// Which profile a --profile value names: built-in names, profile files and
// directories (profile_resolve.cpp).
#include "helpers.hpp"

namespace dt::test {

TEST_CASE("load_profile: a directory holding profile.toml (what dispatchtool-export writes)") {
  const Files files{{"exp/profile.toml", kTiny}, {"notes.txt", "x"}};
  const FileKindOf kind = [](const std::string& path) {
    if (path == "exp" || path == "exp/" || path == "empty") return FileKind::Directory;
    if (path == "exp/profile.toml" || path == "notes.txt") return FileKind::Regular;
    return FileKind::Missing;
  };
  for (const char* spec : {"exp", "exp/"}) {
    auto p = load_profile(spec, memory_reader(files), kind);
    REQUIRE_MESSAGE(p.has_value(), (p ? "" : format(p.error())));
    CHECK(p->name() == "tiny");
    CHECK(p->source() == "exp/profile.toml");  // the library's paths are relative to it
    CHECK_FALSE(p->builtin());
  }
  auto no_file = load_profile("empty", memory_reader(files), kind);
  REQUIRE_FALSE(no_file.has_value());
  CHECK(format(no_file.error()) ==
        "--profile: error: profile directory 'empty' holds no profile.toml (no such file; dispatchtool-export writes "
        "a profile directory)\n");
  auto missing = load_profile("out/exp", memory_reader(files), kind);
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().message.starts_with("no profile directory 'out/exp'"));
  auto file = load_profile("notes.txt", memory_reader(files), kind);
  REQUIRE_FALSE(file.has_value());
  CHECK(file.error().message.find("neither a built-in profile") != std::string::npos);
  // Without a FileKindOf (the test helpers), a name is a built-in or nothing.
  auto no_kind = load_profile("exp", memory_reader(files));
  REQUIRE_FALSE(no_kind.has_value());
  CHECK(no_kind.error().message.starts_with("unknown profile 'exp'"));
}

}  // namespace dt::test
