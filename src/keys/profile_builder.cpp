// Profiles from TOML (docs/profile-format.md): Profile::parse and the
// ProfileBuilder that expands a profile file exactly as c10 lays out its
// DispatchKey enum and keysets. Which profile a name means: profile_resolve.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "base/operator_name.hpp"
#include "base/text.hpp"
#include "base/toml_reader.hpp"
#include "keys/profile.hpp"
#include "keys/profile_schema.hpp"
#include "keys/profile_torch_library.hpp"

namespace dt {

namespace {

struct AliasName {
  std::string_view name;
  AliasRule rule;
};
constexpr AliasName kAliasRules[] = {
    {"Autograd", AliasRule::Autograd},
    {"CompositeImplicitAutograd", AliasRule::CIA},
    {"CompositeImplicitAutogradNestedTensor", AliasRule::CIANested},
    {"CompositeExplicitAutograd", AliasRule::CEA},
    {"CompositeExplicitAutogradNonFunctional", AliasRule::CEANF},
    {"FuncTorchBatchedDecomposition", AliasRule::FTBD},
};

// Keys the algorithm itself refers to by name (as c10 does).
constexpr std::string_view kRequiredKeys[] = {"Dense", "NestedTensor", "AutogradOther", "AutogradFunctionality",
                                              "AutogradNestedTensor"};

}  // namespace

// Builds a Profile section by section, in the order of the file's format
// (docs/profile-format.md). Each section returns false after an error; the
// first error is kept in error_ (shared with the TableReaders, internal).
class ProfileBuilder {
 public:
  explicit ProfileBuilder(const std::string& file) : file_(file) {}

  Expected<Profile, Diagnostic> build(const toml::table& root) {
    TableReader r(root, file_, "the profile", &error_);
    r.allow_only({"name",
                  "description",
                  "torch_version",
                  "backends",
                  "functionality",
                  "per_backend",
                  "aliases",
                  "autogradother",
                  "autograd_backend_keys",
                  "autograd_key_backends",
                  "non_functional_excluded_functionality",
                  "non_functional_excluded_backends",
                  "composite_implicit_extra",
                  "parseable",
                  "override_warning",
                  "override_warning_exempt",
                  "override_warning_prefix",
                  "multiple_fallbacks_exempt",
                  "reserved_namespaces",
                  "reserved_namespace_kinds",
                  "meta_on_composite",
                  "dimname_prints_as_str",
                  "dimname_in_schemas",
                  "ambiguity_assert_prefix",
                  "ambiguity_hint",
                  "autocast_keys",
                  "python_library_kinds",
                  "privateuse1_rename",
                  "autograd_fallback_warning",
                  "meta_fallback_error",
                  "functionalize_alias_error",
                  "python_fallback_without_snapshot",
                  "privateuse1_shown",
                  "fallback",
                  "library",
                  "python_dispatcher",
                  "device_types",
                  "privateuse1_reserved_names",
                  "operator_library",
                  "tag",
                  "torch_library",
                  "schema"});
    p_.source_ = file_;
    if (!read_lists(r) || !read_per_backend(r) || !add_enum_keys(r) || !require_keys(r)) return fail();
    order_runtime_keys();
    if (!derive_keysets(r) || !read_parseable(r) || !read_quirks(r) || !read_autocast_keys(r) || !read_fallbacks(r) ||
        !read_python_dispatcher(r) || !read_device_types(r) || !read_libraries(r) || !read_operator_library(r) ||
        !read_tags(r) || !read_torch_library_table(r) || !read_schema_table(r) || r.failed())
      return fail();
    list_alias_members();
    return std::move(p_);
  }

  // alias_members of every key, once the keysets in_alias reads are derived.
  void list_alias_members() {
    Profile& p = p_;
    p.members_.assign(p.keys_.size(), {});
    for (KeyId a = 0; a < p.keys_.size(); ++a)
      for (KeyId k : p.runtime_) {
        if (k == kUndefined) continue;
        if (p.keys_[a].kind == KeyKind::Alias ? p.in_alias(k, p.keys_[a].alias) : k == a) p.members_[a].push_back(k);
      }
  }

 private:
  // ---- sections ------------------------------------------------------------

  bool read_schema_table(TableReader& r) {
    const toml::table* t = r.table("schema");
    return t == nullptr || read_schema_grammar(*t, file_, &error_, p_.schema_grammar_);
  }

  bool read_torch_library_table(TableReader& r) {
    const toml::table* t = r.table("torch_library");
    return t == nullptr || read_torch_library(*t, file_, &error_, p_.torch_library_);
  }

  // [operator_library] paths: directories and TOML files, relative to the
  // profile file (registry/library.hpp opens them).
  bool read_operator_library(TableReader& r) {
    const toml::table* t = r.table("operator_library");
    if (t == nullptr) return true;
    TableReader lr(*t, file_, "[operator_library]", &error_);
    lr.allow_only({"paths"});
    p_.operator_library_where_ = lr.where("paths");
    for (auto& e : require_array(lr, "paths")) p_.operator_library_.push_back(std::move(e.value));
    return !lr.failed();
  }

  // [[tag]] entries: the release's operator tags (torch.Tag, tags.yaml).
  bool read_tags(TableReader& r) {
    const auto* arr = r.table_array("tag");
    if (arr == nullptr) return true;
    for (const auto& e : *arr) {
      TableReader tr(*e.as_table(), file_, "a [[tag]] entry", &error_);
      tr.allow_only({"name", "description"});
      auto name = require_str(tr, "name");
      auto description = tr.str("description");
      if (tr.failed()) return false;
      if (!is_identifier(name->value))
        return fail_at(name->where, fmt::format("tag name '{}' is not an identifier", name->value));
      for (const auto& t : p_.tags_)
        if (t.name == name->value) return fail_at(name->where, fmt::format("tag '{}' is listed twice", name->value));
      p_.tags_.push_back(TagInfo{name->value, description ? description->value : std::string()});
    }
    return true;
  }

  // The name and the three lists every profile has: backends, functionality
  // keys, alias keys.
  bool read_lists(TableReader& r) {
    auto name = require_str(r, "name");
    if (name) p_.name_ = name->value;
    if (auto d = r.str("description")) p_.description_ = d->value;
    if (auto v = r.str("torch_version")) p_.torch_version_ = v->value;
    auto backends = require_array(r, "backends");
    functionality_ = require_array(r, "functionality");
    aliases_ = require_array(r, "aliases");
    if (r.failed()) return false;
    for (const auto& b : backends) p_.backends_.push_back(b.value);
    p_.nb_ = p_.backends_.size();
    if (p_.nb_ == 0) return fail_at(r.where("backends"), "a profile needs at least one backend");
    // Each backend and functionality key is a keyset bit: checked before
    // anything is built from them (counts in size_t: KeyId is 16 bits).
    const std::size_t bits = p_.nb_ + functionality_.size();
    if (bits > 64)
      return fail_at(r.where("functionality"),
                     fmt::format("{} backends and {} functionality keys need {} keyset bits; at most 64 fit", p_.nb_,
                                 functionality_.size(), bits));
    return true;
  }

  // Per-backend functionality keys and their prefixes.
  bool read_per_backend(TableReader& r) {
    std::unordered_set<std::string> listed;
    if (const auto* arr = r.table_array("per_backend")) {
      for (const auto& e : *arr) {
        TableReader er(*e.as_table(), file_, "a per_backend entry", &error_);
        er.allow_only({"key", "prefix"});
        auto k = require_str(er, "key");
        auto pre = require_str(er, "prefix");
        if (er.failed()) return false;
        // A block listed twice would expand twice (and a profile could grow past any bound).
        if (!listed.insert(k->value).second)
          return fail_at(k->where, fmt::format("per_backend lists the building block '{}' twice", k->value));
        per_backend_.emplace_back(k->value, pre->value);
      }
    }
    return !r.failed();
  }

  // The DispatchKey enum: 0 Undefined, functionality keys,
  // EndOfFunctionalityKeys, per-backend blocks, aliases.
  bool add_enum_keys(TableReader& r) {
    Profile& p = p_;
    add_key(KeyInfo{"Undefined", KeyKind::Undefined, {}, AliasRule::None, -1, -1, false}, r.self());
    for (const auto& f : functionality_) {
      const bool pb =
          std::any_of(per_backend_.begin(), per_backend_.end(), [&](const auto& e) { return e.first == f.value; });
      if (!add_key(
              KeyInfo{
                  f.value, pb ? KeyKind::BuildingBlock : KeyKind::Functionality, {}, AliasRule::None, -1, -1, false},
              f.where))
        return false;
    }
    p.nf_ = static_cast<KeyId>(p.keys_.size());  // at most 64: read_lists checked the bits
    p.all_backends_ = KeySet::low_bits(static_cast<unsigned>(p.nb_));
    for (KeyId i = 1; i < p.nf_; ++i) p.keys_[i].bits = KeySet::bit(static_cast<unsigned>(p.nb_ + i - 1));
    p.keys_.push_back(KeyInfo{});  // EndOfFunctionalityKeys
    return add_per_backend_keys(r) && add_alias_keys();
  }

  // Per-backend blocks follow the enum order of their functionality keys.
  bool add_per_backend_keys(TableReader& r) {
    Profile& p = p_;
    std::stable_sort(per_backend_.begin(), per_backend_.end(),
                     [&](const auto& a, const auto& b) { return index_of(a.first) < index_of(b.first); });
    for (const auto& [fk, prefix] : per_backend_) {
      auto fi = p.find(fk);
      if (!fi || p.keys_[*fi].kind != KeyKind::BuildingBlock)
        return fail_at(r.where("per_backend"),
                       fmt::format("per_backend key '{}' is not in the functionality list", fk));
      p.keys_.push_back(KeyInfo{});  // StartOf<fk>Backends
      for (std::size_t bi = 0; bi < p.nb_; ++bi) {
        KeyInfo k{prefix + p.backends_[bi],
                  KeyKind::PerBackend,
                  p.keys_[*fi].bits | KeySet::bit(static_cast<unsigned>(bi)),
                  AliasRule::None,
                  -1,
                  static_cast<int>(bi),
                  false};
        if (!add_key(std::move(k), r.where("per_backend"))) return false;
      }
      pb_prefix_.emplace_back(*fi, prefix);
    }
    return true;
  }

  bool add_alias_keys() {
    for (const auto& a : aliases_) {
      auto rule = std::find_if(std::begin(kAliasRules), std::end(kAliasRules),
                               [&](const AliasName& n) { return n.name == a.value; });
      if (rule == std::end(kAliasRules)) {
        std::vector<std::string_view> known;
        for (const auto& n : kAliasRules) known.push_back(n.name);
        return fail_at(a.where, fmt::format("unknown alias key '{}'{}", a.value, did_you_mean(a.value, known)));
      }
      if (!add_key(KeyInfo{a.value, KeyKind::Alias, {}, rule->rule, -1, -1, false}, a.where)) return false;
      p_.aliases_.push_back(static_cast<KeyId>(p_.keys_.size() - 1));
    }
    return true;
  }

  bool require_keys(TableReader& r) {
    for (auto req : kRequiredKeys)
      if (!p_.find(req))
        return fail_at(r.where("functionality"), fmt::format("the profile must define the key '{}'", req));
    for (auto req : {"Autograd", "CompositeImplicitAutograd", "CompositeExplicitAutograd"})
      if (!p_.find(req)) return fail_at(r.where("aliases"), fmt::format("the profile must define the alias '{}'", req));
    return true;
  }

  // Runtime keys in table order (dispatcher-notes A.4), and each key's slot.
  void order_runtime_keys() {
    Profile& p = p_;
    p.runtime_.push_back(kUndefined);
    for (KeyId i = 1; i < p.nf_; ++i) {
      if (p.keys_[i].kind == KeyKind::BuildingBlock) {
        const std::string& prefix = prefix_of(i);
        for (std::size_t bi = 0; bi < p.nb_; ++bi) p.runtime_.push_back(*p.find(prefix + p.backends_[bi]));
      } else {
        p.runtime_.push_back(i);
      }
    }
    for (std::size_t s = 0; s < p.runtime_.size(); ++s) p.keys_[p.runtime_[s]].slot = static_cast<int>(s);
  }

  // Derived keysets (dispatcher-notes B.1).
  bool derive_keysets(TableReader& r) {
    Profile& p = p_;
    p.nested_tensor_ = *p.find("NestedTensor");
    p.autograd_other_ = *p.find("AutogradOther");
    p.autograd_nested_ = *p.find("AutogradNestedTensor");
    p.functorch_batched_ = p.find("FuncTorchBatched").value_or(kUndefined);
    p.autograd_functionality_ = bits("AutogradFunctionality") | bits("AutogradOther") | bits("AutogradNestedTensor");
    auto ago = functionality_keys(r, "autogradother");
    if (r.failed()) return false;
    p.autogradother_backends_ = ago | p.all_backends_;
    p.backend_keyset_ = p.autogradother_backends_ | bits("Dense");
    // 2.6: Functionalize re-uses CompositeImplicitAutograd kernels (math_dispatch_keyset).
    p.math_keyset_ = p.backend_keyset_ | p.autograd_functionality_ | bits("NestedTensor") |
                     functionality_keys(r, "composite_implicit_extra");
    p.nested_keyset_ = bits("AutogradNestedTensor") | bits("NestedTensor") | p.all_backends_;
    KeySet nf = p.backend_keyset_.without(functionality_keys(r, "non_functional_excluded_functionality"));
    for (int bi : backend_list(r, "non_functional_excluded_backends"))
      nf = nf.without(KeySet::bit(static_cast<unsigned>(bi)));
    p.nonfunctional_keyset_ = nf;
    p.autograd_backend_keys_ = backend_list(r, "autograd_backend_keys");
    p.autograd_key_backends_ = backend_list(r, "autograd_key_backends");
    return !r.failed();
  }

  bool read_parseable(TableReader& r) {
    if (auto parseable = r.str_array("parseable")) {
      for (const auto& n : *parseable) {
        auto k = p_.find(n.value);
        if (!k) return fail_at(n.where, unknown_key(n.value));
        p_.keys_[*k].parseable = true;
      }
    }
    return true;
  }

  bool read_quirks(TableReader& r) {
    ProfileQuirks& q = p_.quirks_;
    if (auto ow = r.str("override_warning")) {
      if (ow->value != "always" && ow->value != "once")
        return fail_at(ow->where, "override_warning must be \"always\" or \"once\"");
      q.override_warning_once = ow->value == "once";
    }
    q.override_warning_exempt = key_list(r, "override_warning_exempt");
    if (auto pre = r.str("override_warning_prefix")) q.override_warning_prefix = pre->value;
    q.multiple_fallbacks_exempt = key_list(r, "multiple_fallbacks_exempt");
    q.reserved_namespaces = strings(r, "reserved_namespaces");
    q.reserved_namespace_kinds = strings(r, "reserved_namespace_kinds");
    if (auto moc = r.str("meta_on_composite")) {
      if (moc->value != "substring" && moc->value != "exact")
        return fail_at(moc->where, "meta_on_composite must be \"substring\" or \"exact\"");
      q.meta_on_composite_substring = moc->value == "substring";
    }
    if (auto d = r.boolean("dimname_prints_as_str")) q.dimname_prints_as_str = d->value;
    if (auto d = r.boolean("dimname_in_schemas")) q.dimname_in_schemas = d->value;
    if (auto d = r.boolean("privateuse1_rename")) q.privateuse1_rename = d->value;
    q.privateuse1_reserved_names = strings(r, "privateuse1_reserved_names");
    q.python_library_kinds = strings(r, "python_library_kinds");
    if (auto a = r.str("ambiguity_assert_prefix")) q.ambiguity_assert_prefix = a->value;
    if (auto h = r.str("ambiguity_hint")) q.ambiguity_hint = h->value;
    if (auto w = r.str("autograd_fallback_warning")) q.autograd_fallback_warning = w->value;
    if (auto m = r.str("meta_fallback_error")) q.meta_fallback_error = m->value;
    if (auto f = r.str("functionalize_alias_error")) q.functionalize_alias_error = f->value;
    if (auto py = r.str("python_fallback_without_snapshot")) {
      if (py->value != "assert" && py->value != "dispatch")
        return fail_at(py->where, "python_fallback_without_snapshot must be \"assert\" or \"dispatch\"");
      q.python_fallback_asserts_without_snapshot = py->value == "assert";
    }
    if (auto sh = r.str("privateuse1_shown")) {
      if (sh->value != "renamed" && sh->value != "canonical")
        return fail_at(sh->where, "privateuse1_shown must be \"renamed\" or \"canonical\"");
      q.privateuse1_shown_renamed = sh->value == "renamed";
    }
    return !r.failed();
  }

  // Autocast key per backend (getAutocastRelatedKeySetFromBackend).
  bool read_autocast_keys(TableReader& r) {
    if (const auto* arr = r.table_array("autocast_keys")) {
      for (const auto& e : *arr) {
        TableReader er(*e.as_table(), file_, "an autocast_keys entry", &error_);
        er.allow_only({"backend", "key"});
        auto b = require_str(er, "backend");
        auto k = require_str(er, "key");
        if (er.failed()) return false;
        auto bit = std::find(p_.backends_.begin(), p_.backends_.end(), b->value);
        if (bit == p_.backends_.end())
          return fail_at(b->where, fmt::format("'{}' is not a backend of this profile", b->value));
        auto id = p_.find(k->value);
        if (!id) return fail_at(k->where, unknown_key(k->value));
        p_.autocast_keys_.emplace_back(static_cast<int>(bit - p_.backends_.begin()), *id);
      }
    }
    return true;
  }

  // Core backend fallbacks.
  bool read_fallbacks(TableReader& r) {
    if (const auto* arr = r.table_array("fallback")) {
      for (const auto& e : *arr) {
        TableReader er(*e.as_table(), file_, "a [[fallback]] entry", &error_);
        er.allow_only({"key", "fallthrough", "debug"});
        auto k = require_str(er, "key");
        auto dbg = require_str(er, "debug");
        auto ft = er.boolean("fallthrough");
        if (er.failed()) return false;
        auto id = p_.find(k->value);
        if (!id) return fail_at(k->where, unknown_key(k->value));
        if (!p_.is_runtime(*id))
          return fail_at(k->where, fmt::format("fallback key '{}' is not a runtime key", k->value));
        for (const auto& f : p_.fallbacks_)
          if (f.key == *id) return fail_at(k->where, fmt::format("two fallbacks for '{}'", k->value));
        p_.fallbacks_.push_back(FallbackSpec{*id, ft && ft->value, dbg->value, k->where});
      }
    }
    return true;
  }

  // PythonDispatcher's key subset: names of keys of this universe.
  bool read_python_dispatcher(TableReader& r) {
    if (const toml::table* pd = r.table("python_dispatcher")) {
      TableReader pr(*pd, file_, "the [python_dispatcher] table", &error_);
      pr.allow_only({"runtime_keys", "alias_keys", "duplicates_error"});
      for (auto [field, list] :
           {std::pair{"runtime_keys", &p_.pd_runtime_keys_}, std::pair{"alias_keys", &p_.pd_alias_keys_}})
        if (auto names = pr.str_array(field))
          for (const auto& n : *names) {
            if (!p_.find(n.value)) return fail_at(n.where, unknown_key(n.value));
            list->push_back(n.value);
          }
      if (auto dup = pr.str("duplicates_error")) {
        if (dup->value.find("{keys}") == std::string::npos)
          return fail_at(dup->where, "duplicates_error must contain {keys} (where the list's repr goes)");
        p_.pd_duplicates_error_ = dup->value;
      }
      if (pr.failed()) return false;
    }
    return true;
  }

  // torch.library device types -> dispatch keys.
  bool read_device_types(TableReader& r) {
    if (const toml::table* dt = r.table("device_types")) {
      for (auto&& [device, value] : *dt) {
        const Location at = location_of(value.source(), file_);
        if (!value.is_string())
          return fail_at(at, fmt::format("device type '{}' must map to a dispatch key name (a string)", device.str()));
        const std::string key(value.as_string()->get());
        auto id = p_.find(key);
        if (!id) return fail_at(at, unknown_key(key));
        p_.device_types_.emplace_back(std::string(device.str()), *id);
      }
    }
    return true;
  }

  // Core TORCH_LIBRARY (DEF) blocks.
  bool read_libraries(TableReader& r) {
    std::unordered_set<std::string> namespaces;
    if (const auto* arr = r.table_array("library")) {
      for (const auto& e : *arr) {
        TableReader er(*e.as_table(), file_, "a [[library]] entry", &error_);
        er.allow_only({"namespace", "debug"});
        auto ns = require_str(er, "namespace");
        auto dbg = require_str(er, "debug");
        if (er.failed()) return false;
        if (!namespaces.insert(ns->value).second)
          return fail_at(ns->where, fmt::format("two libraries for '{}'", ns->value));
        p_.libraries_.push_back(CoreLibrary{ns->value, dbg->value, ns->where});
      }
    }
    return true;
  }

  // ---- helpers -------------------------------------------------------------

  Expected<Profile, Diagnostic> fail() { return unexpected(std::move(*error_)); }
  // Records the error (unless one is recorded already); returns false.
  bool fail_at(Location where, std::string msg) {
    if (!error_) error_ = make_error(std::move(where), std::move(msg));
    return false;
  }

  std::optional<Located<std::string>> require_str(TableReader& r, std::string_view key) {
    auto v = r.str(key);
    if (!v && !r.failed()) r.fail(r.self(), fmt::format("missing required field '{}'", key));
    return v;
  }
  std::vector<Located<std::string>> require_array(TableReader& r, std::string_view key) {
    auto v = r.str_array(key);
    if (!v && !r.failed()) r.fail(r.self(), fmt::format("missing required field '{}'", key));
    return v ? std::move(*v) : std::vector<Located<std::string>>{};
  }
  static std::vector<std::string> strings(TableReader& r, std::string_view key) {
    std::vector<std::string> out;
    if (auto list = r.str_array(key))
      for (auto& n : *list) out.push_back(std::move(n.value));
    return out;
  }

  bool add_key(KeyInfo k, Location where) {
    if (!p_.by_name_.emplace(k.name, static_cast<KeyId>(p_.keys_.size())).second)
      return fail_at(std::move(where), fmt::format("key '{}' is defined twice", k.name));
    p_.keys_.push_back(std::move(k));
    return true;
  }

  std::size_t index_of(const std::string& fk) const {
    auto id = p_.find(fk);
    return id ? *id : p_.keys_.size();
  }
  const std::string& prefix_of(KeyId fk) const {
    for (const auto& [k, prefix] : pb_prefix_)
      if (k == fk) return prefix;
    static const std::string empty;
    return empty;
  }
  KeySet bits(std::string_view name) const { return p_.keys_[*p_.find(name)].bits; }
  std::string unknown_key(const std::string& name) const {
    return fmt::format("unknown dispatch key '{}'{}", name, did_you_mean(name, p_.key_names()));
  }

  KeySet functionality_keys(TableReader& r, std::string_view field) {
    KeySet ks;
    if (auto arr = r.str_array(field)) {
      for (const auto& n : *arr) {
        auto k = p_.find(n.value);
        if (!k || p_.keys_[*k].kind == KeyKind::PerBackend || p_.keys_[*k].kind == KeyKind::Alias) {
          r.fail(n.where, fmt::format("'{}' is not a functionality key of this profile", n.value));
          return {};
        }
        ks |= p_.keys_[*k].bits;
      }
    }
    return ks;
  }
  std::vector<int> backend_list(TableReader& r, std::string_view field) {
    std::vector<int> out;
    if (auto arr = r.str_array(field)) {
      for (const auto& n : *arr) {
        auto it = std::find(p_.backends_.begin(), p_.backends_.end(), n.value);
        if (it == p_.backends_.end()) {
          r.fail(n.where, fmt::format("'{}' is not a backend of this profile", n.value));
          return {};
        }
        out.push_back(static_cast<int>(it - p_.backends_.begin()));
      }
    }
    return out;
  }
  std::vector<KeyId> key_list(TableReader& r, std::string_view field) {
    std::vector<KeyId> out;
    if (auto arr = r.str_array(field)) {
      for (const auto& n : *arr) {
        auto k = p_.find(n.value);
        if (!k) {
          r.fail(n.where, unknown_key(n.value));
          return {};
        }
        out.push_back(*k);
      }
    }
    return out;
  }

  const std::string& file_;
  std::optional<Diagnostic> error_;
  Profile p_;
  std::vector<Located<std::string>> functionality_, aliases_;     // as read by read_lists
  std::vector<std::pair<std::string, std::string>> per_backend_;  // key -> prefix
  std::vector<std::pair<KeyId, std::string>> pb_prefix_;          // building block -> prefix
};

Expected<Profile, Diagnostic> Profile::parse(std::string_view text, const std::string& file) {
  DT_TRY(root, parse_toml(text, file));
  return ProfileBuilder(file).build(root);
}

}  // namespace dt
