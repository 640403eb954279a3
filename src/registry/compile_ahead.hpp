// Internal to the loader: reads, parses and compiles files into Batches
// (batch.hpp) ahead of the thread that applies them, on a few long-lived
// workers, at most `window` files ahead; files are read in command-line
// order, one at a time, and parsed and compiled in parallel. Long-lived threads keep their
// allocator arenas warm: each parse reuses the memory of the documents
// already compiled and freed.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/io.hpp"
#include "readers/toml_file.hpp"
#include "registry/batch.hpp"
#include "registry/loader.hpp"

namespace dt {

// One library block compiled into a batch. With `reg` == nullptr, a block
// that needs the registry's state is returned deferred (Batch::deferred), for
// the main thread to compile again with the registry.
Batch compile_block(const Profile& profile, Registry* reg, FileName shown, const LoadOptions& options,
                    const BlockSource& src);
// The blocks a reader of C++, Python or yaml read from one file (`shown`),
// compiled one batch each (the reader's warnings on the first).
std::vector<Batch> compile_blocks(const Profile& profile, Blocks read, FileName shown, const LoadOptions& options);
// A TOML file's blocks, the same way.
std::vector<Batch> compile_toml(const Profile& profile, const std::shared_ptr<const TomlFile>& file, FileName shown,
                                const LoadOptions& options);

class CompileAhead {
 public:
  // `python`: the run's Python files, read ahead (their texts are taken from
  // it, not read again); nullptr when there are none.
  CompileAhead(const Profile& profile, const ReadFile& read, const std::vector<std::string>& paths,
               const LoadOptions& options, PyProject* python = nullptr);
  CompileAhead(const CompileAhead&) = delete;
  CompileAhead& operator=(const CompileAhead&) = delete;
  ~CompileAhead();

  // The batches of paths[i], one per library block (C++ and Python files,
  // and TOML files of [[block]] tables, may hold several); call with
  // i = 0, 1, 2, ... in order. While they are not ready, the calling thread
  // compiles the next unclaimed file itself.
  std::vector<Batch> take(std::size_t i);

 private:
  [[nodiscard]] bool claimable() const { return next_ < paths_.size() && next_ < consumed_ + window_; }
  // Claims the next file, compiles it with the lock released, and stores it.
  void compile_one(std::unique_lock<std::mutex>& lock);
  void work();

  const Profile& profile_;
  const ReadFile& read_;
  const std::vector<std::string>& paths_;
  const LoadOptions& options_;
  PyProject* python_;
  std::vector<std::optional<std::vector<Batch>>> slots_;
  std::size_t window_ = 2, next_ = 0, consumed_ = 0;
  std::size_t read_turn_ = 0;  // the file whose text may be read next
  // The Python file that may be compiled next: Python files compile one at a
  // time in command-line order, since compiling one loads the modules it
  // imports (PyProject), and which file loads a module first decides what an
  // import cycle sees: the results must not depend on timing.
  std::size_t python_turn_ = 0;
  [[nodiscard]] bool is_python(std::size_t i) const;
  [[nodiscard]] std::size_t next_python(std::size_t from) const;
  bool stop_ = false;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::thread> threads_;
};

}  // namespace dt
