// Lint baselines: keyed on rule, operator and key, with counts.
#include <map>
#include <string_view>

#include "lint/baseline.hpp"
#include "lint/config.hpp"
#include "lint/output.hpp"
#include "lint_helpers.hpp"

namespace dt::test {

TEST_CASE("lint baseline: keyed on rule, operator and key, counts, round trip") {
  const Files before{{"a.toml", kDef + impl("CPU", "k1") + impl("CPU", "k2")}};
  auto findings = lint_files(before);
  const auto baseline = lint::make_baseline(findings);
  const std::string text = lint::write_baseline(baseline);
  CHECK(text.find("a.toml") == std::string::npos);  // no files, no line numbers
  CHECK(contains(text, "[[accept]]\nrule = \"duplicate-registration\"\nop = \"t::foo\"\nkey = \"CPU\"\ncount = 1\n"));
  auto parsed = lint::parse_baseline(text, "base.toml");
  REQUIRE(parsed.has_value());
  CHECK(parsed->entries == baseline.entries);

  // The same findings after lines moved: all accepted.
  auto moved = lint_files({{"a.toml", "# a comment\n\n" + kDef + impl("CPU", "k1") + impl("CPU", "k2")}});
  CHECK(lint::apply_baseline(*parsed, moved, {}).accepted == findings.size());
  CHECK(moved.empty());

  // A third kernel on the same operator and key is the same finding (one per
  // operator and key); an override on another key is a new one.
  auto more = lint_files({{"a.toml", kDef + impl("CPU", "k1") + impl("CPU", "k2") + impl("CPU", "k3") +
                                         impl("Meta", "m1") + impl("Meta", "m2")}});
  const auto dup = of_rule(more, "duplicate-registration").size();
  CHECK(dup == 2);
  CHECK(lint::apply_baseline(*parsed, more, {}).unmatched == 0);
  REQUIRE(of_rule(more, "duplicate-registration").size() == 1);
  CHECK(of_rule(more, "duplicate-registration")[0].key == "Meta");

  // Fixed: the entry matches nothing, and the summary says so (a problem that
  // comes back would otherwise be accepted silently by the stale entry).
  auto fixed = lint_files({{"a.toml", kDef + impl("CPU", "k1")}});
  const lint::BaselineUse use = lint::apply_baseline(*parsed, fixed, {});
  CHECK(use.accepted == 1);   // missing-autograd on CPU is still there
  CHECK(use.unmatched == 1);  // the duplicate registration is gone
  CHECK(lint::summary_line(lint::summarize(fixed, use)) ==
        "no findings; 1 accepted by the baseline; 1 finding the baseline accepts no longer occurs (fixed? refresh it "
        "with --write-baseline)");
  // With that rule not run (--ignore), its entry is not stale: it was not looked for.
  lint::Config ignore_dup;
  ignore_dup.ignore = {"duplicate-registration"};
  auto fixed2 = lint_files({{"a.toml", kDef + impl("CPU", "k1")}});
  lint::apply(ignore_dup, fixed2);
  CHECK(lint::apply_baseline(*parsed, fixed2, ignore_dup).unmatched == 0);

  auto bad = lint::parse_baseline("version = 1\n[[accept]]\nrule = \"nope\"\n", "base.toml");
  REQUIRE(!bad.has_value());
  CHECK(format(bad.error()) == "base.toml:3:8: error: unknown lint rule 'nope'\n");
  CHECK(!lint::parse_baseline("version = 2\n", "base.toml").has_value());
  // A float is not a version (1e222 as an integer was undefined behaviour).
  CHECK(format(lint::parse_baseline("version = 1E222\n", "base.toml").error()) ==
        "base.toml:1:11: error: a lint baseline needs 'version = 1'\n");
  CHECK(!lint::parse_baseline("version = 1.0\n", "base.toml").has_value());
  CHECK(!lint::parse_baseline("version = 1\n[[accept]]\nrule = \"duplicate-def\"\ncount = 0\n", "b.toml").has_value());
}

TEST_CASE("save_baseline and load_baseline: a baseline file through the FileSystem") {
  std::map<std::string, std::string> files;
  const FileSystem fs = memory_filesystem(files);
  const auto findings = lint_files({{"a.toml", kDef + impl("CPU", "k1") + impl("CPU", "k2")}});
  REQUIRE_FALSE(findings.empty());
  auto saved = lint::save_baseline(fs, "base.toml", findings);
  REQUIRE(saved.has_value());
  CHECK(saved->entries == lint::make_baseline(findings).entries);
  CHECK(files.at("base.toml") == lint::write_baseline(*saved));
  auto loaded = lint::load_baseline(fs, "base.toml");
  REQUIRE(loaded.has_value());
  CHECK(loaded->entries == saved->entries);
  CHECK(format(lint::load_baseline(fs, "none.toml").error()) ==
        "none.toml: error: cannot read lint baseline: No such file or directory\n");
  // A baseline a configuration names is read inside its roots (issue 32).
  files["repo/b.toml"] = files.at("base.toml");
  CHECK(lint::load_baseline(fs, "repo/b.toml", {"repo"}).has_value());
  CHECK(format(lint::load_baseline(fs, "base.toml", {"repo"}).error()) ==
        "base.toml: error: cannot read lint baseline: the path leads outside 'repo' (symbolic links followed)\n");
}

TEST_CASE("save_baseline: why a baseline could not be written (no location)") {
  std::map<std::string, std::string> files;
  FileSystem fs = memory_filesystem(files);
  fs.write = [](const std::string& path, std::string_view) -> Expected<Ok, Diagnostic> {
    return unexpected(make_error(Location{path, 0, 0}, "Permission denied"));
  };
  auto denied = lint::save_baseline(fs, "base.toml", {});
  REQUIRE_FALSE(denied.has_value());
  CHECK(denied.error().message == "cannot write baseline 'base.toml': Permission denied");
  CHECK(denied.error().where.file.empty());
  // Only closing the file failed: no reason.
  fs.write = [](const std::string& path, std::string_view) -> Expected<Ok, Diagnostic> {
    return unexpected(make_error(Location{path, 0, 0}, ""));
  };
  CHECK(lint::save_baseline(fs, "base.toml", {}).error().message == "cannot write baseline 'base.toml'");
}

}  // namespace dt::test
