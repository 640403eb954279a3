#include "base/diagnostic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <mutex>
#include <set>

#include "base/text.hpp"

namespace dispatchtool {

using dt::append_printable;
using dt::kEscapeNewlines;
using dt::printable;

FileName::FileName(std::string_view name) {
  static std::mutex mutex;
  static std::set<std::string, std::less<>> names;  // node-based: views into it stay valid
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = names.find(name);
  if (it == names.end()) it = names.emplace(name).first;
  name_ = *it;
}

Location location_at(std::string_view text, std::size_t offset, FileName file) {
  offset = std::min(offset, text.size());
  const std::size_t start = text.starts_with("\xEF\xBB\xBF") && offset >= 3 ? 3 : 0;
  const std::string_view before = text.substr(start, offset - start);
  const std::size_t nl = before.rfind('\n');
  const auto lines = static_cast<std::uint32_t>(std::count(before.begin(), before.end(), '\n'));
  const std::string_view line = nl == std::string_view::npos ? before : before.substr(nl + 1);
  // Columns count code points: every byte but UTF-8 continuation bytes.
  const auto column = static_cast<std::uint32_t>(
      std::count_if(line.begin(), line.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  return Location{file, lines + 1, column + 1};
}

std::string to_string(const Location& loc) {
  std::string out = printable(loc.file.view());
  if (loc.known()) fmt::format_to(std::back_inserter(out), ":{}:{}", loc.line, loc.column);
  return out;
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
  std::string out = d.where.file.empty() ? std::string("dispatchtool") : to_string(d.where);
  fmt::format_to(std::back_inserter(out), ": {}: ", to_string(d.severity));
  append_printable(d.message, out, d.multi_line ? 0 : kEscapeNewlines);  // PyTorch's multi-line messages keep their lines
  out += '\n';
  for (const auto& n : d.notes) {
    out += fmt::format("{}: note: ", to_string(n.where));
    append_printable(n.message, out);
    out += '\n';
  }
  for (const auto& m : d.more) out += format(m);
  return out;
}

bool add_error(std::optional<Diagnostic>& all, Diagnostic d, std::size_t limit) {
  std::vector<Diagnostic> more = std::move(d.more);
  d.more.clear();
  bool full = false;  // `d` already ended with "too many errors": so does the run
  const auto add = [&](Diagnostic e) {
    if (e.code == kTooManyErrors) {
      full = true;
      return;
    }
    if (!all)
      all = std::move(e);
    else
      all->more.push_back(std::move(e));
  };
  add(std::move(d));
  for (auto& m : more) add(std::move(m));
  if (!all || (!full && 1 + all->more.size() < limit)) return true;
  if (const std::size_t keep = limit > 1 ? limit - 1 : 0; all->more.size() > keep) all->more.resize(keep);
  Diagnostic last = make_error(fmt::format("too many errors ({}): the rest of the input is not read", limit));
  last.code = std::string(kTooManyErrors);
  all->more.push_back(std::move(last));
  return false;
}

}  // namespace dispatchtool
