// lint/suppress: `dispatchtool: ignore[...]` comments, as ruff's noqa.
#include "lint/suppress.hpp"

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("suppressed: the rules a line names, every rule for a bare marker, the next line's") {
  using lint::suppressed;
  CHECK(suppressed("m.impl(\"q\", f);  // dispatchtool: ignore[missing-autograd]", "", "missing-autograd"));
  CHECK(suppressed("x  # dispatchtool: ignore[a-rule, missing-autograd]", "", "missing-autograd"));
  CHECK_FALSE(suppressed("x  // dispatchtool: ignore[duplicate-registration]", "", "missing-autograd"));
  CHECK(suppressed("x  // dispatchtool: ignore", "", "missing-autograd"));
  CHECK(suppressed("x  /* dispatchtool: ignore */", "", "missing-autograd"));
  CHECK_FALSE(suppressed("x  // dispatchtool: ignored", "", "missing-autograd"));
  CHECK(suppressed("x", "// dispatchtool: ignore-next-line[missing-autograd]", "missing-autograd"));
  CHECK(suppressed("x", "# dispatchtool: ignore-next-line", "missing-autograd"));
  CHECK_FALSE(suppressed("x", "// dispatchtool: ignore[missing-autograd]", "missing-autograd"));  // not the next line's
  CHECK_FALSE(suppressed("x  // dispatchtool: ignore-next-line[missing-autograd]", "", "missing-autograd"));
}

TEST_CASE("drop_suppressed: findings at a marked line are dropped, others kept") {
  lint::MarkedLines marked;
  marked.collect("ops.cpp", "a\nb  // dispatchtool: ignore[missing-autograd]\nc\n// dispatchtool: ignore-next-line\nd\n");
  marked.collect("clean.cpp", "no markers at all\n");
  const auto at = [](const char* f, std::uint32_t l, const char* rule) {
    lint::Finding x;
    x.rule = rule;
    x.where = Location{f, l, 1};
    return x;
  };
  std::vector<lint::Finding> findings{at("ops.cpp", 2, "missing-autograd"), at("ops.cpp", 2, "duplicate-registration"),
                                      at("ops.cpp", 3, "missing-autograd"), at("ops.cpp", 5, "duplicate-registration"),
                                      at("clean.cpp", 1, "missing-autograd")};
  CHECK(lint::drop_suppressed(findings, marked) == 2);
  REQUIRE(findings.size() == 3);
  CHECK(findings[0].rule == "duplicate-registration");
  CHECK(findings[0].where.line == 2);
  CHECK(findings[1].where.line == 3);
  CHECK(findings[2].where.file.view() == "clean.cpp");
}

}  // namespace dt::test
