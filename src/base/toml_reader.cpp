#include "base/toml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "base/limits.hpp"
#include "base/text.hpp"
#include "base/toml_guard.hpp"

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

std::string name_too_long(std::string_view what, std::size_t bytes) {
  return fmt::format("{} is a name of {} bytes; names are at most {} bytes (limit: {})", what, bytes,
                     limits::kNameBytes, limits::kNameBytes);
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
  if (auto refused = check_toml_input(text, file)) return unexpected(std::move(*refused));
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
    : table_(&table), file_(file), what_(what), error_(error) {}

TableReader::TableReader(const std::vector<TomlField>& fields, Location self, FileName file, std::string_view what,
                         std::optional<Diagnostic>* error)
    : list_(&fields), self_(std::move(self)), file_(file), what_(what), error_(error) {}

void TableReader::fail(Location where, std::string message) {
  if (error_->has_value()) return;
  Diagnostic d;
  d.where = std::move(where);
  d.message = std::move(message);
  *error_ = std::move(d);
}

namespace {

// A reader's string that TOML cannot hold (dispatchtool import could not write it).
std::string not_utf8(std::string_view key) {
  return fmt::format("'{}' holds bytes that are not UTF-8: names, schemas and debug strings are UTF-8 text here, "
                     "as in TOML (dispatchtool import)",
                     key);
}

// The TOML type a field's value has, as TableReader's messages name it.
toml::node_type type_of(const TomlField& f) {
  switch (f.value.index()) {
    case 0:
      return toml::node_type::string;
    case 1:
      return toml::node_type::boolean;
    case 2:
      return toml::node_type::array;
    case 3:
      return toml::node_type::table;
    default:
      break;
  }
  switch (std::get<TomlScalar>(f.value).type) {
    case TomlScalar::Type::Integer:
      return toml::node_type::integer;
    case TomlScalar::Type::Float:
      return toml::node_type::floating_point;
    case TomlScalar::Type::Date:
      return toml::node_type::date;
    case TomlScalar::Type::Time:
      return toml::node_type::time;
    case TomlScalar::Type::DateTime:
      return toml::node_type::date_time;
  }
  return toml::node_type::none;
}

// A field's string, located as Located says: a TOML file's at its opening
// delimiter, a reader's with its span.
Located<std::string> located_string(const TomlField& f) {
  Located<std::string> out{std::get<std::string>(f.value), f.at};
  if (!f.in_toml_text) {
    out.span = f.span;
    out.from_reader = true;
  }
  return out;
}

// A field's name is one of about a dozen, asked for about a dozen times per
// entry: the length and the first byte decide most comparisons without a
// call to memcmp.
// Both are usually the same string literal (the allowed list and the read
// sit in one function): the same address is the same name.
bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         (a.data() == b.data() || a.empty() || (a[0] == b[0] && std::memcmp(a.data(), b.data(), a.size()) == 0));
}

}  // namespace

void TableReader::allow_only(std::initializer_list<std::string_view> allowed) {
  indexed_ = true;
  field_count_ = 0;
  cursor_ = 0;
  for (auto name : allowed) {
    if (field_count_ == kMaxFields) std::abort();  // a programming error: raise kMaxFields
    fields_[field_count_++] = Slot{name.data(), name.size(), Found{}};
  }
  const auto fields = std::span(fields_.data(), field_count_);
  // `key_at()`: where the key is written, asked only for an error.
  const auto take = [&](std::string_view key, Found found, const auto& key_at) {
    auto it = std::find_if(fields.begin(), fields.end(), [&](const Slot& f) { return same_name(f.view(), key); });
    if (it != fields.end()) {
      it->found = found;
      return true;
    }
    if (key.size() > limits::kNameBytes) {
      fail(key_at(), name_too_long(fmt::format("a field in {}", what_), key.size()));
      return false;
    }
    const std::vector<std::string_view> names(allowed);
    fail(key_at(), fmt::format("unknown field '{}' in {}{}", key, what_, did_you_mean(key, names)));
    return false;
  };
  if (table_ != nullptr) {
    for (auto&& kv : *table_) {
      const toml::key& k = kv.first;  // named: clang 14 captures no structured binding
      if (!take(k.str(), Found{&kv.second, nullptr}, [&] { return location_of(k.source(), file_); })) return;
    }
  } else {
    for (const TomlField& f : *list_)
      if (!take(f.key, Found{nullptr, &f}, [&] { return f.key_at(); })) return;
  }
}

TableReader::Found TableReader::lookup(std::string_view key) const {
  if (indexed_) {
    // Entries are read in the order their fields are allowed: the search
    // starts after the last name found, and is usually one comparison.
    for (std::size_t n = 0, i = cursor_; n < field_count_; ++n, i = i + 1 == field_count_ ? 0 : i + 1)
      if (same_name(fields_[i].view(), key)) {
        cursor_ = i + 1 == field_count_ ? 0 : i + 1;
        return fields_[i].found;
      }
    return Found{};
  }
  if (table_ != nullptr) return Found{table_->get(key), nullptr};
  for (const TomlField& f : *list_)
    if (f.key == key) return Found{nullptr, &f};
  return Found{};
}

Location TableReader::where_of(const Found& f) const {
  return f.node != nullptr ? location_of(f.node->source(), file_) : f.field->at;
}

Location TableReader::where(std::string_view key) const {
  if (const Found f = lookup(key)) return where_of(f);
  return self();
}

TableReader::Found TableReader::get(std::string_view key, toml::node_type type, std::string_view tname) {
  const Found f = lookup(key);
  if (!f || failed()) return Found{};
  const toml::node_type actual = f.node != nullptr ? f.node->type() : type_of(*f.field);
  if (actual != type) {
    fail(where_of(f), fmt::format("field '{}' in {} must be {}, not {}", key, what_, tname, type_name(actual)));
    return Found{};
  }
  return f;
}

std::optional<Located<std::string>> TableReader::str(std::string_view key) {
  const Found f = get(key, toml::node_type::string, "a string");
  if (!f) return std::nullopt;
  if (f.field != nullptr) {
    // A TOML file's strings are UTF-8 (toml++ checks); a reader's may not be.
    if (!f.field->in_toml_text && !is_utf8(std::get<std::string>(f.field->value))) {
      fail(f.field->at, not_utf8(key));
      return std::nullopt;
    }
    return located_string(*f.field);
  }
  return Located<std::string>{std::string(f.node->as_string()->get()), location_of(f.node->source(), file_)};
}

std::optional<Located<bool>> TableReader::boolean(std::string_view key) {
  const Found f = get(key, toml::node_type::boolean, "a boolean");
  if (!f) return std::nullopt;
  if (f.field != nullptr) return Located<bool>{std::get<bool>(f.field->value), f.field->at};
  return Located<bool>{f.node->as_boolean()->get(), location_of(f.node->source(), file_)};
}

std::optional<std::vector<Located<std::string>>> TableReader::str_array(std::string_view key) {
  const Found f = get(key, toml::node_type::array, "an array of strings");
  if (!f) return std::nullopt;
  std::vector<Located<std::string>> out;
  const auto not_string = [&](const Location& at, toml::node_type t) {
    fail(at, fmt::format("field '{}' in {} must be an array of strings; found {}", key, what_, type_name(t)));
  };
  if (f.field != nullptr) {
    const auto& items = std::get<TomlArray>(f.field->value).items;
    out.reserve(items.size());
    for (const TomlField& e : items) {
      if (!std::holds_alternative<std::string>(e.value)) {
        not_string(e.at, type_of(e));
        return std::nullopt;
      }
      if (!e.in_toml_text && !is_utf8(std::get<std::string>(e.value))) {
        fail(e.at, not_utf8(key));
        return std::nullopt;
      }
      out.push_back(located_string(e));
    }
    return out;
  }
  for (const auto& e : *f.node->as_array()) {
    if (!e.is_string()) {
      not_string(location_of(e.source(), file_), e.type());
      return std::nullopt;
    }
    out.push_back({std::string(e.as_string()->get()), location_of(e.source(), file_)});
  }
  return out;
}

std::optional<Located<std::string>> TableReader::name(std::string_view key) {
  auto v = str(key);
  if (v && v->value.size() > limits::kNameBytes) {
    fail(v->where, name_too_long(fmt::format("'{}'", key), v->value.size()));
    return std::nullopt;
  }
  return v;
}

std::optional<std::vector<Located<std::string>>> TableReader::name_array(std::string_view key) {
  auto v = str_array(key);
  if (!v) return v;
  for (const auto& n : *v)
    if (n.value.size() > limits::kNameBytes) {
      fail(n.where, name_too_long(fmt::format("an element of '{}'", key), n.value.size()));
      return std::nullopt;
    }
  return v;
}

std::optional<std::vector<Located<std::string>>> TableReader::name_or_names(std::string_view key) {
  const Found f = lookup(key);
  if (!f) return std::nullopt;
  if (f.node != nullptr ? f.node->is_string() : std::holds_alternative<std::string>(f.field->value)) {
    auto one = name(key);
    if (!one) return std::nullopt;
    return std::vector<Located<std::string>>{std::move(*one)};
  }
  return name_array(key);
}

namespace {

std::string not_tables(std::string_view key, toml::node_type found) {
  return fmt::format("'{}' must be an array of tables ([[{}]]); found {}", key, key, type_name(found));
}

}  // namespace

const toml::array* TableReader::table_array(std::string_view key) {
  const Found f = get(key, toml::node_type::array, "an array of tables");
  if (!f || f.node == nullptr) return nullptr;
  for (const auto& e : *f.node->as_array()) {
    if (!e.is_table()) {
      fail(location_of(e.source(), file_), not_tables(key, e.type()));
      return nullptr;
    }
  }
  return f.node->as_array();
}

const toml::table* TableReader::table(std::string_view key) {
  const Found f = get(key, toml::node_type::table, "a table");
  return f.node == nullptr ? nullptr : f.node->as_table();
}

const TomlArray* TableReader::field_tables(std::string_view key) {
  const Found f = get(key, toml::node_type::array, "an array of tables");
  if (!f || f.field == nullptr) return nullptr;
  const auto& array = std::get<TomlArray>(f.field->value);
  for (const TomlField& e : array.items)
    if (!std::holds_alternative<TomlTable>(e.value)) {
      fail(e.at, not_tables(key, type_of(e)));
      return nullptr;
    }
  return &array;
}

const TomlTable* TableReader::field_table(std::string_view key) {
  const Found f = get(key, toml::node_type::table, "a table");
  return f.field == nullptr ? nullptr : &std::get<TomlTable>(f.field->value);
}

}  // namespace dt
