// cpp_legacy.cpp: c10's torch::RegisterOperators read as 2.14 registers it
// (one FRAGMENT block per operator, debug "registered by RegisterOperators",
// CONSERVATIVE unless aliasAnalysis says otherwise; oracle.torch-2.14.
// cpp_reader_preprocessor compares tests/oracle/cpp_ext/legacy_forms.cpp with
// the real build).
#include "readers/cpp_reader.hpp"

#include "cpp_reader_helpers.hpp"

namespace dt::test {

namespace {
const char* const kSource =
    "at::Tensor one(const at::Tensor& x) { return x; }\n"
    "at::Tensor with_int(const at::Tensor& x, int64_t n) { return x; }\n"
    "static auto by_key = torch::RegisterOperators().op(\"legacy::by_key(Tensor x) -> Tensor\",\n"
    "    torch::RegisterOperators::options().kernel<decltype(one), &one>(c10::DispatchKey::CPU));\n"
    "static auto inferred = torch::RegisterOperators(\"legacy::inferred\", &with_int);\n"
    "static auto pure = c10::RegisterOperators().op(\"legacy::pure(Tensor x) -> Tensor\",\n"
    "    torch::RegisterOperators::options().catchAllKernel<decltype(one), &one>()\n"
    "        .aliasAnalysis(c10::AliasAnalysisKind::PURE_FUNCTION));\n";
}  // namespace

TEST_CASE("RegisterOperators: a FRAGMENT block per operator, with c10's debug string and alias analysis") {
  const Blocks b = read_cpp_ok(kSource);
  CHECK(b.warnings.empty());
  const std::string t = render_toml(b.blocks, "t");
  REQUIRE(b.blocks.size() == 3);
  for (const auto& blk : b.blocks) CHECK(blk.entries.size() == 2);  // the def and its kernel
  CHECK(t.find("schema = \"legacy::by_key(Tensor x) -> Tensor\"\nalias_analysis = \"CONSERVATIVE (default)\"\n"
               "debug = \"registered by RegisterOperators\"") != std::string::npos);
  CHECK(t.find("key = \"CPU\"\nkernel = \"registered by RegisterOperators\"\nsignature = \"(Tensor _0) -> Tensor _0\"") !=
        std::string::npos);
  // A name without a schema: the schema c10 infers from the kernel.
  CHECK(t.find("schema = \"legacy::inferred(Tensor _0, int _1) -> Tensor _0\"") != std::string::npos);
  CHECK(t.find("alias_analysis = \"PURE_FUNCTION\"") != std::string::npos);
}

TEST_CASE("RegisterOperators: an operator not read names itself in its warning (lint: no impl-without-def)") {
  const Blocks b = read_cpp_ok(
      "at::Tensor pairs(const at::Tensor& x, const std::vector<Unknown>& p);\n"
      "static auto reg = torch::RegisterOperators().op(\"legacy::pairs\", &pairs);\n");
  CHECK(b.blocks.empty());
  REQUIRE(b.warnings.size() == 1);
  CHECK(b.warnings[0].op == "legacy::pairs");
  CHECK(b.warnings[0].message.starts_with("RegisterOperators: 'legacy::pairs' has no schema"));
}

TEST_CASE("RegisterOperators: torch::jit's registers TorchScript operators, not the dispatcher's: not read, no warning") {
  const Blocks b = read_cpp_ok(
      "torch::jit::RegisterOperators reg({torch::jit::Operator(\"myjit::fused(Tensor a) -> Tensor\",\n"
      "    [](torch::jit::Stack& stack) {}, c10::AliasAnalysisKind::FROM_SCHEMA)});\n");
  CHECK(b.blocks.empty());
  CHECK(b.warnings.empty());
}

}  // namespace dt::test
