// SourceMap (source_map.hpp): generated lines back to their origins.
#include "base/source_map.hpp"

#include <fmt/format.h>

#include <cctype>

namespace dt {

void SourceMap::add(std::uint32_t line, Location from, std::uint32_t anchor, std::uint32_t span) {
  if (line == 0) return;
  if (lines_.size() < line) lines_.resize(line);
  lines_[line - 1] = Line{std::move(from), anchor, span, true};
}

Location SourceMap::remap(const Location& generated) const {
  if (generated.line == 0 || generated.line > lines_.size()) return generated;
  const Line& l = lines_[generated.line - 1];
  if (!l.set) return generated;
  Location at = l.from;
  if (at.column != 0 && generated.column > l.anchor && (l.span == 0 || generated.column - l.anchor < l.span))
    at.column += generated.column - l.anchor;
  return at;
}

std::string SourceMap::remap_text(std::string_view text, FileName generated) const {
  const std::string_view name = generated.view();
  if (name.empty() || lines_.empty()) return std::string(text);
  std::string out;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t hit = text.find(name, pos);
    if (hit == std::string_view::npos) break;
    std::size_t digits = hit + name.size();
    if (digits >= text.size() || text[digits] != ':') {
      out.append(text.substr(pos, digits - pos));
      pos = digits;
      continue;
    }
    std::size_t end = digits + 1;
    std::uint32_t line = 0;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) != 0 && line < 100000000)
      line = line * 10 + static_cast<std::uint32_t>(text[end++] - '0');
    if (end == digits + 1) {
      out.append(text.substr(pos, end - pos));
      pos = end;
      continue;
    }
    const Location to = remap(Location{generated, line, 0});
    out.append(text.substr(pos, hit - pos));
    out += fmt::format("{}:{}", to.file, to.line);
    pos = end;
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace dt
