// Rules on the keys kernels are registered on: building-block-key and unparseable-key.
#include "lint_helpers.hpp"

namespace dt::test {

TEST_CASE("lint building-block-key: kernels on Dense, Sparse, ...") {
  const auto f = lint_rule({{"a.toml", kDef + impl("Dense", "d") + impl("Sparse", "s")}}, "building-block-key");
  REQUIRE(f.size() == 2);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(locations(f[0]) == Locs{"a.toml:6:7"});
  CHECK(f[0].key == "Dense");
  CHECK(contains(f[0].fix, "keys = [\"CPU\", \"CUDA\"]"));
  CHECK(locations(f[1]) == Locs{"a.toml:10:7"});
  CHECK(contains(f[1].fix, "keys = [\"SparseCPU\", \"SparseCUDA\"]"));
  CHECK(lint_rule({{"a.toml", kDef + impl("CPU", "c")}}, "building-block-key").empty());
}

TEST_CASE("lint unparseable-key: a boxed-only kernel on a key Python cannot name") {
  const auto f = lint_rule({{"a.toml", kDef + impl("AutogradHIP", "py", "boxed_only = true\n")}}, "unparseable-key");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(locations(f[0]) == Locs{"a.toml:6:7"});
  CHECK(contains(f[0].message, "could not parse dispatch key: AutogradHIP"));
  CHECK(lint_rule({{"a.toml", kDef + impl("AutogradHIP", "cpp")}}, "unparseable-key").empty());
  CHECK(lint_rule({{"a.toml", kDef + impl("AutogradCPU", "py", "boxed_only = true\n")}}, "unparseable-key").empty());
  // Boxed-only with an inferred schema: a typed C++ SymInt kernel, as torch
  // 1.13's RegisterSparseMeta.cpp registers on SparseMeta.
  CHECK(lint_rule({{"a.toml",
                    kDef + impl("SparseMeta", "cpp", "boxed_only = true\nsignature = \"(Tensor _0) -> Tensor _0\"\n")}},
                  "unparseable-key", "torch-1.13")
            .empty());
}

}  // namespace dt::test
