// parse_yaml_subset: libyaml's tree or nothing, never another tree. Held
// against parse_yaml_libyaml on every yaml the project reads (the releases'
// native_functions.yaml, the golden cases' yaml), on forms at the subset's
// edge, and on thousands of deterministic mutations of them.
#include <string>
#include <vector>

#include "golden_files.hpp"
#include "helpers.hpp"
#include "readers/yaml_tree.hpp"

namespace dt::test {

namespace {

// "" when the subset declines or gives libyaml's tree; else what differs.
std::string check_equal(std::string_view text) {
  auto fast = parse_yaml_subset("s.yaml", text);
  if (!fast) return "";
  auto slow = parse_yaml_libyaml("s.yaml", text);
  if (!slow) return fmt::format("the subset accepts what libyaml refuses: {}", slow.error().message);
  return yaml_difference(*fast, *slow);
}

std::string release_yaml(const char* release) {
  return read_text(std::string(DT_SOURCE_DIR) + "/configs/yaml/" + release + "/native_functions.yaml");
}

}  // namespace

TEST_CASE("parse_yaml_subset: the releases' native_functions.yaml, read whole, libyaml's tree") {
  for (const char* release : {"torch-2.6", "torch-2.14"}) {
    CAPTURE(release);
    const std::string text = release_yaml(release);
    REQUIRE(parse_yaml_subset("nf.yaml", text));  // the speed is this: no fallback here
    CHECK(check_equal(text) == "");
  }
}

TEST_CASE("parse_yaml_subset: the golden cases' yaml") {
  const std::vector<GoldenFile> files = golden_files(".yaml");
  REQUIRE(files.size() >= 6);
  std::size_t accepted = 0;
  for (const GoldenFile& f : files) {
    CAPTURE(f.name);
    CHECK(check_equal(f.text) == "");
    accepted += parse_yaml_subset("g.yaml", f.text) ? 1U : 0U;
  }
  CHECK(accepted >= files.size() / 2);
}

TEST_CASE("parse_yaml_subset: forms inside the subset, as libyaml reads them") {
  const std::vector<std::string> inside = {
      "- func: add(Tensor self) -> Tensor\n  dispatch:\n    CPU, CUDA: add_impl\n",
      "a: b\n",
      "a:\n",                  // null, just past the colon
      "a:   \nb: c\n",         // null, spaces after the colon
      "a: # note\nb: c\n",     // null, a comment after the colon
      "a:\n- x\n- y\nb: z\n",  // an indentless sequence
      "- a: 1\n  b:\n  - p -> q\n  c: {}\n- d: []\n",
      "k: ['x', \"y\", z w]\n",  // flow items: quoted and plain
      "k: [ a , b ]  # trailing\n",
      "k: 'it''s'\n",
      "k: \"plain quoted\"\n",
      "k: f(str s=\"v\", int[1] x=[1]) -> Tensor(a!)\n",  // quotes and brackets inside a plain scalar
      "k: a#b\n",                                         // '#' not after a space: text
      "k: a:b\n",                                         // ':' not before a space: text
      "k  : v\n",                                         // spaces before the colon
      "\n# head\n\n- a: 1\n\n  # inside\n  b: 2\n",
      "- x\n- y\n",
      "  a: 1\n  b: 2\n",  // an indented root
      "a:\n    b: 1\n    c: 2\nd: 3\n",
      "k: v",  // no final line break
      "k:",
      "k: True\nl: ~\nm: 3\n",
  };
  for (const std::string& text : inside) {
    CAPTURE(text);
    CHECK(parse_yaml_subset("s.yaml", text));
    CHECK(check_equal(text) == "");
  }
}

TEST_CASE("parse_yaml_subset: declines what it does not read, and what is in error") {
  const std::vector<std::string> outside = {
      "",  // an empty document
      "# only a comment\n",
      "a: b\n  c\n",       // a multi-line plain scalar
      "a:\n  b\n",         // a scalar below its key
      "a: |\n  text\n",    // a block scalar
      "a: &x 1\nb: *x\n",  // anchor and alias
      "a: !!str 1\n",      // a tag
      "---\na: 1\n",       // a document marker
      "%YAML 1.1\n---\na: 1\n",
      "a:\tb\n",           // a tab
      "a: b\r\n",          // CRLF
      "a: caf\xc3\xa9\n",  // non-ASCII
      "a: \"esc\\n\"\n",   // an escape
      "a: [x,\n  y]\n",    // a flow sequence over lines
      "a: [x, ]\n",
      "a: [[x]]\n",
      "a: {b: c}\n",
      "-\n  a: 1\n",  // an item below its dash
      "- - a\n",
      "a: - b\n",         // an error
      "a: b: c\n",        // an error
      "a: 1\n- b\n",      // an error
      "a: 1\n   b: 2\n",  // an error: bad indentation
      "- a\nb: 1\n",      // an error
      "'q': 1\n",         // a quoted key
      "? a\n: b\n",
      "a: 'open\n",
      "plain\n",                                            // a scalar root
      std::string("k") + std::string(1200, 'x') + ": v\n",  // a key over libyaml's 1,024
  };
  for (const std::string& text : outside) {
    CAPTURE(text);
    CHECK_FALSE(parse_yaml_subset("s.yaml", text));
  }
}

TEST_CASE("parse_yaml_subset: bounded as libyaml's reading is") {
  std::string deep;
  for (int i = 0; i < 70; ++i) deep += std::string(static_cast<std::size_t>(i) * 2, ' ') + "k:\n";
  deep += std::string(140, ' ') + "k: v\n";
  CHECK_FALSE(parse_yaml_subset("d.yaml", deep));
  CHECK_FALSE(parse_yaml("d.yaml", deep));  // libyaml's located error
  std::string many;
  for (int i = 0; i < 100; ++i) many += fmt::format("k{}: v\n", i);
  CHECK_FALSE(parse_yaml_subset("m.yaml", many, YamlLimits{64, 150}));
  CHECK(parse_yaml_subset("m.yaml", many, YamlLimits{64, 201}));
  CHECK(check_equal(many) == "");
}

TEST_CASE("parse_yaml_subset: mutations of real shapes, libyaml's tree or declined") {
  // Deterministic: each seed text, each position, each of a set of
  // characters inserted or put in place, and each line's indentation
  // changed. Every accepted mutation must be libyaml's tree exactly.
  std::vector<std::string> seeds = {
      "- func: add.out(Tensor self, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)\n"
      "  structured: True\n  dispatch:\n    CPU, CUDA: add_out\n    MPS: add_out_mps\n"
      "  tags: [core, pointwise]\n  precomputed:\n  - dim -> int dim\n  cpp_no_default_args: ['dim']\n"
      "- func: b() -> ()\n  dispatch: {}\n  variants: function # note\n",
      "backend: XLA\ncpp_namespace: torch_xla\nsupported:\n  - abs\n  - relu_\nautograd:\n- max_pool2d\n",
  };
  const std::string_view chars = " -:#,[]{}'\"\nab&*!|>?%@`";
  std::size_t tried = 0;
  std::size_t accepted = 0;
  for (const std::string& seed : seeds) {
    for (std::size_t i = 0; i <= seed.size(); ++i) {
      for (char c : chars) {
        std::string ins = seed;
        ins.insert(i, 1, c);
        std::string put = seed;
        if (i < seed.size()) put[i] = c;
        for (const std::string* t : {&ins, &put}) {
          ++tried;
          accepted += parse_yaml_subset("m.yaml", *t) ? 1U : 0U;
          const std::string d = check_equal(*t);
          if (!d.empty()) FAIL_CHECK(fmt::format("{}\n--- text:\n{}", d, *t));
        }
      }
      std::string del = seed;
      if (i < seed.size()) del.erase(i, 1);
      ++tried;
      const std::string d = check_equal(del);
      if (!d.empty()) FAIL_CHECK(fmt::format("{}\n--- text:\n{}", d, del));
    }
  }
  MESSAGE(fmt::format("{} mutations, {} read by the subset", tried, accepted));
  CHECK(accepted > tried / 10);  // the check has teeth: many mutations stay inside the subset
}

}  // namespace dt::test
