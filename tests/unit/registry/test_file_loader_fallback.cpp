// FileLoader: [[fallback]] entries, m.fallback() in a TORCH_LIBRARY_IMPL block.
#include "helpers.hpp"

namespace dt::test {

TEST_CASE("[[fallback]]: a kernel or fallthrough, on its key or the file's dispatch_key") {
  CHECK(error_of({{"a.toml", "[[fallback]]\nkey = \"XLA\"\n"}}) ==
        "a.toml:1:1: error: a [[fallback]] entry needs a 'kernel' (or fallthrough = true)\n");
  CHECK(error_of({{"a.toml", "[[fallback]]\nkernel = \"k\"\n"}}) ==
        "a.toml:1:1: error: a [[fallback]] entry needs a 'key' (or a file dispatch_key)\n");
  CHECK(error_of({{"a.toml",
                   "namespace = \"_\"\nkind = \"IMPL\"\ndispatch_key = \"XLA\"\n[[fallback]]\nkey = \"CPU\"\n"
                   "kernel = \"k\"\n"}}) ==
        "a.toml:5:7: error: fallback key CPU differs from the file's dispatch_key XLA\n");
  const auto l = must_load("torch-main", {{"a.toml", kDef},
                                          {"b.toml",
                                           "namespace = \"_\"\nkind = \"IMPL\"\ndispatch_key = \"XLA\"\n"
                                           "[[fallback]]\nfallthrough = true\n"}});
  CHECK(rows(raw_table(l, "t::foo"), {"XLA"}) == "XLA: fallthrough registered at b.toml:4 [backend fallback]\n");
  const Fallback* f = l.registry.fallback_for(*l.registry.profile().find("XLA"));
  REQUIRE(f != nullptr);
  CHECK(f->fallthrough);
  CHECK_FALSE(f->core);
  CHECK(to_string(f->where) == "b.toml:4:1");
}

TEST_CASE("[[fallback]]: raises = true and its message (a fallback that raises, as torch-xpu-ops' XPU one)") {
  const auto l = must_load("torch-2.14", {{"a.toml", kDef},
                                          {"b.toml", "[[fallback]]\nkey = \"XPU\"\nkernel = \"xpu_fb\"\nraises = true\n"
                                                     "message = \"not currently implemented for the XPU device\"\n"}});
  const Fallback* f = l.registry.fallback_for(*l.registry.profile().find("XPU"));
  REQUIRE(f != nullptr);
  CHECK(f->raises);
  CHECK(f->message == "not currently implemented for the XPU device");
  // Dispatch is unchanged: the table still shows the fallback.
  CHECK(rows(raw_table(l, "t::foo"), {"XPU"}) == "XPU: xpu_fb [backend fallback]\n");
  const auto plain = must_load("torch-2.14", {{"b.toml", "[[fallback]]\nkey = \"XPU\"\nkernel = \"k\"\n"}});
  CHECK_FALSE(plain.registry.fallback_for(*plain.registry.profile().find("XPU"))->raises);
  CHECK(error_of({{"a.toml", "[[fallback]]\nkey = \"XPU\"\nkernel = \"k\"\nmessage = \"m\"\n"}}) ==
        "a.toml:4:11: error: 'message' is what a raising fallback raises: it needs raises = true\n");
  CHECK(error_of({{"a.toml", "[[fallback]]\nkey = \"XPU\"\nfallthrough = true\nraises = true\n"}}) ==
        "a.toml:4:10: error: a fallthrough fallback cannot raise: it only redispatches (drop raises = true)\n");
  CHECK(error_of({{"a.toml", "[[fallback]]\nkey = \"XPU\"\nkernel = \"k\"\nraises = \"yes\"\n"}}).find("raises") !=
        std::string::npos);
}

TEST_CASE("[[fallback]]: a file without a kind is its own TORCH_LIBRARY_IMPL(_, KEY) block") {
  const auto l =
      must_load("torch-main", {{"a.toml", kDef}, {"b.toml", "[[fallback]]\nkey = \"Lazy\"\nkernel = \"lz\"\n"}});
  CHECK(rows(raw_table(l, "t::foo"), {"Lazy"}) == "Lazy: lz [backend fallback]\n");
  CHECK(to_string(l.registry.fallback_for(*l.registry.profile().find("Lazy"))->where) == "b.toml:2:7");
}

}  // namespace dt::test
