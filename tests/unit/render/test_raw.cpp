// The exact dumps (render/raw.hpp): _dispatch_dump_table and _dispatch_dump.
#include <map>

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

TEST_CASE("raw: one registration set whose tables differ between torch 2.6 and 2.14 (texts from the real builds)") {
  // tests/oracle/release_differences.py wrote the expected files from the live
  // releases (ctest oracle.torch-2.x.release_differences re-checks them).
  const std::string dir = DT_TEST_DATA_DIR;
  const Files input = {{"release-differences.toml", read_text(dir + "/release-differences.toml")}};
  const std::vector<std::string> ops = {"reldiff::cia_maia", "reldiff::cia_only", "reldiff::cia_pu1",
                                        "reldiff::cpu_cea"};
  std::map<std::string, std::string> text;
  for (const char* rel : {"torch-2.6", "torch-2.14"}) {
    CAPTURE(rel);
    const auto l = must_load(rel, input);
    std::string tables, regs;
    for (const auto& op : ops) {
      tables += "### " + op + "\n" + raw_table(l, op);
      regs += "### " + op + "\n" + raw_registrations(l, op);
    }
    text[rel] = tables + "=== registrations\n" + regs;
    CHECK(text[rel] == read_text(dir + "/release-differences-" + rel + ".txt"));
  }
  const auto has = [&](const char* rel, const std::string& line) { return text[rel].find(line) != std::string::npos; };
  // CIA's set: Functionalize in 2.6 only.
  CHECK(has("torch-2.6", "Functionalize: fn_CIA [math kernel]\n"));
  CHECK_FALSE(has("torch-2.14", "Functionalize: fn_CIA [math kernel]\n"));
  // CIA + MAIA: MAIA is an AutogradOther functionality in 2.6 (ambiguous), a backend with AutogradMAIA in 2.14.
  CHECK(has("torch-2.6", "AutogradOther: ambiguous_autogradother [ambiguous autogradother]\n"));
  CHECK(has("torch-2.14", "AutogradMAIA: fn_CIA [math kernel]\n"));
  CHECK(has("torch-2.14", "QuantizedMAIA: fn_CIA [math kernel]\n"));
  // The AutogradPrivateUse1 fallback (2.14 only) and Named's (2.6 only).
  CHECK(has("torch-2.14", "AutogradPrivateUse1: registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:111 "
                          "[backend fallback]\n"));
  CHECK_FALSE(has("torch-2.6", "AutogradPrivateUse1: registered at"));
  CHECK(has("torch-2.6", "Named: registered at ./aten/src/ATen/core/NamedRegistrations.cpp:7 [backend fallback]\n"));
  CHECK_FALSE(has("torch-2.14", "\nNamed: "));
}

}  // namespace dt::test
