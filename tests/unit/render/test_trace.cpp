// The views of a simulated call (render/trace.hpp): the exact error texts of
// torch 1.13, the readable trace and the JSON document.
#include "base/text.hpp"
#include "call_helpers.hpp"
#include "render/trace.hpp"

namespace dt::test {

namespace {

TraceView view_of(const Traced& t) {
  return TraceView{t.table.get(), &t.ks, &t.call, {}, t.tls, &t.trace, "torch-1.13", false, {}};
}

// tests/unit/data/error-texts-1.13.txt: what torch 1.13 raised, measured by
// this script (/work/notes/trace/measure_error_texts.py):
//   lib = Library("errs", "DEF")
//   lib.define("f(Tensor x) -> Tensor"); lib.impl("f", lambda x: x, "CPU")
//   lib.define("g(Tensor[] xs) -> Tensor"); lib.impl("g", lambda xs: torch.zeros(1), "CPU")
//   lib.define("h(Tensor x) -> Tensor"); lib.impl("h", lambda x: x, "CompositeImplicitAutograd")
//   lib.impl("h", lambda x: x, "MkldnnCPU")
//   torch.ops.errs.f(torch.empty(2, device="meta")); torch.ops.errs.g([])
//   torch.ops.errs.h(torch.randn(2, 2).to_mkldnn())
// printed as "== TITLE: TYPE\nMESSAGE\n".
std::string measured(const std::string& title) {
  const std::string all = read_text(std::string(DT_TEST_DATA_DIR) + "/error-texts-1.13.txt");
  const std::size_t start = all.find("== " + title + ":");
  REQUIRE(start != std::string::npos);
  const std::size_t body = all.find('\n', start) + 1;
  const std::size_t end = all.find("\n== ", body);
  return std::string(trim(all.substr(body, end == std::string::npos ? std::string::npos : end - body), "\n"));
}

const std::string kErrs =
    "namespace = \"errs\"\n"
    "[[def]]\nschema = \"f(Tensor x) -> Tensor\"\ndebug = \"registered at /dev/null:5\"\n"
    "[[impl]]\nop = \"f\"\nkey = \"CPU\"\nkernel = \"registered at /dev/null:5\"\nboxed_only = true\n"
    "[[def]]\nschema = \"g(Tensor[] xs) -> Tensor\"\ndebug = \"registered at /dev/null:5\"\n"
    "[[impl]]\nop = \"g\"\nkey = \"CPU\"\nkernel = \"registered at /dev/null:5\"\nboxed_only = true\n"
    "[[def]]\nschema = \"h(Tensor x) -> Tensor\"\ndebug = \"registered at /dev/null:5\"\n"
    "[[impl]]\nop = \"h\"\nkey = \"CompositeImplicitAutograd\"\nkernel = \"registered at /dev/null:5\"\n"
    "boxed_only = true\n"
    "[[impl]]\nop = \"h\"\nkey = \"MkldnnCPU\"\nkernel = \"registered at /dev/null:5\"\nboxed_only = true\n";

std::unique_ptr<Traced> errs(const std::string& op, std::vector<std::string> args) {
  CallSpec c;
  c.files = {{"errs.toml", kErrs}};
  c.op = op;
  c.args = std::move(args);
  return traced(c);
}

}  // namespace

TEST_CASE("error texts equal torch 1.13's, byte for byte") {
  auto meta = errs("errs::f", {"meta"});
  CHECK(std::string(trim(call_error_message(view_of(*meta)), "\n")) ==
        measured("Meta tensor, no Meta/Autograd kernel"));
  auto empty = errs("errs::g", {"[]"});
  CHECK(std::string(trim(call_error_message(view_of(*empty)), "\n")) == measured("empty Tensor[]"));
  auto amb = errs("errs::h", {"mkldnn_cpu"});
  CHECK(std::string(trim(call_error_message(view_of(*amb)), "\n")) ==
        measured("mkldnn tensor, CIA + MkldnnCPU (AutogradOther ambiguity)"));
}

TEST_CASE("the readable trace: arguments, state, each step, the result") {
  CallSpec c;
  c.library = true;
  c.op = "aten::add.Tensor";
  c.args = {"cpu,requires_grad", "cpu"};
  auto t = traced(c);
  std::string out;
  render_trace_human(view_of(*t), out);
  CHECK(out.starts_with("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"));
  CHECK(out.find("  self   Tensor  cpu,requires_grad  CPU, ADInplaceOrView, AutogradCPU, AutocastCPU\n") !=
        std::string::npos);
  CHECK(out.find("  alpha  Scalar                     not a dispatch argument\n") != std::string::npos);
  CHECK(out.find("  with TLS            CPU, BackendSelect, ADInplaceOrView, AutogradCPU  (+BackendSelect, "
                 "-AutocastCPU)\n") != std::string::npos);
  CHECK(out.find("  1. AutogradCPU\n") != std::string::npos);
  CHECK(out.find("     redispatch with CPU  (-AutogradCPU)\n") != std::string::npos);
  CHECK(out.find("\nresult: CPU runs registered at ./build/aten/src/ATen/RegisterCPU.cpp:30798 [kernel]\n"
                 "backward: computes what the autograd kernel recorded\n"
                 "  the AutogradCPU kernel ran: what backward computes is what it recorded\n") != std::string::npos);
  auto meta = errs("errs::f", {"meta"});
  out.clear();
  render_trace_human(view_of(*meta), out);
  CHECK(out.find("result: the call raises NotImplementedError (could_not_run)\nCould not run 'errs::f'") !=
        std::string::npos);
  CHECK(out.find("(errs.toml:") == std::string::npos);  // no kernel of the files ran
}

TEST_CASE("the JSON document: envelope, steps, result") {
  auto t = errs("errs::f", {"cpu"});
  std::string out;
  render_trace_json(view_of(*t), out);
  CHECK(out.starts_with("{\n  \"version\": 1,\n  \"tool\": {\n    \"name\": \"dispatchtool\",\n"));
  CHECK(out.find("\"operator\": \"errs::f\"") != std::string::npos);
  CHECK(out.find("\"origin\": \"input\"") != std::string::npos);
  CHECK(out.find("\"first_input_kernel\": {\n      \"key\": \"CPU\",") != std::string::npos);
  CHECK(out.find("\"error\": null") != std::string::npos);
  auto meta = errs("errs::f", {"meta"});
  out.clear();
  render_trace_json(view_of(*meta), out);
  CHECK(out.find("\"error\": \"could_not_run\"") != std::string::npos);
  CHECK(out.find("\"exception\": \"NotImplementedError\"") != std::string::npos);
  CHECK(out.find("\"kernel\": null") != std::string::npos);
}

// 2.x: texts measured in the real builds (tools/gen_profile_runtime.py writes
// them into the profiles; tests/oracle/trace_oracle.py compares them call by call).
namespace {

std::unique_ptr<Traced> errs2(const std::string& prof, std::vector<std::string> args, TlsOptions tls = {}) {
  CallSpec c;
  c.prof = prof;
  std::string file = kErrs;
  file.insert(file.find('\n') + 1, "privateuse1_backend = \"foo\"\n");
  c.files = {{"errs.toml", file}};
  c.op = "errs::f";
  c.args = std::move(args);
  c.tls = std::move(tls);
  return traced(c);
}

std::string headline(const Traced& t) {
  const std::string m = call_error_message(view_of(t));
  return m.substr(0, m.find(" This could be"));
}

}  // namespace

namespace {

// custom_op without register_fake / register_autograd (the texts are the
// profile's, measured by tools/gen_torch_library.py; the
// oracle.torch-*.custom_op_calls tests compare them call by call).
std::unique_ptr<Traced> custom(const std::string& prof, std::vector<std::string> args) {
  CallSpec c;
  c.prof = prof;
  c.files = {{"co.toml", custom_op_file("co::mysin", "(Tensor x) -> Tensor", "function = \"my_sin\"\n")}};
  c.op = "co::mysin";
  c.args = std::move(args);
  return traced(c);
}

}  // namespace

TEST_CASE("custom_op: the fake kernel's error names the function, backward's the overload") {
  for (const char* prof : {"torch-2.6", "torch-2.14"}) {
    CAPTURE(prof);
    auto meta = custom(prof, {"meta"});
    TraceView v = view_of(*meta);
    v.profile_label = prof;
    CHECK(call_error_message(v) ==
          "There was no fake impl registered for <CustomOpDef(co::mysin)>. This is necessary for "
          "torch.compile/export/fx tracing to work. Please use `my_sin.register_fake` to add an fake impl.");
    auto cpu = custom(prof, {"cpu,requires_grad"});
    std::string out;
    render_trace_json(view_of(*cpu), out);
    CHECK(out.find("\"outcome\": \"no_formula\"") != std::string::npos);
    CHECK(out.find("\"error\": \"Trying to backward through co.mysin.default but no autograd formula was "
                   "registered. Please use register_autograd to add one.\"") != std::string::npos);
  }
}

TEST_CASE("2.x: the Meta fallback's text, and PrivateUse1 renamed only in the Could-not-run headline") {
  auto meta = errs2("torch-2.14", {"meta"});
  CHECK(call_error_message(view_of(*meta)) ==
        "errs::f: attempted to run this operator with Meta tensors, but there was no fake impl or Meta kernel "
        "registered. You may have run into this message while using an operator with PT2 compilation APIs "
        "(torch.compile/torch.export); in order to use this operator with those APIs you'll need to add a fake "
        "impl. Please see the following for next steps:  "
        "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html");
  TlsOptions pu1;
  pu1.include = {"PrivateUse1"};
  // Measured: 2.6 "... from the 'Autogradfoo' backend." (no AutogradPrivateUse1 fallback); 2.14 "'foo'".
  CHECK(headline(*errs2("torch-2.6", {"cpu"}, pu1)) ==
        "Could not run 'errs::f' with arguments from the 'Autogradfoo' backend.");
  auto now = errs2("torch-2.14", {"cpu"}, pu1);
  CHECK(headline(*now) == "Could not run 'errs::f' with arguments from the 'foo' backend.");
  // ... while the list of backends and the key sets keep PrivateUse1.
  CHECK(call_error_message(view_of(*now)).find("AutogradPrivateUse1, AutogradMeta") != std::string::npos);
  std::string out;
  render_trace_human(view_of(*now), out);
  CHECK(out.find("  1. AutogradPrivateUse1\n") != std::string::npos);
}

TEST_CASE("2.x: what backward does, in the readable view and the JSON") {
  auto t = errs2("torch-2.14", {"cpu,requires_grad"});
  std::string out;
  render_trace_human(view_of(*t), out);
  // Both cases (oracle.torch-*.autograd_fallback): torch operators inside give a gradient, an opaque kernel none.
  CHECK(out.find("backward: WARNS; a gradient flows only through the torch operators the kernel computes with (an "
                 "opaque kernel gives none: the inputs' .grad stay None)\n") != std::string::npos);
  CHECK(out.find("  warning: UserWarning: errs::f: an autograd kernel was not registered to the Autograd key(s) "
                 "but we are trying to backprop through it.") != std::string::npos);
  out.clear();
  render_trace_json(view_of(*t), out);
  CHECK(out.find("\"outcome\": \"warn\"") != std::string::npos);
  CHECK(out.find("\"autograd_key\": \"AutogradCPU\"") != std::string::npos);
  auto old = errs("errs::f", {"cpu,requires_grad"});
  out.clear();
  render_trace_human(view_of(*old), out);
  CHECK(out.find("backward: RAISES RuntimeError: the outputs have no grad_fn\n") != std::string::npos);
  CHECK(out.find("  error: RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n") !=
        std::string::npos);
}

}  // namespace dt::test
