// ops: the listing, its JSON, and the counts.
#include "helpers.hpp"
#include "render/ops.hpp"

namespace dt::test {

namespace {

const Files kOps = {{"a.toml",
                     "namespace = \"one\"\n"
                     "[[def]]\nschema = \"f(Tensor x) -> Tensor\"\ntags = [\"view_copy\", \"generated\"]\n"
                     "dispatch = { CPU = \"f_cpu\", Autograd = \"f_ag\" }\n"
                     "[[impl]]\nop = \"dangling\"\nkey = \"XLA\"\nkernel = \"d_xla\"\n"},
                    {"b.toml", "namespace = \"two\"\n[[def]]\nschema = \"g(Tensor x, int n=1) -> Tensor\"\n"}};

}  // namespace

TEST_CASE("ops: one line per operator, JSON, counts") {
  const LoadResult l = must_load("torch-1.13", kOps);
  const auto ops = l.registry.sorted_operators();
  const OpsView v{&l.registry, "9.9"};
  std::string text, json, count, count_json;
  render_ops_text(ops, v, text);
  render_ops_json(ops, v, json);
  render_ops_count_text(ops, v, count);
  render_ops_count_json(ops, v, count_json);
  CHECK(text ==
        "one::dangling (no schema)  tags: -  kernels: XLA\n"
        "one::f(Tensor x) -> Tensor  tags: view_copy,generated  kernels: CPU,Autograd\n"
        "two::g(Tensor x, int n=1) -> Tensor  tags: -  kernels: -\n");
  CHECK(json ==
        "{\n  \"version\": 1,\n  \"tool\": {\n    \"name\": \"dispatchtool\",\n    \"version\": \"9.9\"\n  },\n"
        "  \"profile\": \"torch-1.13\",\n  \"operators\": [\n"
        "    {\n      \"name\": \"one::dangling\",\n      \"namespace\": \"one\",\n      \"schema\": null,\n"
        "      \"tags\": [],\n      \"kernels\": [\n        \"XLA\"\n      ],\n      \"pytorch\": false\n    },\n"
        "    {\n      \"name\": \"one::f\",\n      \"namespace\": \"one\",\n"
        "      \"schema\": \"one::f(Tensor x) -> Tensor\",\n      \"tags\": [\n        \"view_copy\",\n"
        "        \"generated\"\n      ],\n      \"kernels\": [\n        \"CPU\",\n        \"Autograd\"\n      ],\n"
        "      \"pytorch\": false\n    },\n"
        "    {\n      \"name\": \"two::g\",\n      \"namespace\": \"two\",\n"
        "      \"schema\": \"two::g(Tensor x, int n=1) -> Tensor\",\n      \"tags\": [],\n      \"kernels\": [],\n"
        "      \"pytorch\": false\n    }\n  ]\n}\n");
  CHECK(count ==
        "3 operators (profile torch-1.13)\n\nby namespace:\n"
        "  one                           2\n"
        "  two                           1\n"
        "\nby tag:\n"
        "  inplace_view                  0\n"
        "  view_copy                     1\n"
        "  dynamic_output_shape          0\n"
        "  data_dependent_output         0\n"
        "  generated                     1\n"
        "  nondeterministic_seeded       0\n"
        "  nondeterministic_bitwise      0\n"
        "  (no tag)                      2\n");
  CHECK(count_json.find("\"operators\": 3,\n") != std::string::npos);
  CHECK(count_json.find("\"untagged\": 2\n") != std::string::npos);
  CHECK(count_json.find("{\n      \"tag\": \"generated\",\n      \"operators\": 1\n    }") != std::string::npos);
}

}  // namespace dt::test
