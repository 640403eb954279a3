// Printing schemas (schema.hpp) as FunctionSchema's and Argument's
// operator<< do (ATen/core/function_schema{.h,_inl.h}, alias_info.h).
#include "registry/schema.hpp"
#include "registry/schema_lexer.hpp"

namespace dt {

namespace {

using schema_detail::is_ident_char;

void append_type(std::string& out, std::string_view type, const SchemaPrintOptions& opt) {
  static constexpr std::string_view kDimname = "Dimname";
  if (!opt.dimname_as_str || type.find(kDimname) == std::string_view::npos) {
    out += type;
    return;
  }
  for (std::size_t i = 0; i < type.size();) {
    const bool starts_word = i == 0 || !is_ident_char(type[i - 1]);
    const std::size_t end = i + kDimname.size();
    if (starts_word && type.substr(i, kDimname.size()) == kDimname &&
        (end >= type.size() || !is_ident_char(type[end]))) {
      out += "str";
      i = end;
    } else {
      out += type[i++];
    }
  }
}

void append_argument(std::string& out, const SchemaArgument& a, const SchemaPrintOptions& opt) {
  append_type(out, a.type, opt);
  if (!a.name.empty()) {
    out += ' ';
    out += a.name;
  }
  if (a.default_value) {
    out += '=';
    out += *a.default_value;
  }
}

// FunctionSchema's operator<< from the '(' on.
void append_arguments_and_returns(std::string& out, const Schema& s, const SchemaPrintOptions& opt) {
  out += '(';
  bool seen_kwarg_only = false;
  for (std::size_t i = 0; i < s.arguments.size(); ++i) {
    if (i > 0) out += ", ";
    if (s.arguments[i].kwarg_only && !seen_kwarg_only) {
      out += "*, ";
      seen_kwarg_only = true;
    }
    append_argument(out, s.arguments[i], opt);
  }
  if (s.is_vararg) {
    if (!s.arguments.empty()) out += ", ";
    out += "...";
  }
  out += ") -> ";

  // No parentheses around a single return (unless its text starts with '(',
  // a tuple type) or around a lone "...".
  const std::size_t n = s.returns.size();
  bool paren = !((n == 1 && !s.is_varret) || (n == 0 && s.is_varret));
  if (n == 1 && !s.is_varret && s.returns[0].type.starts_with('(')) paren = true;
  if (paren) out += '(';
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    append_argument(out, s.returns[i], opt);
  }
  if (s.is_varret) {
    if (n > 0) out += ", ";
    out += "...";
  }
  if (paren) out += ')';
}

}  // namespace

OperatorName operator_name(const Schema& s) { return OperatorName{s.ns, s.name, s.overload}; }

std::string print_schema(const Schema& s, const SchemaPrintOptions& opt) {
  std::string out;
  out.reserve(128);
  append_qualified_name(out, s.ns, s.name, s.overload);
  append_arguments_and_returns(out, s, opt);
  return out;
}

std::string print_arguments_and_returns(const Schema& s, const SchemaPrintOptions& opt) {
  std::string out;
  out.reserve(128);
  append_arguments_and_returns(out, s, opt);
  return out;
}

}  // namespace dt
