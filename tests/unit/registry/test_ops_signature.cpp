// ops_call_signature against PyTorch's own: every kernel autocast registers
// with its KERNEL macros (WrapFunction over at::_ops::NAME::call) carries
// exactly the schema c10 inferred from that function, in the real 2.14 and
// 2.6 libraries (exported from the real builds).
#include "registry/ops_signature.hpp"

#include "helpers.hpp"
#include "registry/library.hpp"

namespace dt::test {

TEST_CASE("ops_call_signature: each autocast kernel of the 2.14 and 2.6 libraries") {
  for (const char* prof : {"torch-2.14", "torch-2.6"}) {
    CAPTURE(prof);
    const Profile& p = profile(prof);
    auto lib = open_library(p, real_filesystem(), embedded_libraries());
    REQUIRE(lib.has_value());
    LoadResult all{Registry(p, *lib), {}, {}};
    all.registry.materialize_all();
    const KeyId autocast = *p.find("AutocastCUDA");
    std::size_t checked = 0;
    for (const Operator& op : all.registry.operators()) {
      const Kernel* k = op.get(autocast);
      if (k == nullptr || !op.def || k->signature == nullptr ||
          k->debug.find("ATen/autocast_mode.cpp") == std::string::npos)
        continue;
      CAPTURE(op.name);
      CHECK(ops_call_signature(op.def->schema) == *k->signature);
      ++checked;
    }
    CHECK(checked >= 100);  // 120 in 2.14
  }
}

TEST_CASE("ops_call_signature: alias annotations, list sizes (but bool[N]) and defaults dropped") {
  auto s = parse_schema(
      "f(Tensor(a!) self, int[2] p=0, bool[3] mask, Tensor(b)[] l, Tensor? w=None, *, SymInt[1]? o=None) -> "
      "(Tensor(a!), Tensor[])");
  REQUIRE(s.has_value());
  CHECK(ops_call_signature(*s) ==
        "(Tensor _0, int[] _1, bool[3] _2, Tensor[] _3, Tensor? _4, SymInt[]? _5) -> (Tensor _0, Tensor[] _1)");
  CHECK(ops_call_signature(*parse_schema("g() -> ()")) == "() -> ()");
}

}  // namespace dt::test
