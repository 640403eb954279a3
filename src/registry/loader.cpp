// load() (loader.hpp): files are compiled ahead on worker threads
// (compile_ahead.hpp) and their batches applied to the registry here, in
// command-line order.
#include "registry/loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>
#include <variant>

#include "base/limits.hpp"
#include "readers/cpp_signature.hpp"
#include "readers/python_project.hpp"
#include "registry/compile_ahead.hpp"
#include "registry/ops_signature.hpp"

namespace dt {

namespace {

// dispatcher-notes F.5: a second TORCH_LIBRARY (DEF) block for a namespace.
std::string single_library_message(const std::string& ns, const std::string& previous, const std::string& latest) {
  return fmt::format(
      "Only a single TORCH_LIBRARY can be used to register the namespace {}; please put all of your definitions in "
      "a single TORCH_LIBRARY block.  If you were trying to specify implementations, consider using "
      "TORCH_LIBRARY_IMPL (which can be duplicated).  If you really intended to define operators for a single "
      "namespace in a distributed way, you can use TORCH_LIBRARY_FRAGMENT to explicitly indicate this.  Previous "
      "registration of TORCH_LIBRARY was {}; latest registration was {}",
      ns, previous, latest);
}

// dispatcher-notes F.5: a DEF block for a namespace that PyTorch itself or an earlier file
// already has a DEF block for.
std::optional<Diagnostic> second_def_library(const Batch& b, const Registry& reg) {
  const Library& lib = b.lib;
  for (const auto& core : reg.profile().libraries()) {
    if (core.ns != lib.ns) continue;
    Diagnostic d = make_error(lib.where, single_library_message(lib.ns, core.debug, b.lib_debug),
                              {{core.where, fmt::format("PyTorch itself registers the TORCH_LIBRARY block for this "
                                                        "namespace (profile {})",
                                                        reg.profile().name())}});
    d.op = lib.ns;
    return d;
  }
  if (const Library* found = reg.def_library(lib.ns)) {
    const Library& other = *found;
    Diagnostic d =
        make_error(lib.where,
                   single_library_message(
                       lib.ns, fmt::format("registered at {}:{}", other.where.file, other.where.line), b.lib_debug),
                   {{other.where, "the other TORCH_LIBRARY block for this namespace"}});
    d.op = lib.ns;
    return d;
  }
  return std::nullopt;
}

// A refusal that stops a block, with the block's input errors (those of
// entries after it too, which were read on), in the file's order.
Diagnostic in_file_order(std::optional<Diagnostic> errors, Diagnostic refusal) {
  std::vector<Diagnostic> all{std::move(refusal)};
  if (errors) {
    std::vector<Diagnostic> more = std::move(errors->more);
    errors->more.clear();
    all.push_back(std::move(*errors));
    for (auto& m : more) all.push_back(std::move(m));
  }
  std::stable_sort(all.begin(), all.end(), [](const Diagnostic& a, const Diagnostic& b) { return a.where < b.where; });
  std::optional<Diagnostic> out;
  for (auto& d : all) add_error(out, std::move(d));
  return std::move(*out);
}

// Applies a batch to the registry, in order. Returns the errors that stop
// it: a refusal under OnRefusal::Fail, and the batch's input errors.
std::optional<Diagnostic> apply(Batch& b, LoadResult& result, const LoadOptions& options) {
  Registry& reg = result.registry;
  auto refuse = [&](Diagnostic d) -> bool {
    if (d.code.empty()) d.code = "library-kind";
    if (options.on_refusal == OnRefusal::Record) {
      result.refusals.push_back(std::move(d));
      return false;
    }
    b.error = in_file_order(std::move(b.error), std::move(d));
    return true;
  };
  std::uint32_t lib_index = 0;
  for (auto& stmt : b.stmts) {
    std::optional<Diagnostic> refused;
    if (auto* add = std::get_if<Batch::AddLibrary>(&stmt)) {
      if (add->check_single_def) refused = second_def_library(b, reg);
      if (refused && refuse(std::move(*refused))) return std::move(b.error);
      lib_index = reg.add_library(b.lib);
      continue;
    }
    if (auto* def = std::get_if<std::unique_ptr<Definition>>(&stmt)) {
      (*def)->library = lib_index;
      for (auto& d : reg.define(std::move(**def)))
        if (refuse(std::move(d))) return std::move(b.error);
      continue;
    } else if (auto* im = std::get_if<Batch::Impl>(&stmt)) {
      im->kernel.library = lib_index;
      if (im->op_signature)
        if (const Operator* op = reg.materialize(b.names[im->op]); op != nullptr && op->def) {
          im->kernel.signature = std::make_shared<const std::string>(ops_call_signature(op->def->schema));
          im->kernel.boxed_only = im->kernel.boxed_only || has_symint_argument(*im->kernel.signature);
        }
      if (auto registered = reg.impl(b.names[im->op], im->key, std::move(im->kernel)); !registered)
        refused = std::move(registered.error());
    } else if (auto* fb = std::get_if<Fallback>(&stmt)) {
      if (auto registered = reg.fallback(std::move(*fb)); !registered) refused = std::move(registered.error());
    } else {
      refused = std::move(*std::get<Batch::Refusal>(stmt));
    }
    if (refused && refuse(std::move(*refused))) return std::move(b.error);
  }
  return std::move(b.error);
}

}  // namespace

namespace {

// Applies one file's batches, compiling first those that depend on earlier files.
std::optional<Diagnostic> apply_file(const Profile& profile, std::vector<Batch> batches, FileName shown,
                                     LoadResult& result, const LoadOptions& options) {
  std::optional<Diagnostic> errors;
  for (Batch& b : batches) {
    for (auto& w : b.source_warnings) result.source_warnings.push_back(std::move(w));
    // Depends on earlier files (a renamed PrivateUse1): compiled now, with the registry.
    if (b.deferred) b = compile_block(profile, &result.registry, shown, options, *b.deferred);
    // After an error, the next blocks still: their errors are reported too.
    if (auto err = apply(b, result, options)) add_error(errors, std::move(*err), limits::kErrors);
  }
  return errors;
}

// register_fake / register_autograd on operators no input defines in time
// (Registry::undefined_refusals): refused, after every file is applied. Not
// for an operator a registration the readers could not read names (a
// custom_op whose schema cannot be inferred): torch may well define it, and
// that registration's warning says where.
void add_undefined_refusals(LoadResult& result, std::optional<Diagnostic>& errors, const LoadOptions& options) {
  const std::unordered_set<std::string_view> unread = unread_operators(result.source_warnings);
  for (Diagnostic& d : result.registry.undefined_refusals()) {
    if (unread.contains(std::string_view(d.op))) continue;
    d.code = "library-kind";
    if (options.on_refusal == OnRefusal::Record)
      result.refusals.push_back(std::move(d));
    else if (!add_error(errors, std::move(d), limits::kErrors))
      return;
  }
}

// Adds a file's errors to the run's; false when the run has as many as it reports.
bool add_errors(std::optional<Diagnostic>& run, std::optional<Diagnostic> file) {
  return !file || add_error(run, std::move(*file), limits::kErrors);
}

}  // namespace

Expected<LoadResult, Diagnostic> load(const Profile& profile, const std::vector<std::string>& paths,
                                      const ReadFile& read, const LoadOptions& options) {
  // Standard input can be read once (and must not be read by two threads).
  if (std::count(paths.begin(), paths.end(), std::string("-")) > 1)
    return unexpected(
        make_error(Location{display_path("-"), 0, 0}, "standard input ('-') can be given only once on a command line"));
  LoadResult result{Registry(profile, options.library), {}, {}};
  // The Python files are read first, in command-line order, so that a module
  // can import a helper from any other file read (readers/python_project.hpp);
  // a file that cannot be read is read again, and reported, at its turn.
  const std::unique_ptr<PyProject> python = PyProject::of(profile, paths, read);
  // Files are read, parsed and compiled ahead on worker threads; the batches
  // are applied here in command-line order, so results and the errors
  // reported do not depend on timing.
  CompileAhead ahead(profile, read, paths, options, python.get());
  // Every file's errors are reported, not the first only (up to limits::kErrors).
  std::optional<Diagnostic> errors;
  for (std::size_t i = 0; i < paths.size(); ++i)
    if (!add_errors(errors, apply_file(profile, ahead.take(i), display_path(paths[i]), result, options))) break;
  add_undefined_refusals(result, errors, options);
  if (errors) return unexpected(std::move(*errors));
  return result;
}

Expected<LoadResult, Diagnostic> load_blocks(const Profile& profile, Blocks blocks, FileName name,
                                             const LoadOptions& options) {
  LoadResult result{Registry(profile, options.library), {}, {}};
  std::optional<Diagnostic> errors;
  add_errors(errors, apply_file(profile, compile_blocks(profile, std::move(blocks), name, options), name, result, options));
  add_undefined_refusals(result, errors, options);
  if (errors) return unexpected(std::move(*errors));
  return result;
}

}  // namespace dt
