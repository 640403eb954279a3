// The helpers every lint check uses (lint/check.hpp).
#include "helpers.hpp"
#include "lint/check.hpp"

namespace dt::test {

using lint::CheckContext;

TEST_CASE("lint check helpers: key names (PrivateUse1 renamed), joins, aliases, labels, entries") {
  const auto l = must_load("torch-main", {{"a.toml",
                                           "namespace = \"t\"\nprivateuse1_backend = \"npu\"\n[[def]]\n"
                                           "schema = \"foo(Tensor x) -> Tensor\"\ndispatch = { AutogradNpu = \"ag\" }\n"
                                           "[[impl]]\nop = \"foo\"\nkernel = \"any\"\n"}});
  const Resolver r(l.registry);
  const CheckContext c{l.registry, l.registry.profile(), r, l.refusals, l.registry.sorted_operators(),
                       nullptr, l.source_warnings};
  const Profile& p = c.p;
  CHECK(lint::key_name(c, *p.find("AutogradPrivateUse1")) == "AutogradNpu");
  CHECK(lint::join_keys(c, {*p.find("CPU"), *p.find("PrivateUse1")}) == "CPU, npu");
  CHECK(lint::join_keys(c, {*p.find("CPU"), *p.find("CUDA")}, " and ") == "CPU and CUDA");
  const KeyId cia = lint::alias(c, AliasRule::CIA);
  CHECK(cia == *p.find("CompositeImplicitAutograd"));
  const Operator& op = *l.registry.find("t::foo");
  const Kernel* any = lint::active(op, cia);
  REQUIRE(any != nullptr);
  CHECK(any->debug == "any");
  CHECK(lint::active(op, kUndefined) == nullptr);
  CHECK(lint::kernel_key_label(c, cia, *any) == "CompositeImplicitAutograd (catch-all)");
  CHECK(lint::describe_entry(c, r.compute(op, *p.find("CPU"))) == "'any' on CompositeImplicitAutograd (math kernel)");
  CHECK(lint::describe_entry(c, r.compute(op, *p.find("AutogradPrivateUse1"))) == "'ag' on AutogradNpu (kernel)");
  CHECK(lint::describe_entry(c, Entry{}) == "nothing (missing)");
  const lint::Finding f = lint::finding_at(Location{"a.toml", 1, 2}, "msg", "t::foo", "CPU");
  CHECK(to_string(f.where) == "a.toml:1:2");
  CHECK(f.message == "msg");
  CHECK(f.op == "t::foo");
  CHECK(f.key == "CPU");
  CHECK(f.rule.empty());  // run() stamps rule and severity
}

}  // namespace dt::test
