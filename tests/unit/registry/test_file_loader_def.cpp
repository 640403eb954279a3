// FileLoader: [[def]] entries and the dispatch shorthand.
#include "helpers.hpp"

namespace dt::test {

TEST_CASE("schema errors point into the file, through escapes, multi-line strings and UTF-8") {
  const std::string head = "namespace = \"t\"\n[[def]]\n";
  const auto at = [&](const std::string& schema_line) {
    const std::string e = error_of({{"a.toml", head + schema_line}});
    return e.substr(0, e.find(": error: malformed schema: unknown type specifier"));
  };
  CHECK(at(R"(schema = "f(str r=\"a\", Tensr x) -> Tensor")"
           "\n") == "a.toml:3:26");  // escaped quotes
  CHECK(at(R"(schema = "f(str r=\"\u00e9\", Tensr x) -> Tensor")"
           "\n") == "a.toml:3:31");                                                            // \u escape
  CHECK(at("schema = \"f(str r=\\\"\xc3\xa9\\\", Tensr x) -> Tensor\"\n") == "a.toml:3:26");   // é: one column
  CHECK(at("schema = \"\"\"\nf(Tensor x,\n  Tensr y) -> Tensor\"\"\"\n") == "a.toml:5:3");     // multi-line
  CHECK(at("schema = \"\"\"f(Tensor x, \\\n    Tensr y) -> Tensor\"\"\"\n") == "a.toml:4:5");  // line-ending backslash
  CHECK(at(R"(schema = 'f(str r="a", Tensr x) -> Tensor')"
           "\n") == "a.toml:3:24");                                                         // literal string
  CHECK(at("schema = \"f(Tensor x,\\tTensr y) -> Tensor\"\r\n") == "a.toml:3:24");          // \t escape, CRLF
  CHECK(at("schema = '''\r\nf(Tensor x,\r\n  Tensr y) -> Tensor'''\r\n") == "a.toml:5:3");  // literal multi-line
  CHECK(at(R"(schema = "f(str s=\"\U0001F600\", Tensr x) -> Tensor")"
           "\n") == "a.toml:3:35");  // \U escape
  // A byte order mark, with the schema on line 1.
  const std::string bom = error_of({{"a.toml",
                                     "\xEF\xBB\xBF"
                                     "def = [{ schema = \"t::f(str r=\\\"a\\\", Tensr x) -> Tensor\" }]\n"}});
  CHECK(bom.substr(0, bom.find(": error:")) == "a.toml:1:38");
}

TEST_CASE("[[def]]: Dimname is a type in 1.13 and 2.6 (printed as str) and refused by 2.14 (measured)") {
  const Files f = {{"a.toml", "namespace = \"t\"\n[[def]]\nschema = \"f(Tensor x, Dimname d) -> ()\"\n"}};
  for (const char* rel : {"torch-1.13", "torch-2.6"}) {
    const auto l = must_load(rel, f);
    CHECK(raw_registrations(l, "t::f").find("schema: t::f(Tensor x, str d) -> ()\n") != std::string::npos);
  }
  CHECK(error_of(f, "torch-2.14") ==
        "a.toml:3:23: error: malformed schema: unknown type specifier. Common valid schema types include Tensor, "
        "SymInt, int, float, bool, Scalar; for a full list, please see "
        "https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/README.md#func\n");
}

TEST_CASE("dispatch shorthand registers in document order, not in key order") {
  // "CUDA, CPU" sorts before "CPU" in a TOML table; as written, CPU's second
  // kernel is the newer one and wins.
  const auto l = must_load("torch-main", {{"a.toml", kDef + "dispatch = { \"CUDA, CPU\" = \"first\", CPU = \"second\", "
                                                            "AutogradCPU = \"ag\" }\n"}});
  CHECK(rows(raw_registrations(l, "t::foo"), {"CPU", "CPU (inactive)"}) ==
        "CPU: second :: (none) [ boxed unboxed ]\nCPU (inactive): first :: (none) [ boxed unboxed ]\n");
  CHECK(rows(raw_table(l, "t::foo"), {"CPU", "CUDA"}) == "CPU: second [kernel]\nCUDA: first [kernel]\n");
}

TEST_CASE("[[def]]: a name with a nameless schema, alias analysis, tags and debug string") {
  const auto l =
      must_load("torch-main", {{"a.toml",
                                "namespace = \"t\"\n[[def]]\nname = \"scale.out\"\n"
                                "schema = \"(Tensor x) -> Tensor\"\nalias_analysis = \"PURE_FUNCTION\"\n"
                                "tags = [\"core\", \"pt2_compliant_tag\"]\ndebug = \"registered at ops.cpp:7\"\n"}});
  const Operator* op = l.registry.find("t::scale.out");
  REQUIRE(op != nullptr);
  REQUIRE(op->def.has_value());
  CHECK(op->def->printed == "t::scale.out(Tensor x) -> Tensor");
  CHECK(op->def->alias == AliasAnalysis::PureFunction);
  CHECK(op->def->tags == std::vector<std::string>{"core", "pt2_compliant_tag"});
  CHECK(op->def->debug == "registered at ops.cpp:7");
  CHECK(to_string(op->def->where) == "a.toml:2:1");
}

TEST_CASE("[[def]]: what an entry must and must not contain") {
  CHECK(error_of({{"a.toml", "namespace = \"t\"\n[[def]]\nname = \"foo\"\n"}}) ==
        "a.toml:2:1: error: a [[def]] entry needs a 'schema'\n");
  CHECK(error_of({{"a.toml", kDef + "alias_analysis = \"CONSERVATIV\"\n"}}) ==
        "a.toml:4:18: error: Invalid alias_analysis type CONSERVATIV (did you mean 'CONSERVATIVE'?); expected \"\", "
        "\"FROM_SCHEMA\", \"CONSERVATIVE\" or \"PURE_FUNCTION\"\n");
  CHECK(error_of({{"a.toml", kDef + "dispatch = { CPU = 3 }\n"}}) ==
        "a.toml:4:20: error: dispatch entry 'CPU' must map to a kernel name (a string)\n");
  CHECK(error_of({{"a.toml", kDef + "dispatch = { \"CPU, CUDAA\" = \"k\" }\n"}}) ==
        "a.toml:4:14: error: could not parse dispatch key: CUDAA (did you mean 'CUDA'?)\n");
}

TEST_CASE("[[def]]: a tag the profile does not list is a located error") {
  CHECK(error_of({{"t.toml",
                   "namespace = \"t\"\n[[def]]\nschema = \"f(Tensor x) -> Tensor\"\ntags = [\"core\", "
                   "\"inplace_veiw\"]\n"}},
                 "torch-1.13") ==
        "t.toml:4:9: error: unknown tag 'core'; the tags of torch-1.13: inplace_view, view_copy, dynamic_output_shape, "
        "data_dependent_output, generated, nondeterministic_seeded, nondeterministic_bitwise\n");
  CHECK(error_of(
            {{"t.toml", "namespace = \"t\"\n[[def]]\nschema = \"f(Tensor x) -> Tensor\"\ntags = [\"inplace_veiw\"]\n"}},
            "torch-1.13")
            .starts_with("t.toml:4:9: error: unknown tag 'inplace_veiw' (did you mean 'inplace_view'?)"));
  // main lists its own tags (core is one).
  CHECK(load_files("torch-main", {{"t.toml",
                                   "namespace = \"t\"\n[[def]]\nschema = \"f(Tensor x) -> Tensor\"\n"
                                   "tags = [\"core\"]\n"}})
            .has_value());
}

}  // namespace dt::test
