#include "base/diagnostic.hpp"

#include <fmt/format.h>

#include <mutex>
#include <set>

#include "base/text.hpp"

namespace dt {

FileName::FileName(std::string_view name) {
  static std::mutex mutex;
  static std::set<std::string, std::less<>> names;  // node-based: views into it stay valid
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = names.find(name);
  if (it == names.end()) it = names.emplace(name).first;
  name_ = *it;
}

std::string to_string(const Location& loc) {
  if (!loc.known()) return loc.file.str();
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
  std::string out = fmt::format("{}: {}: ", to_string(d.where), to_string(d.severity));
  append_printable(d.message, out, 0);  // PyTorch's multi-line messages keep their lines
  out += '\n';
  for (const auto& n : d.notes) {
    out += fmt::format("{}: note: ", to_string(n.where));
    append_printable(n.message, out, 0);
    out += '\n';
  }
  return out;
}

}  // namespace dt
