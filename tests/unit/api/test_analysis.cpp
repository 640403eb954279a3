// trace, lint, coverage and diff of the public API (src/api/analysis.cpp):
// the values and documents the command line's subcommands compute.
#include <dispatchtool/analysis.hpp>

#include <algorithm>

#include "helpers.hpp"
#include "lint/lint.hpp"

namespace dt::test {
namespace {

dispatchtool::Session open(const std::string& prof, const std::string& text, bool record = false) {
  dispatchtool::SessionOptions o;
  o.profile = prof;
  if (!text.empty()) o.inputs.push_back(dispatchtool::Input::source("in.toml", text));
  o.record_refusals = record;
  auto s = dispatchtool::Session::open(std::move(o));
  REQUIRE_MESSAGE(s.has_value(), (s ? "" : format(s.error())));
  return std::move(*s);
}

const std::string kOps =
    "namespace = \"myops\"\nkind = \"DEF\"\n"
    "[[def]]\nschema = \"myadd(Tensor self, Tensor other) -> Tensor\"\n"
    "dispatch = { CPU = \"myadd_cpu\", Autograd = \"myadd_autograd\" }\n";

}  // namespace

TEST_CASE("api trace: a call with requires_grad runs the autograd kernel, then the backend's") {
  for (const char* prof : {"torch-1.13", "torch-2.14"}) {
    CAPTURE(prof);
    auto s = open(prof, kOps);
    dispatchtool::TraceRequest call;
    call.op = "myops::myadd";
    call.args = {"cpu,requires_grad", "cpu"};
    auto r = dispatchtool::trace(s, call);
    REQUIRE(r.has_value());
    CHECK(!r->raises);
    REQUIRE(r->kernels.size() >= 2);
    CHECK(r->kernels.front() == "myadd_autograd");
    CHECK(r->kernels.back() == "myadd_cpu");
    CHECK(r->text.find("myadd_cpu") != std::string::npos);
    CHECK(r->json.find("\"myadd_cpu\"") != std::string::npos);
    call.args = {"cuda", "cuda"};  // no CUDA kernel: NotImplementedError
    auto missing = dispatchtool::trace(s, call);
    REQUIRE(missing.has_value());
    CHECK(missing->raises);
    CHECK(missing->error.find("NotImplementedError") == std::string::npos);  // the message, not the class
    CHECK(missing->error.find("'CUDA' backend") != std::string::npos);
    call.args = {"cpu", "gpu"};
    auto bad = dispatchtool::trace(s, call);
    REQUIRE(!bad.has_value());
    CHECK(bad.error().message.find("gpu") != std::string::npos);
  }
}

TEST_CASE("api lint: the rules over the session's registrations, refusals among them") {
  const std::string twice = kOps + "[[def]]\nschema = \"myadd(Tensor self, Tensor other) -> Tensor\"\n";
  auto s = open("torch-2.14", twice, true);
  const auto report = dispatchtool::lint(s);
  const LoadResult core = [&] {
    LoadOptions lo;
    lo.on_refusal = OnRefusal::Record;
    auto l = load(profile("torch-2.14"), {"in.toml"}, memory_reader({{"in.toml", twice}}), lo);
    REQUIRE(l.has_value());
    return std::move(*l);
  }();
  const auto findings = lint::run(core);
  REQUIRE(report.findings.size() == findings.size());
  for (std::size_t i = 0; i < findings.size(); ++i) {
    CHECK(report.findings[i].rule == findings[i].rule);
    CHECK(report.findings[i].where == findings[i].where);
    CHECK(report.findings[i].message == findings[i].message);
  }
  CHECK(std::any_of(report.findings.begin(), report.findings.end(),
                    [](const auto& f) { return f.rule == "duplicate-def"; }));
  CHECK(report.text.find("duplicate-def") != std::string::npos);
  CHECK(report.json.find("\"duplicate-def\"") != std::string::npos);
}

TEST_CASE("api coverage: every operator of the library, the backend key and its autograd key") {
  auto s = open("torch-2.14", kOps);
  auto c = dispatchtool::coverage(s, "CPU");
  REQUIRE(c.has_value());
  CHECK(c->rows.size() == 2 * (3640 + 1));
  auto mine = std::find_if(c->rows.begin(), c->rows.end(), [](const auto& r) { return r.op == "myops::myadd"; });
  REQUIRE(mine != c->rows.end());
  CHECK(mine->key == "CPU");
  CHECK(mine->status == "kernel");
  CHECK(mine->kernel == "myadd_cpu");
  CHECK((mine + 1)->key == "AutogradCPU");
  CHECK((mine + 1)->status == "autograd");
  CHECK(c->json.find("myops::myadd") != std::string::npos);
  auto alias = dispatchtool::coverage(s, "Autograd");
  REQUIRE(!alias.has_value());
  // The error names the parameter as the API spells it.
  CHECK(alias.error().message == "backend: Autograd is an alias key; give one backend it covers (e.g. CPU)");
}

TEST_CASE("api diff: the same files under two releases, and a changed file") {
  auto a = open("torch-1.13", kOps);
  auto same = dispatchtool::diff(a, open("torch-1.13", kOps));
  CHECK(same.compared == 1);
  CHECK(same.changed.empty());
  CHECK(same.summary == "no differences (1 operator compared)");
  const std::string changed = "namespace = \"myops\"\nkind = \"DEF\"\n"
                              "[[def]]\nschema = \"myadd(Tensor self, Tensor other) -> Tensor\"\n"
                              "dispatch = { CPU = \"myadd_cpu\" }\n"
                              "[[def]]\nschema = \"mynew(Tensor self) -> Tensor\"\n";
  auto d = dispatchtool::diff(a, open("torch-1.13", changed));
  CHECK(d.compared == 2);
  CHECK(d.added == std::vector<std::string>{"myops::mynew"});
  CHECK(d.changed == std::vector<std::string>{"myops::myadd"});
  CHECK(d.removed.empty());
  CHECK(d.text.ends_with(d.summary + "\n"));
  CHECK(d.json.find("myops::mynew") != std::string::npos);
}

}  // namespace dt::test
