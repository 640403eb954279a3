// Rules on what calls can reach: missing-autograd and no-tensor-arguments.
#include "lint_helpers.hpp"

namespace dt::test {

TEST_CASE("lint missing-autograd: one finding per operator, naming every backend without an autograd kernel") {
  const auto f = lint_rule({{"a.toml", kDef + impl("CPU", "c") + impl("SparseCPU", "s") + impl("CUDA", "g")}},
                           "missing-autograd", "torch-1.13");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  // At the last backend kernel in file order, with a note for each other one.
  CHECK(locations(f[0]) == Locs{"a.toml:14:7", "a.toml:6:7", "a.toml:10:7"});
  CHECK(f[0].key == "Autograd");
  CHECK(f[0].op == "t::foo");
  CHECK(contains(f[0].message,
                 "operator t::foo has kernels for CPU, SparseCPU, CUDA but no autograd kernel: AutogradCPU, "
                 "AutogradCUDA resolve to the backend fallback, a fallthrough"));

  // No fallback at all (AutogradMeta in 1.13): calls fail.
  const auto meta = lint_rule({{"a.toml", kDef + impl("Meta", "m")}}, "missing-autograd", "torch-1.13");
  REQUIRE(meta.size() == 1);
  CHECK(contains(meta[0].message,
                 "operator t::foo has a kernel for Meta but no autograd kernel: AutogradMeta resolves to nothing: "
                 "calls fail with \"Could not run 't::foo' with arguments from the 'AutogradMeta' backend\""));
  // main: the autograd fallback is a real kernel, PyTorch's own (no <src>/<n> placeholders).
  const auto main = lint_rule({{"a.toml", kDef + impl("CPU", "c")}}, "missing-autograd");
  REQUIRE(main.size() == 1);
  CHECK(contains(main[0].message,
                 "AutogradCPU resolves to PyTorch's own fallback "
                 "(aten/src/ATen/core/VariableFallbackKernel.cpp): no derivative is defined"));
  CHECK(!contains(main[0].message, "<src>"));

  // A CompositeExplicitAutograd kernel: its autograd keys, in the same one finding.
  const auto cea = lint_rule({{"a.toml", kDef + impl("CompositeExplicitAutograd", "e")}}, "missing-autograd");
  REQUIRE(cea.size() == 1);
  CHECK(locations(cea[0]) == Locs{"a.toml:6:7"});
  CHECK(contains(cea[0].message, "has a kernel for CompositeExplicitAutograd but no autograd kernel: "));
  CHECK(contains(cea[0].message, "AutogradCPU"));
  const auto both = lint_rule({{"a.toml", kDef + impl("CPU", "c") + impl("CompositeExplicitAutograd", "e")}},
                              "missing-autograd", "torch-1.13");
  REQUIRE(both.size() == 1);
  CHECK(locations(both[0]) == Locs{"a.toml:10:7", "a.toml:6:7"});
  CHECK(contains(both[0].message,
                 "has kernels for CPU, CompositeExplicitAutograd but no autograd kernel: "
                 "AutogradOther, AutogradCPU, AutogradCUDA,"));

  // Passing: an Autograd kernel; a decomposition; quantized kernels (no grad); fallthrough kernels.
  CHECK(lint_rule({{"a.toml", kDef + impl("CPU", "c") + impl("Autograd", "ag")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", kDef + impl("CPU", "c") + impl("AutogradCPU", "ag")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", kDef + impl("CompositeImplicitAutograd", "m")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", kDef + impl("QuantizedCPU", "q")}}, "missing-autograd").empty());
  CHECK(
      lint_rule({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nfallthrough = true\n"}}, "missing-autograd")
          .empty());
  // Only the keys still lacking one: CPU's autograd key has a kernel, CUDA's not.
  const auto partly = lint_rule({{"a.toml", kDef + impl("CPU", "c") + impl("CUDA", "g") + impl("AutogradCPU", "ag")}},
                                "missing-autograd", "torch-1.13");
  REQUIRE(partly.size() == 1);
  CHECK(contains(partly[0].message, "has a kernel for CUDA but no autograd kernel: AutogradCUDA resolves to"));
  CHECK(locations(partly[0]) == Locs{"a.toml:10:7"});

  // NestedTensor kernels: their tensors carry AutogradNestedTensor, which has
  // no fallback in either profile (torch 1.13: "Could not run 't::foo' with
  // arguments from the 'AutogradNestedTensor' backend").
  for (const char* prof : {"torch-1.13", "torch-main"}) {
    CAPTURE(prof);
    const auto nt = lint_rule({{"a.toml", kDef + impl("NestedTensorCPU", "nt")}}, "missing-autograd", prof);
    REQUIRE(nt.size() == 1);
    CHECK(locations(nt[0]) == Locs{"a.toml:6:7"});
    CHECK(contains(nt[0].message, "AutogradNestedTensor resolves to nothing: calls fail"));
    CHECK(lint_rule({{"a.toml", kDef + impl("NestedTensorCPU", "nt") + impl("AutogradNestedTensor", "ag")}},
                    "missing-autograd", prof)
              .empty());
  }

  // Nothing for autograd to track: no Tensor output and no Tensor written in
  // place. Never reported, whatever the key resolves to.
  const auto def = [](const std::string& schema) {
    return "namespace = \"t\"\n[[def]]\nschema = \"" + schema + "\"\n";
  };
  CHECK(lint_rule({{"a.toml", def("foo(Tensor x) -> int") + impl("CPU", "c")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", def("foo(Tensor x) -> ()") + impl("CPU", "c")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", def("foo(Tensor(a!) x) -> ()") + impl("CPU", "c")}}, "missing-autograd").size() == 1);
  CHECK(lint_rule({{"a.toml", def("foo(Tensor x) -> (int, Tensor)") + impl("CPU", "c")}}, "missing-autograd").size() ==
        1);
  CHECK(lint_rule({{"a.toml", def("foo(Tensor x) -> int") + impl("Meta", "m")}}, "missing-autograd", "torch-1.13")
            .empty());
  CHECK(lint_rule({{"a.toml", def("foo(Tensor x) -> int") + impl("CompositeExplicitAutograd", "e")}},
                  "missing-autograd", "torch-1.13")
            .empty());
  // No Tensor argument: the autograd key is never dispatched to (no-tensor-arguments reports it).
  CHECK(lint_rule({{"a.toml", def("foo(int n) -> Tensor") + impl("CPU", "c")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", def("foo(Tensor x) -> bool") + impl("CPU", "c")}}, "missing-autograd").empty());
  CHECK(lint_rule({{"a.toml", def("foo(Tensor x) -> int[]") + impl("CPU", "c")}}, "missing-autograd").empty());
}

TEST_CASE("lint missing-autograd: silent for outputs declared non-differentiable (torchvision::nms's int64 indices)") {
  const std::string nms =
      "namespace = \"torchvision\"\n[[def]]\nschema = \"nms(Tensor dets, Tensor scores, float iou_threshold) -> "
      "Tensor\"\n";
  const std::string kernels = "dispatch = { CPU = \"nms_cpu\", CUDA = \"nms_cuda\" }\n";
  // The schema's Tensor does not say the dtype: without the declaration the rule fires.
  CHECK(lint_rule({{"a.toml", nms + kernels}}, "missing-autograd", "torch-2.14").size() == 1);
  CHECK(lint_rule({{"a.toml", nms + "differentiable = false\n" + kernels}}, "missing-autograd", "torch-2.14").empty());
  CHECK(lint_rule({{"a.toml", nms + "differentiable = true\n" + kernels}}, "missing-autograd", "torch-2.14").size() ==
        1);
  CHECK(contains(error_of({{"a.toml", nms + "differentiable = \"no\"\n"}}), "a.toml:4:18: error:"));
}

TEST_CASE("lint no-tensor-arguments: backend kernels nothing can dispatch to") {
  const std::string def = "namespace = \"t\"\n[[def]]\nschema = \"foo(int n, *, Device? device=None) -> Tensor\"\n";
  const auto f = lint_rule({{"a.toml", def + impl("CPU", "c") + impl("CUDA", "g")}}, "no-tensor-arguments");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(locations(f[0]) == Locs{"a.toml:6:7", "a.toml:10:7", "a.toml:2:1"});
  CHECK(f[0].op == "t::foo");
  CHECK(f[0].key == "CPU,CUDA");
  CHECK(contains(f[0].message,
                 "kernels on CPU, CUDA are never reached; Undefined has no kernel, so calls fail with "
                 "\"There were no tensor arguments to this function"));
  // With a composite kernel Undefined runs it.
  const auto cea =
      lint_rule({{"a.toml", def + impl("CPU", "c") + impl("CompositeExplicitAutograd", "e")}}, "no-tensor-arguments");
  REQUIRE(cea.size() == 1);
  CHECK(contains(cea[0].message, "calls run Undefined's entry, 'e' on CompositeExplicitAutograd"));
  // Passing: a BackendSelect kernel (factory functions), a Tensor, Tensor[] or
  // Generator argument, or only composite kernels.
  CHECK(lint_rule({{"a.toml", def + impl("CPU", "c") + impl("BackendSelect", "bs")}}, "no-tensor-arguments").empty());
  for (const char* args : {"Tensor x", "Tensor[] xs", "Tensor? x", "Generator? g", "Tensor(a!) out"}) {
    CAPTURE(args);
    const std::string d = "namespace = \"t\"\n[[def]]\nschema = \"foo(" + std::string(args) + ") -> Tensor\"\n";
    CHECK(lint_rule({{"a.toml", d + impl("CPU", "c")}}, "no-tensor-arguments").empty());
  }
  CHECK(lint_rule({{"a.toml", def + impl("CompositeExplicitAutograd", "e")}}, "no-tensor-arguments").empty());
}

}  // namespace dt::test
