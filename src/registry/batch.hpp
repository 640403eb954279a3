// Internal to the loader: what one file asks of the registry, in document
// order. Compiling a file into a Batch needs only the profile, so it runs on
// a worker thread (compile_ahead.hpp); the calling thread applies the batches
// in command-line order (loader.cpp).
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/source_map.hpp"
#include "registry/model.hpp"

namespace dt {

struct Batch {
  struct AddLibrary {
    bool check_single_def = false;  // a DEF block with a namespace: no other may exist
  };
  struct Impl {
    std::uint32_t op = 0;  // index into names
    KeyId key = kUndefined;
    Kernel kernel;
  };
  // A registration PyTorch refuses while reading the file (library-kind rules).
  using Refusal = std::unique_ptr<Diagnostic>;
  // Definitions and refusals are large and few: boxed, so the many Impls stay small.
  using Stmt = std::variant<AddLibrary, std::unique_ptr<Definition>, Impl, Fallback, Refusal>;

  Library lib;
  std::string lib_debug;           // "registered at FILE:LINE" of the block
  std::vector<std::string> names;  // qualified operator names of the impls
  std::vector<Stmt> stmts;
  std::optional<Diagnostic> error;  // an input error after the statements
  // Set when compiling needed the registry's state (a renamed PrivateUse1 key,
  // an unknown key or device): the main thread compiles this document itself.
  std::optional<toml::table> deferred;
  std::string deferred_text;  // the file's text, for the deferred compile
  // A block of a file with several ([[block]] tables): where it starts.
  std::optional<Location> block_where;
  // A file the readers translated (C++, Python, yaml): the translation's
  // lines back to the original file. Locations are remapped once compiled
  // (remap_batch); a deferred compile remaps after compiling again.
  std::shared_ptr<const SourceMap> map;
  // The reader's warnings (registrations it could not read statically),
  // on the first batch of the file.
  std::vector<Diagnostic> source_warnings;
};

// Moves every location of a compiled batch (its library, statements,
// refusals and error, and the "FILE:LINE"s of `file` inside debug strings and
// messages) from the generated TOML, compiled under the name `file`
// (translated_name), back to the original source through `map`.
void remap_batch(Batch& b, const SourceMap& map, FileName file);

}  // namespace dt
