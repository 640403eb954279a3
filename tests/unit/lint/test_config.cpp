// Lint configuration: parsing, merging, applying.
#include <map>

#include "lint/config.hpp"
#include "lint_helpers.hpp"

namespace dt::test {

TEST_CASE("lint config: parse, merge, apply") {
  auto c = lint::parse_config(
      "select = [\"duplicate-def\", \"missing-autograd\"]\nignore = [\"missing-autograd\"]\nfail-on = \"warning\"\n"
      "baseline = \"base.toml\"\nprofile = \"torch-1.13\"\n[severity]\nduplicate-def = \"info\"\n",
      "cfg.toml");
  REQUIRE(c.has_value());
  CHECK(c->select == std::vector<std::string>{"duplicate-def", "missing-autograd"});
  CHECK(c->ignore == std::vector<std::string>{"missing-autograd"});
  CHECK(c->fail_on == Severity::Warning);
  CHECK(c->baseline == "base.toml");
  CHECK(c->profile == "torch-1.13");
  REQUIRE(c->severity.size() == 1);

  std::vector<Finding> fs(3);
  fs[0].rule = "duplicate-def", fs[0].severity = Severity::Error;
  fs[1].rule = "missing-autograd", fs[1].severity = Severity::Warning;
  fs[2].rule = "impl-without-def", fs[2].severity = Severity::Error;
  lint::apply(*c, fs);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].rule == "duplicate-def");
  CHECK(fs[0].severity == Severity::Info);
  CHECK(!lint::fails(fs, Severity::Warning));
  CHECK(lint::fails(fs, Severity::Info));

  lint::Config cli;
  cli.severity.push_back({"duplicate-def", Severity::Error});
  cli.ignore.push_back("schema-mismatch");
  const auto m = lint::merge(*c, cli);
  CHECK(m.select == c->select);
  CHECK(m.ignore == std::vector<std::string>{"missing-autograd", "schema-mismatch"});
  std::vector<Finding> again(1);
  again[0].rule = "duplicate-def";
  lint::apply(m, again);
  CHECK(again[0].severity == Severity::Error);  // the command line's override is the later one
}

TEST_CASE("lint config: errors point into the file") {
  auto err = [](const std::string& text) {
    auto c = lint::parse_config(text, "cfg.toml");
    REQUIRE(!c.has_value());
    return format(c.error());
  };
  CHECK(err("select = [\"duplicate-defs\"]\n") ==
        "cfg.toml:1:11: error: unknown lint rule 'duplicate-defs' (did you mean 'duplicate-def'?)\n");
  CHECK(err("[severity]\nmissing-autograd = \"fatal\"\n") ==
        "cfg.toml:2:20: error: unknown severity 'fatal'; expected \"error\", \"warning\" or \"info\"\n");
  CHECK(err("[severity]\nmising-autograd = \"info\"\n") ==
        "cfg.toml:2:1: error: unknown lint rule 'mising-autograd' (did you mean 'missing-autograd'?)\n");
  CHECK(err("fail_on = \"error\"\n") ==
        "cfg.toml:1:1: error: unknown field 'fail_on' in the lint configuration (did you "
        "mean 'fail-on'?)\n");
}

TEST_CASE("load_config: --config, or .dispatchtool-lint.toml found in the current directory") {
  std::map<std::string, std::string> files;
  const FileSystem fs = memory_filesystem(files);
  CHECK(lint::load_config(fs, "", true)->ignore.empty());  // none: the empty configuration
  files[".dispatchtool-lint.toml"] = "ignore = [\"missing-autograd\"]\n";
  CHECK(lint::load_config(fs, "", true)->ignore == std::vector<std::string>{"missing-autograd"});
  CHECK(lint::load_config(fs, "", false)->ignore.empty());  // --no-config
  files["cfg/lint.toml"] = "fail-on = \"warning\"\n";
  auto given = lint::load_config(fs, "cfg/lint.toml", false);  // --config wins over --no-config
  REQUIRE(given.has_value());
  CHECK(given->fail_on == Severity::Warning);
  CHECK(given->ignore.empty());
}

TEST_CASE("load_config: relative baseline and profile files are relative to the configuration") {
  std::map<std::string, std::string> files{
      {"cfg/lint.toml", "baseline = \"base.toml\"\nprofile = \"profiles/../p.toml\"\n"},
      {"cfg/name.toml", "profile = \"torch-1.13\"\n"}};
  const FileSystem fs = memory_filesystem(files);
  auto c = lint::load_config(fs, "cfg/lint.toml", true);
  REQUIRE(c.has_value());
  CHECK(c->baseline == "cfg/base.toml");
  CHECK(c->profile == "cfg/p.toml");
  CHECK(to_string(*c->profile_where) == "cfg/lint.toml:2:11");
  CHECK(to_string(*c->baseline_where) == "cfg/lint.toml:1:12");
  auto a = lint::load_config(fs, "cfg/name.toml", true);
  REQUIRE(a.has_value());
  CHECK(a->profile == "torch-1.13");  // a built-in profile's name stays a name
}

TEST_CASE("load_config: baseline and profile paths stay inside the configuration's directory") {
  std::map<std::string, std::string> files{{"cfg/up.toml", "profile = \"../profiles/p.toml\"\n"},
                                           {"cfg/abs.toml", "\nbaseline = \"/etc/passwd\"\n"},
                                           {"cfg/dir.toml", "baseline = \".\"\n"}};
  const FileSystem fs = memory_filesystem(files);
  CHECK(format(lint::load_config(fs, "cfg/up.toml", true).error()) ==
        "cfg/up.toml:1:11: error: profile names a file outside the repository: a path in a lint "
        "configuration must name a file inside the configuration's directory (give it with --profile to use it)\n");
  CHECK(format(lint::load_config(fs, "cfg/abs.toml", true).error()) ==
        "cfg/abs.toml:2:12: error: baseline names a file outside the repository: a path in a lint "
        "configuration must name a file inside the configuration's directory (give it with --baseline to use it)\n");
  CHECK(lint::load_config(fs, "cfg/dir.toml", true).error().message.find("outside the repository") !=
        std::string::npos);  // the directory itself is not a file inside it
  // The command line may name any file.
  lint::Config cli;
  cli.baseline = "/ci/base.toml";
  files["cfg/ok.toml"] = "baseline = \"b.toml\"\n";
  const lint::Config merged = lint::merge(*lint::load_config(fs, "cfg/ok.toml", true), cli);
  CHECK(merged.baseline == "/ci/base.toml");
  CHECK_FALSE(merged.baseline_where.has_value());
}

TEST_CASE(
    "load_config: the discovered configuration is read inside the current directory, --config as named "
    "(issue 32)") {
  std::map<std::string, std::string> files{{std::string(lint::kConfigFileName), "baseline = \"b.toml\"\n"},
                                           {"ci/other.toml", "fail-on = \"warning\"\n"}};
  FileSystem fs = memory_filesystem(files);
  std::vector<std::pair<std::string, Roots>> inside;
  std::vector<std::string> named;
  const ReadInside read_inside = fs.read_inside;
  const ReadFile read = fs.read;
  fs.read_inside = [&](const std::string& path, const Roots& roots) {
    inside.emplace_back(path, roots);
    return read_inside(path, roots);
  };
  fs.read = [&](const std::string& path) {
    named.push_back(path);
    return read(path);
  };
  auto found = lint::load_config(fs, "", true);
  REQUIRE(found.has_value());
  CHECK(found->directory == ".");
  CHECK(inside == std::vector<std::pair<std::string, Roots>>{{std::string(lint::kConfigFileName), Roots{"."}}});
  CHECK(named.empty());
  auto given = lint::load_config(fs, "ci/other.toml", true);
  REQUIRE(given.has_value());
  CHECK(given->directory == "ci");  // what its baseline and profile must lie below
  CHECK(named == std::vector<std::string>{"ci/other.toml"});
  // A discovered configuration that leads outside is not read.
  fs.real_path = [](const std::string& path) -> Expected<std::string, Diagnostic> {
    return path == lint::kConfigFileName ? std::string("/etc/passwd") : "/cwd/" + path;
  };
  fs.read_inside = read_inside_over(fs.real_path, fs.kind, read);
  CHECK(format(lint::load_config(fs, "", true).error()) ==
        ".dispatchtool-lint.toml: error: cannot read lint configuration: the path leads outside the current "
        "directory (symbolic links followed)\n");
}

TEST_CASE("load_config: a file that cannot be read or parsed") {
  std::map<std::string, std::string> files{{"bad.toml", "select = 3\n"}};
  const FileSystem fs = memory_filesystem(files);
  CHECK(format(lint::load_config(fs, "nope.toml", true).error()) ==
        "nope.toml: error: cannot read lint configuration: No such file or directory\n");
  CHECK(format(lint::load_config(fs, "bad.toml", true).error()) ==
        "bad.toml:1:10: error: field 'select' in the lint configuration must be an array of strings, not an integer\n");
}

TEST_CASE("lint config: ignore-tags drops the findings about operators with those tags") {
  auto c = lint::parse_config("ignore-tags = [\"generated\"]\n", "cfg.toml");
  REQUIRE(c.has_value());
  REQUIRE(c->ignore_tags.size() == 1);
  CHECK(c->ignore_tags[0].second == Location{"cfg.toml", 1, 16});
  lint::Config cli;
  cli.ignore_tags.emplace_back("view_copy", Location{});
  const lint::Config both = lint::merge(*c, cli);
  CHECK(both.ignore_tags.size() == 2);
  CHECK(lint::check_ignore_tags(both, profile("torch-1.13")).has_value());

  lint::Config bad;
  bad.ignore_tags.emplace_back("generatd", Location{"cfg.toml", 1, 16});
  auto e = lint::check_ignore_tags(bad, profile("torch-1.13"));
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error().where == Location{"cfg.toml", 1, 16});
  CHECK(e.error().message.starts_with("unknown tag 'generatd' (did you mean 'generated'?)"));
  bad.ignore_tags[0].second = Location{};
  // A tag the caller gave (no place in a file): the same message, unlocated;
  // the front end names its option (--ignore-tag).
  auto given = lint::check_ignore_tags(bad, profile("torch-1.13"));
  REQUIRE_FALSE(given.has_value());
  CHECK_FALSE(given.error().where.known());
  CHECK(given.error().message.starts_with("unknown tag 'generatd'"));

  const LoadResult l = must_load(
      "torch-1.13", {{"a.toml",
                      "namespace = \"x\"\n[[def]]\nschema = \"f(Tensor x) -> Tensor\"\ntags = [\"generated\"]\n"
                      "[[def]]\nschema = \"g(Tensor x) -> Tensor\"\n"}});
  std::vector<Finding> fs(3);
  fs[0].op = "x::f";
  fs[1].op = "x::g";
  fs[2].op = "";  // a library-level finding
  lint::drop_ignored_tags(*c, l.registry, fs);
  REQUIRE(fs.size() == 2);
  CHECK(fs[0].op == "x::g");
}

}  // namespace dt::test
