// One answer per question (key_call.hpp): what a call on key K of operator O
// does, as table, explain, lint and trace say it -- for the cases of issue 19
// and, over every operator of each embedded library and every shipped
// example, for every runtime key.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "call_helpers.hpp"
#include "base/text.hpp"
#include "lint/lint.hpp"
#include "render/explain.hpp"
#include "render/readable.hpp"
#include "render/trace.hpp"
#include "resolve/key_call.hpp"

namespace dt {

using test::load_with_library;

namespace {

// aten::chunk with a NestedTensorXPU kernel under 1.13: AutogradNestedTensor's
// runtime entry keeps the CompositeImplicitAutograd kernel (the kernel's
// registration refreshes AutogradXPU, not AutogradNestedTensor) while the
// dumps show it missing. The real 1.13 runs the decomposition
// (tests/oracle/trace_oracle.py measures these stale rows).
const test::Files kChunk{{"chunk.toml",
                          "[[impl]]\nop = \"aten::chunk\"\nkey = \"NestedTensorXPU\"\nkernel = \"chunk_nested_xpu\"\n"}};

Expected<LoadResult, Diagnostic> try_load(const std::string& prof, const std::vector<std::string>& paths,
                                          const ReadFile& read) {
  LoadOptions o;
  auto lib = open_library(test::profile(prof), real_filesystem(), embedded_libraries());
  REQUIRE_MESSAGE(lib.has_value(), (lib ? "" : format(lib.error())));
  o.library = *lib;
  o.on_refusal = OnRefusal::Record;
  return load(test::profile(prof), paths, read, o);
}

LoadResult load_for_lint(const std::string& prof, const std::vector<std::string>& paths, const ReadFile& read) {
  auto r = try_load(prof, paths, read);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : format(r.error())));
  return std::move(*r);
}

bool same(const Entry& a, const Entry& b) {
  return a.why == b.why && a.kernel == b.kernel && a.source == b.source &&
         (a.fallback == nullptr) == (b.fallback == nullptr) &&
         (a.fallback == nullptr || (a.fallback->key == b.fallback->key && a.fallback->debug == b.fallback->debug));
}

// What the first lookup of a call on a key set holding only `key` (empty TLS) did.
KeyCall traced(const RuntimeTable& t, const KeysetAlgebra& ks, KeyId key, const Entry& expected, std::string& why) {
  const Profile& p = ks.profile();
  const CallTrace tr = trace_call(t, ks, CallInput{{}, p.key(key).bits, ThreadLocalState{}});
  REQUIRE(!tr.steps.empty());
  const CallStep& s = tr.steps.front();
  if (s.picked.key != key) return KeyCall::FallsThrough;  // masked out before the lookup
  if (!same(s.entry, expected)) why = "trace looked up another entry: " + entry_words(p, s.entry);
  if (tr.steps.size() > 1 || s.next != Next::Error) return KeyCall::Runs;
  switch (tr.result.error) {
    case CallError::CouldNotRun:
    case CallError::NoTensorArguments:
      return KeyCall::Missing;
    case CallError::AmbiguousAutogradOther:
      return KeyCall::Ambiguous;
    case CallError::InvariantAssert:
      return KeyCall::InvariantAssert;
    case CallError::FallthroughExecuted:
      return KeyCall::FallsThrough;
    case CallError::MetaNotImplemented:
    case CallError::NamedNotSupported:
      return KeyCall::FallbackRaises;
    default:
      return KeyCall::Runs;  // the kernel ran and raised itself (Python without a mode, ...)
  }
}

// The keys a missing-autograd finding says calls fail on ("K1, K2 resolve to nothing: calls fail").
std::vector<std::string> failing_keys(const std::string& message) {
  std::vector<std::string> out;
  static const std::regex group(R"(([A-Za-z0-9_, ]+) resolves? to nothing: calls fail)");
  for (std::sregex_iterator it(message.begin(), message.end(), group), end; it != end; ++it) {
    std::string keys = (*it)[1];
    if (const auto colon = keys.rfind(": "); colon != std::string::npos) keys = keys.substr(colon + 2);
    for (auto& k : split(keys, ", ")) out.emplace_back(trim(k));
  }
  return out;
}

struct Agreement {
  std::size_t checked = 0, stale = 0;
  std::vector<std::string> problems;
};

// table (the dumps plus the stale notes), explain, trace and the shared answer
// agree for every runtime key of `ops`; lint's findings agree with the answers.
void check_agreement(const LoadResult& l, const std::vector<const Operator*>& ops, Agreement& out) {
  const Registry& reg = l.registry;
  const Profile& p = reg.profile();
  const Resolver r(reg);
  const RuntimeTables runtime(r);
  const KeysetAlgebra& ks = runtime.keysets();
  const auto& keys = p.runtime_keys();
  for (const Operator* op : ops) {
    const RuntimeTable& t = runtime.of(*op);
    const Explainer x(r, *op, &runtime);
    std::string table;
    bool table_rendered = false;
    for (std::size_t slot = 0; slot < keys.size(); ++slot) {
      const KeyId k = keys[slot];
      const KeyAnswer a = answer_key(t, slot);
      ++out.checked;
      const auto problem = [&](const std::string& what) {
        out.problems.push_back(fmt::format("{} {} ({}): {}", op->name, p.name_of(k), to_string(a.call), what));
      };
      // table: the dumps' entry, and the stale note where calls differ.
      const Entry dumped = r.compute(*op, k);
      if (!same(dumped, a.dumped)) problem("the table's entry is not the dumps'");
      if (a.stale != !same(a.entry, a.dumped)) problem("stale flag wrong");
      if (a.stale) {
        ++out.stale;
        if (!table_rendered) {
          render_table_human(r, *op, KeyFilter{}, HumanStyle{}, table);
          table_rendered = true;
        }
        if (table.find(stale_note(p, reg.privateuse1_name, a)) == std::string::npos)
          problem("table does not say what calls do");
      }
      // explain: the dumps' result, and its meaning is the runtime's when stale.
      const Explanation e = x.explain(k);
      if (!same(e.result, a.dumped) || !same(e.runtime.entry, a.entry) || e.runtime.call != a.call)
        problem("explain disagrees");
      const std::string meaning = x.meaning(e);
      const bool says_missing = meaning.find("No kernel:") == 0;
      const bool says_assert = meaning.find("OperatorEntry::checkInvariants") != std::string::npos;
      const bool says_raises = meaning.find("runs and raises") != std::string::npos;
      if (says_raises != (a.call == KeyCall::FallbackRaises && !a.stale))
        problem("explain's meaning disagrees on a raising fallback: " + meaning.substr(0, 80));
      if (says_missing != (a.call == KeyCall::Missing && !a.stale) ||
          says_assert != (a.call == KeyCall::InvariantAssert))
        problem("explain's meaning disagrees: " + meaning.substr(0, 80));
      if (a.stale && meaning.find(stale_note(p, reg.privateuse1_name, a)) == std::string::npos)
        problem("explain does not say what calls do");
      // trace: a call whose key set holds only this key.
      std::string why;
      const KeyCall tc = traced(t, ks, k, a.entry, why);
      if (tc != a.call) problem(std::string("trace says ") + to_string(tc));
      if (!why.empty() && tc != KeyCall::FallsThrough) problem(why);
    }
  }
  // lint: a key it says calls fail on is one whose calls are missing.
  for (const lint::Finding& f : lint::run(l)) {
    if (f.rule != "missing-autograd") continue;
    const Operator* op = reg.find(f.op);
    REQUIRE(op != nullptr);
    for (const std::string& name : failing_keys(f.message)) {
      const auto k = p.find(name);
      const KeyId id = k ? *k : (name == p.display_name(*p.find("AutogradPrivateUse1"), reg.privateuse1_name)
                                     ? *p.find("AutogradPrivateUse1")
                                     : kUndefined);
      const KeyAnswer a = runtime.answer(*op, id);
      if (a.call != KeyCall::Missing)
        out.problems.push_back(fmt::format("{} {}: lint says calls fail, they {}", op->name, name, to_string(a.call)));
    }
  }
}

std::string report(const Agreement& a) {
  std::string s = fmt::format("{} problems", a.problems.size());
  for (std::size_t i = 0; i < a.problems.size() && i < 20; ++i) s += "\n  " + a.problems[i];
  return s;
}

}  // namespace

TEST_CASE("key_call: aten::chunk with a NestedTensorXPU kernel (1.13): AutogradNestedTensor runs the decomposition") {
  const LoadResult l = load_with_library("torch-1.13", kChunk);
  const Resolver r(l.registry);
  const RuntimeTables runtime(r);
  const Profile& p = l.registry.profile();
  const Operator& op = *l.registry.find("aten::chunk");
  const KeyAnswer a = runtime.answer(op, *p.find("AutogradNestedTensor"));
  CHECK(a.stale);
  CHECK(a.call == KeyCall::Runs);
  CHECK(a.entry.why == Provenance::Math);
  CHECK(a.dumped.why == Provenance::Missing);
  const std::string note = stale_note(p, "", a);
  CHECK(note.find("spec") == std::string::npos);
  CHECK(note.find("OperatorEntry::updateDispatchTable_") != std::string::npos);
  // explain and table say the same; lint says no call fails; trace cites no spec section.
  std::string explained, table;
  render_explain(r, op, *p.find("AutogradNestedTensor"), HumanStyle{}, explained);
  CHECK(explained.find(note) != std::string::npos);
  CHECK(explained.find("No kernel:") == std::string::npos);
  render_table_human(r, op, KeyFilter{}, HumanStyle{}, table);
  CHECK(table.find(note) != std::string::npos);
  const LoadResult linted = load_for_lint("torch-1.13", {"chunk.toml"}, test::memory_reader(kChunk));
  for (const lint::Finding& f : lint::run(linted)) {
    CHECK_MESSAGE(f.rule != "missing-autograd", f.message);
    if (f.rule == "shadowed-composite") CHECK_MESSAGE(f.message.find(note) != std::string::npos, f.message);
  }
  const auto t = test::traced({"torch-1.13", kChunk, true, "aten::chunk", {"nested_xpu"}, {}, ""});
  std::string text;
  const TraceView v{t->table.get(), &t->ks, &t->call, {}, t->tls, &t->trace, "torch-1.13", false, {}};
  render_trace_human(v, text);
  CHECK(text.find("spec G") == std::string::npos);
  CHECK(text.find(note) != std::string::npos);
  Agreement agree;
  check_agreement(l, {&op}, agree);
  CHECK_MESSAGE(agree.problems.empty(), report(agree));
}

TEST_CASE("key_call: table, explain, trace and lint agree on every operator of each embedded library, every key") {
  for (const std::string prof : {"torch-1.13", "torch-2.6", "torch-2.14"}) {
    CAPTURE(prof);
    LoadResult l = load_with_library(prof, {});
    l.registry.materialize_all();
    Agreement agree;
    check_agreement(l, l.registry.sorted_operators(), agree);
    CHECK(agree.checked > 300'000);  // thousands of operators x 100+ keys
    CHECK_MESSAGE(agree.problems.empty(), report(agree));
  }
}

TEST_CASE("key_call: table, explain, trace and lint agree on every shipped example, loaded alone, per profile") {
  const std::filesystem::path root = std::filesystem::path(DT_SOURCE_DIR) / "configs" / "examples";
  std::vector<std::vector<std::string>> examples;  // a file alone, or a folder's files together
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    std::vector<std::string> paths;
    if (entry.is_directory()) {
      for (const auto& f : std::filesystem::directory_iterator(entry.path()))
        if (f.path().extension() == ".toml") paths.push_back(f.path().string());
    } else if (entry.path().extension() == ".toml") {
      paths.push_back(entry.path().string());
    }
    std::sort(paths.begin(), paths.end());
    if (!paths.empty()) examples.push_back(paths);
  }
  std::sort(examples.begin(), examples.end());
  REQUIRE(examples.size() >= 7);
  std::size_t stale = 0, refused = 0;
  for (const std::string prof : {"torch-1.13", "torch-2.6", "torch-2.14"})
    for (const auto& paths : examples) {
      CAPTURE(prof);
      CAPTURE(paths.front());
      auto loaded = try_load(prof, paths, real_filesystem().read);
      if (!loaded) {  // 1.13 has no rename_privateuse1_backend and no torch.library.custom_op: refused, located
        const std::string error = format(loaded.error());
        CHECK_MESSAGE((prof == "torch-1.13" && (error.find("needs a newer profile") != std::string::npos ||
                                                error.find("does not exist in torch 1.13") != std::string::npos)),
                      error);
        ++refused;
        continue;
      }
      const LoadResult& l = *loaded;
      std::vector<const Operator*> ops;
      for (const Operator* op : l.registry.sorted_operators())
        if (may_be_stale(l.registry, *op)) ops.push_back(op);
      Agreement agree;
      check_agreement(l, ops, agree);
      stale += agree.stale;
      CHECK_MESSAGE(agree.problems.empty(), report(agree));
    }
  CHECK(stale > 0);     // the AutogradOther example's stale rows at least
  CHECK(refused <= 3);  // privateuse1.toml, npu_backend/ and torch_library/ under 1.13
}

}  // namespace dt
