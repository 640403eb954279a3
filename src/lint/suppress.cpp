#include "lint/suppress.hpp"

#include <algorithm>
#include <cstring>

#include "base/io.hpp"
#include "base/text.hpp"

namespace dt::lint {

namespace {

constexpr std::string_view kMarker = "dispatchtool: ignore";

// Whether a marker of `kind` ("" for this line, "-next-line") in `line`
// names `rule`, or names none (every rule).
bool says(std::string_view line, std::string_view kind, std::string_view rule) {
  for (std::size_t at = line.find(kMarker); at != std::string_view::npos; at = line.find(kMarker, at + 1)) {
    std::string_view rest = line.substr(at + kMarker.size());
    if (!rest.starts_with(kind)) continue;
    rest.remove_prefix(kind.size());
    if (rest.starts_with("-")) continue;  // another kind (ignore-next-line, on this line)
    if (!rest.starts_with("[")) {
      // A bare marker: every rule (not a longer word such as "ignored").
      if (rest.empty() || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\r' || rest[0] == '*') return true;
      continue;
    }
    const std::size_t close = rest.find(']');
    if (close == std::string_view::npos) continue;
    for (std::string_view r : split(rest.substr(1, close - 1), ","))
      if (trim(r, " \t") == rule) return true;
  }
  return false;
}

}  // namespace

bool suppressed(std::string_view line, std::string_view previous, std::string_view rule) {
  return says(line, "", rule) || says(previous, "-next-line", rule);
}

void MarkedLines::collect(const std::string& path, std::string_view text) {
  if (text.find(kMarker) == std::string_view::npos) return;  // the common case: one search
  std::map<std::size_t, std::string> found;
  std::size_t n = 1;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view l = text.substr(start, end - start);
    if (l.find(kMarker) != std::string_view::npos) found.emplace(n, std::string(l));
    start = end + 1;
    ++n;
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  files_[display_path(path)] = std::move(found);
}

std::string_view MarkedLines::line(std::string_view file, std::size_t n) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto f = files_.find(std::string(file));
  if (f == files_.end()) return {};
  const auto l = f->second.find(n);
  return l == f->second.end() ? std::string_view() : std::string_view(l->second);
}

std::size_t drop_suppressed(std::vector<Finding>& findings, const MarkedLines& marked) {
  const auto before = findings.size();
  std::erase_if(findings, [&](const Finding& f) {
    if (!f.where.known()) return false;
    const std::size_t n = f.where.line;
    return suppressed(marked.line(f.where.file.view(), n), n > 1 ? marked.line(f.where.file.view(), n - 1) : "",
                      f.rule);
  });
  return before - findings.size();
}

}  // namespace dt::lint
