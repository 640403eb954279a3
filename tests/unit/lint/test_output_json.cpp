// Lint output: JSON and SARIF (locations, URIs, fingerprints).
#include "lint/output.hpp"
#include "lint_helpers.hpp"

namespace dt::test {

TEST_CASE("lint output: SARIF artifact URIs") {
  CHECK(lint::path_to_uri("./ops/a b.toml", "") == "ops/a%20b.toml");
  CHECK(lint::path_to_uri("/work/repo/ops/a.toml", "/work/repo") == "ops/a.toml");
  CHECK(lint::path_to_uri("/elsewhere/a.toml", "/work/repo") == "file:///elsewhere/a.toml");
  CHECK(lint::path_to_uri("<stdin>", "") == "%3Cstdin%3E");
}

TEST_CASE("lint output: SARIF locations stay inside the analysed repository") {
  // A second fallback on AutogradCPU: the note points at PyTorch's own
  // fallback in the built-in profile, which is no file of the repository.
  const auto f = lint_files({{"a.toml", "[[fallback]]\nkey = \"AutogradCPU\"\nkernel = \"mine\"\n"}}, "torch-1.13");
  REQUIRE(f.size() == 1);
  REQUIRE(f[0].notes.size() == 1);
  std::string sarif;
  lint::render_sarif(f, lint::OutputInfo{"0", "torch-1.13", ""}, sarif);
  CHECK(!contains(sarif, "relatedLocations"));
  CHECK(contains(sarif, "\"uri\": \"a.toml\",\n"));
  CHECK(contains(sarif, "\"uriBaseId\": \"%SRCROOT%\""));
  // A file outside the directory lint ran in is not relative to %SRCROOT%.
  auto outside = f;
  outside[0].where.file = "../elsewhere/a.toml";
  std::string sarif2;
  lint::render_sarif(outside, lint::OutputInfo{"0", "torch-1.13", ""}, sarif2);
  CHECK(contains(sarif2, "\"uri\": \"../elsewhere/a.toml\"\n"));
  CHECK(!contains(sarif2, "uriBaseId"));
}

TEST_CASE("lint output: fingerprints do not depend on line numbers") {
  Finding a;
  a.rule = "duplicate-registration";
  a.op = "t::foo";
  a.key = "CPU";
  a.where = {"a.toml", 4, 7};
  Finding b = a;
  b.where = {"a.toml", 40, 1};
  b.message = "moved";
  CHECK(lint::fingerprint(a, 0) == lint::fingerprint(b, 0));
  CHECK(lint::fingerprint(a, 0) != lint::fingerprint(a, 1));
  b.key = "CUDA";
  CHECK(lint::fingerprint(a, 0) != lint::fingerprint(b, 0));
  CHECK(lint::fingerprint(a, 0).size() == 16);
}

}  // namespace dt::test
