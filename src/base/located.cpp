// offset_in (located.hpp).
#include "base/located.hpp"

namespace dt {

namespace {

// The columns byte `c` (the first of its UTF-8 sequence, if any) takes in a
// TOML basic string as toml_quote writes it, and the bytes it spans.
std::pair<std::uint32_t, std::size_t> written(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c == '"' || c == '\\' || c == '\n' || c == '\t' || c == '\r') return {2, 1};
  if (c < 0x20 || c == 0x7f) return {6, 1};  // \uXXXX
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 1;
  return {1, n};
}

}  // namespace

Location offset_in(const Location& at, std::uint32_t span, std::string_view value, std::size_t offset) {
  std::uint32_t columns = 0;
  for (std::size_t i = 0; i < value.size();) {
    const auto [cols, bytes] = written(value, i);
    if (i + bytes > offset) break;
    columns += cols;
    i += bytes;
  }
  Location out = at;
  if (out.column != 0 && columns > 0 && (span == 0 || columns < span)) out.column += columns;
  return out;
}

TomlArray string_array(std::vector<std::string> values, const Location& where) {
  TomlArray out;
  out.items.reserve(values.size());
  for (std::string& v : values) out.items.push_back(TomlField{{}, std::move(v), where, 1});
  return out;
}

}  // namespace dt
