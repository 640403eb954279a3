// Values with where they were read. `Located<T>` is one value; `TomlField`
// one field of a registration as every reader makes it (readers/: C++,
// Python, yaml, and TOML files through readers/toml_file.hpp): the TOML
// contract's field (docs/input-format.md) with where its key and its value
// are written in the original source. The loader reads these fields, one
// model whatever the source (TableReader over a field list,
// toml_reader.hpp); `dispatchtool import` prints them as TOML.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/diagnostic.hpp"

namespace dt {

// Whether `c` may appear in a bare TOML key (A-Z a-z 0-9 _ -): toml_guard
// scans keys with it, and render_toml quotes a key with any other.
bool toml_bare_key_char(char c);

template <class T>
struct Located {
  T value;
  Location where;
  // A string read by a reader of C++, Python or yaml: how a byte offset into
  // the value maps to a column of the source (TomlField::span; `offset_in`).
  // `from_reader` false: a TOML file's string, at its opening delimiter.
  std::uint32_t span = 0;
  bool from_reader = false;
};

struct TomlField;

// A field's value of a type the loader never reads (an integer, a float, a
// date or time): its type, for the error that says so, and its text.
struct TomlScalar {
  enum class Type : std::uint8_t { Integer, Float, Date, Time, DateTime };
  Type type = Type::Integer;
  std::string text;  // as TOML writes it
};
// An array: its elements are keyless fields, each located.
struct TomlArray {
  std::vector<TomlField> items;
};
// A table (an inline one, `dispatch = { CPU = "k" }`): its fields.
struct TomlTable {
  std::vector<TomlField> fields;
};

struct TomlField {
  std::string key;  // empty for an array's element
  std::variant<std::string, bool, TomlArray, TomlTable, TomlScalar> value;
  Location at;  // where the value is written in the original file
  // How many columns after `at` keep their offset in the written value (0:
  // all). A value joined from several literals ("a(" "Tensor x)") keeps them
  // only up to the end of the first: a column past it maps to `at` itself.
  std::uint32_t span = 0;
  // Where the key is written, when not at `at` (a TOML file's `key = value`);
  // 0: at `at` (a reader's field, which has no key in its source).
  std::uint32_t key_line = 0, key_column = 0;
  // The value is a TOML file's string, `at` its opening delimiter: a byte
  // offset into it maps through the file's text (string_offset_location,
  // toml_reader.hpp), not through `span`.
  bool in_toml_text = false;

  [[nodiscard]] Location key_at() const { return key_line == 0 ? at : Location{at.file, key_line, key_column}; }
};

// A reader's array of strings: every element located at `where`, the
// array's start (C++'s {at::Tag::a, ...} and Python's ("cpu",) are not their
// TOML text character for character).
TomlArray string_array(std::vector<std::string> values, const Location& where);

// Where byte `offset` of a reader's string value (Located::from_reader) is in
// its source: `at` moved by the columns the value's first `offset` bytes take
// written as a TOML basic string (escapes \" \\ \n \t \r two columns, other
// control characters six, a UTF-8 sequence one; what `dispatchtool import`
// prints), as long as that stays inside `span` (0: unbounded); else `at`.
Location offset_in(const Location& at, std::uint32_t span, std::string_view value, std::size_t offset);

}  // namespace dt
