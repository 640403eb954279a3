#include "base/operator_name.hpp"

#include <fmt/format.h>

#include <cctype>

namespace dt {

bool is_identifier(std::string_view s, bool allow_leading_digit) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (std::isalpha(c) || c == '_' || (std::isdigit(c) && (i > 0 || allow_leading_digit))) continue;
    return false;
  }
  return true;
}

Expected<OperatorName, Diagnostic> OperatorName::parse(std::string_view text) {
  const auto invalid = [&] {
    return unexpected(make_error(
        {}, fmt::format("invalid operator name '{}'; expected name, name.overload or ns::name.overload", text)));
  };
  OperatorName out;
  std::string_view rest = text;
  if (auto p = rest.find("::"); p != std::string_view::npos) {
    out.ns = std::string(rest.substr(0, p));
    rest.remove_prefix(p + 2);
    if (!is_identifier(out.ns)) return invalid();
  }
  if (auto p = rest.find('.'); p != std::string_view::npos) {
    out.overload = std::string(rest.substr(p + 1));
    rest = rest.substr(0, p);
    if (!is_identifier(out.overload, true)) return invalid();
  }
  out.name = std::string(rest);
  if (!is_identifier(out.name)) return invalid();
  return out;
}

void append_qualified_name(std::string& out, std::string_view ns, std::string_view name, std::string_view overload) {
  if (!ns.empty()) {
    out += ns;
    out += "::";
  }
  out += name;
  if (!overload.empty()) {
    out += '.';
    out += overload;
  }
}

std::string OperatorName::qualified() const {
  std::string out;
  append_qualified_name(out, ns, name, overload);
  return out;
}

std::string_view OperatorName::without_namespace(std::string_view qualified) {
  const auto p = qualified.find("::");
  return p == std::string_view::npos ? qualified : qualified.substr(p + 2);
}

std::string_view OperatorName::namespace_of(std::string_view qualified) {
  const auto p = qualified.find("::");
  return p == std::string_view::npos ? std::string_view{} : qualified.substr(0, p);
}

std::string_view OperatorName::without_overload(std::string_view qualified) {
  const auto ns = qualified.find("::");
  const auto dot = qualified.find('.', ns == std::string_view::npos ? 0 : ns + 2);
  return dot == std::string_view::npos ? qualified : qualified.substr(0, dot);
}

}  // namespace dt
