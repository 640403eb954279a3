// Comparing schemas (schema.hpp): the types findSchemaDifferences compares
// (aten/src/ATen/core/op_registration/infer_schema.cpp) and
// FunctionSchema::cloneWithRealTypes.
#include <fmt/format.h>

#include "registry/schema.hpp"
#include "registry/schema_parser.hpp"

namespace dt {

using schema_detail::is_ident_char;
using schema_detail::is_ident_start;
using schema_detail::Mode;
using schema_detail::Parser;

namespace {

SchemaParseOptions printed() {
  SchemaParseOptions opt;
  opt.printed = true;
  return opt;
}

}  // namespace

std::string comparable_type(std::string_view type) {
  Parser parser(type, printed());
  std::string out;
  if (!parser.parse_type_only(Mode::Fake, out)) return std::string(type);
  return out;
}

Schema with_real_types(Schema s) {
  const auto real = [](std::string& type) {
    std::string out;
    for (std::size_t i = 0; i < type.size();) {
      if (!is_ident_start(type[i])) {
        out += type[i++];
        continue;
      }
      std::size_t j = i;
      while (j < type.size() && is_ident_char(type[j])) ++j;
      const std::string_view word(type.data() + i, j - i);
      out += word == "SymInt" ? "int" : word == "SymFloat" ? "float" : word == "SymBool" ? "bool" : word;
      i = j;
    }
    type = std::move(out);
  };
  for (auto& a : s.arguments) real(a.type);
  for (auto& r : s.returns) real(r.type);
  // Defaults print by type: "SymInt[2] p=0" prints "p=[0, 0]", "int[2] p=0"
  // prints "p=0". Parsing the real-typed text normalises them as for int.
  auto reparsed = parse_schema(print_schema(s), printed());
  return reparsed ? std::move(*reparsed) : s;
}

std::optional<std::string> schema_mismatch_reason(const Schema& expected, const Schema& inferred) {
  // Texts and order as in c10::findSchemaDifferences (note: only the first
  // message ends in a period, and "vs" has none).
  const auto& lhs = expected;
  const auto& rhs = inferred;
  if (lhs.arguments.size() != rhs.arguments.size()) {
    return fmt::format("The number of arguments is different. {} vs {}.", lhs.arguments.size(), rhs.arguments.size());
  }
  if (lhs.returns.size() != rhs.returns.size()) {
    return fmt::format("The number of returns is different. {} vs {}", lhs.returns.size(), rhs.returns.size());
  }
  // Equal texts are equal types: only differing texts are parsed (a kernel's
  // inferred schema usually spells its types as the definition does).
  for (std::size_t i = 0; i < lhs.arguments.size(); ++i) {
    if (lhs.arguments[i].type == rhs.arguments[i].type) continue;
    std::string left = comparable_type(lhs.arguments[i].type);
    std::string right = comparable_type(rhs.arguments[i].type);
    if (left != right) return fmt::format("Type mismatch in argument {}: {} vs {}", i + 1, left, right);
  }
  for (std::size_t i = 0; i < lhs.returns.size(); ++i) {
    if (lhs.returns[i].type == rhs.returns[i].type) continue;
    std::string left = comparable_type(lhs.returns[i].type);
    std::string right = comparable_type(rhs.returns[i].type);
    if (left != right) return fmt::format("Type mismatch in return {}: {} vs {}", i + 1, left, right);
  }
  return std::nullopt;
}

}  // namespace dt
