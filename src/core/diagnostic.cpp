#include "dispatchtool/diagnostic.hpp"

#include <fmt/format.h>

namespace dt {

std::string to_string(const Location& loc) {
  if (!loc.known()) return loc.file;
  return fmt::format("{}:{}:{}", loc.file, loc.line, loc.column);
}

const char* to_string(Severity s) {
  switch (s) {
    case Severity::Info:
      return "info";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "error";
}

std::string format(const Diagnostic& d) {
  std::string out = fmt::format("{}: {}: {}\n", to_string(d.where), to_string(d.severity), d.message);
  for (const auto& n : d.notes) out += fmt::format("{}: note: {}\n", to_string(n.where), n.message);
  return out;
}

}  // namespace dt
