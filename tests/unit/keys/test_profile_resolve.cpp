// Which profile a --profile value names: built-in names, profile files and
// directories (profile_resolve.cpp).
#include <map>

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("load_profile: a directory holding profile.toml (what dispatchtool-export writes)") {
  std::map<std::string, std::string> files{{"exp/profile.toml", kTiny}, {"notes.txt", "x"}, {"empty/x/y", ""}};
  FileSystem fs = memory_filesystem(files);
  const FileKindOf kind = fs.kind;  // "exp/" is the directory "exp"
  fs.kind = [kind](const std::string& path) {
    return kind(path.ends_with('/') ? path.substr(0, path.size() - 1) : path);
  };
  for (const char* spec : {"exp", "exp/"}) {
    auto p = load_profile(spec, fs.read, &fs);
    REQUIRE_MESSAGE(p.has_value(), (p ? "" : format(p.error())));
    CHECK(p->name() == "tiny");
    CHECK(p->source() == "exp/profile.toml");  // the library's paths are relative to it
    CHECK_FALSE(p->builtin());
  }
  auto no_file = load_profile("empty", fs.read, &fs);
  REQUIRE_FALSE(no_file.has_value());
  CHECK(
      format(no_file.error()) ==
      "dispatchtool: error: profile directory 'empty' holds no profile.toml (no such file; dispatchtool-export writes "
      "a profile directory)\n");
  auto missing = load_profile("out/exp", fs.read, &fs);
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().message.starts_with("no profile directory 'out/exp'"));
  auto file = load_profile("notes.txt", fs.read, &fs);
  REQUIRE_FALSE(file.has_value());
  CHECK(file.error().message.find("neither a built-in profile") != std::string::npos);
  // Without a FileSystem (the test helpers), a name is a built-in or nothing.
  auto no_kind = load_profile("exp", fs.read);
  REQUIRE_FALSE(no_kind.has_value());
  CHECK(no_kind.error().message.starts_with("unknown profile 'exp'"));
}

TEST_CASE("load_profile: a profile directory's profile.toml is read inside the directory (issue 32)") {
  std::map<std::string, std::string> files{{"exp/profile.toml", kTiny}};
  FileSystem fs = memory_filesystem(files);
  std::vector<std::pair<std::string, Roots>> asked;
  const ReadInside inside = fs.read_inside;
  fs.read_inside = [&](const std::string& path, const Roots& roots) {
    asked.emplace_back(path, roots);
    return inside(path, roots);
  };
  fs.read = [](const std::string& path) -> Expected<std::string, Diagnostic> {
    return unexpected(make_error(Location{path, 0, 0}, "read as the command line's"));
  };
  REQUIRE(load_profile("exp", fs.read, &fs).has_value());
  CHECK(asked == std::vector<std::pair<std::string, Roots>>{{"exp/profile.toml", Roots{"exp"}}});
  // A profile.toml that leads out of its directory is refused where it is.
  fs.real_path = [](const std::string& path) -> Expected<std::string, Diagnostic> {
    return path == "exp/profile.toml" ? std::string("/etc/passwd") : "/cwd/" + path;
  };
  fs.read_inside = read_inside_over(fs.real_path, fs.kind, fs.read);
  auto out = load_profile("exp", fs.read, &fs);
  REQUIRE_FALSE(out.has_value());
  CHECK(format(out.error()) ==
        "exp/profile.toml: error: cannot open profile file: the path leads outside 'exp' (symbolic links followed)\n");
}

TEST_CASE("load_profile: a profile directory's cpp_prelude.h is its C++ prelude (dispatchtool-export)") {
  const std::string prelude = "#define KERNEL_CPU(op, policy) m.impl(#op, &op);\n";
  std::map<std::string, std::string> files{{"exp/profile.toml", kTiny},  {"exp/cpp_prelude.h", prelude},
                                           {"bare/profile.toml", kTiny}, {"odd/profile.toml", kTiny},
                                           {"odd/cpp_prelude.h/x", ""}};
  FileSystem fs = memory_filesystem(files);
  auto with = load_profile("exp", fs.read, &fs);
  REQUIRE_MESSAGE(with.has_value(), (with ? "" : format(with.error())));
  CHECK(with->cpp_prelude() == prelude);
  auto bare = load_profile("bare", fs.read, &fs);  // exported without torch's headers or a compiler
  REQUIRE(bare.has_value());
  CHECK(bare->cpp_prelude().empty());
  auto odd = load_profile("odd", fs.read, &fs);
  REQUIRE_FALSE(odd.has_value());
  CHECK(format(odd.error()) == "dispatchtool: error: profile directory 'odd': cpp_prelude.h is not a regular file\n");
  CHECK(profile("torch-2.14").cpp_prelude().empty());  // a built-in's prelude is embedded, by name
}

TEST_CASE("load_profile: a name that is no profile says what a profile is") {
  auto release = load_profile("torch-2.1", ReadFile{});
  REQUIRE_FALSE(release.has_value());
  CHECK(release.error().message.starts_with("unknown profile 'torch-2.1': no built-in profile describes that release"));
  auto typo = load_profile("torch-1.31", ReadFile{});
  REQUIRE_FALSE(typo.has_value());
  CHECK(typo.error().message.starts_with("unknown profile 'torch-1.31' (did you mean 'torch-1.13'?)"));
  // An error of the argument itself has no location: the front end names its parameter.
  CHECK(typo.error().where.file.empty());
  CHECK_FALSE(typo.error().where.known());
}

}  // namespace dt::test
