#include "registry/loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <variant>

#include "base/operator_name.hpp"
#include "base/text.hpp"
#include "base/toml_reader.hpp"

namespace dt {

namespace {

// torch.library device_types: the profile's table, plus the renamed
// PrivateUse1 backend (torch.utils.rename_privateuse1_backend makes its name
// a device type).
std::optional<KeyId> device_key(std::string_view device, const Profile& p, const std::string& pu1_name) {
  if (!pu1_name.empty() && device == pu1_name) return p.find("PrivateUse1");
  for (const auto& [name, key] : p.device_types())
    if (name == device) return key;
  return std::nullopt;
}

std::vector<std::string> device_names(const Registry& reg) {
  std::vector<std::string> out;
  for (const auto& entry : reg.profile().device_types()) out.push_back(entry.first);
  if (!reg.privateuse1_name.empty()) out.push_back(reg.privateuse1_name);
  return out;
}

using toml::source_position;

// What one file asks of the registry, in document order. Compiling a file into
// a batch needs only the profile, so it runs on a worker thread; the main
// thread applies the batches in command-line order.
struct Batch {
  struct AddLibrary {
    bool check_single_def = false;  // a DEF block with a namespace: no other may exist
  };
  struct Impl {
    std::uint32_t op = 0;  // index into names
    KeyId key = kUndefined;
    Kernel kernel;
  };
  // A registration PyTorch refuses while reading the file (library-kind rules).
  using Refusal = std::unique_ptr<Diagnostic>;
  // Definitions and refusals are large and few: boxed, so the many Impls stay small.
  using Stmt = std::variant<AddLibrary, std::unique_ptr<Definition>, Impl, Fallback, Refusal>;

  Library lib;
  std::string lib_debug;           // "registered at FILE:LINE" of the block
  std::vector<std::string> names;  // qualified operator names of the impls
  std::vector<Stmt> stmts;
  std::optional<Diagnostic> error;  // an input error after the statements
  // Set when compiling needed the registry's state (a renamed PrivateUse1 key,
  // an unknown key or device): the main thread compiles this document itself.
  std::optional<toml::table> deferred;
  std::string deferred_text;  // the file's text, for the deferred compile
};

class FileLoader {
 public:
  // With reg == nullptr the loader uses only the profile and defers to the
  // main thread (Batch::deferred) what depends on earlier files.
  // `text`: the file, for locations inside string values; it must outlive compile().
  FileLoader(const Profile& profile, Registry* reg, FileName file, std::string_view text, const LoadOptions& opt,
             Batch& out)
      : reg_(reg), p_(profile), file_(file), text_(text), opt_(opt), out_(out) {}

  void compile(const toml::table& root) {
    out_.error = load(root);
    if (deferred_) out_.error.reset();
  }
  [[nodiscard]] bool deferred() const { return deferred_; }

 private:
  // Returns an input error (compiling stops at the first one).
  std::optional<Diagnostic> load(const toml::table& root) {
    TableReader r(root, file_, "the file's top level", &error_);
    r.allow_only({"namespace", "kind", "dispatch_key", "privateuse1_backend", "def", "impl", "fallback"});
    auto ns = r.str("namespace");
    auto kind = r.str("kind");
    auto dkey = r.str("dispatch_key");
    auto pu1 = r.str("privateuse1_backend");
    if (r.failed()) return take();

    if (pu1) {
      if (reg_ == nullptr) return defer();
      if (!p_.quirks().privateuse1_rename)
        return error(pu1->where, fmt::format("profile {} has no torch.utils.rename_privateuse1_backend; "
                                             "privateuse1_backend needs a newer profile (e.g. torch-main)",
                                             p_.name()));
      if (!is_identifier(pu1->value))
        return error(pu1->where, "privateuse1_backend must be an identifier like \"foo\"");
      const auto& reserved = p_.quirks().privateuse1_reserved_names;
      if (std::find(reserved.begin(), reserved.end(), pu1->value) != reserved.end())
        return error(pu1->where,
                     fmt::format("Cannot register privateuse1 backend with in-tree device name: {}", pu1->value));
      if (!reg_->privateuse1_name.empty() && reg_->privateuse1_name != pu1->value) {
        Diagnostic d = make_error(pu1->where,
                                  fmt::format("PrivateUse1 is already renamed to '{}'; it can be renamed only "
                                              "once per process (torch.utils.rename_privateuse1_backend)",
                                              reg_->privateuse1_name),
                                  {{reg_->privateuse1_where, "renamed here"}});
        return d;
      }
      reg_->privateuse1_name = pu1->value;
      reg_->privateuse1_where = pu1->where;
    }

    Library& lib = out_.lib;
    lib.where = Location{file_, 1, 1};
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
        return error(kind->where, fmt::format("unknown library kind '{}'{}; expected \"DEF\", \"IMPL\" or \"FRAGMENT\"",
                                              kind->value, did_you_mean(kind->value, {"DEF", "IMPL", "FRAGMENT"})));
    }
    if (ns) {
      if (ns->value != "_" && !is_identifier(ns->value))
        return error(ns->where, fmt::format("invalid namespace '{}'", ns->value));
      lib.ns = ns->value;
    }
    if (dkey) {
      if (lib.kind != LibraryKind::Impl)
        return error(dkey->where, "dispatch_key is only allowed in a file with kind = \"IMPL\" (TORCH_LIBRARY_IMPL)");
      auto k = key(dkey->value, dkey->where);
      if (!k) return take();
      if (*k != kUndefined) lib.key = *k;
    }
    lib_ = &lib;
    ns_given_ = ns.has_value();
    out_.lib_debug = fmt::format("registered at {}:{}", file_, lib_->where.line);

    // Library-level refusals (F.7, F.8).
    if (ns_given_ && lib.ns == "_" && lib.kind != LibraryKind::Impl) {
      if (refuse(lib.where,
                 fmt::format("{}: cannot define {} with the wildcard namespace _ (every {} "
                             "defines operators for a distinct namespace!) Did you mean to use "
                             "TORCH_LIBRARY_IMPL instead?  {}",
                             macro_name(lib.kind), macro_name(lib.kind), macro_name(lib.kind), context()),
                 lib.ns))
        return take();
    }
    if (ns_given_ && lib.kind != LibraryKind::Impl) {
      const auto& q = p_.quirks();
      if (std::find(q.reserved_namespaces.begin(), q.reserved_namespaces.end(), lib.ns) !=
              q.reserved_namespaces.end() &&
          std::find(q.reserved_namespace_kinds.begin(), q.reserved_namespace_kinds.end(), to_string(lib.kind)) !=
              q.reserved_namespace_kinds.end()) {
        if (refuse(ns->where,
                   fmt::format("('{}', ' is a reserved namespace. Please try creating a library with another name.')",
                               lib.ns),
                   lib.ns))
          return take();
      }
    }
    // Only one DEF block per namespace: checked against the registry when applied.
    out_.stmts.emplace_back(Batch::AddLibrary{lib.kind == LibraryKind::Def && ns_given_});

    // Entries run in document order, as the statements of a TORCH_LIBRARY
    // block do ([[def]], [[impl]] and [[fallback]] may interleave).
    enum class Kind { Def, Impl, Fallback };
    struct Entry {
      source_position at;
      Kind kind;
      const toml::table* table;
    };
    std::vector<Entry> entries;
    for (auto [name, entry_kind] : {std::pair{"def", Kind::Def}, {"impl", Kind::Impl}, {"fallback", Kind::Fallback}})
      if (const auto* arr = r.table_array(name))
        for (const auto& e : *arr) entries.push_back(Entry{e.source().begin, entry_kind, e.as_table()});
    if (r.failed()) return take();
    out_.stmts.reserve(out_.stmts.size() + entries.size());
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
      return a.at.line != b.at.line ? a.at.line < b.at.line : a.at.column < b.at.column;
    });
    for (const auto& e : entries) {
      const bool stop = e.kind == Kind::Def    ? load_def(*e.table)
                        : e.kind == Kind::Impl ? load_impl(*e.table)
                                               : load_fallback(*e.table);
      if (stop) return take();
    }
    return std::nullopt;
  }

  // ---- errors -----------------------------------------------------------
  std::optional<Diagnostic> take() { return std::move(error_); }
  // Compiling needs the registry: stop; the main thread starts this file over.
  std::optional<Diagnostic> defer() {
    deferred_ = true;
    return std::nullopt;
  }
  // Whether compiling must stop: an input error, a refusal under
  // OnRefusal::Fail, or a deferral.
  [[nodiscard]] bool stopped() const { return error_.has_value() || refused_ || deferred_; }
  std::optional<Diagnostic> error(Location where, std::string msg) {
    return make_error(std::move(where), std::move(msg));
  }
  void set_error(Location where, std::string msg) {
    if (!error_) error_ = make_error(std::move(where), std::move(msg));
  }
  // A registration PyTorch refuses; true if loading must stop.
  bool refuse(Diagnostic d) {
    out_.stmts.emplace_back(std::make_unique<Diagnostic>(std::move(d)));
    if (opt_.on_refusal == OnRefusal::Record) return false;
    refused_ = true;
    return true;
  }
  bool refuse(Location where, std::string msg, std::string op = {}, std::string key = {}) {
    Diagnostic d = make_error(std::move(where), std::move(msg));
    d.op = std::move(op);
    d.key = std::move(key);
    return refuse(std::move(d));
  }
  std::string context() const {
    return fmt::format("(Error occurred while processing {} block at {}:{})", macro_name(lib_->kind), file_,
                       lib_->where.line);
  }

  // ---- keys ---------------------------------------------------------------
  std::optional<KeyId> key(const std::string& name, const Location& where) {
    if (auto k = p_.find(name)) return k;
    if (reg_ == nullptr) return defer(), std::nullopt;  // maybe a renamed PrivateUse1 key
    const std::string& pu1 = reg_->privateuse1_name;
    if (auto k = p_.find_renamed(name, pu1)) return k;
    std::vector<std::string_view> names = p_.key_names();
    std::vector<std::string> renamed;
    if (!pu1.empty())
      for (KeyId k = 0; k < p_.keys().size(); ++k)
        if (p_.key(k).kind == KeyKind::PerBackend && p_.display_name(k, pu1) != p_.name_of(k))
          renamed.push_back(p_.display_name(k, pu1));
    for (const auto& n : renamed) names.emplace_back(n);
    set_error(where, fmt::format("unknown dispatch key '{}'{}", name, did_you_mean(name, names)));
    return std::nullopt;
  }

  // ---- names ----------------------------------------------------------------
  // Qualifies an operator name with the file's namespace; checks F.7 rules.
  std::optional<std::string> qualify(const std::string& text, const Location& where, bool is_def) {
    // Consecutive entries usually name the same operator.
    if (!is_def && !text.empty() && text == last_op_text_) return last_op_qualified_;
    auto q = qualify_uncached(text, where, is_def);
    if (q && !is_def) {
      last_op_text_ = text;
      last_op_qualified_ = *q;
    }
    return q;
  }

  std::optional<std::string> qualify_uncached(const std::string& text, const Location& where, bool is_def) {
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

  std::optional<Schema> schema_at(const Located<std::string>& s) {
    auto parsed = parse_schema(s.value);
    if (!parsed) {
      set_error(string_offset_location(text_, s.where, parsed.error().offset),
                fmt::format("malformed schema: {}", parsed.error().message));
      return std::nullopt;
    }
    return std::move(*parsed);
  }

  // ---- [[def]] ---------------------------------------------------------------
  bool load_def(const toml::table& t) {
    TableReader r(t, file_, "a [[def]] entry", &error_);
    r.allow_only({"schema", "name", "alias_analysis", "tags", "debug", "dispatch"});
    auto schema_text = r.str("schema");
    auto name = r.str("name");
    auto alias = r.str("alias_analysis");
    auto tags = r.str_array("tags");
    auto debug = r.str("debug");
    const toml::table* dispatch = r.table("dispatch");
    if (r.failed()) return true;
    const Location where = r.self();
    if (!schema_text) return set_error(where, "a [[def]] entry needs a 'schema'"), true;
    if (lib_->kind == LibraryKind::Impl) {
      std::string shown = name ? name->value : schema_text->value.substr(0, schema_text->value.find('('));
      if (refuse(where,
                 fmt::format("def(\"{}\"): Cannot define an operator inside of a TORCH_LIBRARY_IMPL block.  "
                             "All def()s should be placed in the (unique) TORCH_LIBRARY block for their "
                             "namespace.  {}",
                             shown, context()),
                 // lint keys baselines on the qualified name, like every other finding
                 shown.find("::") == std::string::npos && lib_->ns != "_" ? lib_->ns + "::" + shown : shown))
        return true;
      return false;
    }
    auto schema = schema_at(*schema_text);
    if (!schema) return true;
    std::string qualified_text;
    if (name) {
      if (!schema->name.empty())
        return set_error(schema_text->where,
                         "with 'name' given, 'schema' must be nameless, like \"(Tensor x) -> Tensor\""),
               true;
      qualified_text = name->value;
    } else {
      if (schema->name.empty())
        return set_error(
                   schema_text->where,
                   "a nameless schema \"(...) -> ...\" needs a 'name' field (torch.library.define(qualname, schema))"),
               true;
      qualified_text = operator_name(*schema).qualified();
    }
    const Location& name_where = name ? name->where : schema_text->where;
    auto qualified = qualify(qualified_text, name_where, true);
    if (!qualified) return stopped();
    OperatorName on = *OperatorName::parse(*qualified);  // qualify() checked it
    schema->ns = std::move(on.ns);
    schema->name = std::move(on.name);
    schema->overload = std::move(on.overload);

    Definition def;
    def.printed = print_schema(*schema, SchemaPrintOptions{p_.quirks().dimname_prints_as_str});
    def.schema = std::move(*schema);
    def.debug = debug ? debug->value : fmt::format("registered at {}:{}", file_, where.line);
    def.where = where;
    if (alias) {
      const std::string& a = alias->value;
      if (a.empty() || a == "FROM_SCHEMA")
        def.alias = AliasAnalysis::FromSchema;
      else if (a == "CONSERVATIVE")
        def.alias = AliasAnalysis::Conservative;
      else if (a == "PURE_FUNCTION")
        def.alias = AliasAnalysis::PureFunction;
      else if (a == "CONSERVATIVE (default)")
        def.alias = AliasAnalysis::ConservativeDefault;
      else
        return set_error(alias->where,
                         fmt::format("Invalid alias_analysis type {}{}; expected \"\", \"FROM_SCHEMA\", "
                                     "\"CONSERVATIVE\" or \"PURE_FUNCTION\"",
                                     a, did_you_mean(a, {"FROM_SCHEMA", "CONSERVATIVE", "PURE_FUNCTION"}))),
               true;
    }
    if (tags)
      for (auto& tg : *tags) def.tags.push_back(tg.value);
    out_.stmts.emplace_back(std::make_unique<Definition>(std::move(def)));

    if (dispatch) {
      // toml::table is sorted by key; register in document order, as written.
      std::vector<std::pair<const toml::key*, const toml::node*>> entries;
      for (auto&& [k, v] : *dispatch) entries.emplace_back(&k, &v);
      std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        const auto &x = a.first->source().begin, &y = b.first->source().begin;
        return std::tie(x.line, x.column) < std::tie(y.line, y.column);
      });
      for (const auto& [kp, vp] : entries) {
        const toml::key& k = *kp;
        const toml::node& v = *vp;
        const Location kwhere = location_of(k.source(), file_);
        if (!v.is_string())
          return set_error(location_of(v.source(), file_),
                           fmt::format("dispatch entry '{}' must map to a kernel name (a string)", k.str())),
                 true;
        const std::string kernel = debug_or_default(v.as_string()->get(), location_of(v.source(), file_));
        std::string_view keys = k.str();
        if (keys.find_first_not_of(" \t,") == std::string_view::npos)
          return set_error(kwhere, fmt::format("dispatch entry '{}' names no dispatch key", k.str())), true;
        while (!keys.empty()) {
          const auto comma = keys.find(',');
          const std::string one(trim(keys.substr(0, comma), " \t"));
          keys = comma == std::string_view::npos ? std::string_view{} : keys.substr(comma + 1);
          auto kid = key(one, kwhere);
          if (!kid) return true;
          Kernel kern;
          kern.debug = kernel;
          kern.where = location_of(v.source(), file_);
          register_impl(*qualified, *kid, std::move(kern));
        }
      }
    }
    return false;
  }

  void register_impl(const std::string& op, KeyId k, Kernel kern) {
    if (k == kUndefined) kern.catch_all = true;
    const KeyId stored = k == kUndefined ? *p_.find("CompositeImplicitAutograd") : k;
    if (out_.names.empty() || out_.names.back() != op) out_.names.push_back(op);
    out_.stmts.emplace_back(Batch::Impl{static_cast<std::uint32_t>(out_.names.size() - 1), stored, std::move(kern)});
  }

  // ---- [[impl]] ----------------------------------------------------------------
  bool load_impl(const toml::table& t) {
    TableReader r(t, file_, "an [[impl]] entry", &error_);
    r.allow_only({"op", "key", "keys", "device_types", "kernel", "fallthrough", "signature", "boxed_only"});
    auto op = r.str("op");
    auto k1 = r.str("key");
    auto ks = r.str_array("keys");
    auto devs = r.str_array("device_types");
    auto kernel = r.str("kernel");
    auto ft = r.boolean("fallthrough");
    auto sig = r.str("signature");
    auto boxed = r.boolean("boxed_only");
    if (r.failed()) return true;
    const Location where = r.self();
    if (!op) return set_error(where, "an [[impl]] entry needs an 'op'"), true;
    const int given = (k1 ? 1 : 0) + (ks ? 1 : 0) + (devs ? 1 : 0);
    if (given > 1) {
      const Location second = devs ? r.where("device_types") : r.where("keys");
      return set_error(second, "give at most one of 'key', 'keys' and 'device_types'"), true;
    }
    const bool fallthrough = ft && ft->value;
    if (!kernel && !fallthrough)
      return set_error(where, "an [[impl]] entry needs a 'kernel' (or fallthrough = true)"), true;
    // CppFunction::makeFallthrough() carries no schema (boxed-only C++
    // kernels may: torch 1.13's Tracer kernels print "[ boxed ]" with one).
    if (sig && fallthrough)
      return set_error(sig->where,
                       "'signature' is the schema inferred from a C++ kernel; a fallthrough kernel has none "
                       "(_dispatch_dump prints \"(none)\")"),
             true;

    // Which keys: as written (for the IMPL-block consistency check) and resolved.
    std::vector<std::pair<KeyId, Location>> keys;
    if (k1) {
      auto k = key(k1->value, k1->where);
      if (!k) return true;
      keys.emplace_back(*k, k1->where);
    } else if (ks) {
      if (ks->empty()) return set_error(r.where("keys"), "'keys' must not be empty"), true;
      for (const auto& n : *ks) {
        auto k = key(n.value, n.where);
        if (!k) return true;
        keys.emplace_back(*k, n.where);
      }
    } else if (devs) {
      if (devs->empty()) return set_error(r.where("device_types"), "'device_types' must not be empty"), true;
      for (const auto& d : *devs) {
        // The renamed PrivateUse1 device comes first (even "cpu"): without the
        // registry, only the names no rename can change are resolved here.
        if (reg_ == nullptr && p_.quirks().privateuse1_rename && d.value != "default" && d.value != "privateuseone")
          return defer(), true;
        auto name = device_key(d.value, p_, reg_ != nullptr ? reg_->privateuse1_name : std::string());
        if (!name) {
          if (reg_ == nullptr) return defer(), true;
          std::vector<std::string> names = device_names(*reg_);
          std::vector<std::string_view> views(names.begin(), names.end());
          return set_error(d.where, fmt::format("unknown device type '{}'{}", d.value, did_you_mean(d.value, views))),
                 true;
        }
        keys.emplace_back(*name, d.where);
      }
    } else if (lib_->key) {
      keys.emplace_back(*lib_->key, where);
    } else {
      keys.emplace_back(kUndefined, where);  // catch-all
    }

    auto qualified = qualify(op->value, op->where, false);
    if (!qualified) return stopped();

    std::shared_ptr<const std::string> signature;
    if (sig) {
      // Kernels of one operator nearly always share their signature text.
      auto cached = signatures_.find(sig->value);
      if (cached == signatures_.end()) {
        auto s = schema_at(*sig);
        if (!s) return true;
        cached = signatures_
                     .emplace(sig->value, std::make_shared<const std::string>(print_arguments_and_returns(
                                              *s, SchemaPrintOptions{p_.quirks().dimname_prints_as_str})))
                     .first;
      }
      signature = cached->second;
    }

    for (auto [k, kwhere] : keys) {
      // torch::dispatch(CatchAll, f) means "no key": the block's key applies.
      if (k == kUndefined && lib_->key) k = *lib_->key;
      if (lib_->kind == LibraryKind::Impl && lib_->key && k != *lib_->key) {
        if (refuse(kwhere,
                   fmt::format("impl(\"{}\", ...): Explicitly provided dispatch key ({}) is inconsistent with the "
                               "dispatch key of the enclosing TORCH_LIBRARY_IMPL block ({}).  Please declare a "
                               "separate TORCH_LIBRARY_IMPL block for this dispatch key and move your impl() "
                               "there.  {}",
                               op->value, p_.name_of(k), p_.name_of(*lib_->key), context()),
                   *qualified, p_.name_of(k)))
          return true;
        continue;
      }
      Kernel kern;
      kern.debug = debug_or_default(kernel ? kernel->value : std::string_view{}, where);
      kern.signature = signature;
      kern.fallthrough = fallthrough;
      kern.boxed_only = boxed && boxed->value;
      kern.where = kwhere.line == where.line && kwhere.column == where.column ? op->where : kwhere;
      register_impl(*qualified, k, std::move(kern));
    }
    return false;
  }

  // A kernel's debug string: its name, or (like c10's debugString for an
  // empty one) where it is registered.
  std::string debug_or_default(std::string_view name, const Location& where) const {
    if (!name.empty()) return std::string(name);
    return fmt::format("registered at {}:{}", file_, where.line);
  }

  // ---- [[fallback]] -----------------------------------------------------------------
  bool load_fallback(const toml::table& t) {
    TableReader r(t, file_, "a [[fallback]] entry", &error_);
    r.allow_only({"key", "kernel", "fallthrough"});
    auto k1 = r.str("key");
    auto kernel = r.str("kernel");
    auto ft = r.boolean("fallthrough");
    if (r.failed()) return true;
    const Location where = r.self();
    const bool fallthrough = ft && ft->value;
    if (!kernel && !fallthrough)
      return set_error(where, "a [[fallback]] entry needs a 'kernel' (or fallthrough = true)"), true;
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
      if (!k) return true;
      kwhere = k1->where;
      if (lib_->key && *k != *lib_->key)
        return set_error(k1->where, fmt::format("fallback key {} differs from the file's dispatch_key {}",
                                                p_.name_of(*k), p_.name_of(*lib_->key))),
               true;
    } else if (lib_->key) {
      k = lib_->key;
    } else {
      return set_error(where, "a [[fallback]] entry needs a 'key' (or a file dispatch_key)"), true;
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
      return refuse(where,
                    fmt::format("fallback(...): Fallback functions which apply to only a single namespace (you "
                                "specified {}) are not supported.  If you intended to apply this fallback function "
                                "globally, please define a separate block:\n\n    TORCH_LIBRARY_IMPL(_, {}, m) {{ "
                                "m.fallback(...); }}\n\n{}",
                                lib_->ns, p_.name_of(*k), context()),
                    lib_->ns, p_.name_of(*k));
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
    f.where = kwhere;
    out_.stmts.emplace_back(std::move(f));
    return false;
  }

  Registry* reg_;
  const Profile& p_;
  FileName file_;
  std::string_view text_;
  const LoadOptions& opt_;
  Batch& out_;
  std::optional<Diagnostic> error_;
  bool refused_ = false, deferred_ = false;
  const Library* lib_ = nullptr;
  bool ns_given_ = false;
  std::unordered_map<std::string, std::shared_ptr<const std::string>> signatures_;  // text -> printed form
  std::string last_op_text_, last_op_qualified_;
};

}  // namespace

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

// F.5: a second TORCH_LIBRARY (DEF) block for a namespace.
std::string single_library_message(const std::string& ns, const std::string& previous, const std::string& latest) {
  return fmt::format(
      "Only a single TORCH_LIBRARY can be used to register the namespace {}; please put all of your definitions in "
      "a single TORCH_LIBRARY block.  If you were trying to specify implementations, consider using "
      "TORCH_LIBRARY_IMPL (which can be duplicated).  If you really intended to define operators for a single "
      "namespace in a distributed way, you can use TORCH_LIBRARY_FRAGMENT to explicitly indicate this.  Previous "
      "registration of TORCH_LIBRARY was {}; latest registration was {}",
      ns, previous, latest);
}

// Applies a batch to the registry, in order. Returns the error that stops
// loading: a refusal under OnRefusal::Fail, or the batch's input error.
std::optional<Diagnostic> apply(Batch& b, LoadResult& result, const LoadOptions& options) {
  Registry& reg = result.registry;
  auto refuse = [&](Diagnostic d) -> bool {
    if (d.code.empty()) d.code = "library-kind";
    if (options.on_refusal == OnRefusal::Record) {
      result.refusals.push_back(std::move(d));
      return false;
    }
    b.error = std::move(d);
    return true;
  };
  std::uint32_t lib_index = 0;
  for (auto& stmt : b.stmts) {
    std::optional<Diagnostic> refused;
    if (auto* add = std::get_if<Batch::AddLibrary>(&stmt)) {
      const Library& lib = b.lib;
      if (add->check_single_def)
        for (const auto& core : reg.profile().libraries()) {
          if (core.ns != lib.ns) continue;
          refused = make_error(lib.where, single_library_message(lib.ns, core.debug, b.lib_debug),
                               {{core.where, fmt::format("PyTorch itself registers the TORCH_LIBRARY block for this "
                                                         "namespace (profile {})",
                                                         reg.profile().name())}});
          refused->op = lib.ns;
          break;
        }
      if (add->check_single_def && !refused)
        for (const auto& other : reg.libraries()) {
          if (other.kind != LibraryKind::Def || other.ns != lib.ns) continue;
          refused = make_error(
              lib.where,
              single_library_message(lib.ns, fmt::format("registered at {}:{}", other.where.file, other.where.line),
                                     b.lib_debug),
              {{other.where, "the other TORCH_LIBRARY block for this namespace"}});
          refused->op = lib.ns;
          break;
        }
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

// Reads, parses and compiles files ahead of the thread that applies them, on
// a few long-lived workers, at most `window` files ahead. Long-lived threads
// keep their allocator arenas warm: each parse reuses the memory of the
// documents already compiled and freed.
class CompileAhead {
 public:
  CompileAhead(const Profile& profile, const ReadFile& read, const std::vector<std::string>& paths,
               const LoadOptions& options)
      : profile_(profile), read_(read), paths_(paths), options_(options), slots_(paths.size()) {
    const unsigned hw = std::max(1u, options.threads != 0 ? options.threads : std::thread::hardware_concurrency());
    window_ = 2 * static_cast<std::size_t>(hw);
    // The thread that applies the batches helps compile: one worker fewer.
    const std::size_t workers = std::min<std::size_t>({paths.size(), hw - 1, 8});
    for (std::size_t i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }
  CompileAhead(const CompileAhead&) = delete;
  CompileAhead& operator=(const CompileAhead&) = delete;
  ~CompileAhead() {
    {
      const std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }

  // The batch of paths[i]; call with i = 0, 1, 2, ... in order. While it is
  // not ready, the calling thread compiles the next unclaimed file itself.
  Batch take(std::size_t i) {
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

 private:
  [[nodiscard]] bool claimable() const { return next_ < paths_.size() && next_ < consumed_ + window_; }

  // Claims the next file, compiles it with the lock released, and stores it.
  void compile_one(std::unique_lock<std::mutex>& lock) {
    const std::size_t i = next_++;
    lock.unlock();
    Batch b = read_and_compile(profile_, read_, paths_[i], options_);
    lock.lock();
    slots_[i].emplace(std::move(b));
    cv_.notify_all();
  }

  void work() {
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return stop_ || next_ >= paths_.size() || claimable(); });
      if (stop_ || next_ >= paths_.size()) return;
      compile_one(lock);
    }
  }

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

}  // namespace

Expected<LoadResult, Diagnostic> load(const Profile& profile, const std::vector<std::string>& paths,
                                      const ReadFile& read, const LoadOptions& options) {
  // Standard input can be read once (and must not be read by two threads).
  if (std::count(paths.begin(), paths.end(), std::string("-")) > 1)
    return unexpected(
        make_error(Location{display_path("-"), 0, 0}, "standard input ('-') can be given only once on a command line"));
  LoadResult result{Registry(profile, options.library), {}};
  // Files are read, parsed and compiled ahead on worker threads; the batches
  // are applied here in command-line order, so results and the first error
  // reported do not depend on timing.
  CompileAhead ahead(profile, read, paths, options);
  for (std::size_t i = 0; i < paths.size(); ++i) {
    Batch b = ahead.take(i);
    if (b.deferred) {
      // Depends on earlier files (a renamed PrivateUse1): compile it now.
      const toml::table root = std::move(*b.deferred);
      const std::string text = std::move(b.deferred_text);
      b = Batch{};
      FileLoader(profile, &result.registry, display_path(paths[i]), text, options, b).compile(root);
    }
    if (auto err = apply(b, result, options)) return unexpected(std::move(*err));
  }
  return result;
}

}  // namespace dt
