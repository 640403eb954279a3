// read_native_yaml: torchgen's registration rules on small files (the whole
// of PyTorch's own file is checked against torchgen by oracle.*.native_yaml).
#include "readers/native_yaml.hpp"

#include "helpers.hpp"

namespace dt::test {

namespace {

// "KEY op" for every [[impl]], in order; "def SCHEMA" for every [[def]].
std::vector<std::string> entries(const std::string& yaml, NativeYamlOptions o = {}) {
  auto b = read_native_yaml(profile("torch-2.14"), "n.yaml", yaml, o);
  REQUIRE_MESSAGE(b, (b ? "" : format(b.error())));
  std::vector<std::string> out;
  REQUIRE(b->blocks.size() == 1);
  for (const TomlEntry& e : b->blocks[0].entries) {
    std::string s = e.kind;
    for (const TomlField& f : e.fields)
      if (f.key == "key" || f.key == "op" || f.key == "schema") s += " " + std::get<std::string>(f.value);
    out.push_back(s);
  }
  return out;
}

std::string error(const std::string& yaml) {
  auto b = read_native_yaml(profile("torch-2.14"), "n.yaml", yaml);
  REQUIRE(!b);
  std::string s = format(b.error());
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("read_native_yaml: dispatch entries, comma-separated keys, CompositeImplicitAutograd by default") {
  CHECK(entries("- func: f(Tensor self) -> Tensor\n"
                "  dispatch:\n"
                "    CPU, CUDA: f_impl\n"
                "    SparseCPU: f_sparse\n"
                "- func: g(Tensor self) -> Tensor\n") ==
        V{"impl aten::f CPU", "impl aten::f SparseCPU", "impl aten::f CUDA", "impl aten::g CompositeImplicitAutograd"});
}

TEST_CASE("read_native_yaml: structured groups on Meta, CompositeExplicitAutogradNonFunctional and their own keys") {
  const std::string y =
      "- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  structured: True\n"
      "  dispatch:\n"
      "    CPU, CUDA: abs_out\n"
      "    SparseCPU: abs_sparse_out\n"
      "- func: abs(Tensor self) -> Tensor\n"
      "  structured_delegate: abs.out\n"
      "  dispatch:\n"
      "    SparseCPU: abs_sparse\n"
      "- func: abs_(Tensor(a!) self) -> Tensor(a!)\n"
      "  structured_delegate: abs.out\n";
  // The delegated kernels go where abs.out is structured (CPU, CUDA), not to
  // SparseCPU: there each function has its own entry or none (the issue's
  // 61 false duplicates came from copying them there).
  CHECK(entries(y) == V{"impl aten::abs.out CPU", "impl aten::abs.out SparseCPU", "impl aten::abs.out CUDA",
                        "impl aten::abs.out Meta", "impl aten::abs CPU", "impl aten::abs SparseCPU",
                        "impl aten::abs CUDA", "impl aten::abs CompositeExplicitAutogradNonFunctional",
                        "impl aten::abs Meta", "impl aten::abs_ CPU", "impl aten::abs_ CUDA",
                        "impl aten::abs_ CompositeExplicitAutogradNonFunctional", "impl aten::abs_ Meta"});
  CHECK(entries(y, NativeYamlOptions{{"CUDA"}, false, {}}) ==
        V{"impl aten::abs.out CUDA", "impl aten::abs CUDA", "impl aten::abs_ CUDA"});
}

TEST_CASE("read_native_yaml: Meta for in-place functions, manual_kernel_registration, autogen, BackendSelect") {
  CHECK(entries("- func: relu_(Tensor(a!) self) -> Tensor(a!)\n"
                "  dispatch:\n"
                "    CPU: relu_\n"
                "- func: zero_(Tensor(a!) self) -> Tensor(a!)\n"
                "  dispatch:\n"
                "    CompositeExplicitAutograd: zero_\n"
                "- func: resize_(Tensor(a!) self, SymInt[] size) -> Tensor(a!)\n"
                "  manual_kernel_registration: True\n"
                "  dispatch:\n"
                "    CPU: resize_\n"
                "- func: _foo_(Tensor(a!) self) -> Tensor(a!)\n"
                "  dispatch:\n"
                "    CPU: foo_\n"
                "  autogen: _foo, _foo.out\n"
                "- func: ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
                "bool? pin_memory=None) -> Tensor\n"
                "  dispatch:\n"
                "    CompositeExplicitAutograd: ones\n") ==
        V{"impl aten::relu_ CPU", "impl aten::relu_ Meta", "impl aten::zero_ CompositeExplicitAutograd",
          "impl aten::_foo_ CPU", "impl aten::_foo_ Meta", "impl aten::_foo CompositeExplicitAutograd",
          "impl aten::_foo.out CompositeExplicitAutograd", "impl aten::ones CompositeExplicitAutograd",
          "impl aten::ones BackendSelect"});
}

TEST_CASE("read_native_yaml: definitions for other namespaces, and for aten when asked") {
  const std::string y = "- func: myns::f(Tensor self) -> Tensor\n  tags: pointwise\n- func: g(Tensor self) -> Tensor\n";
  CHECK(entries(y) == V{"def myns::f(Tensor self) -> Tensor", "impl myns::f CompositeImplicitAutograd",
                        "impl aten::g CompositeImplicitAutograd"});
  CHECK(entries(y, NativeYamlOptions{{}, true, {}}).at(2) == "def g(Tensor self) -> Tensor");
}

TEST_CASE("read_native_yaml: located errors as torchgen refuses") {
  CHECK(error("- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU, Bogus: f\n") ==
        "n.yaml:3:9: error: unknown dispatch key 'Bogus' for native_functions.yaml (torchgen/model.py dispatch_keys)");
  CHECK(error("- func: f(Tensor self) -> Tensor\n  colour: red\n").starts_with("n.yaml:2:3: error: unknown field 'colour'"));
  CHECK(error("- func: f(Tensor self) -> Tensor\n  structured_delegate: f.out\n") ==
        "n.yaml:2:24: error: structured_delegate 'f.out' is no structured out= function of this file");
  CHECK(error("- func: f(Tensor self -> Tensor\n").starts_with("n.yaml:1:9: error: malformed schema"));
  CHECK(error("- func: f(Tensor self) -> Tensor\n  tags: shiny\n").starts_with("n.yaml:2:9: error: unknown tag 'shiny'"));
  CHECK(error("- func: f(Tensor self) -> Tensor\n- func: f(Tensor self) -> Tensor\n") ==
        "n.yaml:2:9: error: operator aten::f is declared twice (first at line 1)");
  CHECK(error("func: f\n") == "n.yaml:1:1: error: native_functions.yaml must be a list of entries (- func: ...)");
  CHECK(error("- [1]\n").starts_with("n.yaml:1:3: error: a native_functions.yaml entry must be a mapping"));
}

}  // namespace dt::test
