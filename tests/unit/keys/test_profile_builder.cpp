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


std::vector<std::string> names(const Profile& p, const std::vector<KeyId>& ks) {
  std::vector<std::string> out;
  for (KeyId k : ks) out.push_back(p.name_of(k));
  return out;
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
  CHECK(profile_error("name = \"x\"\n").find(": error: missing required field 'backends'") != std::string::npos);
  CHECK(profile_error("name = \"x\"\nbackends = []\nfunctionality = []\naliases = []\n") ==
        "p.toml:2:12: error: a profile needs at least one backend\n");
  CHECK(profile_error(kTiny + "[[fallback]]\nkey = \"CPUU\"\ndebug = \"d\"\n") ==
        "p.toml:7:7: error: unknown dispatch key 'CPUU' (did you mean 'CPU'?)\n");
  CHECK(profile_error(kTiny + "[[fallback]]\nkey = \"Dense\"\ndebug = \"d\"\n") ==
        "p.toml:7:7: error: fallback key 'Dense' is not a runtime key\n");
  CHECK(
      profile_error(kTiny + "[[fallback]]\nkey = \"CPU\"\ndebug = \"a\"\n[[fallback]]\nkey = \"CPU\"\ndebug = \"b\"\n") ==
      "p.toml:10:7: error: two fallbacks for 'CPU'\n");
  CHECK(profile_error(kTiny + "override_warning = \"sometimes\"\n") ==
        "p.toml:6:20: error: override_warning must be \"always\" or \"once\"\n");
  CHECK(profile_error(kTiny + "autograd_backend_keys = [\"XLA\"]\n") ==
        "p.toml:6:26: error: 'XLA' is not a backend of this profile\n");
  std::string twice = kTiny;
  twice.replace(twice.find("\"FPGA\""), 6, "\"FPGA\", \"FPGA\"");
  // At the second one.
  CHECK(profile_error(twice) == "p.toml:3:35: error: key 'FPGA' is defined twice\n");
  std::string no_other = kTiny;
  no_other.replace(no_other.find("\"AutogradOther\", "), 17, "");
  // At the list that lacks it.
  CHECK(profile_error(no_other) == "p.toml:3:17: error: the profile must define the key 'AutogradOther'\n");
  CHECK(profile_error(kTiny + "[python_dispatcher]\nduplicates_error = \"duplicates\"\n") ==
        "p.toml:7:20: error: duplicates_error must contain {keys} (where the list's repr goes)\n");
}

namespace {

// kTiny with `extra` functionality keys before its own, and more backends.
std::string tiny_with(std::size_t extra, std::size_t backends = 2) {
  std::string func, back = "\"CPU\", \"CUDA\"";
  for (std::size_t i = 0; i < extra; ++i) func += fmt::format("\"F{}\", ", i);
  for (std::size_t i = 2; i < backends; ++i) back += fmt::format(", \"B{}\"", i);
  std::string t = kTiny;
  t.replace(t.find("functionality = [") + 17, 0, func);
  const std::string two = "\"CPU\", \"CUDA\"";
  t.replace(t.find(two), two.size(), back);
  return t;
}

}  // namespace

TEST_CASE("ProfileBuilder: every key is found by its name, however the key list grew (issue 11: use after free)") {
  // 1 + #functionality keys a power of two: the EndOfFunctionalityKeys marker
  // reallocated the key list under views of its names.
  for (const std::size_t extra : {std::size_t{1}, std::size_t{2}, std::size_t{9}, std::size_t{25}, std::size_t{26}}) {
    CAPTURE(extra);
    auto parsed = Profile::parse(tiny_with(extra), "p.toml");
    REQUIRE_MESSAGE(parsed.has_value(), (parsed ? "" : format(parsed.error())));
    const Profile& p = *parsed;
    for (std::size_t i = 0; i < p.keys().size(); ++i) {
      const KeyInfo& k = p.keys()[i];
      if (k.kind == KeyKind::Marker) continue;
      CAPTURE(k.name);
      REQUIRE(p.find(k.name).has_value());
      CHECK(*p.find(k.name) == i);
    }
    CHECK(p.find("AutogradCUDA").has_value());
  }
}

TEST_CASE("ProfileBuilder: keyset bits are counted before anything is built, in size_t (issue 11)") {
  // 64 bits: accepted; 65: refused, with the real counts (a 16-bit count wrapped at 65,536).
  CHECK(Profile::parse(tiny_with(56), "p.toml").has_value());
  CHECK(profile_error(tiny_with(56, 3)) ==
        "p.toml:3:17: error: 3 backends and 62 functionality keys need 65 keyset bits; at most 64 fit\n");
  CHECK(profile_error(tiny_with(65600 - 6)) ==
        "p.toml:3:17: error: 2 backends and 65600 functionality keys need 65602 keyset bits; at most 64 fit\n");
  CHECK(profile_error(tiny_with(65541 - 6)).find("65541 functionality keys") != std::string::npos);
}

TEST_CASE("ProfileBuilder: a building block listed twice in per_backend is refused where it repeats") {
  std::string twice = kTiny;
  twice.replace(twice.find("{ key = \"AutogradFunctionality\""), 0, "{ key = \"Dense\", prefix = \"P\" }, ");
  CHECK(profile_error(twice) == "p.toml:4:56: error: per_backend lists the building block 'Dense' twice\n");
}

TEST_CASE("ProfileBuilder: many libraries are checked for repeats in linear time") {
  std::string t = kTiny;
  for (int i = 0; i < 50000; ++i) t += fmt::format("[[library]]\nnamespace = \"ns{}\"\ndebug = \"d\"\n", i);
  auto p = Profile::parse(t + "[[library]]\nnamespace = \"ns7\"\ndebug = \"d\"\n", "p.toml");
  REQUIRE_FALSE(p.has_value());
  CHECK(p.error().message == "two libraries for 'ns7'");
}

}  // namespace dt::test
