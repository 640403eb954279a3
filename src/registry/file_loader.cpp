// FileLoader (file_loader.hpp): the file's top level (namespace, kind,
// dispatch_key, privateuse1_backend), its entries in document order, and the
// helpers every entry uses (errors, refusals, keys, operator names).
#include "registry/file_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "base/limits.hpp"
#include "base/operator_name.hpp"
#include "base/text.hpp"
#include "keys/old_key_names.hpp"

namespace dt {

void FileLoader::compile(const TomlBlock& block) {
  out_.error = load(block, Entries{&block.entries, nullptr});
  if (deferred_) out_.error.reset();
}

void FileLoader::compile(const TomlFileBlock& block) {
  out_.error = load(block.header, Entries{nullptr, &block});
  if (deferred_) out_.error.reset();
}

std::optional<Diagnostic> FileLoader::load(const TomlBlock& header, Entries entries) {
  TableReader r(header.header, header.at, file_, "the file's top level", &error_);
  r.allow_only({"namespace", "kind", "dispatch_key", "privateuse1_backend", "def", "impl", "fallback", "custom_op"});
  auto ns = r.name("namespace");
  auto kind = r.name("kind");
  auto dkey = r.name("dispatch_key");
  auto pu1 = r.name("privateuse1_backend");
  if (r.failed()) return take();
  if (pu1 && rename_privateuse1(*pu1) == Step::Stop) return take();
  if (read_library(ns, kind, dkey) == Step::Stop || check_library(ns) == Step::Stop) return take();
  // Only one DEF block per namespace: checked against the registry when applied.
  out_.stmts.emplace_back(Batch::AddLibrary{lib_->kind == LibraryKind::Def && ns_given_});
  if (load_entries(r, entries) == Step::Stop) return take();
  return std::nullopt;
}

Step FileLoader::rename_privateuse1(const Located<std::string>& name) {
  if (reg_ == nullptr) return defer();
  if (!p_.quirks().privateuse1_rename)
    return set_error(name.where, fmt::format("profile {} has no torch.utils.rename_privateuse1_backend; "
                                             "privateuse1_backend needs a newer profile (e.g. torch-2.14)",
                                             p_.name()));
  if (!is_identifier(name.value))
    return set_error(name.where, "privateuse1_backend must be an identifier like \"foo\"");
  // c10::register_privateuse1_backend: a second name is refused first, then
  // the in-tree device names the release measured (tools/gen_profile.py).
  if (!reg_->privateuse1_name.empty() && reg_->privateuse1_name != name.value)
    return set_error(make_error(name.where,
                                fmt::format("PrivateUse1 is already renamed to '{}'; it can be renamed only "
                                            "once per process (torch.utils.rename_privateuse1_backend)",
                                            reg_->privateuse1_name),
                                {{reg_->privateuse1_where, "renamed here"}}));
  const auto& reserved = p_.quirks().privateuse1_reserved_names;
  if (std::find(reserved.begin(), reserved.end(), name.value) != reserved.end())
    return set_error(name.where,
                     fmt::format("Cannot register privateuse1 backend with in-tree device name: {}", name.value));
  reg_->privateuse1_name = name.value;
  reg_->privateuse1_where = name.where;
  return Step::Go;
}

Step FileLoader::read_library(const std::optional<Located<std::string>>& ns,
                              const std::optional<Located<std::string>>& kind,
                              const std::optional<Located<std::string>>& dispatch_key) {
  Library& lib = out_.lib;
  lib.where = out_.block_where.value_or(Location{file_, 1, 1});
  if (kind) {
    lib.kind_explicit = true;
    lib.where = kind->where;
    if (kind->value == "DEF")
      lib.kind = LibraryKind::Def;
    else if (kind->value == "IMPL")
      lib.kind = LibraryKind::Impl;
    else if (kind->value == "FRAGMENT")
      lib.kind = LibraryKind::Fragment;
    else
      return set_error(kind->where,
                       fmt::format("unknown library kind '{}'{}; expected \"DEF\", \"IMPL\" or \"FRAGMENT\"",
                                   kind->value, did_you_mean(kind->value, {"DEF", "IMPL", "FRAGMENT"})));
  }
  if (ns) {
    if (ns->value != "_" && !is_identifier(ns->value))
      return set_error(ns->where, fmt::format("invalid namespace '{}'", ns->value));
    lib.ns = ns->value;
  }
  if (dispatch_key) {
    if (lib.kind != LibraryKind::Impl)
      return set_error(dispatch_key->where,
                       "dispatch_key is only allowed in a file with kind = \"IMPL\" (TORCH_LIBRARY_IMPL)");
    auto k = key(dispatch_key->value, dispatch_key->where);
    if (!k) return Step::Stop;
    if (*k != kUndefined) lib.key = *k;
  }
  lib_ = &lib;
  ns_given_ = ns.has_value();
  out_.lib_debug = registered_at(lib_->where);
  return Step::Go;
}

Step FileLoader::check_library(const std::optional<Located<std::string>>& ns) {
  const Library& lib = *lib_;
  if (ns_given_ && lib.ns == "_" && lib.kind != LibraryKind::Impl) {
    if (refuse(lib.where,
               fmt::format("{}: cannot define {} with the wildcard namespace _ (every {} "
                           "defines operators for a distinct namespace!) Did you mean to use "
                           "TORCH_LIBRARY_IMPL instead?  {}",
                           macro_name(lib.kind), macro_name(lib.kind), macro_name(lib.kind), context()),
               lib.ns) == Step::Stop)
      return Step::Stop;
  }
  if (ns_given_ && lib.kind != LibraryKind::Impl) {
    const auto& q = p_.quirks();
    if (std::find(q.reserved_namespaces.begin(), q.reserved_namespaces.end(), lib.ns) != q.reserved_namespaces.end() &&
        std::find(q.reserved_namespace_kinds.begin(), q.reserved_namespace_kinds.end(), to_string(lib.kind)) !=
            q.reserved_namespace_kinds.end()) {
      if (refuse(ns->where,
                 fmt::format("('{}', ' is a reserved namespace. Please try creating a library with another name.')",
                             lib.ns),
                 lib.ns) == Step::Stop)
        return Step::Stop;
    }
  }
  return Step::Go;
}

Step FileLoader::load_entries(TableReader& r, Entries entries) {
  // An array of entries that is not one of tables stays in a TOML file's
  // header (readers/toml_file.hpp): its error, before any entry runs.
  for (const char* name : {"def", "impl", "fallback", "custom_op"}) r.field_tables(name);
  if (r.failed()) return Step::Stop;
  // Entries are in the order of the statements they were read from.
  out_.stmts.reserve(out_.stmts.size() + entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries.file != nullptr) entries.file->entry(i, scratch_);
    const TomlEntry& e = entries.file != nullptr ? scratch_ : (*entries.read)[i];
    const Step step = e.kind == "def"        ? load_def(e)
                      : e.kind == "impl"     ? load_impl(e)
                      : e.kind == "fallback" ? load_fallback(e)
                                             : load_custom_op(e);
    if (step == Step::Go) continue;
    // An input error stops its entry only: it is kept, and the next entries
    // are read still, so that one run reports every error of the file (up to
    // limits::kErrors); a refusal or a deferral stops.
    if (!error_ || refused_ || deferred_) return step;
    const bool room = add_error(errors_, std::move(*error_), limits::kErrors);
    error_.reset();
    if (!room) return Step::Stop;
  }
  return errors_ ? Step::Stop : Step::Go;
}

// ---- errors -------------------------------------------------------------------

Step FileLoader::set_error(Location where, std::string msg) {
  return set_error(make_error(std::move(where), std::move(msg)));
}

Step FileLoader::set_error(Diagnostic d) {
  if (!error_) error_ = std::move(d);
  return Step::Stop;
}

Step FileLoader::refuse(Diagnostic d) {
  out_.stmts.emplace_back(std::make_unique<Diagnostic>(std::move(d)));
  if (opt_.on_refusal == OnRefusal::Record) return Step::Go;
  refused_ = true;
  return Step::Stop;
}

Step FileLoader::refuse(Location where, std::string msg, std::string op, std::string key) {
  Diagnostic d = make_error(std::move(where), std::move(msg));
  d.op = std::move(op);
  d.key = std::move(key);
  return refuse(std::move(d));
}

std::string FileLoader::context() const {
  const Location& at = lib_->where;
  return fmt::format("(Error occurred while processing {} block at {}:{})", macro_name(lib_->kind), at.file, at.line);
}

// ---- keys and names -----------------------------------------------------------------

std::string FileLoader::too_many_keys(std::string_view what, std::size_t n) {
  return fmt::format("{} names {} dispatch keys; an entry names at most {} (limit: {})", what, n, limits::kKeysPerEntry,
                     limits::kKeysPerEntry);
}

std::optional<KeyId> FileLoader::key(const std::string& name, const Location& where) {
  if (auto k = p_.find(name)) return k;
  if (name.size() > limits::kNameBytes) {
    set_error(where, name_too_long("a dispatch key name", name.size()));
    return std::nullopt;
  }
  if (reg_ == nullptr) return defer(), std::nullopt;  // maybe a renamed PrivateUse1 key
  const std::string& pu1 = reg_->privateuse1_name;
  if (auto k = p_.find_renamed(name, pu1)) return k;
  std::vector<std::string_view> names = p_.key_names();
  std::vector<std::string> renamed;
  if (!pu1.empty())
    for (std::size_t i = 0; i < p_.keys().size(); ++i)
      if (const auto k = static_cast<KeyId>(i);
          p_.key(k).kind == KeyKind::PerBackend && p_.display_name(k, pu1) != p_.name_of(k))
        renamed.push_back(p_.display_name(k, pu1));
  for (const auto& n : renamed) names.emplace_back(n);
  set_error(where, unknown_key_message(name, p_.suggest_key(name, names, pu1)));
  return std::nullopt;
}

std::optional<std::string> FileLoader::qualify(const std::string& text, const Location& where, bool is_def) {
  // Consecutive entries usually name the same operator.
  if (!is_def && !text.empty() && text == last_op_text_) return last_op_qualified_;
  auto q = qualify_uncached(text, where, is_def);
  if (q && !is_def) {
    last_op_text_ = text;
    last_op_qualified_ = *q;
  }
  return q;
}

std::optional<std::string> FileLoader::qualify_uncached(const std::string& text, const Location& where, bool is_def) {
  auto parsed = OperatorName::parse(text);
  if (!parsed) {
    set_error(where, std::move(parsed.error().message));
    return std::nullopt;
  }
  OperatorName& n = *parsed;
  if (!is_def && ns_given_ && lib_->ns == "_") {
    // c10::Library has no namespace to check the name against: torch 1.13
    // crashes on a qualified name and files an unqualified one under an
    // undefined namespace.
    refuse(where,
           fmt::format("impl(\"{}\", ...): a TORCH_LIBRARY_IMPL block with the wildcard namespace _ only takes "
                       "fallbacks; PyTorch has no namespace to check or qualify the operator name against (torch "
                       "1.13 crashes on it).  Register the kernel in a TORCH_LIBRARY_IMPL block for its namespace "
                       "(namespace = \"{}\").  {}",
                       text, n.ns.empty() ? std::string("...") : n.ns, context()),
           n.ns.empty() ? text : n.qualified());
    return std::nullopt;
  }
  if (n.ns.empty()) {
    if (!ns_given_ || lib_->ns == "_") {
      set_error(where, fmt::format("operator name '{}' has no namespace and the file sets none; write "
                                   "'ns::{}' or set namespace = \"...\" at the top of the file",
                                   text, text));
      return std::nullopt;
    }
    n.ns = lib_->ns;
  } else if (ns_given_ && lib_->ns != "_" && n.ns != lib_->ns) {
    const std::string msg =
        is_def ? fmt::format(
                     "Explicitly provided namespace ({}) in schema string does not match namespace of "
                     "enclosing {} block ({}).  Move this definition to the (unique) TORCH_LIBRARY block "
                     "corresponding to this namespace (and consider deleting the namespace from your schema "
                     "string.)  {}",
                     n.ns, macro_name(lib_->kind), lib_->ns, context())
               : fmt::format(
                     "impl(\"{}\", ...): Explicitly provided namespace ({}) in operator name does not match "
                     "namespace of enclosing {} block ({}).  Move this definition to the (unique) "
                     "TORCH_LIBRARY block corresponding to this namespace (and consider deleting the "
                     "namespace from your schema string.)  {}",
                     text, n.ns, macro_name(lib_->kind), lib_->ns, context());
    refuse(where, msg, is_def ? n.qualified() : text);
    return std::nullopt;
  }
  return n.qualified();
}

std::optional<Schema> FileLoader::schema_at(const Located<std::string>& s) {
  if (s.value.size() > limits::kSchemaBytes) {
    set_error(s.where, fmt::format("a schema of {} bytes; schemas are at most {} bytes (limit: {})", s.value.size(),
                                   limits::kSchemaBytes, limits::kSchemaBytes));
    return std::nullopt;
  }
  auto parsed = parse_schema(s.value, SchemaParseOptions{p_.quirks().dimname_in_schemas, &p_.schema_grammar()});
  if (!parsed) {
    set_error(s.from_reader ? offset_in(s.where, s.span, s.value, parsed.error().offset)
                            : string_offset_location(text_, s.where, parsed.error().offset),
              fmt::format("malformed schema: {}", parsed.error().message));
    return std::nullopt;
  }
  return std::move(*parsed);
}

void FileLoader::register_impl(const std::string& op, KeyId k, Kernel kern, bool op_signature) {
  if (k == kUndefined) kern.catch_all = true;
  const KeyId stored = k == kUndefined ? *p_.find("CompositeImplicitAutograd") : k;
  if (out_.names.empty() || out_.names.back() != op) out_.names.push_back(op);
  out_.stmts.emplace_back(
      Batch::Impl{static_cast<std::uint32_t>(out_.names.size() - 1), stored, std::move(kern), op_signature});
}

std::string FileLoader::debug_or_default(std::string_view name, const Location& where) const {
  if (!name.empty()) return std::string(name);
  return registered_at(where);
}

std::string FileLoader::registered_at(const Location& where) const {
  // Once per registration without a debug string (every kernel of a yaml):
  // written out, not through fmt's format-string machinery.
  constexpr std::string_view kAt = "registered at ";
  char digits[10];
  const auto end = std::to_chars(std::begin(digits), std::end(digits), where.line).ptr;
  std::string out;
  out.reserve(kAt.size() + where.file.view().size() + 1 + static_cast<std::size_t>(end - digits));
  out += kAt;
  out += where.file.view();
  out += ':';
  out.append(digits, end);
  return out;
}

}  // namespace dt
