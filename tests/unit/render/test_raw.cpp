// The exact dumps (render/raw.hpp): _dispatch_dump_table and _dispatch_dump.
#include "helpers.hpp"
#include "render/raw.hpp"

namespace dt::test {

TEST_CASE("raw table: 'Key: kernel [provenance]' rows in table order, only those --keys allows") {
  const auto l = must_load("torch-main", {{"a.toml", kDef + "dispatch = { XLA = \"x\", CPU = \"c\" }\n"}});
  const Profile& p = l.registry.profile();
  const Operator& op = *l.registry.find("t::foo");
  std::string out;
  render_table_raw(Resolver(l.registry), op, KeyFilter{true, {*p.find("XLA"), *p.find("CPU"), *p.find("CUDA")}}, out);
  CHECK(out == "CPU: c [kernel]\nXLA: x [kernel]\n");  // CUDA has no entry: no row
  std::string all;
  render_table_raw(Resolver(l.registry), op, KeyFilter{}, all);
  CHECK(all.find("CPU: c [kernel]\n") != std::string::npos);
  CHECK(all == raw_table(l, "t::foo"));
}

TEST_CASE("raw registrations: the def, then each key's kernels, newest first, with their flags") {
  const auto l = must_load(
      "torch-1.13", {{"a.toml", kDef + "alias_analysis = \"CONSERVATIVE\"\n"
                                       "[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nkernel = \"old\"\n"
                                       "[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nkernel = \"new\"\n"
                                       "signature = \"(Tensor _0) -> Tensor _0\"\n"
                                       "[[impl]]\nop = \"foo\"\nkey = \"Autograd\"\nfallthrough = true\n"
                                       "[[impl]]\nop = \"foo\"\nkey = \"XLA\"\nkernel = \"py\"\nboxed_only = true\n"}});
  CHECK(raw_registrations(l, "t::foo") ==
        "name: t::foo\n"
        "schema: t::foo(Tensor x) -> Tensor\n"
        "debug: registered at a.toml:2\n"
        "alias analysis kind: CONSERVATIVE\n"
        "CPU: new :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
        "CPU (inactive): old :: (none) [ boxed unboxed ]\n"
        "XLA: py :: (none) [ boxed ]\n"
        "Autograd[alias]: registered at a.toml:14 :: (none) [ fallthrough boxed ]\n");
  const Profile& p = l.registry.profile();
  std::string xla;
  render_registrations_raw(l.registry, *l.registry.find("t::foo"), KeyFilter{true, {*p.find("XLA")}}, xla);
  CHECK(xla.ends_with("alias analysis kind: CONSERVATIVE\nXLA: py :: (none) [ boxed ]\n"));
}

TEST_CASE("raw registrations: an operator without a def") {
  const auto l = must_load("torch-main", {{"a.toml",
                                           "namespace = \"t\"\n[[impl]]\nop = \"bar\"\nkey = \"CPU\"\n"
                                           "kernel = \"k\"\n"}});
  CHECK(raw_registrations(l, "t::bar") == "name: t::bar\nschema: (none)\nCPU: k :: (none) [ boxed unboxed ]\n");
}

}  // namespace dt::test
