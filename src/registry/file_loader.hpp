// Internal to the loader: compiles one library block (docs/input-format.md),
// as every reader hands it (readers/: TomlBlock, or a TOML file's block
// through readers/toml_file.hpp), into a Batch. It reads one model, located
// fields, and never a parsed TOML document. The file's top level and the
// helpers every entry uses are in file_loader.cpp; each table kind has its
// own file: file_loader_def.cpp ([[def]]), file_loader_impl.cpp ([[impl]]),
// file_loader_fallback.cpp ([[fallback]]), file_loader_custom_op.cpp
// ([[custom_op]], torch.library.custom_op and its register_* functions).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/toml_reader.hpp"
#include "readers/toml_file.hpp"
#include "readers/toml_writer.hpp"
#include "registry/batch.hpp"
#include "registry/loader.hpp"

namespace dt {

// What a loading step tells its caller: go on, or stop compiling the block.
// One meaning for every step (a bool meant "go on" in some and "stop" in
// others).
enum class Step : std::uint8_t { Go, Stop };

class FileLoader {
 public:
  // With reg == nullptr the loader uses only the profile and defers to the
  // main thread (Batch::deferred) what depends on earlier files.
  // `text`: a TOML file's, for locations inside its string values
  // (TomlField::in_toml_text); it must outlive compile(). Empty for a reader's
  // block, whose strings carry their own spans.
  FileLoader(const Profile& profile, Registry* reg, FileName file, std::string_view text, const LoadOptions& opt,
             Batch& out)
      : reg_(reg), p_(profile), file_(file), text_(text), opt_(opt), out_(out) {}

  // One library block a reader of C++, Python or yaml read (readers/), each
  // field located in its source.
  void compile(const TomlBlock& block);
  // One library block of a TOML file (readers/toml_file.hpp): the same
  // model, each entry converted when it is read; `text` is the file's.
  void compile(const TomlFileBlock& block);
  [[nodiscard]] bool deferred() const { return deferred_; }

 private:
  // ---- the file's top level (file_loader.cpp) ----
  TableReader reader(const TomlEntry& e, std::string_view what) {
    return TableReader(e.fields, e.at, file_, what, &error_);
  }
  // A block's entries in order: a reader's, or a TOML file's (converted one
  // at a time into the loader's `scratch_`).
  struct Entries {
    const std::vector<TomlEntry>* read = nullptr;
    const TomlFileBlock* file = nullptr;
    [[nodiscard]] std::size_t size() const { return read != nullptr ? read->size() : file->size(); }
  };
  // Returns an input error (compiling stops at the first one).
  std::optional<Diagnostic> load(const TomlBlock& header, Entries entries);
  // Every step below says whether compiling goes on (Step::Go) or stops
  // (Step::Stop: an input error in error_, a deferral, or a refusal that stops
  // loading; stopped() says which).
  [[nodiscard]] Step rename_privateuse1(const Located<std::string>& name);
  [[nodiscard]] Step read_library(const std::optional<Located<std::string>>& ns, const std::optional<Located<std::string>>& kind,
                    const std::optional<Located<std::string>>& dispatch_key);
  // Library-level refusals (dispatcher-notes F.7, F.8).
  [[nodiscard]] Step check_library(const std::optional<Located<std::string>>& ns);
  // Entries run in document order, as the statements of a TORCH_LIBRARY
  // block do ([[def]], [[impl]] and [[fallback]] may interleave).
  [[nodiscard]] Step load_entries(TableReader& r, Entries entries);

  // ---- one entry each ----
  [[nodiscard]] Step load_def(const TomlEntry& t);        // file_loader_def.cpp
  [[nodiscard]] Step load_impl(const TomlEntry& t);       // file_loader_impl.cpp
  [[nodiscard]] Step load_fallback(const TomlEntry& t);   // file_loader_fallback.cpp
  [[nodiscard]] Step load_custom_op(const TomlEntry& t);  // file_loader_custom_op.cpp
  friend class CustomOpExpansion;                        // its phases (file_loader_custom_op.cpp)

  // ---- [[custom_op]] parts (file_loader_custom_op.cpp) ----
  // Whether the profile's torch.library has `api`; else a located error that
  // names the profiles that have it.
  [[nodiscard]] Step require_api(std::string_view api, const Location& where);
  // The nameless schema with mutates_args applied (infer_schema's "(aN!)").
  std::optional<Schema> custom_op_schema(const Located<std::string>& text,
                                         const std::optional<std::vector<Located<std::string>>>& mutates);

  // ---- [[def]] parts (file_loader_def.cpp) ----
  // The name the def gives its operator (from 'name' or the schema), unqualified or not.
  std::optional<std::string> def_name(const Schema& schema, const Located<std::string>& schema_text,
                                      const std::optional<Located<std::string>>& name);
  [[nodiscard]] Step read_alias_analysis(const Located<std::string>& alias, AliasAnalysis& out);
  // dispatch = { "CPU, CUDA" = "kernel", ... }: impls of the def's operator.
  [[nodiscard]] Step load_dispatch_shorthand(const TomlTable& dispatch, const std::string& op);

  // ---- [[impl]] parts (file_loader_impl.cpp) ----
  // The keys an impl names (key, keys or device_types), each with where it is
  // written. With `key_names`, a device type may also be a dispatch key name
  // parseDispatchKey accepts, as torch.library.impl allows ("CPU", "AutogradCPU").
  [[nodiscard]] Step impl_keys(TableReader& r, const std::optional<Located<std::string>>& key,
                 const std::optional<std::vector<Located<std::string>>>& keys,
                 const std::optional<std::vector<Located<std::string>>>& devices, const Location& where,
                 std::vector<std::pair<KeyId, Location>>& out, bool key_names = false);
  // The kernel's inferred schema, printed; shared by kernels with the same text.
  std::shared_ptr<const std::string> impl_signature(const Located<std::string>& sig);

  // ---- errors (file_loader.cpp) ----
  // Every input error of the block, the first carrying the others (Diagnostic::more).
  std::optional<Diagnostic> take() {
    if (error_) add_error(errors_, std::move(*error_));
    error_.reset();
    return std::move(errors_);
  }
  // Compiling needs the registry: stop; the main thread starts this file over.
  Step defer() {
    deferred_ = true;
    return Step::Stop;
  }
  // Whether compiling must stop: an input error, a refusal under
  // OnRefusal::Fail, or a deferral.
  [[nodiscard]] bool stopped() const { return error_.has_value() || refused_ || deferred_; }
  [[nodiscard]] Step step() const { return stopped() ? Step::Stop : Step::Go; }
  // Records an input error (the first one counts); Step::Stop.
  Step set_error(Location where, std::string msg);
  Step set_error(Diagnostic d);
  // A registration PyTorch refuses: recorded (Step::Go) or stopping (Step::Stop), as the options say.
  Step refuse(Diagnostic d);
  Step refuse(Location where, std::string msg, std::string op = {}, std::string key = {});
  // "(Error occurred while processing TORCH_LIBRARY block at FILE:LINE)"
  [[nodiscard]] std::string context() const;

  // ---- keys and names (file_loader.cpp) ----
  // "WHAT names N dispatch keys; at most ... (limit: ...)"
  static std::string too_many_keys(std::string_view what, std::size_t n);
  std::optional<KeyId> key(const std::string& name, const Location& where);
  // Qualifies an operator name with the file's namespace; checks dispatcher-notes F.7 rules.
  std::optional<std::string> qualify(const std::string& text, const Location& where, bool is_def);
  std::optional<std::string> qualify_uncached(const std::string& text, const Location& where, bool is_def);
  std::optional<Schema> schema_at(const Located<std::string>& s);
  // `op_signature`: the kernel's inferred schema is computed from the
  // operator's when the batch is applied (Batch::Impl::op_signature).
  void register_impl(const std::string& op, KeyId k, Kernel kern, bool op_signature = false);
  // A kernel's debug string: its name, or (like c10's debugString for an
  // empty one) where it is registered.
  [[nodiscard]] std::string debug_or_default(std::string_view name, const Location& where) const;
  // "registered at FILE:LINE" for `where`.
  [[nodiscard]] std::string registered_at(const Location& where) const;

  Registry* reg_;
  const Profile& p_;
  FileName file_;
  std::string_view text_;
  const LoadOptions& opt_;
  Batch& out_;
  std::optional<Diagnostic> error_;   // the entry's input error, while it is read
  std::optional<Diagnostic> errors_;  // the block's input errors before it (take())
  bool refused_ = false, deferred_ = false;
  const Library* lib_ = nullptr;
  bool ns_given_ = false;
  std::unordered_map<std::string, std::shared_ptr<const std::string>> signatures_;  // text -> printed form
  std::string last_op_text_, last_op_qualified_;
  TomlEntry scratch_;  // a TOML file's entry being read: its storage reused from entry to entry
};

}  // namespace dt
