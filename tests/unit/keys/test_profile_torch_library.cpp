// The profile's [torch_library] table (keys/profile_torch_library.cpp).
#include "helpers.hpp"

namespace dt::test {

namespace {


const std::string kRoles =
    "no_fake_error = \"no fake for {op}; {function}\"\nno_autograd_error = \"no formula for {overload}\"\n"
    "trivial_fake = true\n[torch_library.debug]\ndef = \"d\"\nfake = \"f\"\nautograd = \"a\"\ndefault = \"x\"\ndevice = \"v\"\n"
    "inplace = \"i\"\nbackend_select = \"b\"\nkernel = \"k\"\nvmap = \"m\"\n";

}  // namespace

TEST_CASE("[torch_library]: read, and absent when not measured") {
  auto none = Profile::parse(kTiny, "p.toml");
  REQUIRE(none.has_value());
  CHECK_FALSE(none->torch_library().measured);
  CHECK_FALSE(none->torch_library().has("custom_op"));
  auto p = Profile::parse(kTiny +
                              "[torch_library]\napis = [\"custom_op\", \"register_vmap\"]\n"
                              "custom_op_tags = [\"pt2_compliant_tag\"]\ncustom_op_user_tags = true\n"
                              "python_override = true\nautograd_views = true\n"
                              "inplace_kernels = { mutable = 2, view = 1, mutable_view = 2 }\n" +
                              kRoles,
                          "p.toml");
  REQUIRE_MESSAGE(p.has_value(), (p ? "" : format(p.error())));
  const TorchLibraryInfo& tl = p->torch_library();
  CHECK(tl.measured);
  CHECK(tl.has("register_vmap"));
  CHECK_FALSE(tl.has("register_autocast"));
  CHECK(tl.custom_op_tags == std::vector<std::string>{"pt2_compliant_tag"});
  CHECK((tl.custom_op_user_tags && tl.python_override && tl.autograd_views));
  CHECK(tl.inplace_mutable == 2);
  CHECK(tl.inplace_view == 1);
  CHECK(tl.debug_of("fake") == "f");
  CHECK(tl.debug_of("autocast").empty());
  CHECK(tl.no_fake_error == "no fake for {op}; {function}");
  CHECK(tl.no_autograd_error == "no formula for {overload}");
  CHECK(tl.trivial_fake);
  // The generated profiles: 1.13 has none of the APIs, main is not measured.
  CHECK(profile("torch-1.13").torch_library().measured);
  CHECK(profile("torch-1.13").torch_library().apis.empty());
  CHECK_FALSE(profile("torch-main").torch_library().measured);
  CHECK(profile("torch-2.14").torch_library().has("register_autocast"));
  CHECK_FALSE(profile("torch-2.6").torch_library().has("register_autocast"));
}

TEST_CASE("[torch_library]: errors are located") {
  CHECK(profile_error(kTiny + "[torch_library]\napis = [\"custom_opp\"]\n") ==
        "p.toml:7:9: error: unknown torch.library API 'custom_opp'\n");
  CHECK(profile_error(kTiny + "[torch_library]\napis = [\"custom_op\"]\ninplace_kernels = { mutable = -1 }\n") ==
        "p.toml:8:31: error: inplace_kernels.mutable must be an integer 0..8\n");
  CHECK(
      profile_error(kTiny + "[torch_library]\napis = [\"custom_op\"]\n" + kRoles.substr(0, kRoles.find("[torch_library.debug]")))
              .find("error: [torch_library.debug] has no 'def'") !=
      std::string::npos);
  CHECK(profile_error(kTiny + "[torch_library]\napis = [\"custom_op\"]\nfoo = 1\n" + kRoles).find("p.toml:8:1: error:") ==
        0);
}

}  // namespace dt::test
