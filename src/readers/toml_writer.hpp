// The readers' common output: registrations as the TOML contract
// (docs/input-format.md) holds them, each field with where it was read.
// Every reader (C++, Python, yaml; a TOML file's adapter, toml_file.hpp,
// gives the same model) fills TomlBlocks; the loader compiles
// them as they are (registry/file_loader.hpp), and render_toml() writes them
// as one TOML document (a plain file for one block, [[block]] tables for
// more), so that `dispatchtool import` prints exactly what the loader compiles.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/located.hpp"

namespace dt {

// One [[def]], [[impl]], [[fallback]] or [[custom_op]].
struct TomlEntry {
  std::string kind;  // "def" | "impl" | "fallback" | "custom_op"
  std::vector<TomlField> fields;
  Location at;       // the statement (m.impl(...), @torch.library.impl, a yaml entry)
  std::string note;  // optional: what the source says, for the comment above the entry

  // `key`: a field's name, usually a literal.
  TomlEntry& add(std::string_view key, std::string value, Location where, std::uint32_t span = 0);
  TomlEntry& add(std::string_view key, const char* value, Location where) {
    return add(key, std::string(value), std::move(where));  // not the bool overload
  }
  TomlEntry& add(std::string_view key, bool value, Location where);
  TomlEntry& add(std::string_view key, std::vector<std::string> value, Location where);
};

// One library block (TORCH_LIBRARY..., torch.library.Library(...), a yaml file).
struct TomlBlock {
  std::vector<TomlField> header;  // namespace, kind, dispatch_key, privateuse1_backend
  std::vector<TomlEntry> entries;
  Location at;  // the block's opening (the macro, the Library(...) call)
  std::string note;

  TomlBlock& add(std::string_view key, std::string value, Location where);
};

// The blocks as one TOML document (`dispatchtool import`): `title` is the
// first comment line ("translated from ops.cpp by dispatchtool import"); every
// block and entry gets a comment naming its source "FILE:LINE:COL".
std::string render_toml(const std::vector<TomlBlock>& blocks, std::string_view title);

// A TOML basic string: "..." with the escapes TOML needs.
std::string toml_quote(std::string_view s);

}  // namespace dt
