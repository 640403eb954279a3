// read_npu_yaml: torch_npu's gen_backend_stubs.py (backend: NPU) on small files,
// through read_backend_yaml as the loader calls it.
#include "readers/npu_yaml.hpp"

#include "helpers.hpp"
#include "readers/backend_yaml.hpp"

namespace dt::test {

namespace {

const std::string kNative =
    "- func: abs(Tensor self) -> Tensor\n"
    "  dispatch:\n"
    "    CPU: abs\n"
    "- func: contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)\n"
    "- func: isnan(Tensor self) -> Tensor\n"
    "  dispatch:\n"
    "    CPU: isnan\n"
    "- func: isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor\n"
    "- func: int_repr(Tensor self) -> Tensor\n"
    "  dispatch:\n"
    "    QuantizedCPU: int_repr\n"
    "- func: flip(Tensor self, int[] dims) -> Tensor\n"
    "  dispatch:\n"
    "    CPU: flip\n";

// "NAMESPACE KEY def|impl OP" per entry, in order ("-" for no key).
std::vector<std::string> registrations(const std::string& yaml) {
  auto b = read_backend_yaml(profile("torch-2.14"), "n.yaml", yaml, kNative);
  REQUIRE_MESSAGE(b, (b ? "" : format(b.error())));
  std::vector<std::string> out;
  for (const TomlBlock& blk : b->blocks) {
    std::string ns, key = "-";
    for (const TomlField& f : blk.header) {
      if (f.key == "namespace") ns = std::get<std::string>(f.value);
      if (f.key == "dispatch_key") key = std::get<std::string>(f.value);
    }
    for (const TomlEntry& e : blk.entries)
      for (const TomlField& f : e.fields)
        if (f.key == "op" || f.key == "schema")
          out.push_back(ns + ' ' + key + ' ' + e.kind + ' ' + std::get<std::string>(f.value));
  }
  return out;
}

std::string error_of_yaml(const std::string& yaml) {
  auto b = read_backend_yaml(profile("torch-2.14"), "n.yaml", yaml, kNative);
  REQUIRE_MESSAGE(!b, "expected an error");
  return format(b.error());
}

using Regs = std::vector<std::string>;

}  // namespace

TEST_CASE("npu yaml: supported on PrivateUse1, a mapping only with impl_ns, op_api or device_check") {
  const auto r = registrations(
      "backend: NPU\ncpp_namespace: at_npu::native\nsupported:\n"
      "  - abs\n"
      "  - func: isnan\n    internal_format_opapi: True\n"      // not registered
      "  - func: flip(Tensor self, int[] dims) -> Tensor\n    impl_ns: acl_op, op_api\n    sparse: op_api\n");
  CHECK(r == Regs{"aten PrivateUse1 impl aten::abs", "aten PrivateUse1 impl aten::flip",
                  // QuantizedRegister.cpp's fixed impls (flip among them), whatever the yaml lists
                  "aten QuantizedPrivateUse1 impl aten::flip", "aten SparsePrivateUse1 impl aten::flip"});
}

TEST_CASE("npu yaml: autograd, and supported CompositeImplicitAutograd operators on AutogradPrivateUse1") {
  const auto r = registrations(
      "backend: NPU\ncpp_namespace: n\nsupported:\n  - contiguous\n  - isclose\nautograd:\n  - abs\n");
  CHECK(r == Regs{"aten PrivateUse1 impl aten::contiguous", "aten PrivateUse1 impl aten::isclose",
                  "aten AutogradPrivateUse1 impl aten::abs", "aten AutogradPrivateUse1 impl aten::contiguous",
                  "aten QuantizedPrivateUse1 impl aten::flip"});
}

TEST_CASE("npu yaml: custom operators defined in npu, schemas rewritten as CustomRegisterSchema does") {
  const auto r = registrations(
      "backend: NPU\ncpp_namespace: n\ncustom:\n"
      "  - func: npu_foo(Tensor self, SymInt[] size) -> Tensor\n    tags: nondeterministic_seeded\n"
      "  - func: npu_pair.out(Tensor self, *, Tensor(a!) a, Tensor(b!) b) -> (Tensor(a!), Tensor(b!))\n"
      "  - func: my_empty(int[] size) -> Tensor\n    dispatch:\n      CompositeExplicitAutograd: my_empty\n"
      "custom_autograd:\n"
      "  - func: npu_grad(Tensor x) -> Tensor\n    dispatch:\n      AutogradPrivateUse1: npu_grad\n");
  CHECK(r == Regs{"npu - def npu_foo(Tensor input, SymInt[] size) -> Tensor",
                  "npu - def npu_pair.out(Tensor input, *, Tensor[] out) -> (Tensor, Tensor)",
                  "npu - def my_empty(int[] size) -> Tensor", "npu - impl my_empty",
                  "npu - def npu_grad(Tensor x) -> Tensor", "npu PrivateUse1 impl npu_foo",
                  "npu PrivateUse1 impl npu_pair.out", "npu PrivateUse1 impl npu_grad",
                  "npu AutogradPrivateUse1 impl npu_grad", "aten QuantizedPrivateUse1 impl aten::flip"});
}

TEST_CASE("npu yaml: a custom operator listed under supported: its aten impl is said, never guessed") {
  const std::string yaml = "backend: NPU\ncpp_namespace: n\nsupported:\n  - abs\n  - npu_foo\ncustom:\n"
                           "  - func: npu_foo(Tensor self) -> Tensor\n";
  CHECK(registrations(yaml) == Regs{"npu - def npu_foo(Tensor input) -> Tensor", "npu PrivateUse1 impl npu_foo",
                                    "aten PrivateUse1 impl aten::abs", "aten QuantizedPrivateUse1 impl aten::flip"});
  auto b = read_backend_yaml(profile("torch-2.14"), "n.yaml", yaml, kNative);
  REQUIRE(b);
  REQUIRE(b->warnings.size() == 1);
  CHECK(format(b->warnings[0]).starts_with("n.yaml:5:5: warning: 'npu_foo' is a custom operator (npu::npu_foo): its "
                                           "npu kernels are read; an aten::npu_foo impl"));
}

TEST_CASE("npu_custom_schema: torchnpugen's text rewrite") {
  CHECK(npu_custom_schema("f(Tensor self) -> Tensor") == "f(Tensor input) -> Tensor");
  CHECK(npu_custom_schema("f(Tensor selfish, Tensor self_) -> Tensor") == "f(Tensor selfish, Tensor self_) -> Tensor");
  // One out= argument: kept.
  CHECK(npu_custom_schema("f.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)") ==
        "f.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)");
  CHECK(npu_custom_schema("f.out(Tensor self,bool b=False, *, Tensor(a!) o0, Tensor(b!) o1, Tensor(c!) o2) -> "
                          "(Tensor(a!), Tensor(b!), Tensor(c!))") ==
        "f.out(Tensor input, bool b=False, *, Tensor[] out) -> (Tensor, Tensor, Tensor)");
}

TEST_CASE("npu yaml: what torch_npu's codegen refuses") {
  CHECK(error_of_yaml("backend: NPU\ncpp_namespace: n\nsupported:\n  - nothing_here\n")
            .starts_with("n.yaml:4:5: error: Found an invalid operator name: nothing_here\n"));
  CHECK(error_of_yaml("backend: NPU\ncpp_namespace: n\ntocpu:\n  - abs\n").starts_with(
      "n.yaml:3:1: error: unexpected key 'tocpu': torch_npu's gen_backend_stubs.py"));
  CHECK(error_of_yaml("backend: NPU\nsupported:\n  - abs\n")
            .starts_with("n.yaml:1:1: error: You must provide a value for \"cpp_namespace\"\n"));
  CHECK(error_of_yaml("backend: NPU\ncpp_namespace: n\ncustom:\n  - npu_x\n")
            .starts_with("n.yaml:4:5: error: an entry of \"custom\" must be a mapping with 'func'\n"));
}

}  // namespace dt::test
