#include "dispatchtool/diagnostic.hpp"

#include <fmt/format.h>

#include <mutex>
#include <set>

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

namespace {

// Input text quoted in a message (names, kernel strings) must not cut it
// short (NUL) or rewrite the terminal (CR, escape sequences): control
// characters other than newline and tab are written as \xNN.
void append_printable(std::string_view text, std::string& out) {
  for (const char ch : text) {
    const auto u = static_cast<unsigned char>(ch);
    if ((u < 0x20 && ch != '\n' && ch != '\t') || u == 0x7f)
      out += fmt::format("\\x{:02x}", u);
    else
      out += ch;
  }
}

}  // namespace

std::string format(const Diagnostic& d) {
  std::string out = fmt::format("{}: {}: ", to_string(d.where), to_string(d.severity));
  append_printable(d.message, out);
  out += '\n';
  for (const auto& n : d.notes) {
    out += fmt::format("{}: note: ", to_string(n.where));
    append_printable(n.message, out);
    out += '\n';
  }
  return out;
}

}  // namespace dt
