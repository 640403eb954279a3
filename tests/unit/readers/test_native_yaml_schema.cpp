// analyse_native_schema: what torchgen reads from a schema.
#include "readers/native_yaml_schema.hpp"

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("analyse_native_schema: kinds as torchgen's SchemaKind") {
  auto k = [](const char* s) {
    auto r = analyse_native_schema(s);
    REQUIRE(r);
    return r->kind;
  };
  CHECK(k("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor") == SchemaKind::Functional);
  CHECK(k("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)") == SchemaKind::Inplace);
  CHECK(k("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)") == SchemaKind::Out);
  CHECK(k("__iand__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)") == SchemaKind::Inplace);
  CHECK(k("__and__.Scalar(Tensor self, Scalar other) -> Tensor") == SchemaKind::Functional);
  CHECK(k("_fused_moving_avg_obs_fq_helper_functional(Tensor self, Tensor running_min) -> (Tensor, Tensor)") ==
        SchemaKind::Functional);
  CHECK(k("_amp_foreach_non_finite_check_and_unscale_(Tensor(a!)[] self, Tensor(b!) found_inf) -> ()") ==
        SchemaKind::Inplace);
  CHECK(k("_fused_moving_avg_obs_fq_helper(Tensor self, Tensor(a!) running_min) -> (Tensor, Tensor)") ==
        SchemaKind::Mutable);
  CHECK(k("foo.out(Tensor self, *, Tensor(a!) out, Tensor(b!) _scratch_x) -> Tensor(a!)") == SchemaKind::Scratch);
}

TEST_CASE("analyse_native_schema: name, namespace, returns, TensorOptions") {
  auto r = analyse_native_schema(
      "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor");
  REQUIRE(r);
  CHECK(r->name == "empty.memory_format");
  CHECK(r->base == "empty");
  CHECK(r->ns == "aten");
  CHECK(r->tensor_options);
  CHECK(r->returns == 1);
  auto t = analyse_native_schema("myns::topk.values(Tensor self, int k, *, Tensor(a!) values, Tensor(b!) indices) -> "
                                 "(Tensor(a!) values, Tensor(b!) indices)");
  REQUIRE(t);
  CHECK(t->ns == "myns");
  CHECK(t->qualified() == "myns::topk.values");
  CHECK(t->returns == 2);
  CHECK(!t->tensor_options);
  CHECK(analyse_native_schema("f(Tensor[] self) -> ()")->returns == 0);
  CHECK(!analyse_native_schema("f(Tensor self)"));
  CHECK(!analyse_native_schema("(Tensor self) -> Tensor"));
  CHECK(!analyse_native_schema("f(Tensor self -> Tensor"));
}

}  // namespace dt::test
