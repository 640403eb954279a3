// FileLoader: [[impl]] entries on keys, key lists and device types.
#include "helpers.hpp"

namespace dt::test {

TEST_CASE("keys, keys lists, device types, dispatch shorthand") {
  const auto l = must_load(
      "torch-main",
      {{"a.toml",
        kDef + "dispatch = { \"CUDA, HIP\" = \"gpu\", CPU = \"cpu\" }\n"
               "[[impl]]\nop = \"foo\"\ndevice_types = [\"meta\", \"default\"]\nkernel = \"py\"\nboxed_only = true\n"
               "[[impl]]\nop = \"t::foo\"\nkeys = [\"XLA\", \"Lazy\"]\nfallthrough = true\n"}});
  const std::string reg = raw_registrations(l, "t::foo");
  CHECK(reg ==
        "name: t::foo\n"
        "schema: t::foo(Tensor x) -> Tensor\n"
        "debug: registered at a.toml:2\n"
        "alias analysis kind: FROM_SCHEMA\n"
        "CPU: cpu :: (none) [ boxed unboxed ]\n"
        "CUDA: gpu :: (none) [ boxed unboxed ]\n"
        "HIP: gpu :: (none) [ boxed unboxed ]\n"
        "XLA: registered at a.toml:10 :: (none) [ fallthrough boxed ]\n"
        "Lazy: registered at a.toml:10 :: (none) [ fallthrough boxed ]\n"
        "Meta: py :: (none) [ boxed ]\n"
        "CompositeExplicitAutograd[alias]: py :: (none) [ boxed ]\n");
  CHECK(rows(raw_table(l, "t::foo"), {"XLA", "MPS"}) ==
        "XLA: fallthrough registered at a.toml:10 [kernel]\n"
        "MPS: py [default backend kernel]\n");
  CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\ndevice_types = [\"cdua\"]\nkernel = \"k\"\n"}}) ==
        "a.toml:6:17: error: unknown device type 'cdua' (did you mean 'cuda'?)\n");
  // The device types are the profile's: torch.device parses "ort" in 1.13 only, "metal" in neither.
  const std::string ort = kDef + "[[impl]]\nop = \"foo\"\ndevice_types = [\"ort\"]\nkernel = \"k\"\n";
  CHECK(rows(raw_table(must_load("torch-1.13", {{"a.toml", ort}}), "t::foo"), {"ORT"}) == "ORT: k [kernel]\n");
  CHECK(error_of({{"a.toml", ort}}).find("a.toml:6:17: error: unknown device type 'ort'") == 0);
  for (const char* prof : {"torch-1.13", "torch-main"})
    CHECK(error_of({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\ndevice_types = [\"metal\"]\nkernel = \"k\"\n"}}, prof)
              .find("unknown device type 'metal'") != std::string::npos);
}

}  // namespace dt::test
