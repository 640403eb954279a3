// Operator names, "ns::name.overload": parsing, printing, and the parts of a
// qualified name. The one place that knows their syntax (the loader, the
// registry and --op all go through it).
#pragma once

#include <string>
#include <string_view>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"

namespace dt {

struct OperatorName {
  std::string ns;  // "" when unqualified
  std::string name;
  std::string overload;  // "" when none

  // "name", "name.overload", "ns::name" or "ns::name.overload", every part an
  // identifier (an overload name may start with a digit). The error has no
  // location: "invalid operator name 'X'; expected name, name.overload or
  // ns::name.overload".
  static Expected<OperatorName, Diagnostic> parse(std::string_view text);

  // "ns::name.overload", without "ns::" or ".overload" when they are empty.
  [[nodiscard]] std::string qualified() const;

  // Parts of a name in that syntax, as views into it (nothing is checked):
  // "ns::add.out" without its namespace is "add.out", without its overload
  // name "ns::add".
  static std::string_view without_namespace(std::string_view qualified);
  static std::string_view without_overload(std::string_view qualified);
  // "ns" of "ns::name.overload"; "" for an unqualified name.
  static std::string_view namespace_of(std::string_view qualified);
};

// Appends "ns::name.overload" (parts left out as for OperatorName::qualified).
void append_qualified_name(std::string& out, std::string_view ns, std::string_view name, std::string_view overload);

// [A-Za-z_][A-Za-z0-9_]*; with allow_leading_digit a digit may come first.
bool is_identifier(std::string_view s, bool allow_leading_digit = false);

}  // namespace dt
