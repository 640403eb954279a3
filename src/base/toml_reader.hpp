// Typed, located access to toml++ tables, for the core's readers of TOML
// (profiles, input files, lint configuration and baselines); not for the front
// end. The first problem is kept in the Diagnostic the reader is given (an
// internal convention: public functions return Expected); accessors then
// return empty values, so callers check failed() once after reading an entry.
#pragma once

#include <toml++/toml.h>

#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/located.hpp"

namespace dt {

// Parses TOML text; syntax errors become "FILE:LINE:COL: error: ...". The
// text is checked first (toml_guard.hpp): nesting limits, and what toml++
// 3.3.0 cannot parse safely.
Expected<toml::table, Diagnostic> parse_toml(std::string_view text, FileName file);

Location location_of(const toml::source_region& r, FileName file);

// The error for a name longer than limits::kNameBytes ("what" names it: "'op'",
// "a dispatch key name"), without echoing it.
std::string name_too_long(std::string_view what, std::size_t bytes);

// Where byte `offset` of a string value's decoded text sits in `text` (the
// file), given the position of the value's opening delimiter: follows escapes
// (\" \uXXXX ...), multi-line strings (the trimmed first newline, line-ending
// backslashes) and UTF-8 (columns count code points, as toml++'s do). Returns
// `start` if there is no string at `start`.
Location string_offset_location(std::string_view text, const Location& start, std::size_t offset);

// One table of a TOML file (a profile, lint's configuration or baseline), or
// one entry (or library block header) of a reader's registrations (a list of
// TomlFields, located.hpp: the loader's one input, a TOML file's included):
// both through the same accessors, with the same messages.
class TableReader {
 public:
  TableReader(const toml::table& table, FileName file, std::string_view what, std::optional<Diagnostic>* error);
  // `self`: where the entry is (its statement in the source).
  TableReader(const std::vector<TomlField>& fields, Location self, FileName file, std::string_view what,
              std::optional<Diagnostic>* error);

  // Reports the first field not in `allowed` (with a did-you-mean). The
  // allowed names must outlive the reader (string literals); afterwards the
  // accessors read the fields found in this single pass over the table.
  void allow_only(std::initializer_list<std::string_view> allowed);

  [[nodiscard]] bool contains(std::string_view key) const { return static_cast<bool>(lookup(key)); }
  std::optional<Located<std::string>> str(std::string_view key);
  std::optional<Located<bool>> boolean(std::string_view key);
  std::optional<std::vector<Located<std::string>>> str_array(std::string_view key);
  // Strings that name something (keys, operators, kernels, namespaces): at
  // most limits::kNameBytes each, else an error at the value.
  std::optional<Located<std::string>> name(std::string_view key);
  std::optional<std::vector<Located<std::string>>> name_array(std::string_view key);
  // A name or an array of names ("cpu" or ["cpu", "cuda"]); nullopt when absent or after an error.
  std::optional<std::vector<Located<std::string>>> name_or_names(std::string_view key);
  // An array of tables ([[name]]); each element handed to `fn(const toml::table&, Location)`.
  const toml::array* table_array(std::string_view key);
  const toml::table* table(std::string_view key);
  // The same two over a field list: an array of tables, a table.
  const TomlArray* field_tables(std::string_view key);
  const TomlTable* field_table(std::string_view key);
  Location where(std::string_view key) const;  // of the value (or of the table)
  [[nodiscard]] Location self() const { return table_ != nullptr ? location_of(table_->source(), file_) : self_; }

  void fail(Location where, std::string message);
  [[nodiscard]] bool failed() const { return error_->has_value(); }
  [[nodiscard]] FileName file() const { return file_; }

 private:
  // A field found: a TOML node, or a reader's field.
  struct Found {  // no member initializers: the slots below stay unwritten until used
    const toml::node* node;
    const TomlField* field;
    explicit operator bool() const { return node != nullptr || field != nullptr; }
  };
  Found get(std::string_view key, toml::node_type type, std::string_view type_name);
  [[nodiscard]] Found lookup(std::string_view key) const;
  [[nodiscard]] Location where_of(const Found& f) const;

  const toml::table* table_ = nullptr;
  const std::vector<TomlField>* list_ = nullptr;
  Location self_;
  FileName file_;
  std::string_view what_;  // a string literal: "an [[impl]] entry"
  std::optional<Diagnostic>* error_;
  bool indexed_ = false;
  // After allow_only: each allowed name and its node (no allocation per entry).
  static constexpr std::size_t kMaxFields = 64;
  // Trivial, and left unwritten past field_count_: a reader is made per
  // entry (9,544 for a native_functions.yaml), and zeroing 2 KiB each time
  // cost more than reading the entry's fields.
  struct Slot {
    const char* name;
    std::size_t size;
    Found found;
    [[nodiscard]] std::string_view view() const { return {name, size}; }
  };
  std::array<Slot, kMaxFields> fields_;
  std::size_t field_count_ = 0;
  mutable std::size_t cursor_ = 0;  // where lookup starts: after the last name it found
};

}  // namespace dt
