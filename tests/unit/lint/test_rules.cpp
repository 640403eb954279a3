// The rule table (the single source of ids, severities and texts) and run().
#include <algorithm>
#include <set>

#include "lint_helpers.hpp"

namespace dt::test {

TEST_CASE("lint: the rule table is complete and stable") {
  const auto rules = lint::rules();
  std::set<std::string_view> ids;
  for (const auto& r : rules) {
    CHECK(ids.insert(r.id).second);
    CHECK((r.check != nullptr));
    CHECK(!r.summary.empty());
    CHECK(!r.help.empty());
    CHECK((!r.spec.empty() || r.id == "unread-registration"));  // about C++ sources, outside the dispatcher spec
    CHECK(std::all_of(r.id.begin(), r.id.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; }));
    CHECK(lint::find_rule(r.id) == &r);
    CHECK(lint::rule_index(r.id) == static_cast<std::size_t>(&r - rules.data()));
  }
  for (std::string_view id : {"duplicate-def", "duplicate-registration", "duplicate-fallback", "impl-without-def",
                              "composite-conflict", "ambiguous-autogradother", "library-kind", "schema-mismatch",
                              "missing-autograd", "meta-on-composite", "shadowed-composite"})
    CHECK(ids.count(id) == 1);
  CHECK(lint::find_rule("duplicate-def")->severity == Severity::Error);
  CHECK(lint::find_rule("schema-mismatch")->severity == Severity::Warning);
  CHECK(lint::find_rule("shadowed-composite")->severity == Severity::Info);
  CHECK(lint::rule_by_id("duplicate-defs").error().message ==
        "unknown lint rule 'duplicate-defs' (did you mean 'duplicate-def'?)");
  CHECK(lint::rule_by_id("missing-autograd").value() == lint::find_rule("missing-autograd"));
}

TEST_CASE("lint: docs/lint.md documents every rule") {
  const std::string doc = read_text(std::string(DT_TEST_DATA_DIR) + "/../../../docs/lint.md");
  for (const auto& r : lint::rules()) {
    CHECK_MESSAGE(contains(doc, "## `" + std::string(r.id) + "`"), r.id);
    CHECK_MESSAGE(contains(doc, "Default severity: **" + std::string(to_string(r.severity)) + "**"), r.id);
  }
}

TEST_CASE("lint: a clean input has no findings") {
  const auto all =
      lint_files({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CompositeImplicitAutograd\"\nkernel = \"m\"\n"}});
  CHECK(all.empty());
}

TEST_CASE("lint: findings are sorted by file, line, column and rule") {
  const auto all = lint_files({{"b.toml", "namespace = \"t\"\n" + impl("CPU", "k")},
                               {"a.toml", kDef + impl("CompositeImplicitAutograd", "m") + impl("Meta", "x")}});
  REQUIRE(all.size() >= 3);
  for (std::size_t i = 1; i < all.size(); ++i)
    CHECK(std::tie(all[i - 1].where.file, all[i - 1].where.line, all[i - 1].where.column, all[i - 1].rule) <=
          std::tie(all[i].where.file, all[i].where.line, all[i].where.column, all[i].rule));
  CHECK(all.front().where.file == "a.toml");
}

}  // namespace dt::test
