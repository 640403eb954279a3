// Rules on torch.library.custom_op operators: custom-op-no-fake and
// custom-op-no-autograd (lint/checks_custom_op.cpp). The texts are the
// release's ([torch_library] in the profile, measured); what the calls do is
// compared with the real releases by oracle.torch-*.custom_op_calls.
#include "lint_helpers.hpp"

namespace dt::test {

namespace {

std::string custom_op(const std::string& schema, const std::string& extra = "") {
  return custom_op_file("co::f", schema, extra);
}

}  // namespace

TEST_CASE("lint custom-op-no-fake: a custom op without register_fake, unless its fake impl is trivial") {
  for (const char* prof : {"torch-2.6", "torch-2.14"}) {
    CAPTURE(prof);
    const auto f = lint_rule({{"a.toml", custom_op("(Tensor x) -> Tensor", "function = \"my_f\"\n")}},
                             "custom-op-no-fake", prof);
    REQUIRE(f.size() == 1);
    CHECK(f[0].severity == Severity::Warning);
    CHECK(locations(f[0]) == Locs{"a.toml:4:1"});
    CHECK(f[0].message ==
          "custom op co::f has no fake impl (register_fake): a call on a Meta or fake tensor (torch.compile, "
          "torch.export) raises RuntimeError: There was no fake impl registered for <CustomOpDef(co::f)>. This is "
          "necessary for torch.compile/export/fx tracing to work. Please use `my_f.register_fake` to add an fake "
          "impl.");
    CHECK(contains(f[0].fix, "@my_f.register_fake"));
  }
  CHECK(lint_rule({{"a.toml", custom_op("(Tensor x) -> Tensor", "register_fake = true\n")}}, "custom-op-no-fake",
                  "torch-2.14")
            .empty());
  // Mutable, returning nothing: the fake impl is trivial.
  CHECK(lint_rule({{"a.toml", custom_op("(Tensor x) -> ()", "mutates_args = [\"x\"]\n")}}, "custom-op-no-fake",
                  "torch-2.14")
            .empty());
  CHECK(lint_rule({{"a.toml", custom_op("(Tensor x) -> ()")}}, "custom-op-no-fake", "torch-2.14").size() == 1);
  // A Meta kernel of the inputs' replaces custom_op's fake kernel.
  CHECK(lint_rule({{"a.toml", custom_op("(Tensor x) -> Tensor") +
                                  "\n[[impl]]\nop = \"f\"\nkey = \"Meta\"\nkernel = \"f_meta\"\n"}},
                  "custom-op-no-fake", "torch-2.14")
            .empty());
}

TEST_CASE("lint custom-op-no-autograd: differentiable custom ops register_autograd would take") {
  const auto f = lint_rule({{"a.toml", custom_op("(Tensor x) -> Tensor")}}, "custom-op-no-autograd", "torch-2.14");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message ==
        "custom op co::f has no autograd formula (register_autograd): a call with an input that requires grad "
        "records a backward, and backward through its floating-point outputs raises RuntimeError: Trying to "
        "backward through co.f.default but no autograd formula was registered. Please use register_autograd to add "
        "one.");
  CHECK(lint_rule({{"a.toml", custom_op("(Tensor x) -> Tensor", "register_autograd = true\n")}},
                  "custom-op-no-autograd", "torch-2.14")
            .empty());
  // register_autograd refuses mutable operators; nothing to differentiate without a Tensor in and out.
  for (const char* schema : {"(Tensor x) -> ()", "(SymInt n, Device device) -> Tensor", "(Tensor x) -> int"}) {
    CAPTURE(schema);
    CHECK(lint_rule({{"a.toml", custom_op(schema, std::string(schema).starts_with("(Tensor x) -> ()")
                                                      ? "mutates_args = [\"x\"]\n"
                                                      : "")}},
                    "custom-op-no-autograd", "torch-2.14")
              .empty());
  }
  // A view: 2.14's register_autograd takes one with a Tensor in and out, 2.6's none.
  CHECK(lint_rule({{"a.toml", custom_op("(Tensor(a) x) -> Tensor(a)")}}, "custom-op-no-autograd", "torch-2.14")
            .size() == 1);
  CHECK(lint_rule({{"a.toml", custom_op("(Tensor(a) x) -> Tensor(a)")}}, "custom-op-no-autograd", "torch-2.6")
            .empty());
}

}  // namespace dt::test
