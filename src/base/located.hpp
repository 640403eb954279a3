// Values with where they were read. `Located<T>` is one value; `TomlField`
// one field of a registration as the readers of C++, Python and yaml make it
// (readers/toml_writer.hpp): the TOML contract's field (docs/input-format.md)
// with where its value is written in the original source. The loader reads
// these fields directly (TableReader over a field list, toml_reader.hpp), the
// way it reads a TOML file's tables; `dispatchtool import` prints them as TOML.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/diagnostic.hpp"

namespace dt {

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

struct TomlField {
  std::string key;
  std::variant<std::string, bool, std::vector<std::string>> value;
  Location at;  // where the value is written in the original file
  // How many columns after `at` keep their offset in the written value (0:
  // all). A value joined from several literals ("a(" "Tensor x)") keeps them
  // only up to the end of the first: a column past it maps to `at` itself.
  std::uint32_t span = 0;
};

// Where byte `offset` of a reader's string value (Located::from_reader) is in
// its source: `at` moved by the columns the value's first `offset` bytes take
// written as a TOML basic string (escapes \" \\ \n \t \r two columns, other
// control characters six, a UTF-8 sequence one; what `dispatchtool import`
// prints), as long as that stays inside `span` (0: unbounded); else `at`.
Location offset_in(const Location& at, std::uint32_t span, std::string_view value, std::size_t offset);

}  // namespace dt
