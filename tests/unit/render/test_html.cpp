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
        "yops::g(Tensor x) -> Tensor\",\"available\":19,\"cells\":[3,1,4]}],\"cells\":[{\"status\":\"kernel\""
        ",\"kernel\":1,\"provenance\":\"kernel\",\"source_key\":\"CPU\",\"steps\":[[\"1\",2,3]],\"meaning\":4"
        "},{\"status\":\"fallback\",\"kernel\":5,\"provenance\":\"backend fallback\",\"source_key\":\"XLA\","
        "\"steps\":[[\"1\",2,6],[\"2.1\",7,6],[\"2.2\",8,9],[\"2.3a\",10,6],[\"2.3b\",11,9],[\"2.4\",12,6],["
        "\"3\",13,14]],\"meaning\":15},{\"status\":\"autograd\",\"kernel\":16,\"provenance\":\"autograd kerne"
        "l\",\"source_key\":\"Autograd\",\"steps\":[[\"1\",2,6],[\"2.1\",7,6],[\"2.2\",8,6],[\"2.3a\",10,6],["
        "\"2.3b\",11,9],[\"2.4\",12,17]],\"meaning\":18},{\"status\":\"kernel\",\"kernel\":20,\"provenance\":"
        "\"kernel\",\"source_key\":\"CPU\",\"steps\":[[\"1\",2,21]],\"meaning\":4},{\"status\":\"fallthrough"
        "\",\"kernel\":22,\"provenance\":\"backend fallback\",\"source_key\":\"AutogradCPU\",\"steps\":[[\"1"
        "\",2,6],[\"2.1\",7,6],[\"2.2\",8,6],[\"2.3a\",10,6],[\"2.3b\",11,9],[\"2.4\",12,9],[\"3\",13,23]],\""
        "meaning\":24}],\"strings\":[\"CPU, XLA, BackendSelect, Python, FuncTorchDynamicLayerBackMode, Functi"
        "onalize, Named, Conjugate, Negative, ZeroTensor, ADInplaceOrView, AutogradOther, AutogradCPU, Autogr"
        "adCUDA, AutogradHIP, AutogradXLA, AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, AutogradVE, Au"
        "togradLazy, AutogradMeta, AutogradPrivateUse1, AutogradPrivateUse2, AutogradPrivateUse3, AutogradNes"
        "tedTensor, Tracer, AutocastCPU, AutocastCUDA, FuncTorchBatched, FuncTorchVmapMode, Batched, VmapMode"
        ", FuncTorchGradWrapper, PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, PythonDispatcher\",\"f_cp"
        "u\",\"a kernel registered on {key} itself?\",\"yes: f_cpu  (ops.toml:4:20)\",\"Calls that dispatch t"
        "o {key} run this kernel.\",\"xla_fb\",\"no\",\"does CompositeExplicitAutogradNonFunctional cover {ke"
        "y}?\",\"does CompositeExplicitAutograd cover {key}?\",\"yes, but no kernel is registered on it\",\"d"
        "oes CompositeImplicitAutogradNestedTensor cover {key}?\",\"does CompositeImplicitAutograd cover {key"
        "}?\",\"does Autograd cover {key}?\",\"a backend fallback registered for {key}?\",\"yes: xla_fb\",\"N"
        "o kernel of this operator covers {key}; the backend fallback registered for {key} (for every operato"
        "r) runs.\",\"f_autograd\",\"yes, and it has a kernel: f_autograd  (ops.toml:4:40)\",\"The operator's"
        " Autograd kernel records the backward and redispatches to the backend below.\",\"CPU, XLA, BackendSe"
        "lect, Python, FuncTorchDynamicLayerBackMode, Functionalize, Named, Conjugate, Negative, ZeroTensor, "
        "ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, AutogradXLA, AutogradMPS, AutogradXPU, Au"
        "togradHPU, AutogradLazy, Tracer, AutocastCPU, AutocastCUDA, FuncTorchBatched, FuncTorchVmapMode, Bat"
        "ched, VmapMode, FuncTorchGradWrapper, PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, PythonDispa"
        "tcher\",\"g_cpu\",\"yes: g_cpu  (ops.toml:7:20)\",\"registered at ./aten/src/ATen/core/VariableFallb"
        "ackKernel.cpp:39\",\"yes: fallthrough registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:"
        "39  (PyTorch's own)\",\"A fallthrough: at run time {key} is masked out of this operator's dispatch k"
        "ey set, so a call continues at the next key below it.\"]}");
  CHECK(stats.operators == 2);
  CHECK(stats.keys == 3);
}

TEST_CASE("html data: equal cells of different operators are written once ({op} and {available} in the meaning)") {
  const LoadResult l = must_load("torch-1.13", {{"ops.toml", kOps}});
  HtmlStats both, one;
  const std::string out = data_of(l, {"myops::f", "myops::g"}, "", &both);
  data_of(l, {"myops::f"}, "", &one);
  // Cells are shared by keys ({key}) and by operators: f and g differ only in their kernels.
  CHECK(both.keys == one.keys);
  CHECK(both.keys > 100);
  CHECK(one.cells < 30);                          // of 105 cells
  CHECK(both.cells < one.cells + one.cells / 2);  // g shares f's cells where they resolve alike
  CHECK(out.find("No kernel: a call that dispatches to {key} raises NotImplementedError \\\"Could not run '{op}' with "
                 "arguments from the '{key}' backend. ... '{op}' is only available for these backends: "
                 "[{available}].\\\"") != std::string::npos);
  CHECK(out.find("\"a kernel registered on {key} itself?\"") != std::string::npos);
  CHECK(out.find("a kernel registered on CPU itself?") == std::string::npos);
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

TEST_CASE("html data: a cell is written once per distinct content, a kernel's location tells cells apart") {
  // f and g: the same kernel name on CPU, on different lines (the answer
  // names the location); h and i: no kernel at all (every cell alike).
  const LoadResult l = must_load(
      "torch-1.13", {{"ops.toml", "namespace = \"myops\"\n"
                                  "[[def]]\nschema = \"f(Tensor x) -> Tensor\"\ndispatch = { CPU = \"k\" }\n"
                                  "[[def]]\nschema = \"g(Tensor x) -> Tensor\"\ndispatch = { CPU = \"k\" }\n"
                                  "[[def]]\nschema = \"h(Tensor x) -> Tensor\"\n"
                                  "[[def]]\nschema = \"i(Tensor x) -> Tensor\"\n"}});
  HtmlStats two, one;
  const std::string both = data_of(l, {"myops::f", "myops::g"}, "CPU", &two);
  CHECK(two.cells == 2);
  CHECK(both.find("\"cells\":[0]},{") != std::string::npos);
  CHECK(both.find("\"cells\":[1]}]") != std::string::npos);
  CHECK(both.find("k  (ops.toml:4:20)") != std::string::npos);
  CHECK(both.find("k  (ops.toml:7:20)") != std::string::npos);
  const std::string none = data_of(l, {"myops::h", "myops::i"}, "CPU,XLA", &one);
  CHECK(one.cells == 2);
  CHECK(count(none, "\"cells\":[0,1]}") == 2);
}

TEST_CASE("html page made in place: the same bytes as render_html_page") {
  const std::string page_template = "<html><script>{{DISPATCHTOOL_DATA}}</script></html>";
  for (const std::string data : {"", "{}", "<", "<<", "{\"s\":\"</script><!--\"}<", "<a<b<"}) {
    std::string copied;
    render_html_page(page_template, data, copied);
    std::string in_place = data;
    render_html_page_in_place(page_template, in_place);
    CHECK(in_place == copied);
  }
  std::string data = "{\"x\":\"<\"}";
  render_html_page_in_place(html_template(), data);
  std::string page;
  render_html_page(html_template(), "{\"x\":\"<\"}", page);
  CHECK(data == page);
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

TEST_CASE("html page: the embedded template holds the placeholder once, the data replaces it") {
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
