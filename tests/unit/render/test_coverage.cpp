// coverage's three views: the summary, one status's rows, JSON.
#include "helpers.hpp"
#include "render/coverage.hpp"

namespace dt::test {

namespace {

const Files kOps = {{"c.toml",
                     "namespace = \"c\"\n"
                     "[[def]]\nschema = \"direct(Tensor x) -> Tensor\"\n"
                     "dispatch = { CPU = \"direct_cpu\", Autograd = \"direct_ag\" }\n"
                     "[[def]]\nschema = \"none(Tensor x) -> Tensor\"\n"
                     "[[def]]\nschema = \"ambig(Tensor x) -> Tensor\"\n"
                     "dispatch = { CompositeImplicitAutograd = \"ambig_math\", SparseCPU = \"ambig_sparse\" }\n"},
                    {"d.toml", "namespace = \"d\"\n[[def]]\nschema = \"none(Tensor x) -> Tensor\"\n"}};

struct Views {
  std::string summary, rows, json;
};

Views render(const LoadResult& l, std::string_view backend, const std::vector<CoverageStatus>& only = {}) {
  const auto keys = coverage_keys(l.registry, backend);
  REQUIRE(keys.has_value());
  const Resolver r(l.registry);
  const auto ops = l.registry.sorted_operators();
  auto rows = compute_coverage(r, ops, *keys);
  const CoverageView v{&l.registry, *keys, ops.size(), false};
  Views out;
  render_coverage_summary(rows, v, out.summary);
  if (!only.empty())
    std::erase_if(
        rows, [&](const CoverageRow& row) { return std::find(only.begin(), only.end(), row.status) == only.end(); });
  render_coverage_rows(rows, v, out.rows);
  render_coverage_json(rows, v, out.json);
  return out;
}

}  // namespace

TEST_CASE("coverage views: summary, rows, JSON") {
  const LoadResult l = must_load("torch-1.13", kOps);
  const Views v = render(l, "FPGA", {CoverageStatus::Missing, CoverageStatus::Ambiguous});
  CHECK(v.summary ==
        "coverage of FPGA and AutogradOther (profile torch-1.13): 4 operators\n"
        "\n"
        "  status               FPGA  AutogradOther\n"
        "  kernel                  0              0\n"
        "  composite-explicit      0              0\n"
        "  composite-implicit      1              0\n"
        "  autograd                0              1\n"
        "  fallback                0              0\n"
        "  raising-fallback        0              0\n"
        "  fallthrough             0              2\n"
        "  ambiguous               0              1\n"
        "  missing                 3              0\n"
        "\n"
        "FPGA: 3 operators to implement (no entry: a call raises NotImplementedError):\n"
        "  c (2)\n"
        "    c::direct\n"
        "    c::none\n"
        "  d (1)\n"
        "    d::none\n"
        "\n"
        "AutogradOther: nothing to implement (every operator has an entry)\n"
        "\n"
        "AutogradOther: 1 operator is ambiguous (ambiguous_autogradother: a call raises):\n"
        "  c (1)\n"
        "    c::ambig\n");
  CHECK(v.rows ==
        "OPERATOR   KEY            STATUS     KERNEL\n"
        "c::ambig   AutogradOther  ambiguous  ambiguous_autogradother\n"
        "c::direct  FPGA           missing\n"
        "c::none    FPGA           missing\n"
        "d::none    FPGA           missing\n");
  CHECK(v.json ==
        "[\n"
        "  {\"operator\": \"c::ambig\", \"namespace\": \"c\", \"key\": \"AutogradOther\", \"status\": \"ambiguous\", "
        "\"kernel\": \"ambiguous_autogradother\", \"provenance\": \"ambiguous autogradother\", \"dangling\": false},\n"
        "  {\"operator\": \"c::direct\", \"namespace\": \"c\", \"key\": \"FPGA\", \"status\": \"missing\", \"kernel\": "
        "null, \"provenance\": null, \"dangling\": false},\n"
        "  {\"operator\": \"c::none\", \"namespace\": \"c\", \"key\": \"FPGA\", \"status\": \"missing\", \"kernel\": "
        "null, \"provenance\": null, \"dangling\": false},\n"
        "  {\"operator\": \"d::none\", \"namespace\": \"d\", \"key\": \"FPGA\", \"status\": \"missing\", \"kernel\": "
        "null, \"provenance\": null, \"dangling\": false}\n"
        "]\n");
}

TEST_CASE("coverage views: a renamed PrivateUse1 is shown by its name, no rows is an empty array") {
  const LoadResult l = must_load("torch-main", {{"npu.toml",
                                                 "privateuse1_backend = \"npu\"\nnamespace = \"c\"\n"
                                                 "[[def]]\nschema = \"f(Tensor x) -> Tensor\"\n"
                                                 "[[impl]]\nop = \"f\"\nkey = \"npu\"\nkernel = \"f_npu\"\n"}});
  const Views v = render(l, "npu", {CoverageStatus::Kernel});
  CHECK(v.summary.starts_with("coverage of npu and AutogradNpu (profile torch-main): 1 operator\n"));
  CHECK(v.rows == "OPERATOR  KEY  STATUS  KERNEL\nc::f      npu  kernel  f_npu\n");
  const Views none = render(l, "npu", {CoverageStatus::Ambiguous});
  CHECK(none.json == "[]\n");
}

}  // namespace dt::test
