// CompileAhead (compile_ahead.hpp): worker threads that read, parse and
// compile the files named on the command line, in a bounded window.
#include "registry/compile_ahead.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/toml_reader.hpp"
#include "readers/readers.hpp"
#include "registry/file_loader.hpp"

namespace dt {

namespace {

Location remap(const SourceMap& map, FileName file, const Location& at) {
  return at.file == file ? map.remap(at) : at;
}

// Also the "FILE:LINE"s of the translation inside messages. The translation
// is compiled under its own name (translated_name), so a "FILE:LINE" of the
// source in a text (a debug string a reader took from the source, or one
// FileLoader::registered_at wrote in the source's lines) is never touched.
void remap_diagnostic(Diagnostic& d, const SourceMap& map, FileName file) {
  d.where = remap(map, file, d.where);
  for (auto& n : d.notes) {
    n.where = remap(map, file, n.where);
    n.message = map.remap_text(n.message, file);
  }
  d.message = map.remap_text(d.message, file);
}

Batch error_batch(Diagnostic d) {
  Batch b;
  b.error = std::move(d);
  return b;
}

// The library blocks of a parsed file: the file itself, or each of its
// [[block]] tables (with where it starts); an error for a malformed [[block]].
Expected<std::vector<std::pair<toml::table*, std::optional<Location>>>, Diagnostic> blocks_of(toml::table& root,
                                                                                            FileName file) {
  std::vector<std::pair<toml::table*, std::optional<Location>>> out;
  toml::node* blocks = root.get("block");
  if (blocks == nullptr) {
    out.emplace_back(&root, std::nullopt);
    return out;
  }
  auto* arr = blocks->as_array();
  if (arr == nullptr || !arr->is_array_of_tables())
    return unexpected(make_error(location_of(blocks->source(), file),
                                 "'block' must be an array of tables ([[block]]), one per library block"));
  for (const auto& [key, value] : root)
    if (key.str() != "block")
      return unexpected(make_error(location_of(value.source(), file),
                                   fmt::format("a file of [[block]] tables has nothing else at its top level; move "
                                               "'{}' into a [[block]]",
                                               key.str())));
  for (auto& e : *arr) out.emplace_back(e.as_table(), location_of(e.source(), file));
  return out;
}

// Reads (translating C++, Python and yaml into TOML), parses and compiles one
// file into one batch per library block (runs on a worker thread).
std::vector<Batch> compile_text(const Profile& profile, Expected<std::string, Diagnostic> text,
                                const std::string& path, const LoadOptions& options) {
  std::vector<Batch> out;
  const FileName shown = display_path(path);
  if (!text) {
    out.push_back(error_batch(read_error(std::move(text.error()), shown, "cannot read file")));
    return out;
  }
  std::string source = std::move(*text);
  std::shared_ptr<const SourceMap> map;
  std::vector<Diagnostic> warnings;
  if (const SourceKind kind = detect_source(path, source); kind != SourceKind::Toml) {
    auto translated = translate(profile, kind, shown, source);
    if (!translated) {
      out.push_back(error_batch(std::move(translated.error())));
      return out;
    }
    source = std::move(translated->toml);
    map = std::make_shared<const SourceMap>(std::move(translated->map));
    warnings = std::move(translated->warnings);
  }
  auto finish = [&] {
    if (out.empty()) out.emplace_back();
    out.front().source_warnings = std::move(warnings);
    return std::move(out);
  };
  const FileName toml_name = map ? translated_name(shown) : shown;
  auto root = parse_toml(source, toml_name);
  if (!root) {
    Batch b = error_batch(std::move(root.error()));
    if (map) remap_diagnostic(*b.error, *map, toml_name);
    // A file whose name does not say TOML was read as TOML for want of an
    // extension of another kind (standard input, a FIFO as from <(git show ...)):
    // say so, since the text may well be C++ or Python.
    if (!map && !path.ends_with(".toml"))
      b.error->message += fmt::format(
          " (read as TOML: only files named {}, .py, .yaml or .yml are read as C++, Python or yaml)",
          cpp_extension_list());
    out.push_back(std::move(b));
    return finish();
  }
  auto blocks = blocks_of(*root, toml_name);
  if (!blocks) {
    out.push_back(error_batch(std::move(blocks.error())));
    if (map) remap_diagnostic(*out.back().error, *map, toml_name);
    return finish();
  }
  for (const auto& [table, where] : *blocks) {
    Batch b;
    b.block_where = where;
    b.map = map;
    FileLoader fl(profile, nullptr, toml_name, source, options, b);
    fl.compile(*table);
    if (fl.deferred()) {
      Batch again;
      // Moved, not copied: a copied toml++ node loses its source positions.
      again.deferred = std::move(*table);
      again.deferred_text = source;
      again.block_where = where;
      again.map = map;
      out.push_back(std::move(again));
      continue;
    }
    if (map) remap_batch(b, *map, toml_name);
    const bool failed = b.error.has_value();
    out.push_back(std::move(b));
    if (failed) break;  // loading stops at this block's error
  }
  return finish();
}

}  // namespace

void remap_batch(Batch& b, const SourceMap& map, FileName file) {
  b.lib.where = remap(map, file, b.lib.where);
  b.lib_debug = map.remap_text(b.lib_debug, file);
  for (auto& stmt : b.stmts) {
    if (auto* def = std::get_if<std::unique_ptr<Definition>>(&stmt)) {
      (*def)->where = remap(map, file, (*def)->where);
      (*def)->debug = map.remap_text((*def)->debug, file);
    } else if (auto* im = std::get_if<Batch::Impl>(&stmt)) {
      im->kernel.where = remap(map, file, im->kernel.where);
      im->kernel.debug = map.remap_text(im->kernel.debug, file);
    } else if (auto* fb = std::get_if<Fallback>(&stmt)) {
      fb->where = remap(map, file, fb->where);
      fb->debug = map.remap_text(fb->debug, file);
      fb->debug_after_first = map.remap_text(fb->debug_after_first, file);
    } else if (auto* refusal = std::get_if<Batch::Refusal>(&stmt)) {
      remap_diagnostic(**refusal, map, file);
    }
  }
  if (b.error) remap_diagnostic(*b.error, map, file);
}

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
  auto text = read_(paths_[i]);
  lock.lock();
  read_turn_ = i + 1;
  cv_.notify_all();
  lock.unlock();
  std::vector<Batch> b = compile_text(profile_, std::move(text), paths_[i], options_);
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
