// FileLoader (file_loader.hpp): [[fallback]] entries, TORCH_LIBRARY_IMPL's
// m.fallback() (a backend fallback serves every operator on its key).
#include <fmt/format.h>

#include "base/text.hpp"
#include "registry/file_loader.hpp"

namespace dt {

Step FileLoader::load_fallback(const TomlEntry& t) {
  TableReader r = reader(t, "a [[fallback]] entry");
  r.allow_only({"key", "kernel", "fallthrough", "raises", "message"});
  auto k1 = r.name("key");
  auto kernel = r.name("kernel");
  auto ft = r.boolean("fallthrough");
  auto raises = r.boolean("raises");
  auto message = r.str("message");
  if (r.failed()) return Step::Stop;
  const Location where = r.self();
  const bool fallthrough = ft && ft->value;
  if (!kernel && !fallthrough)
    return set_error(where, "a [[fallback]] entry needs a 'kernel' (or fallthrough = true)");
  if (raises && raises->value && fallthrough)
    return set_error(raises->where, "a fallthrough fallback cannot raise: it only redispatches (drop raises = true)");
  if (message && !(raises && raises->value))
    return set_error(message->where, "'message' is what a raising fallback raises: it needs raises = true");
  if (lib_->kind_explicit && lib_->kind != LibraryKind::Impl) {
    return refuse(where,
                  fmt::format("fallback(...): Cannot define an operator inside of a {} block.  Did you mean to "
                              "call this function inside a TORCH_LIBRARY_IMPL block?  {}",
                              macro_name(lib_->kind), context()),
                  lib_->ns, k1 ? k1->value : std::string());
  }
  std::optional<KeyId> k;
  Location kwhere = where;
  if (k1) {
    k = key(k1->value, k1->where);
    if (!k) return Step::Stop;
    kwhere = k1->where;
    if (lib_->key && *k != *lib_->key)
      return set_error(k1->where, fmt::format("fallback key {} differs from the file's dispatch_key {}", p_.name_of(*k),
                                              p_.name_of(*lib_->key)));
  } else if (lib_->key) {
    k = lib_->key;
  } else {
    return set_error(where, "a [[fallback]] entry needs a 'key' (or a file dispatch_key)");
  }
  if (*k == kUndefined) {
    // Undefined is CatchAll, i.e. no key: c10::Library::_fallback asserts.
    return refuse(kwhere,
                  fmt::format("fallback(...): dispatch_key.has_value() INTERNAL ASSERT FAILED: a backend fallback "
                              "needs a dispatch key, and Undefined (CatchAll) stands for none.  {}",
                              context()),
                  lib_->ns, "Undefined");
  }
  if (ns_given_ && lib_->ns != "_" && lib_->kind == LibraryKind::Impl) {
    Diagnostic d = make_error(
        where, fmt::format("fallback(...): Fallback functions which apply to only a single namespace (you "
                           "specified {}) are not supported.  If you intended to apply this fallback function "
                           "globally, please define a separate block:\n\n    TORCH_LIBRARY_IMPL(_, {}, m) {{ "
                           "m.fallback(...); }}\n\n{}",
                           printable(lib_->ns), printable(p_.name_of(*k)), printable(context())));
    d.multi_line = true;  // its line breaks are PyTorch's; the names in it are escaped
    d.op = lib_->ns;
    d.key = p_.name_of(*k);
    return refuse(std::move(d));
  }
  Fallback f;
  f.key = *k;
  f.debug = debug_or_default(kernel ? kernel->value : std::string_view{}, where);
  // c10 moves a custom debug string (CppFunction::debug) into the first
  // runtime key's registration; the others get debugString("", file, line).
  // A name that reads like that default ("registered at ...", i.e. no custom
  // string in C++) is what every runtime key prints.
  if (p_.is_alias(*k) && !f.debug.starts_with("registered at ")) f.debug_after_first = debug_or_default({}, where);
  f.fallthrough = fallthrough;
  f.raises = raises && raises->value;
  if (message) f.message = message->value;
  f.where = kwhere;
  out_.stmts.emplace_back(std::move(f));
  return Step::Go;
}

}  // namespace dt
