#include "base/toml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "base/text.hpp"

namespace dt {

namespace {

std::string_view type_name(toml::node_type t) {
  switch (t) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

}  // namespace

Location location_of(const toml::source_region& r, FileName file) {
  return Location{file, r.begin.line, r.begin.column};
}

namespace {

std::size_t utf8_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 0x6) return 2;
  if ((lead >> 4) == 0xe) return 3;
  if ((lead >> 3) == 0x1e) return 4;
  return 1;  // a stray continuation byte: one column, as good as any
}

std::size_t utf8_length_of_code_point(std::uint32_t cp) {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

// The value of hexadecimal digits ("00e9": 0xe9).
std::uint32_t hex_value(std::string_view digits) {
  std::uint32_t v = 0;
  for (const char c : digits)
    v = v * 16 + static_cast<std::uint32_t>(std::isdigit(static_cast<unsigned char>(c))
                                                ? c - '0'
                                                : (std::tolower(static_cast<unsigned char>(c)) - 'a' + 10));
  return v;
}

// The byte index of `at` in `text`: its line, then its column in code points
// (toml++ skips a UTF-8 byte order mark without counting it); nullopt when
// the text has fewer lines.
std::optional<std::size_t> byte_index(std::string_view text, const Location& at) {
  std::size_t pos = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  for (std::uint32_t line = 1; line < at.line; ++line) {
    pos = text.find('\n', pos);
    if (pos == std::string_view::npos) return std::nullopt;
    ++pos;
  }
  for (std::uint32_t col = 1; col < at.column && pos < text.size() && text[pos] != '\n'; ++col)
    pos += utf8_length(static_cast<unsigned char>(text[pos]));
  return pos;
}

}  // namespace

Location string_offset_location(std::string_view text, const Location& start, std::size_t offset) {
  const auto index = byte_index(text, start);
  if (!index) return start;
  std::size_t pos = *index;
  const std::string_view rest = text.substr(std::min(pos, text.size()));
  const bool multi = rest.starts_with("\"\"\"") || rest.starts_with("'''");
  const bool basic = rest.starts_with('"');
  if (!basic && !rest.starts_with('\'')) return start;
  const std::size_t delimiter = multi ? 3 : 1;
  Location at = start;
  at.column += static_cast<std::uint32_t>(delimiter);
  pos += delimiter;
  const auto newline = [&](std::size_t width) {
    pos += width;
    ++at.line;
    at.column = 1;
  };
  const auto newline_width = [&](std::size_t i) -> std::size_t {
    if (i < text.size() && text[i] == '\n') return 1;
    if (i + 1 < text.size() && text[i] == '\r' && text[i + 1] == '\n') return 2;
    return 0;
  };
  if (multi)
    if (const std::size_t w = newline_width(pos)) newline(w);  // trimmed, decodes to nothing
  std::size_t decoded = 0;
  while (pos < text.size()) {
    const char c = text[pos];
    std::size_t source = 1, produced = 1;  // bytes read from the file, bytes of decoded text
    if (basic && c == '\\' && pos + 1 < text.size()) {
      const char e = text[pos + 1];
      if (multi && (e == ' ' || e == '\t' || newline_width(pos + 1) != 0)) {
        // A line-ending backslash: it and all whitespace and newlines after it decode to nothing.
        ++pos;
        ++at.column;
        while (pos < text.size()) {
          if (const std::size_t w = newline_width(pos)) {
            newline(w);
          } else if (text[pos] == ' ' || text[pos] == '\t') {
            ++pos;
            ++at.column;
          } else {
            break;
          }
        }
        continue;
      }
      if (e == 'u' || e == 'U') {
        source = e == 'u' ? 6 : 10;
        produced = utf8_length_of_code_point(hex_value(text.substr(pos + 2, source - 2)));
      } else {
        source = 2;
      }
    } else if (const std::size_t w = newline_width(pos); multi && w != 0) {
      if (decoded + 1 > offset) return at;
      newline(w);
      ++decoded;
      continue;
    } else if (!multi && (c == (basic ? '"' : '\'') || c == '\n')) {
      break;  // the end of the string
    } else {
      source = produced = utf8_length(static_cast<unsigned char>(c));
    }
    if (decoded + produced > offset) return at;
    decoded += produced;
    pos += source;
    at.column += static_cast<std::uint32_t>(c == '\\' && basic ? source : 1);
  }
  return at;
}

Expected<toml::table, Diagnostic> parse_toml(std::string_view text, FileName file) {
  try {
    return toml::parse(text, file.view());
  } catch (const toml::parse_error& e) {
    Diagnostic d;
    d.where = location_of(e.source(), file);
    d.message = std::string(e.description());
    return unexpected(std::move(d));
  }
}

TableReader::TableReader(const toml::table& table, FileName file, std::string_view what,
                         std::optional<Diagnostic>* error)
    : table_(table), file_(file), what_(what), error_(error) {}

void TableReader::fail(Location where, std::string message) {
  if (error_->has_value()) return;
  Diagnostic d;
  d.where = std::move(where);
  d.message = std::move(message);
  *error_ = std::move(d);
}

void TableReader::allow_only(std::initializer_list<std::string_view> allowed) {
  indexed_ = true;
  field_count_ = 0;
  for (auto name : allowed) {
    if (field_count_ == kMaxFields) std::abort();  // a programming error: raise kMaxFields
    fields_[field_count_++] = {name, nullptr};
  }
  const auto fields = std::span(fields_.data(), field_count_);
  for (auto&& [k, v] : table_) {
    const std::string_view key(k.str());
    auto it = std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f.first == key; });
    if (it != fields.end()) {
      it->second = &v;
      continue;
    }
    const std::vector<std::string_view> names(allowed);
    fail(location_of(k.source(), file_),
         fmt::format("unknown field '{}' in {}{}", key, what_, did_you_mean(key, names)));
    return;
  }
}

const toml::node* TableReader::lookup(std::string_view key) const {
  if (!indexed_) return table_.get(key);
  for (const auto& [name, node] : std::span(fields_.data(), field_count_))
    if (name == key) return node;
  return nullptr;
}

Location TableReader::where(std::string_view key) const {
  if (const auto* n = lookup(key)) return location_of(n->source(), file_);
  return self();
}

const toml::node* TableReader::get(std::string_view key, toml::node_type type, std::string_view tname) {
  const toml::node* n = lookup(key);
  if (n == nullptr || failed()) return nullptr;
  if (n->type() != type) {
    fail(location_of(n->source(), file_),
         fmt::format("field '{}' in {} must be {}, not {}", key, what_, tname, type_name(n->type())));
    return nullptr;
  }
  return n;
}

std::optional<Located<std::string>> TableReader::str(std::string_view key) {
  const auto* n = get(key, toml::node_type::string, "a string");
  if (n == nullptr) return std::nullopt;
  return Located<std::string>{std::string(n->as_string()->get()), location_of(n->source(), file_)};
}

std::optional<Located<bool>> TableReader::boolean(std::string_view key) {
  const auto* n = get(key, toml::node_type::boolean, "a boolean");
  if (n == nullptr) return std::nullopt;
  return Located<bool>{n->as_boolean()->get(), location_of(n->source(), file_)};
}

std::optional<std::vector<Located<std::string>>> TableReader::str_array(std::string_view key) {
  const auto* n = get(key, toml::node_type::array, "an array of strings");
  if (n == nullptr) return std::nullopt;
  std::vector<Located<std::string>> out;
  for (const auto& e : *n->as_array()) {
    if (!e.is_string()) {
      fail(location_of(e.source(), file_),
           fmt::format("field '{}' in {} must be an array of strings; found {}", key, what_, type_name(e.type())));
      return std::nullopt;
    }
    out.push_back({std::string(e.as_string()->get()), location_of(e.source(), file_)});
  }
  return out;
}

const toml::array* TableReader::table_array(std::string_view key) {
  const auto* n = get(key, toml::node_type::array, "an array of tables");
  if (n == nullptr) return nullptr;
  for (const auto& e : *n->as_array()) {
    if (!e.is_table()) {
      fail(location_of(e.source(), file_),
           fmt::format("'{}' must be an array of tables ([[{}]]); found {}", key, key, type_name(e.type())));
      return nullptr;
    }
  }
  return n->as_array();
}

const toml::table* TableReader::table(std::string_view key) {
  const auto* n = get(key, toml::node_type::table, "a table");
  return n == nullptr ? nullptr : n->as_table();
}

}  // namespace dt
