// dispatchtool::Session (src/api/session.cpp): the public API's tables,
// entries and explanations are the core's, for the same inputs.
#include <dispatchtool/session.hpp>

#include <algorithm>

#include "helpers.hpp"

namespace dt::test {
namespace {

const std::string kCustom =
    "namespace = \"myops\"\nkind = \"DEF\"\n"
    "[[def]]\nschema = \"myadd(Tensor self, Tensor other) -> Tensor\"\n"
    "dispatch = { CPU = \"myadd_cpu\", Autograd = \"myadd_autograd\" }\n"
    "[[def]]\nschema = \"myrelu(Tensor self) -> Tensor\"\n"
    "dispatch = { CompositeImplicitAutograd = \"myrelu_decomposed\" }\n";

dispatchtool::Session open(const std::string& prof, const std::string& text, bool library = true) {
  dispatchtool::SessionOptions o;
  o.profile = prof;
  o.inputs.push_back(dispatchtool::Input::source("custom.toml", text));
  o.library = library;
  auto s = dispatchtool::Session::open(std::move(o));
  REQUIRE_MESSAGE(s.has_value(), (s ? "" : format(s.error())));
  return std::move(*s);
}

const dispatchtool::Entry* find(const dispatchtool::Table& t, const std::string& key) {
  auto it = std::find_if(t.entries.begin(), t.entries.end(), [&](const auto& e) { return e.key == key; });
  return it == t.entries.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("api session: the default profile is the tool's, and every built-in profile is listed") {
  CHECK(dispatchtool::default_profile() == kDefaultProfile);
  const auto names = dispatchtool::builtin_profiles();
  for (const char* p : {"torch-1.13", "torch-2.6", "torch-2.14", "torch-main"})
    CHECK(std::find(names.begin(), names.end(), p) != names.end());
  CHECK(std::is_sorted(names.begin(), names.end()));
}

TEST_CASE("api session: table() is the core's raw table and dump, entries in table order") {
  for (const char* prof : {"torch-1.13", "torch-2.14"}) {
    CAPTURE(prof);
    auto s = open(prof, kCustom);
    CHECK(s.profile() == prof);
    CHECK(s.operators() == std::vector<std::string>{"myops::myadd", "myops::myrelu"});
    auto t = s.table("myadd");  // unqualified: one namespace has it
    REQUIRE(t.has_value());
    const LoadResult core = must_load(prof, {{"custom.toml", kCustom}});
    CHECK(t->op == "myops::myadd");
    CHECK(t->schema == "myops::myadd(Tensor self, Tensor other) -> Tensor");
    CHECK(t->raw == raw_table(core, "myops::myadd"));
    CHECK(t->registrations == raw_registrations(core, "myops::myadd"));
    const auto* cpu = find(*t, "CPU");
    REQUIRE(cpu != nullptr);
    CHECK(cpu->kernel == "myadd_cpu");
    CHECK(cpu->provenance == "kernel");
    CHECK(cpu->source_key == "CPU");
    CHECK(to_string(cpu->where) == "custom.toml:5:20");  // the kernel's name in the dispatch table
    const auto* autograd = find(*t, "AutogradCPU");
    REQUIRE(autograd != nullptr);
    CHECK(autograd->kernel == "myadd_autograd");
    CHECK(autograd->provenance == "autograd kernel");
    CHECK(autograd->source_key == "Autograd");
    CHECK(find(*t, "CUDA") == nullptr);  // missing: not an entry
    // Every entry is a row of the raw table, "KEY: [fallthrough ]KERNEL [PROVENANCE]", in the same order.
    std::size_t at = 0;
    for (const auto& e : t->entries) {
      const std::size_t row = t->raw.find(e.key + ": " + (e.fallthrough ? "fallthrough " : "") + e.kernel + " [" + e.provenance + "]\n", at);
      CHECK_MESSAGE(row != std::string::npos, e.key);
      if (row != std::string::npos) at = row;
    }
  }
}

TEST_CASE("api session: --keys narrows the table, and PyTorch's own operators come from the embedded library") {
  auto s = open("torch-2.14", kCustom);
  auto t = s.table("myops::myrelu", "Autograd");
  REQUIRE(t.has_value());
  REQUIRE(!t->entries.empty());
  for (const auto& e : t->entries) CHECK(e.key.starts_with("Autograd"));
  CHECK(t->entries.front().provenance == "math kernel");
  auto add = s.table("aten::add.Tensor", "CPU");
  REQUIRE(add.has_value());
  REQUIRE(add->entries.size() == 1);
  CHECK(add->entries.front().provenance == "kernel");
  CHECK(s.all_operators().size() == 3640 + 2);  // 3,640 operators in torch 2.14.1, plus the file's two
}

TEST_CASE("api session: without the library, PyTorch's own operators are unknown") {
  auto s = open("torch-2.14", kCustom, false);
  auto t = s.table("aten::add.Tensor");
  REQUIRE(!t.has_value());
  CHECK(t.error().message.find("aten::add.Tensor") != std::string::npos);
  CHECK(!t.error().where.known());
}

TEST_CASE("api session: a row stale at run time says what a call runs, in table() and explain()") {
  // The SparseCsrCPU kernel (registered after the decomposition) refreshes
  // AutogradCPU, not AutogradOther: the dumps show the ambiguity there, calls
  // still run the decomposition (configs/examples/autogradother_ambiguity.toml).
  const std::string ambiguous =
      "namespace = \"demo\"\n[[def]]\nschema = \"my_norm(Tensor self) -> Tensor\"\n"
      "dispatch = { CompositeImplicitAutograd = \"my_norm_decomposed\", SparseCsrCPU = \"my_norm_sparse_csr\" }\n";
  auto s = open("torch-2.14", ambiguous);
  auto t = s.table("demo::my_norm");
  REQUIRE(t.has_value());
  const auto* other = find(*t, "AutogradOther");
  REQUIRE(other != nullptr);
  CHECK(other->kernel == "ambiguous_autogradother");
  CHECK(other->stale);
  CHECK(other->runtime_kernel == "my_norm_decomposed");
  for (const auto& e : t->entries)
    if (e.key != "AutogradOther") {
      CHECK_MESSAGE(!e.stale, e.key);
      CHECK(e.runtime_kernel.empty());
    }
  auto x = s.explain("demo::my_norm", "AutogradOther");
  REQUIRE(x.has_value());
  CHECK(x->stale);
  CHECK(x->runtime_kernel == "my_norm_decomposed");
  // An operator of the inputs without such a registration order is never stale.
  auto plain = open("torch-2.14", kCustom).table("myops::myadd");
  REQUIRE(plain.has_value());
  for (const auto& e : plain->entries) CHECK_MESSAGE(!e.stale, e.key);
}

TEST_CASE("api session: explain() gives the resolver's steps, the one taken last") {
  auto s = open("torch-1.13", kCustom);
  auto e = s.explain("myops::myrelu", "AutogradCPU");
  REQUIRE(e.has_value());
  CHECK(e->valid);
  CHECK(e->kernel == "myrelu_decomposed");
  CHECK(e->provenance == "math kernel");
  REQUIRE(!e->steps.empty());
  CHECK(e->steps.front().step == "1");
  CHECK(e->steps.back().step == "2.3b");
  CHECK(e->steps.back().taken);
  CHECK(std::count_if(e->steps.begin(), e->steps.end(), [](const auto& st) { return st.taken; }) == 1);
  CHECK(e->steps.front().question == "a kernel registered on AutogradCPU itself?");
  CHECK(e->steps.front().answer == "no");
  CHECK(!e->meaning.empty());
  auto alias = s.explain("myops::myrelu", "Autograd");
  REQUIRE(!alias.has_value());
  CHECK(alias.error().message.find("one runtime key") != std::string::npos);
}

TEST_CASE("api session: errors are the loader's diagnostics, located in the input") {
  dispatchtool::SessionOptions o;
  o.profile = "torch-2.14";
  o.inputs.push_back(dispatchtool::Input::source("bad.toml", "namespace = \"m\"\n[[def]]\nschema = \"f(Tensor x -> Tensor\"\n"));
  auto s = dispatchtool::Session::open(std::move(o));
  REQUIRE(!s.has_value());
  CHECK(s.error().where.file == "bad.toml");
  CHECK(s.error().where.line == 3);
  CHECK(format(s.error()) == error_of({{"bad.toml", "namespace = \"m\"\n[[def]]\nschema = \"f(Tensor x -> Tensor\"\n"}},
                                      "torch-2.14"));
  dispatchtool::SessionOptions unknown;
  unknown.profile = "torch-0.1";
  auto u = dispatchtool::Session::open(std::move(unknown));
  REQUIRE(!u.has_value());
  // The profile parameter, as the API spells it (the command line says --profile).
  CHECK(u.error().message.rfind("profile: unknown profile 'torch-0.1'", 0) == 0);
  CHECK(u.error().where.file.empty());
  dispatchtool::SessionOptions missing;
  missing.profile = "torch-2.14";
  missing.inputs.push_back(dispatchtool::Input::file(DT_TEST_DATA_DIR "/no-such-file.toml"));
  auto m = dispatchtool::Session::open(std::move(missing));
  REQUIRE(!m.has_value());
  CHECK(m.error().where.file.view().ends_with("no-such-file.toml"));
}

TEST_CASE("api session: a refusal fails the session, or is recorded, and override warnings are kept") {
  const std::string twice = kCustom + "[[def]]\nschema = \"myrelu(Tensor self) -> Tensor\"\n";
  dispatchtool::SessionOptions o;
  o.profile = "torch-2.14";
  o.inputs.push_back(dispatchtool::Input::source("twice.toml", twice));
  auto failed = dispatchtool::Session::open(o);
  REQUIRE(!failed.has_value());
  CHECK(failed.error().code == "duplicate-def");
  o.record_refusals = true;
  auto recorded = dispatchtool::Session::open(o);
  REQUIRE(recorded.has_value());
  REQUIRE(recorded->refusals().size() == 1);
  CHECK(recorded->refusals().front().code == "duplicate-def");
  CHECK(recorded->warnings().empty());
}

TEST_CASE("api session: table_json() is table --format json's document") {
  auto s = open("torch-2.14", kCustom);
  auto json = s.table_json();
  REQUIRE(json.has_value());
  CHECK(json->starts_with("{"));
  CHECK(json->find("torch-2.14") != std::string::npos);
  CHECK(json->find("myops::myrelu") != std::string::npos);
  auto one = s.table_json({"aten::add.Tensor"});
  REQUIRE(one.has_value());
  CHECK(one->find("aten::add.Tensor") != std::string::npos);
  CHECK(one->find("myops::") == std::string::npos);
  CHECK(!s.table_json({"nope::nothing"}).has_value());
  CHECK(s.runtime_keys().front() == "Undefined");
}

}  // namespace dt::test
