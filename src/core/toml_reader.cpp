#include "toml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <span>

#include "dispatchtool/text.hpp"

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
