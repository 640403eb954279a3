// The profile's [schema] table (keys/profile_schema.cpp) and SchemaGrammar.
#include "helpers.hpp"

namespace dt::test {

TEST_CASE("[schema]: read, and the defaults when not measured") {
  auto none = Profile::parse(kTiny, "p.toml");
  REQUIRE(none.has_value());
  const SchemaGrammar& d = none->schema_grammar();
  CHECK_FALSE(d.measured);
  CHECK(d.has_type("Tensor"));
  CHECK(d.has_type("anything"));  // every type the parser knows
  CHECK(d.type_variables_everywhere);
  CHECK(d.unknown_type == "unknown type specifier");
  auto p = Profile::parse(kTiny +
                              "[schema]\ntypes = [\"Tensor\", \"int\"]\ntype_variables = \"aten_prim\"\n"
                              "unknown_type = \"U\"\ndouble_type = \"D\"\nint64_type = \"I\"\n"
                              "device_types = [\"cpu\"]\n[schema.default_words]\nfloat = 6\n"
                              "[schema.dtype_defaults]\nbfloat16 = 15\nint8 = 1\n",
                          "p.toml");
  REQUIRE_MESSAGE(p.has_value(), (p ? "" : format(p.error())));
  const SchemaGrammar& g = p->schema_grammar();
  CHECK(g.measured);
  CHECK(g.has_type("int"));
  CHECK_FALSE(g.has_type("Scalar"));
  CHECK_FALSE(g.type_variables_everywhere);
  CHECK((g.unknown_type == "U" && g.double_type == "D" && g.int64_type == "I"));
  CHECK(g.device_types == std::vector<std::string>{"cpu"});
  CHECK(g.default_words == std::vector<std::pair<std::string, std::int64_t>>{{"float", 6}});
  CHECK(g.dtype_defaults == std::vector<std::pair<std::string, std::int64_t>>{{"bfloat16", 15}, {"int8", 1}});
}

TEST_CASE("[schema]: the generated profiles are measured, each with its release's grammar") {
  const SchemaGrammar& g113 = profile("torch-1.13").schema_grammar();
  const SchemaGrammar& g214 = profile("torch-2.14").schema_grammar();
  REQUIRE((g113.measured && profile("torch-2.6").schema_grammar().measured && g214.measured));
  CHECK(g113.type_variables_everywhere);
  CHECK_FALSE(g214.type_variables_everywhere);
  CHECK(g113.dtype_defaults.empty());
  CHECK_FALSE(g214.dtype_defaults.empty());
  CHECK(g214.has_type("SymBool"));
  CHECK_FALSE(g113.has_type("Await"));
  CHECK_FALSE(profile("torch-main").schema_grammar().measured);
}

TEST_CASE("[schema]: errors are located") {
  CHECK(profile_error(kTiny + "[schema]\ntype_variables = \"sometimes\"\n") ==
        "p.toml:7:18: error: type_variables must be \"always\" or \"aten_prim\", not 'sometimes'\n");
  CHECK(profile_error(kTiny + "[schema.dtype_defaults]\nbfloat16 = \"15\"\n") ==
        "p.toml:7:12: error: [schema] dtype_defaults.bfloat16 must be an integer (the value the name stands for)\n");
  CHECK(profile_error(kTiny + "[schema]\ntypo = 1\n").find("p.toml:7:1: error:") == 0);
}

}  // namespace dt::test
