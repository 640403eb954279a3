// CompileAhead (compile_ahead.hpp): worker threads that read, parse and
// compile the files named on the command line, in a bounded window.
#include "registry/compile_ahead.hpp"

#include <algorithm>

#include "base/toml_reader.hpp"
#include "registry/file_loader.hpp"

namespace dt {

namespace {

// Reads, parses and compiles one file (runs on a worker thread).
Batch read_and_compile(const Profile& profile, const ReadFile& read, const std::string& path,
                       const LoadOptions& options) {
  Batch b;
  const FileName shown = display_path(path);
  auto text = read(path);
  if (!text) {
    b.error = std::move(text.error());
    b.error->where = Location{shown, 0, 0};
    b.error->message = "cannot read file: " + b.error->message;
    return b;
  }
  auto root = parse_toml(*text, shown);
  if (!root) {
    b.error = std::move(root.error());
    return b;
  }
  FileLoader fl(profile, nullptr, shown, *text, options, b);
  fl.compile(*root);
  if (fl.deferred()) {
    Batch again;
    again.deferred = std::move(*root);
    again.deferred_text = std::move(*text);
    return again;
  }
  return b;
}

}  // namespace

CompileAhead::CompileAhead(const Profile& profile, const ReadFile& read, const std::vector<std::string>& paths,
                           const LoadOptions& options)
    : profile_(profile), read_(read), paths_(paths), options_(options), slots_(paths.size()) {
  const unsigned hw = std::max(1u, options.threads != 0 ? options.threads : std::thread::hardware_concurrency());
  window_ = 2 * static_cast<std::size_t>(hw);
  // The thread that applies the batches helps compile: one worker fewer.
  const std::size_t workers = std::min<std::size_t>({paths.size(), hw - 1, 8});
  for (std::size_t i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
}

CompileAhead::~CompileAhead() {
  {
    const std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

Batch CompileAhead::take(std::size_t i) {
  std::unique_lock lock(mu_);
  while (!slots_[i].has_value()) {
    if (claimable()) {
      compile_one(lock);
      continue;
    }
    cv_.wait(lock);
  }
  Batch b = std::move(*slots_[i]);
  slots_[i].reset();
  consumed_ = i + 1;
  lock.unlock();
  cv_.notify_all();
  return b;
}

void CompileAhead::compile_one(std::unique_lock<std::mutex>& lock) {
  const std::size_t i = next_++;
  lock.unlock();
  Batch b = read_and_compile(profile_, read_, paths_[i], options_);
  lock.lock();
  slots_[i].emplace(std::move(b));
  cv_.notify_all();
}

void CompileAhead::work() {
  std::unique_lock lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return stop_ || next_ >= paths_.size() || claimable(); });
    if (stop_ || next_ >= paths_.size()) return;
    compile_one(lock);
  }
}

}  // namespace dt
