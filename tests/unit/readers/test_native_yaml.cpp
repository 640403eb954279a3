// read_native_yaml: torchgen's registration rules on small files (the whole
// of PyTorch's own file is checked against torchgen by oracle.*.native_yaml).
#include "readers/native_yaml.hpp"

#include "helpers.hpp"

namespace dt::test {

namespace {

// "impl op KEY" for every [[impl]], in order; "def SCHEMA [tags]" for every
// [[def]]; "block NS KIND" before the entries of every block but the first
// (aten's, always there).
std::vector<std::string> entries(const std::string& yaml, NativeYamlOptions o = {},
                                 std::string_view release = "torch-2.14") {
  auto b = read_native_yaml(profile(std::string(release)), "n.yaml", yaml, o);
  REQUIRE_MESSAGE(b, (b ? "" : format(b.error())));
  std::vector<std::string> out;
  REQUIRE(!b->blocks.empty());
  for (const TomlBlock& block : b->blocks) {
    if (&block == &b->blocks[0]) {
      CHECK(block.header.at(0).key == "namespace");
      CHECK(std::get<std::string>(block.header.at(0).value) == "aten");
    } else {
      out.push_back(fmt::format("block {} {}", std::get<std::string>(block.header.at(0).value),
                                std::get<std::string>(block.header.at(1).value)));
    }
    for (const TomlEntry& e : block.entries) {
      std::string s = e.kind;
      for (const TomlField& f : e.fields) {
        if (f.key == "key" || f.key == "op" || f.key == "schema") s += " " + std::get<std::string>(f.value);
        if (f.key == "tags") {
          for (const TomlField& t : std::get<TomlArray>(f.value).items)
            s += " [" + std::get<std::string>(t.value) + "]";
        }
      }
      out.push_back(s);
    }
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
  CHECK(entries(y, NativeYamlOptions{{"CUDA"}, false, {}, {}}) ==
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
  // gen.py get_native_function_schema_registrations: TORCH_LIBRARY(myns) for
  // a namespace of its own, a FRAGMENT for quantized; the implied tags
  // (model.py from_yaml) sorted, as RegisterSchema writes them.
  const std::string y =
      "- func: myns::f(Tensor self) -> Tensor\n  tags: pointwise\n- func: g(Tensor self) -> Tensor\n"
      "- func: quantized::h(Tensor self) -> Tensor\n- func: myns::f_(Tensor(a!) self) -> Tensor(a!)\n";
  CHECK(entries(y) == V{"impl aten::g CompositeImplicitAutograd", "block myns DEF",
                        "def myns::f(Tensor self) -> Tensor [pointwise]", "impl myns::f CompositeImplicitAutograd",
                        "def myns::f_(Tensor(a!) self) -> Tensor(a!) [inplace]",
                        "impl myns::f_ CompositeImplicitAutograd", "block quantized FRAGMENT",
                        "def quantized::h(Tensor self) -> Tensor", "impl quantized::h CompositeImplicitAutograd"});
  CHECK(entries(y, NativeYamlOptions{{}, true, {}, {}}).at(0) == "def g(Tensor self) -> Tensor [pt2_compliant_tag]");
  // 2.6's tags.yaml has no inplace tag.
  CHECK(entries(y, {}, "torch-2.6").at(4) == "def myns::f_(Tensor(a!) self) -> Tensor(a!)");
  // A build's registrations: no definitions, every block a FRAGMENT.
  CHECK(entries(y, NativeYamlOptions{{"CompositeImplicitAutograd"}, false, {}, {}}) ==
        V{"impl aten::g CompositeImplicitAutograd", "block myns FRAGMENT", "impl myns::f CompositeImplicitAutograd",
          "impl myns::f_ CompositeImplicitAutograd", "block quantized FRAGMENT",
          "impl quantized::h CompositeImplicitAutograd"});
}

TEST_CASE("read_native_yaml: an aten function the profile's library does not define is defined by the yaml") {
  // A fork's or a pull request's new operator: RegisterSchema.cpp defines it.
  const std::string y =
      "- func: relu(Tensor self) -> Tensor\n- func: my_new_op.out(Tensor self, *, Tensor(a!) out) "
      "-> Tensor(a!)\n  dispatch:\n    CPU: k\n";
  std::vector<std::string> asked;
  NativeYamlOptions o;
  o.in_library = [&](std::string_view op, std::string_view key) {
    asked.push_back(fmt::format("{} {}", op, key));
    return op == "aten::relu";
  };
  CHECK(entries(y, o) == V{"impl aten::relu CompositeImplicitAutograd",
                           "def my_new_op.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) [out] [pt2_compliant_tag]",
                           "impl aten::my_new_op.out CPU"});
  CHECK(asked == V{"aten::relu ", "aten::my_new_op.out "});
  // No library (--no-library): aten's functions are defined by none.
  CHECK(entries(y) == V{"impl aten::relu CompositeImplicitAutograd", "impl aten::my_new_op.out CPU"});
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
