// Loads registration files into a Registry: TOML (docs/input-format.md), and
// C++, Python and yaml files, whose readers (readers/readers.hpp) hand over
// the same registrations, each field located in the original source.
// Files are read, parsed and compiled into batches of registrations on worker
// threads, a bounded window ahead; the batches are applied in command-line
// order, so the result and the errors do not depend on timing. Memory is
// bounded by the window's files plus the registry.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/io.hpp"
#include "readers/readers.hpp"
#include "registry/model.hpp"

namespace dt {

struct LoadOptions {
  // Fail: a registration PyTorch refuses (defining twice, two fallbacks for one
  // key, library-kind violations, schema mismatch) stops loading with an error.
  // Record: it is skipped and recorded (lint reports them all).
  OnRefusal on_refusal = OnRefusal::Fail;
  // Threads that read, parse and compile files, the calling thread included;
  // 0 means one per hardware thread. The result never depends on it.
  unsigned threads = 0;
  // PyTorch's own operators, registered before the files (nullptr: none).
  std::shared_ptr<const OpLibrary> library;
  // How C++ files are compiled (readers/cpp_preprocessor.hpp): the flags of
  // each file, by its path as given (from compile_commands.json), else
  // `cpp`, and the file system includes are read through (nullptr: none).
  CppOptions cpp;
  std::shared_ptr<const std::unordered_map<std::string, CppOptions>> cpp_by_path;
  [[nodiscard]] const CppOptions& cpp_for(const std::string& path) const {
    if (cpp_by_path) {
      auto it = cpp_by_path->find(path);
      if (it != cpp_by_path->end()) return it->second;
    }
    return cpp;
  }
};

struct LoadResult {
  Registry registry;
  std::vector<Diagnostic> refusals;  // OnRefusal::Record only
  // Warnings of the readers of C++, Python and yaml files (registrations
  // they could not read statically), in file order.
  std::vector<Diagnostic> source_warnings;
};

// Errors are "FILE:LINE:COL: error: ..." diagnostics, every one of the run
// (the first carries the others in `more`, up to limits::kErrors): an input
// error stops its entry, a refusal its block, and the rest is read on.
// Warnings stay in the registry.
Expected<LoadResult, Diagnostic> load(const Profile& profile, const std::vector<std::string>& paths,
                                      const ReadFile& read, const LoadOptions& options = {});

// Registrations a reader made in memory, with no file to read (--build's,
// from the release's own yaml), loaded as load() loads a file named `name`.
Expected<LoadResult, Diagnostic> load_blocks(const Profile& profile, Blocks blocks, FileName name,
                                             const LoadOptions& options = {});

}  // namespace dt
