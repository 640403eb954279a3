// A TOML file (docs/input-format.md) as one more reader: its library blocks
// in the model every reader hands the loader (TomlBlock's header fields,
// TomlEntry's entries), each field with where its key and its value are
// written. Nothing is checked here but the file's shape ([[block]] tables or
// one library block): a field of the wrong type or an unknown one is kept as
// written, for the loader to report where and as it reports a reader's.
//
// An entry is converted when the loader reads it, into storage it reuses: a
// file of 10^6 [[def]] tables is held once, as toml++ parsed it, not twice.
#pragma once

#include <toml++/toml.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "readers/toml_writer.hpp"

namespace dt {

// One library block of a TOML file: the file itself, or one [[block]] table.
class TomlFileBlock {
 public:
  // Its place (the [[block]] table, or the file's first line) and header
  // fields, in the parsed table's order (by key); `entries` stays empty. An
  // array of entries that is not one of tables stays in the header, for the
  // loader's error.
  TomlBlock header;

  // Its [[def]], [[impl]], [[fallback]] and [[custom_op]] tables, in
  // document order (a TOML document keeps each array's order, not how they
  // interleave).
  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  // Entry `i` as a reader's entry, written into `out` (its strings and field
  // lists reused); its fields in the parsed table's order (by key).
  void entry(std::size_t i, TomlEntry& out) const;

 private:
  friend class TomlFile;
  struct Ref {
    std::string_view kind;  // "def", ...: a string literal
    const toml::table* table;
  };
  std::vector<Ref> entries_;
  FileName file_;
};

// A parsed TOML file and its blocks. Shared: a block the loader defers is
// compiled again later, on the thread that applies the batches.
class TomlFile {
 public:
  // `text` is the file's: its strings' locations are found in it
  // (TomlField::in_toml_text). Errors: a syntax error, a malformed [[block]]
  // file. `path`: the file as named; one not named .toml was read as TOML for
  // want of an extension of another kind (standard input, a FIFO as from
  // <(git show ...)), and its syntax error says so, since the text may well
  // be C++ or Python.
  static Expected<std::shared_ptr<const TomlFile>, Diagnostic> parse(std::string text, FileName file,
                                                                     std::string_view path);

  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] const std::vector<TomlFileBlock>& blocks() const { return blocks_; }

 private:
  std::string text_;
  toml::table root_;
  std::vector<TomlFileBlock> blocks_;
};

}  // namespace dt
