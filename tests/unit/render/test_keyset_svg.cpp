// The key-set picture (render/keyset_svg.hpp): functionality rows by backend
// columns, each cell's state, the thread-local state and the fallthrough mask
// on the rows they change, the key that runs outlined.
#include <regex>
#include <set>

#include "call_helpers.hpp"
#include "render/keyset_svg.hpp"

namespace dt::test {

namespace {

TraceView view_of(const Traced& t) {
  return TraceView{t.table.get(), &t.ks, &t.call, {}, t.tls, &t.trace, "torch-2.14", false, {}};
}

const std::string kOps =
    "namespace = \"pic\"\nkind = \"DEF\"\n"
    "[[def]]\nschema = \"f(Tensor x, Tensor y) -> Tensor\"\n"
    "dispatch = { CPU = \"f_cpu\", SparseCUDA = \"f_sparse_cuda\", ADInplaceOrView = \"f_view\" }\n";

std::string picture(std::vector<std::string> args, TlsOptions tls = {}) {
  CallSpec c;
  c.prof = "torch-2.14";
  c.files = {{"pic.toml", kOps}};
  c.op = "pic::f";
  c.args = std::move(args);
  c.tls = std::move(tls);
  auto t = traced(c);
  std::string out;
  REQUIRE(render_keyset_svg(view_of(*t), out));
  return out;
}

// data-key of every cell in `state`.
std::set<std::string> cells(const std::string& svg, const std::string& state) {
  std::set<std::string> out;
  const std::regex cell("<rect class=\"cell " + state + "\" data-key=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), cell); it != std::sregex_iterator(); ++it)
    out.insert((*it)[1]);
  return out;
}

}  // namespace

TEST_CASE("keyset svg: per-backend rows cross every backend column, and the key that runs is outlined") {
  const std::string svg = picture({"sparse_cpu", "cuda"});
  CHECK(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""));
  CHECK(svg.ends_with("</svg>\n"));
  // A sparse CPU and a dense CUDA tensor: Sparse and Dense on both CPU and CUDA.
  CHECK(cells(svg, "in") == std::set<std::string>{"CPU", "CUDA", "SparseCPU", "SparseCUDA", "ADInplaceOrView",
                                                  "AutogradCPU", "AutogradCUDA"});
  CHECK(cells(svg, "excluded") == std::set<std::string>{"AutocastCPU", "AutocastCUDA"});
  // BackendSelect (included) is a fallthrough; the operator's ADInplaceOrView kernel is not: it stays.
  CHECK(cells(svg, "masked") == std::set<std::string>{"BackendSelect"});
  CHECK(svg.find("<rect class=\"runs\" data-key=\"AutogradCUDA\"") != std::string::npos);
  CHECK(svg.find(">+ thread-local included; - fallthrough</text>") != std::string::npos);
  CHECK(svg.find(">runs: AutogradCUDA</text>") != std::string::npos);
  CHECK(svg.find("data-backend=\"CUDA\"") != std::string::npos);
}

TEST_CASE("keyset svg: inference mode and autocast change the rows they say") {
  TlsOptions inference;
  inference.inference_mode = true;
  const std::string inf = picture({"cpu", "cpu"}, inference);
  CHECK(cells(inf, "in") == std::set<std::string>{"CPU", "ADInplaceOrView"});  // f_view runs
  CHECK(cells(inf, "excluded") == std::set<std::string>{"AutogradCPU", "AutocastCPU"});
  CHECK(inf.find("<rect class=\"runs\" data-key=\"ADInplaceOrView\"") != std::string::npos);
  TlsOptions autocast;
  autocast.autocast = {"cpu"};
  const std::string ac = picture({"cpu", "cpu"}, autocast);
  // Autocast is on, but the operator has no autocast kernel: a fallthrough (its mask), not the thread-local state.
  CHECK(cells(ac, "masked") == std::set<std::string>{"AutocastCPU", "BackendSelect"});
  CHECK(cells(ac, "excluded").empty());
  CHECK(ac.find(">- fallthrough</text>") != std::string::npos);
}

TEST_CASE("keyset svg: a renamed PrivateUse1 backend's column says both names") {
  CallSpec c;
  c.prof = "torch-2.14";
  c.files = {{"npu.toml", "namespace = \"n\"\nkind = \"DEF\"\nprivateuse1_backend = \"npu\"\n[[def]]\n"
                          "schema = \"f(Tensor x) -> Tensor\"\ndispatch = { PrivateUse1 = \"k\" }\n"}};
  c.op = "n::f";
  c.args = {"npu,requires_grad"};
  auto t = traced(c);
  std::string svg;
  REQUIRE(render_keyset_svg(view_of(*t), svg));
  // The bit keeps its name in the key names, as torch 2.14 prints them; the new name is shown beside it.
  CHECK(svg.find("data-backend=\"PrivateUse1 (npu)\"") != std::string::npos);
  CHECK(cells(svg, "in") == std::set<std::string>{"PrivateUse1", "AutogradPrivateUse1"});
  CHECK(svg.find(">runs: AutogradPrivateUse1</text>") != std::string::npos);
}

}  // namespace dt::test
