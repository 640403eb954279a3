// The readable and JSON views of a table difference (render/diff.hpp).
#include "helpers.hpp"
#include "render/diff.hpp"

namespace dt::test {

namespace {

EntryFacts kernel(const std::string& debug, const std::string& provenance, const std::string& source) {
  EntryFacts f;
  f.valid = true;
  f.kernel = debug;
  f.provenance = provenance;
  f.source = source;
  return f;
}

TableDiff sample() {
  TableDiff d;
  d.compared = 2;
  OpDiff op;
  op.name = "t::f";
  op.old_schema = op.new_schema = "t::f(Tensor x) -> Tensor";
  const EntryFacts math = kernel("f_math", "math kernel", "CompositeImplicitAutograd");
  const EntryFacts cea = kernel("f_math", "default backend kernel", "CompositeExplicitAutograd");
  // Adjacent keys with the same change form one run; a gap ends it.
  op.keys = {{"CPU", 1, math, cea},
             {"CUDA", 2, math, cea},
             {"HIP", 3, math, cea},
             {"XLA", 4, math, cea},
             {"Meta", 6, math, cea}};
  d.ops.push_back(op);
  return d;
}

}  // namespace

TEST_CASE("diff summary: no differences, or the counts") {
  TableDiff none;
  none.compared = 1;
  CHECK(diff_summary(none) == "no differences (1 operator compared)");
  CHECK(diff_summary(sample()) == "1 of 2 operators differ: 0 added, 0 removed, 1 changed (0 schemas, 5 key entries)");
}

TEST_CASE("readable diff: runs of adjacent keys, then the summary") {
  const TableDiff d = sample();
  std::string out;
  render_diff_human(DiffView{&d, {"torch-1.13", {"a.toml"}}, {"torch-1.13", {"b.toml"}}, false, false}, out);
  CHECK(out ==
        "~ t::f(Tensor x) -> Tensor  (changed)\n"
        "  KEY                 OLD                                                   NEW\n"
        "  CPU \u2026 XLA (4 keys)  f_math [math kernel via CompositeImplicitAutograd] \u2192 f_math [default backend "
        "kernel via CompositeExplicitAutograd]\n"
        "  Meta                f_math [math kernel via CompositeImplicitAutograd] \u2192 f_math [default backend "
        "kernel via CompositeExplicitAutograd]\n"
        "\n"
        "1 of 2 operators differ: 0 added, 0 removed, 1 changed (0 schemas, 5 key entries)\n");
  TableDiff none;
  none.compared = 3;
  std::string quiet;
  render_diff_human(DiffView{&none, {}, {}, false, false}, quiet);
  CHECK(quiet == "no differences (3 operators compared)\n");
}

TEST_CASE("JSON diff: envelope, sides, summary, every changed key") {
  const TableDiff d = sample();
  std::string out;
  render_diff_json(DiffView{&d, {"torch-1.13", {"a.toml"}}, {"torch-main", {"a.toml"}}, false, false}, out);
  CHECK(out.starts_with("{\n  \"version\": 1,\n  \"tool\": {\n"));
  CHECK(out.find("\"new\": {\n    \"profile\": \"torch-main\",") != std::string::npos);
  CHECK(out.find("\"key_changes\": 5") != std::string::npos);
  CHECK(out.find("\"provenance\": \"default backend kernel\"") != std::string::npos);
  CHECK(out.ends_with("}\n"));
}

}  // namespace dt::test
