// Files are read, parsed and compiled on worker threads and applied in
// command-line order.
#include <fmt/format.h>

#include <map>
#include <mutex>

#include "helpers.hpp"
#include "registry/compile_ahead.hpp"

namespace dt::test {

// Files are read, parsed and compiled on worker threads and applied in
// command-line order: results and the first error must not depend on timing
// or on the number of threads (1 = the calling thread alone).
TEST_CASE("files load in command-line order whatever the worker threads do") {
  for (const unsigned threads : {1u, 2u, 5u}) {
    CAPTURE(threads);
    auto err = [&](const Files& files) {
      auto r = load_files("torch-main", files, OnRefusal::Fail, threads);
      REQUIRE_MESSAGE(!r.has_value(), "expected an error");
      return format(r.error());
    };
    // An earlier refusal wins over a later input error.
    CHECK(err({{"a.toml", kDef}, {"b.toml", kDef}, {"c.toml", "x"}}).rfind("b.toml:2:1: error: Tried to", 0) == 0);
    CHECK(err({{"a.toml", kDef}, {"b.toml", kDef + "[[impl]]\nop = \"foo\"\nkye = \"CPU\"\n"}})
              .rfind("b.toml:2:1: error: Tried to register an operator (t::foo", 0) == 0);
    CHECK(err({{"a.toml", kDef}, {"b.toml", kDef}, {"nope.toml", ""}}).rfind("b.toml:2:1: error:", 0) == 0);
    const std::string def_block = "namespace = \"t\"\nkind = \"DEF\"\n";
    CHECK(err({{"a.toml", def_block}, {"b.toml", def_block}, {"c.toml", "x"}})
              .rfind("b.toml:2:8: error: Only a single TORCH_LIBRARY can be used to register the namespace t", 0) == 0);

    // A PrivateUse1 rename applies to the files after it.
    auto l = load_files(
        "torch-main",
        {{"a.toml", "privateuse1_backend = \"npu\"\n"},
         {"b.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"AutogradNpu\"\nkernel = \"ag\"\n"},
         {"c.toml", "namespace = \"t\"\n[[impl]]\nop = \"foo\"\ndevice_types = [\"npu\"]\nkernel = \"dev\"\n"}},
        OnRefusal::Fail, threads);
    REQUIRE(l.has_value());
    CHECK(rows(raw_table(*l, "t::foo"), {"PrivateUse1", "AutogradPrivateUse1"}) ==
          "PrivateUse1: dev [kernel]\nAutogradPrivateUse1: ag [kernel]\n");
    // The renamed device wins over an in-tree device of the same name (main's
    // c10::Device parse_type checks the PrivateUse1 name first; "cpu", "cuda",
    // ... cannot be the name at all).
    l = load_files("torch-main",
                   {{"a.toml", "privateuse1_backend = \"xla\"\n"},
                    {"b.toml", kDef + "[[impl]]\nop = \"foo\"\ndevice_types = [\"xla\"]\nkernel = \"dev\"\n"}},
                   OnRefusal::Fail, threads);
    REQUIRE(l.has_value());
    CHECK(rows(raw_table(*l, "t::foo"), {"XLA", "PrivateUse1"}) == "PrivateUse1: dev [kernel]\n");
    CHECK(err({{"a.toml", "privateuse1_backend = \"npu\"\n"},
               {"b.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"AutogradNpuu\"\nkernel = \"k\"\n"}}) ==
          "b.toml:6:7: error: could not parse dispatch key: AutogradNpuu (did you mean 'AutogradNpu'?)\n");
    // Before the rename, the new name is unknown. The error says to rename first.
    CHECK(err({{"a.toml", kDef + "[[impl]]\nop = \"foo\"\nkey = \"npu\"\nkernel = \"k\"\n"},
               {"b.toml", "privateuse1_backend = \"npu\"\n"}}) ==
          "a.toml:6:7: error: could not parse dispatch key: npu (a backend of your own registers on PrivateUse1; to use the name "
          "'npu', rename it first: privateuse1_backend = \"npu\", as torch.utils.rename_privateuse1_backend(\"npu\") does)\n");

    // Refusals are recorded in order, across many files (more than the
    // window of files compiled ahead).
    Files files{{"f00.toml", kDef}};
    std::vector<std::string> want;
    for (int i = 1; i < 40; ++i) {
      const std::string name = fmt::format("f{:02}.toml", i);
      if (i % 3 == 0) {
        files.emplace_back(name, kDef);  // defined again: refused by the registry
        want.push_back(name + ":2:1 duplicate-def");
      } else if (i % 3 == 1) {
        files.emplace_back(name, "namespace = \"t\"\nkind = \"IMPL\"\n[[def]]\nschema = \"bar(Tensor x) -> Tensor\"\n");
        want.push_back(name + ":3:1 library-kind");  // refused while compiling the file
      } else {
        files.emplace_back(name, fmt::format("namespace = \"t\"\n[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nkernel = "
                                             "\"k{}\"\n",
                                             i));
      }
    }
    auto r = load_files("torch-main", files, OnRefusal::Record, threads);
    REQUIRE(r.has_value());
    std::vector<std::string> where;
    for (const auto& d : r->refusals) where.push_back(to_string(d.where) + " " + d.code);
    CHECK(where == want);
    // The newest CPU kernel wins; main warns once for all operators.
    CHECK(rows(raw_table(*r, "t::foo"), {"CPU"}) == "CPU: k38 [kernel]\n");
    CHECK(r->registry.warnings().size() == 1);
  }
}

TEST_CASE("CompileAhead: each file read once, its batch taken in command-line order") {
  for (const unsigned threads : {1u, 2u, 4u}) {
    CAPTURE(threads);
    Files files;
    std::vector<std::string> paths;
    for (int i = 0; i < 20; ++i) {
      paths.push_back(fmt::format("f{:02}.toml", i));
      files.emplace_back(paths.back(), fmt::format("namespace = \"n{}\"\n", i));
    }
    files.emplace_back("pu1.toml", "privateuse1_backend = \"npu\"\n");
    paths.emplace_back("pu1.toml");
    std::mutex mu;
    std::map<std::string, int> reads;
    const ReadFile inner = memory_reader(files);
    const ReadFile counting = [&](const std::string& path) {
      {
        const std::lock_guard lock(mu);
        ++reads[path];
      }
      return inner(path);
    };
    LoadOptions options;
    options.threads = threads;
    CompileAhead ahead(profile("torch-main"), counting, paths, options);
    for (std::size_t i = 0; i + 1 < paths.size(); ++i) {
      const std::vector<Batch> bs = ahead.take(i);
      REQUIRE(bs.size() == 1);
      CHECK_FALSE(bs[0].error.has_value());
      CHECK(bs[0].lib.ns == fmt::format("n{}", i));
    }
    // A rename needs the registry: the batch is deferred, with the file's text.
    const std::vector<Batch> last = ahead.take(paths.size() - 1);
    REQUIRE(last.size() == 1);
    const Batch& deferred = last[0];
    REQUIRE(deferred.deferred.has_value());
    REQUIRE(deferred.deferred->file != nullptr);
    CHECK(deferred.deferred->text() == "privateuse1_backend = \"npu\"\n");
    CHECK(deferred.deferred->index == 0);
    for (const auto& path : paths) CHECK(reads[path] == 1);
  }
}

// Compiling a Python file loads the modules it imports, and which file loads
// a module first decides what an import cycle sees (a partly loaded module):
// Python files compile one at a time in command-line order, so that the
// registrations and warnings never depend on which worker got there first
// (seen on a real tree: 76 or 634 warnings from one command).
TEST_CASE("CompileAhead: Python files that import each other in a cycle load alike on any number of threads") {
  // x.py loads p first (p then sees q whole, q saw p partly loaded); y.py
  // loads q first. In command-line order x.py's call defines cp::q_p, and
  // y.py's call finds q's Q_FULL unknown (q was loaded inside p's import).
  auto side = [](const char* me, const char* other) {
    return fmt::format("import torch\nfrom {1} import {2}_NAME\n{0}_NAME = '{3}'\n{0}_FULL = {2}_NAME + '_{3}'\n"
                       "lib_{3} = torch.library.Library('c{3}', 'DEF')\n"
                       "def reg_{3}():\n    lib_{3}.define({0}_FULL + '(Tensor x) -> Tensor')\n",
                       std::string(1, static_cast<char>(me[0] - 'a' + 'A')), other,
                       std::string(1, static_cast<char>(other[0] - 'a' + 'A')), me);
  };
  Files files;
  for (int i = 0; i < 8; ++i) {
    files.emplace_back(fmt::format("x{}.py", i), "from p import reg_p\nreg_p()\n");
    files.emplace_back(fmt::format("y{}.py", i), "from q import reg_q\nreg_q()\n");
  }
  files.emplace_back("p.py", side("p", "q"));
  files.emplace_back("q.py", side("q", "p"));
  auto shown = [&](unsigned threads) {
    auto r = load_files("torch-2.14", files, OnRefusal::Record, threads);
    REQUIRE(r.has_value());
    std::string out;
    for (const Operator* op : r->registry.sorted_operators()) out += op->name + "\n";
    for (const auto& w : r->source_warnings) out += format(w) + "\n";
    return out;
  };
  const std::string once = shown(1);
  CHECK(once.find("cp::q_p\n") != std::string::npos);
  CHECK(once.find("cq::") == std::string::npos);
  for (int round = 0; round < 40; ++round)
    for (const unsigned threads : {2u, 5u}) {
      CAPTURE(round);
      CAPTURE(threads);
      CHECK(shown(threads) == once);
    }
}

}  // namespace dt::test
