// Internal to the loader: reads, parses and compiles files into Batches
// (batch.hpp) ahead of the thread that applies them, on a few long-lived
// workers, at most `window` files ahead. Long-lived threads keep their
// allocator arenas warm: each parse reuses the memory of the documents
// already compiled and freed.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/io.hpp"
#include "registry/batch.hpp"
#include "registry/loader.hpp"

namespace dt {

class CompileAhead {
 public:
  CompileAhead(const Profile& profile, const ReadFile& read, const std::vector<std::string>& paths,
               const LoadOptions& options);
  CompileAhead(const CompileAhead&) = delete;
  CompileAhead& operator=(const CompileAhead&) = delete;
  ~CompileAhead();

  // The batch of paths[i]; call with i = 0, 1, 2, ... in order. While it is
  // not ready, the calling thread compiles the next unclaimed file itself.
  Batch take(std::size_t i);

 private:
  [[nodiscard]] bool claimable() const { return next_ < paths_.size() && next_ < consumed_ + window_; }
  // Claims the next file, compiles it with the lock released, and stores it.
  void compile_one(std::unique_lock<std::mutex>& lock);
  void work();

  const Profile& profile_;
  const ReadFile& read_;
  const std::vector<std::string>& paths_;
  const LoadOptions& options_;
  std::vector<std::optional<Batch>> slots_;
  std::size_t window_ = 2, next_ = 0, consumed_ = 0;
  bool stop_ = false;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::thread> threads_;
};

}  // namespace dt
