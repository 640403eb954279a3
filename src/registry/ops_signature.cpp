// ops_call_signature (ops_signature.hpp): torchgen's dispatcher C++ types
// (at::Tensor&, at::IntArrayRef, c10::SymIntArrayRef, std::array<bool, N>,
// c10::List<std::optional<at::Tensor>>, at::OptionalIntArrayRef, ...) named
// back as c10's infer_schema names them.
#include "registry/ops_signature.hpp"

#include <fmt/format.h>

namespace dt {

namespace {

// The type without its alias annotation: "Tensor(a!)[]" -> "Tensor[]".
std::string without_alias(std::string_view t) {
  std::string out;
  int depth = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    // An alias annotation is "(" right after "Tensor" (or after a list's "[]"): not a type's parentheses.
    if (c == '(' && depth == 0 && (out.ends_with("Tensor") || out.ends_with("]"))) {
      int d = 1;
      std::size_t j = i + 1;
      for (; j < t.size() && d > 0; ++j) d += t[j] == '(' ? 1 : t[j] == ')' ? -1 : 0;
      i = j - 1;
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')') --depth;
    out += c;
  }
  return out;
}

// List sizes dropped but bool[N] (std::array<bool, N>): "int[2]" -> "int[]".
std::string without_sizes(const std::string& t) {
  std::string out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '[' && i + 1 < t.size() && t[i + 1] != ']' && !out.ends_with("bool")) {
      const std::size_t close = t.find(']', i);
      if (close != std::string::npos) {
        out += "[]";
        i = close;
        continue;
      }
    }
    out += t[i];
  }
  return out;
}

std::string cpp_type(const std::string& schema_type) { return without_sizes(without_alias(schema_type)); }

}  // namespace

std::string ops_call_signature(const Schema& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.arguments.size(); ++i)
    out += fmt::format("{}{} _{}", i == 0 ? "" : ", ", cpp_type(s.arguments[i].type), i);
  out += ") -> ";
  if (s.returns.empty()) return out + "()";
  if (s.returns.size() == 1) return out + fmt::format("{} _0", cpp_type(s.returns[0].type));
  out += "(";
  for (std::size_t i = 0; i < s.returns.size(); ++i)
    out += fmt::format("{}{} _{}", i == 0 ? "" : ", ", cpp_type(s.returns[i].type), i);
  return out + ")";
}

}  // namespace dt
