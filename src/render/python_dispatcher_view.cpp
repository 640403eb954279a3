// PythonDispatcher's dispatchTable() and registrations() (python_dispatcher_view.hpp),
// line by line as torch/_python_dispatcher.py builds them from the raw dumps.
#include "render/python_dispatcher_view.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/text.hpp"

namespace dt {

namespace {

// re.sub(r"registered at .*FallbackKernel\.cpp.*(\[)", "[", line)
std::string mask_fallback_paths(std::string_view line) {
  // Greedy regex semantics: leftmost "registered at ", then the LAST
  // "FallbackKernel.cpp" that still has a '[' after it, then the LAST '['.
  static constexpr std::string_view kAt = "registered at ";
  static constexpr std::string_view kFile = "FallbackKernel.cpp";
  std::string out;
  std::size_t pos = 0;
  for (;;) {
    bool replaced = false;
    for (std::size_t s = line.find(kAt, pos); s != std::string_view::npos; s = line.find(kAt, s + 1)) {
      const std::size_t bracket = line.rfind('[');
      if (bracket == std::string_view::npos || bracket < s + kAt.size() + kFile.size()) break;
      const std::size_t f = line.rfind(kFile, bracket - kFile.size());
      if (f == std::string_view::npos || f < s + kAt.size()) continue;
      out.append(line.substr(pos, s - pos));
      out += '[';
      pos = bracket + 1;
      replaced = true;
      break;
    }
    if (!replaced) break;
  }
  out.append(line.substr(pos));
  return out;
}

void pd_line(std::string& out, std::string_view key, std::string_view kernel) {
  out += fmt::format("{:<15} {}\n", key, kernel);
}
void pd_header(std::string& out, std::string_view title) {
  out += '\n';
  out += title;
  out += '\n';
  pd_line(out, "key", "kernel");
  out += "---------------------------\n";
}

}  // namespace

void render_table_python_dispatcher(const Profile& p, const std::string& raw_table, std::string& out) {
  pd_header(out, "Computed Dispatch Table");
  const auto& rk = p.python_dispatcher_runtime_keys();
  for (auto line : split(raw_table, "\n")) {
    const auto k = split(line, ":")[0];
    if (std::find(rk.begin(), rk.end(), k) == rk.end()) continue;
    const std::string entry = mask_fallback_paths(line);
    const auto parts = split(entry, ": ");
    pd_line(out, k, parts.size() > 1 ? parts[1] : std::string_view{});
  }
}

void render_registrations_python_dispatcher(const Profile& p, const std::string& raw_registrations, std::string& out) {
  pd_header(out, "Registered Kernels");
  const auto keys = p.python_dispatcher_keys();
  for (auto line : split(raw_registrations, "\n")) {
    const auto first = split(line, ":")[0];
    const bool match =
        std::any_of(keys.begin(), keys.end(), [&](const std::string& k) { return first.starts_with(k); });
    if (!match) continue;
    const auto tokens = split(split(line, "::")[0], " ");
    pd_line(out, first, tokens.size() > 1 ? tokens[1] : std::string_view{});
  }
}

}  // namespace dt
