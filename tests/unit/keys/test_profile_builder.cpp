// Profiles from TOML: the builder's errors and what it derives.
#include "helpers.hpp"

namespace dt::test {

TEST_CASE("profile errors are located") {
  auto bad = Profile::parse(
      "name = \"x\"\nbackends = [\"CPU\"]\nfunctionality = [\"Dense\"]\naliases = [\"Autograd\", \"Autogrud\"]\n",
      "p.toml");
  REQUIRE_FALSE(bad.has_value());
  CHECK(format(bad.error()) == "p.toml:4:24: error: unknown alias key 'Autogrud' (did you mean 'Autograd'?)\n");
  auto syntax = Profile::parse("name = \n", "q.toml");
  REQUIRE_FALSE(syntax.has_value());
  CHECK(syntax.error().where.line == 1);
  auto unknown = load_profile("torch-1.31", real_filesystem().read);
  REQUIRE_FALSE(unknown.has_value());
  CHECK(unknown.error().message.find("did you mean 'torch-1.13'") != std::string::npos);
}

}  // namespace dt::test
