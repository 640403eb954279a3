// dispatchtool html (render/html.hpp): the matrix's data and the page.
#include "helpers.hpp"
#include "render/html.hpp"

namespace dt::test {

namespace {

const HtmlDocument kDoc{"9.9.9", "torch-1.13", "dispatchtool: ops.toml"};

KeyFilter table_keys(const Registry& reg, std::string_view spec) {
  auto r = parse_key_filter(reg, spec);
  REQUIRE(r.has_value());
  return r->table;
}

std::string data_of(const LoadResult& l, const std::vector<std::string>& ops, std::string_view keys,
                    HtmlStats* stats = nullptr) {
  std::vector<const Operator*> selected;
  for (const auto& name : ops) {
    selected.push_back(l.registry.find(name));
    REQUIRE(selected.back() != nullptr);
  }
  std::string out;
  const HtmlStats s = render_html_data(Resolver(l.registry), selected,
                                       keys.empty() ? KeyFilter{} : table_keys(l.registry, keys), kDoc, out);
  if (stats != nullptr) *stats = s;
  return out;
}

std::size_t count(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const std::string kOps =
    "namespace = \"myops\"\n"
    "[[def]]\n"
    "schema = \"f(Tensor x) -> Tensor\"\n"
    "dispatch = { CPU = \"f_cpu\", Autograd = \"f_autograd\" }\n"
    "[[def]]\n"
    "schema = \"g(Tensor x) -> Tensor\"\n"
    "dispatch = { CPU = \"g_cpu\" }\n"
    "[[fallback]]\n"
    "key = \"XLA\"\n"
    "kernel = \"xla_fb\"\n";

}  // namespace

TEST_CASE("html data: columns, alias bands, rows, shared cells and interned strings, in the documented order") {
  const LoadResult l = must_load("torch-1.13", {{"ops.toml", kOps}});
  HtmlStats stats;
  const std::string out = data_of(l, {"myops::f", "myops::g"}, "CPU,XLA,AutogradCPU", &stats);
  CHECK(out ==
        "{\"version\":1,\"tool\":{\"name\":\"dispatchtool\",\"version\":\"9.9.9\"},\"profile\":\"torch-1.13\""
        ",\"title\":\"dispatchtool: ops.toml\",\"keys\":[{\"name\":\"CPU\",\"kind\":\"per-backend\"},{\"name"
        "\":\"XLA\",\"kind\":\"per-backend\"},{\"name\":\"AutogradCPU\",\"kind\":\"per-backend\"}],\"aliases"
        "\":[{\"name\":\"Autograd\",\"covers\":[2]},{\"name\":\"CompositeImplicitAutograd\",\"covers\":[0,1,2"
        "]},{\"name\":\"CompositeImplicitAutogradNestedTensor\",\"covers\":[]},{\"name\":\"CompositeExplicitA"
        "utograd\",\"covers\":[0,1]},{\"name\":\"CompositeExplicitAutogradNonFunctional\",\"covers\":[0]}],\""
        "operators\":[{\"namespace\":\"myops\",\"name\":\"myops::f\",\"schema\":\"myops::f(Tensor x) -> Tenso"
        "r\",\"available\":0,\"cells\":[0,1,2]},{\"namespace\":\"myops\",\"name\":\"myops::g\",\"schema\":\"m"
        "yops::g(Tensor x) -> Tensor\",\"available\":26,\"cells\":[3,1,4]}],\"cells\":[{\"status\":\"kernel\""
        ",\"kernel\":1,\"provenance\":\"kernel\",\"source_key\":\"CPU\",\"steps\":[[\"1\",2,3]],\"meaning\":4"
        "},{\"status\":\"fallback\",\"kernel\":5,\"provenance\":\"backend fallback\",\"source_key\":\"XLA\","
        "\"steps\":[[\"1\",6,7],[\"2.1\",8,7],[\"2.2\",9,10],[\"2.3a\",11,7],[\"2.3b\",12,10],[\"2.4\",13,7],"
        "[\"3\",14,15]],\"meaning\":16},{\"status\":\"autograd\",\"kernel\":17,\"provenance\":\"autograd kern"
        "el\",\"source_key\":\"Autograd\",\"steps\":[[\"1\",18,7],[\"2.1\",19,7],[\"2.2\",20,7],[\"2.3a\",21,"
        "7],[\"2.3b\",22,10],[\"2.4\",23,24]],\"meaning\":25},{\"status\":\"kernel\",\"kernel\":27,\"provenan"
        "ce\":\"kernel\",\"source_key\":\"CPU\",\"steps\":[[\"1\",2,28]],\"meaning\":4},{\"status\":\"fallthr"
        "ough\",\"kernel\":29,\"provenance\":\"backend fallback\",\"source_key\":\"AutogradCPU\",\"steps\":[["
        "\"1\",18,7],[\"2.1\",19,7],[\"2.2\",20,7],[\"2.3a\",21,7],[\"2.3b\",22,10],[\"2.4\",23,10],[\"3\",30"
        ",31]],\"meaning\":32}],\"strings\":[\"CPU, XLA, BackendSelect, Python, FuncTorchDynamicLayerBackMode"
        ", Functionalize, Named, Conjugate, Negative, ZeroTensor, ADInplaceOrView, AutogradOther, AutogradCPU"
        ", AutogradCUDA, AutogradHIP, AutogradXLA, AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, Autogr"
        "adVE, AutogradLazy, AutogradMeta, AutogradPrivateUse1, AutogradPrivateUse2, AutogradPrivateUse3, Aut"
        "ogradNestedTensor, Tracer, AutocastCPU, AutocastCUDA, FuncTorchBatched, FuncTorchVmapMode, Batched, "
        "VmapMode, FuncTorchGradWrapper, PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, PythonDispatcher"
        "\",\"f_cpu\",\"a kernel registered on CPU itself?\",\"yes: f_cpu  (ops.toml:4:20)\",\"Calls that dis"
        "patch to CPU run this kernel.\",\"xla_fb\",\"a kernel registered on XLA itself?\",\"no\",\"does Comp"
        "ositeExplicitAutogradNonFunctional cover XLA?\",\"does CompositeExplicitAutograd cover XLA?\",\"yes,"
        " but no kernel is registered on it\",\"does CompositeImplicitAutogradNestedTensor cover XLA?\",\"doe"
        "s CompositeImplicitAutograd cover XLA?\",\"does Autograd cover XLA?\",\"a backend fallback registere"
        "d for XLA?\",\"yes: xla_fb\",\"No kernel of this operator covers XLA; the backend fallback registere"
        "d for XLA (for every operator) runs.\",\"f_autograd\",\"a kernel registered on AutogradCPU itself?\""
        ",\"does CompositeExplicitAutogradNonFunctional cover AutogradCPU?\",\"does CompositeExplicitAutograd"
        " cover AutogradCPU?\",\"does CompositeImplicitAutogradNestedTensor cover AutogradCPU?\",\"does Compo"
        "siteImplicitAutograd cover AutogradCPU?\",\"does Autograd cover AutogradCPU?\",\"yes, and it has a k"
        "ernel: f_autograd  (ops.toml:4:40)\",\"The operator's Autograd kernel records the backward and redis"
        "patches to the backend below.\",\"CPU, XLA, BackendSelect, Python, FuncTorchDynamicLayerBackMode, Fu"
        "nctionalize, Named, Conjugate, Negative, ZeroTensor, ADInplaceOrView, AutogradOther, AutogradCPU, Au"
        "togradCUDA, AutogradXLA, AutogradMPS, AutogradXPU, AutogradHPU, AutogradLazy, Tracer, AutocastCPU, A"
        "utocastCUDA, FuncTorchBatched, FuncTorchVmapMode, Batched, VmapMode, FuncTorchGradWrapper, PythonTLS"
        "Snapshot, FuncTorchDynamicLayerFrontMode, PythonDispatcher\",\"g_cpu\",\"yes: g_cpu  (ops.toml:7:20)"
        "\",\"registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39\",\"a backend fallback registe"
        "red for AutogradCPU?\",\"yes: fallthrough registered at ./aten/src/ATen/core/VariableFallbackKernel."
        "cpp:39  (PyTorch's own)\",\"A fallthrough: at run time AutogradCPU is masked out of this operator's "
        "dispatch key set, so a call continues at the next key below it.\"]}");
  CHECK(stats.operators == 2);
  CHECK(stats.keys == 3);
}

TEST_CASE("html data: equal cells of different operators are written once ({op} and {available} in the meaning)") {
  const LoadResult l = must_load("torch-1.13", {{"ops.toml", kOps}});
  HtmlStats both, one;
  const std::string out = data_of(l, {"myops::f", "myops::g"}, "", &both);
  data_of(l, {"myops::f"}, "", &one);
  // g differs from f only on the autograd keys (no Autograd kernel) and CompositeImplicit/... nothing else.
  CHECK(both.keys == one.keys);
  CHECK(both.keys > 100);
  CHECK(both.cells < one.cells + 20);
  CHECK(out.find("No kernel: a call that dispatches to HIP raises NotImplementedError \\\"Could not run '{op}' with "
                 "arguments from the 'HIP' backend. ... '{op}' is only available for these backends: "
                 "[{available}].\\\"") != std::string::npos);
  CHECK(out.find("could not run 'myops::f'") == std::string::npos);
  CHECK(out.find("\"Undefined\"") == std::string::npos);  // no column for Undefined
}

TEST_CASE("html data: deterministic") {
  const LoadResult l = must_load("torch-1.13", {{"ops.toml", kOps}});
  CHECK(data_of(l, {"myops::f", "myops::g"}, "") == data_of(l, {"myops::f", "myops::g"}, ""));
}

TEST_CASE("html page: text from the input cannot end the script element") {
  const std::string evil = "</script><script>alert(1)</script><!--";
  const std::string page_template =
      "<html><script id=\"dt-data\" type=\"application/json\">{{DISPATCHTOOL_DATA}}"
      "</script></html>";
  std::string page;
  render_html_page(page_template, "{\"s\":\"" + evil + "\"}", page);
  CHECK(page ==
        "<html><script id=\"dt-data\" type=\"application/json\">{\"s\":\"\\u003c/script>\\u003cscript>alert(1)"
        "\\u003c/script>\\u003c!--\"}</script></html>");
  CHECK(count(page, "</script>") == 1);
}

TEST_CASE("html page: a kernel named </script> stays inside the data") {
  const LoadResult l = must_load("torch-1.13", {{"ops.toml",
                                                 "namespace = \"myops\"\n[[def]]\nschema = \"f(Tensor x) -> Tensor\"\n"
                                                 "dispatch = { CPU = \"</script><script>alert(1)</script><!--\" }\n"}});
  const std::string data = data_of(l, {"myops::f"}, "CPU");
  CHECK(data.find("</script><script>alert(1)</script><!--") != std::string::npos);
  std::string page;
  render_html_page(html_template(), data, page);
  CHECK(count(page, "</script>") == count(html_template(), "</script>"));
  CHECK(count(page, "<!--") == count(html_template(), "<!--"));
  CHECK(page.find("\\u003c/script>\\u003cscript>alert(1)\\u003c/script>\\u003c!--") != std::string::npos);
}

TEST_CASE("html page: the embedded template holds the placeholder once; the data replaces it") {
  const std::string_view t = html_template();
  CHECK(count(t, kHtmlPlaceholder) == 1);
  CHECK(t.starts_with("<!DOCTYPE html>"));
  std::string page;
  render_html_page(t, "{}", page);
  CHECK(page.size() == t.size() - kHtmlPlaceholder.size() + 2);
  CHECK(page.find(kHtmlPlaceholder) == std::string::npos);
  CHECK(page.find("<script id=\"dt-data\" type=\"application/json\">{}</script>") != std::string::npos);
}

}  // namespace dt::test
