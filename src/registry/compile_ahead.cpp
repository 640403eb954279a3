// CompileAhead (compile_ahead.hpp): worker threads that read, parse and
// compile the files named on the command line, in a bounded window.
#include "registry/compile_ahead.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/toml_reader.hpp"
#include "readers/python_project.hpp"
#include "readers/readers.hpp"
#include "readers/toml_file.hpp"
#include "registry/file_loader.hpp"
#include "registry/library.hpp"

namespace dt {

namespace {

Batch error_batch(Diagnostic d) {
  Batch b;
  b.error = std::move(d);
  return b;
}

}  // namespace

Batch compile_block(const Profile& profile, Registry* reg, FileName shown, const LoadOptions& options,
                    const BlockSource& src) {
  Batch b;
  b.block_where = src.at();
  FileLoader fl(profile, reg, shown, src.text(), options, b);
  if (src.read)
    fl.compile(*src.read);
  else
    fl.compile(src.file->blocks()[src.index]);
  if (!fl.deferred()) return b;  // after an error too: the next blocks' errors are reported as well
  Batch again;
  again.block_where = b.block_where;
  again.deferred = src;
  return again;
}

std::vector<Batch> compile_blocks(const Profile& profile, Blocks read, FileName shown, const LoadOptions& options) {
  std::vector<Batch> out;
  for (TomlBlock& block : read.blocks)
    out.push_back(compile_block(profile, nullptr, shown, options,
                                BlockSource{std::make_shared<const TomlBlock>(std::move(block)), nullptr, 0}));
  if (out.empty()) out.emplace_back();
  out.front().source_warnings = std::move(read.warnings);
  return out;
}

std::vector<Batch> compile_toml(const Profile& profile, const std::shared_ptr<const TomlFile>& file, FileName shown,
                                const LoadOptions& options) {
  std::vector<Batch> out;
  for (std::size_t i = 0; i < file->blocks().size(); ++i)
    out.push_back(compile_block(profile, nullptr, shown, options, BlockSource{nullptr, file, i}));
  if (out.empty()) out.emplace_back();
  return out;
}

namespace {

// Reads, parses and compiles one file into one batch per library block (runs
// on a worker thread): C++, Python and yaml through their readers, TOML
// through toml++ and its adapter (readers/toml_file.hpp).
std::vector<Batch> compile_text(const Profile& profile, Expected<std::string, Diagnostic> text,
                                const std::string& path, const LoadOptions& options, PyProject* python) {
  std::vector<Batch> out;
  const FileName shown = display_path(path);
  if (!text) {
    out.push_back(error_batch(read_error(std::move(text.error()), shown, "cannot read file")));
    return out;
  }
  std::string source = std::move(*text);
  if (const SourceKind kind = detect_source(path, source); kind != SourceKind::Toml) {
    auto read = read_blocks(profile, kind, shown, source, options.cpp_for(path), python,
                            in_library(options.library.get(), profile));
    if (!read) {
      out.push_back(error_batch(std::move(read.error())));
      return out;
    }
    return compile_blocks(profile, std::move(*read), shown, options);
  }
  auto file = TomlFile::parse(std::move(source), shown, path);
  if (!file) {
    out.push_back(error_batch(std::move(file.error())));
    return out;
  }
  return compile_toml(profile, *file, shown, options);
}

}  // namespace

CompileAhead::CompileAhead(const Profile& profile, const ReadFile& read, const std::vector<std::string>& paths,
                           const LoadOptions& options, PyProject* python)
    : profile_(profile), read_(read), paths_(paths), options_(options), python_(python), slots_(paths.size()) {
  python_turn_ = next_python(0);
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

std::vector<Batch> CompileAhead::take(std::size_t i) {
  std::unique_lock lock(mu_);
  while (!slots_[i].has_value()) {
    if (claimable()) {
      compile_one(lock);
      continue;
    }
    cv_.wait(lock);
  }
  std::vector<Batch> b = std::move(*slots_[i]);
  slots_[i].reset();
  consumed_ = i + 1;
  lock.unlock();
  cv_.notify_all();
  return b;
}

void CompileAhead::compile_one(std::unique_lock<std::mutex>& lock) {
  const std::size_t i = next_++;
  // Files are read one at a time in command-line order, so that the read
  // budget (ReadBudget) runs out at the same file whatever the timing.
  cv_.wait(lock, [&] { return read_turn_ == i; });
  lock.unlock();
  std::shared_ptr<const std::string> ahead = python_ != nullptr ? python_->text_of(paths_[i]) : nullptr;
  auto text = ahead ? Expected<std::string, Diagnostic>(*ahead) : read_(paths_[i]);
  lock.lock();
  read_turn_ = i + 1;
  cv_.notify_all();
  const bool python = is_python(i);
  if (python) cv_.wait(lock, [&] { return python_turn_ == i; });
  lock.unlock();
  std::vector<Batch> b = compile_text(profile_, std::move(text), paths_[i], options_, python_);
  lock.lock();
  if (python) python_turn_ = next_python(i + 1);
  slots_[i].emplace(std::move(b));
  cv_.notify_all();
}

bool CompileAhead::is_python(std::size_t i) const {
  return python_ != nullptr && python_->text_of(paths_[i]) != nullptr;
}

std::size_t CompileAhead::next_python(std::size_t from) const {
  while (from < paths_.size() && !is_python(from)) ++from;
  return from;
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
