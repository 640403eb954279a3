// Internal to the loader: what one file asks of the registry, in document
// order. Compiling a file into a Batch needs only the profile, so it runs on
// a worker thread (compile_ahead.hpp); the calling thread applies the batches
// in command-line order (loader.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/diagnostic.hpp"
#include "readers/toml_file.hpp"
#include "readers/toml_writer.hpp"
#include "registry/model.hpp"

namespace dt {

// One library block to compile: a reader's, or block `index` of a TOML file
// (shared: a deferred block is compiled again on the main thread).
struct BlockSource {
  std::shared_ptr<const TomlBlock> read;
  std::shared_ptr<const TomlFile> file;
  std::size_t index = 0;
  [[nodiscard]] Location at() const { return read ? read->at : file->blocks()[index].header.at; }
  // A TOML file's text, for locations inside its strings; empty for a reader's block.
  [[nodiscard]] std::string_view text() const { return file ? std::string_view(file->text()) : std::string_view{}; }
};

struct Batch {
  struct AddLibrary {
    bool check_single_def = false;  // a DEF block with a namespace: no other may exist
  };
  struct Impl {
    std::uint32_t op = 0;  // index into names
    KeyId key = kUndefined;
    Kernel kernel;
    // The kernel is the operator's own C++ function (op_signature = true):
    // its inferred schema comes from the operator's schema, when applied.
    bool op_signature = false;
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
  // an unknown key or device): the main thread compiles this block itself.
  std::optional<BlockSource> deferred;
  // A block of a file with several ([[block]] tables, or a reader's blocks): where it starts.
  std::optional<Location> block_where;
  // The reader's warnings (registrations it could not read statically),
  // on the first batch of the file.
  std::vector<Diagnostic> source_warnings;
};

}  // namespace dt
