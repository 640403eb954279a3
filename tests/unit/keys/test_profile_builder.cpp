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

namespace {

// A small universe: two backends, Dense and AutogradFunctionality per backend.
const std::string kTiny =
    "name = \"tiny\"\n"
    "backends = [\"CPU\", \"CUDA\"]\n"
    "functionality = [\"Dense\", \"FPGA\", \"NestedTensor\", \"AutogradOther\", \"AutogradFunctionality\", "
    "\"AutogradNestedTensor\"]\n"
    "per_backend = [{ key = \"Dense\", prefix = \"\" }, { key = \"AutogradFunctionality\", prefix = \"Autograd\" }]\n"
    "aliases = [\"Autograd\", \"CompositeImplicitAutograd\", \"CompositeExplicitAutograd\"]\n";

std::vector<std::string> names(const Profile& p, const std::vector<KeyId>& ks) {
  std::vector<std::string> out;
  for (KeyId k : ks) out.push_back(p.name_of(k));
  return out;
}

std::string build_error(const std::string& text) {
  auto p = Profile::parse(text, "p.toml");
  REQUIRE_MESSAGE(!p.has_value(), "expected an error");
  return format(p.error());
}

}  // namespace

TEST_CASE("ProfileBuilder: the enum, table order and alias sets of a small universe") {
  auto parsed = Profile::parse(kTiny, "p.toml");
  REQUIRE_MESSAGE(parsed.has_value(), (parsed ? "" : format(parsed.error())));
  const Profile& p = *parsed;
  CHECK(p.name() == "tiny");
  CHECK(p.source() == "p.toml");
  CHECK(names(p, p.runtime_keys()) == std::vector<std::string>{"Undefined", "CPU", "CUDA", "FPGA", "NestedTensor",
                                                               "AutogradOther", "AutogradCPU", "AutogradCUDA",
                                                               "AutogradNestedTensor"});
  // 0 Undefined, 1-6 functionality, 7 EndOfFunctionalityKeys, 8 StartOfDenseBackends, 9-10,
  // 11 StartOfAutogradFunctionalityBackends, 12-13, then the aliases.
  CHECK(*p.find("Dense") == 1);
  CHECK(*p.find("CPU") == 9);
  CHECK(*p.find("AutogradCUDA") == 13);
  CHECK(*p.find("Autograd") == 14);
  CHECK(p.key(*p.find("Dense")).kind == KeyKind::BuildingBlock);
  CHECK(p.key(*p.find("FPGA")).kind == KeyKind::Functionality);
  CHECK(names(p, p.alias_members(*p.find("Autograd"))) ==
        std::vector<std::string>{"AutogradOther", "AutogradCPU", "AutogradCUDA", "AutogradNestedTensor"});
  CHECK(names(p, p.building_block_members(*p.find("Dense"))) == std::vector<std::string>{"CPU", "CUDA"});
  CHECK(p.fallbacks().empty());
  CHECK_FALSE(p.quirks().override_warning_once);
}

TEST_CASE("ProfileBuilder: errors point at what is wrong") {
  CHECK(build_error("name = \"x\"\n").find(": error: missing required field 'backends'") != std::string::npos);
  CHECK(build_error("name = \"x\"\nbackends = []\nfunctionality = []\naliases = []\n") ==
        "p.toml:2:12: error: a profile needs at least one backend\n");
  CHECK(build_error(kTiny + "[[fallback]]\nkey = \"CPUU\"\ndebug = \"d\"\n") ==
        "p.toml:7:7: error: unknown dispatch key 'CPUU' (did you mean 'CPU'?)\n");
  CHECK(build_error(kTiny + "[[fallback]]\nkey = \"Dense\"\ndebug = \"d\"\n") ==
        "p.toml:7:7: error: fallback key 'Dense' is not a runtime key\n");
  CHECK(
      build_error(kTiny + "[[fallback]]\nkey = \"CPU\"\ndebug = \"a\"\n[[fallback]]\nkey = \"CPU\"\ndebug = \"b\"\n") ==
      "p.toml:10:7: error: two fallbacks for 'CPU'\n");
  CHECK(build_error(kTiny + "override_warning = \"sometimes\"\n") ==
        "p.toml:6:20: error: override_warning must be \"always\" or \"once\"\n");
  CHECK(build_error(kTiny + "autograd_backend_keys = [\"XLA\"]\n") ==
        "p.toml:6:26: error: 'XLA' is not a backend of this profile\n");
  std::string twice = kTiny;
  twice.replace(twice.find("\"FPGA\""), 6, "\"FPGA\", \"FPGA\"");
  // At the second one.
  CHECK(build_error(twice) == "p.toml:3:35: error: key 'FPGA' is defined twice\n");
  std::string no_other = kTiny;
  no_other.replace(no_other.find("\"AutogradOther\", "), 17, "");
  // At the list that lacks it.
  CHECK(build_error(no_other) == "p.toml:3:17: error: the profile must define the key 'AutogradOther'\n");
}

}  // namespace dt::test
