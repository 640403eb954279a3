#include "keys/profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "base/text.hpp"
#include "base/toml_reader.hpp"

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

class ProfileBuilder {
 public:
  ProfileBuilder(const std::string& file) : file_(file) {}

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
                  "parseable",
                  "override_warning",
                  "override_warning_exempt",
                  "override_warning_prefix",
                  "multiple_fallbacks_exempt",
                  "reserved_namespaces",
                  "reserved_namespace_kinds",
                  "meta_on_composite",
                  "dimname_prints_as_str",
                  "autocast_keys",
                  "python_library_kinds",
                  "privateuse1_rename",
                  "fallback",
                  "library",
                  "python_dispatcher",
                  "device_types",
                  "privateuse1_reserved_names"});
    Profile& p = p_;
    p.source_ = file_;
    auto name = require_str(r, "name");
    if (name) p.name_ = name->value;
    if (auto d = r.str("description")) p.description_ = d->value;
    if (auto v = r.str("torch_version")) p.torch_version_ = v->value;
    auto backends = require_array(r, "backends");
    auto functionality = require_array(r, "functionality");
    auto aliases = require_array(r, "aliases");
    if (r.failed()) return fail();

    for (const auto& b : backends) p.backends_.push_back(b.value);
    p.nb_ = p.backends_.size();
    if (p.nb_ == 0) return fail_at(r.where("backends"), "a profile needs at least one backend");

    // Per-backend functionality keys and their prefixes.
    std::vector<std::pair<std::string, std::string>> per_backend;  // key -> prefix
    if (const auto* arr = r.table_array("per_backend")) {
      for (const auto& e : *arr) {
        TableReader er(*e.as_table(), file_, "a per_backend entry", &error_);
        er.allow_only({"key", "prefix"});
        auto k = require_str(er, "key");
        auto pre = require_str(er, "prefix");
        if (er.failed()) return fail();
        per_backend.emplace_back(k->value, pre->value);
      }
    }
    if (r.failed()) return fail();

    // Enum: 0 Undefined, functionality keys, EndOfFunctionalityKeys, per-backend blocks, aliases.
    p.keys_.push_back(KeyInfo{"Undefined", KeyKind::Undefined, 0, AliasRule::None, -1, -1, false});
    for (const auto& f : functionality) {
      const bool pb =
          std::any_of(per_backend.begin(), per_backend.end(), [&](const auto& e) { return e.first == f.value; });
      if (!add_key(
              KeyInfo{f.value, pb ? KeyKind::BuildingBlock : KeyKind::Functionality, 0, AliasRule::None, -1, -1, false},
              f.where))
        return fail();
    }
    p.nf_ = static_cast<KeyId>(p.keys_.size());
    if (p.nb_ + p.nf_ - 1 > 64)
      return fail_at(r.where("functionality"),
                     fmt::format("{} backends and {} functionality keys need {} keyset bits; at "
                                 "most 64 fit",
                                 p.nb_, p.nf_ - 1, p.nb_ + p.nf_ - 1));
    p.all_backends_ = (p.nb_ == 64) ? ~KeySet{0} : ((KeySet{1} << p.nb_) - 1);
    for (KeyId i = 1; i < p.nf_; ++i) p.keys_[i].bits = KeySet{1} << (p.nb_ + i - 1);
    p.keys_.push_back(KeyInfo{});  // EndOfFunctionalityKeys

    // Per-backend blocks follow the enum order of their functionality keys.
    std::stable_sort(per_backend.begin(), per_backend.end(),
                     [&](const auto& a, const auto& b) { return index_of(a.first) < index_of(b.first); });
    for (const auto& [fk, prefix] : per_backend) {
      auto fi = p.find(fk);
      if (!fi || p.keys_[*fi].kind != KeyKind::BuildingBlock)
        return fail_at(r.where("per_backend"),
                       fmt::format("per_backend key '{}' is not in the functionality list", fk));
      p.keys_.push_back(KeyInfo{});  // StartOf<fk>Backends
      for (std::size_t bi = 0; bi < p.nb_; ++bi) {
        KeyInfo k{prefix + p.backends_[bi],
                  KeyKind::PerBackend,
                  p.keys_[*fi].bits | (KeySet{1} << bi),
                  AliasRule::None,
                  -1,
                  static_cast<int>(bi),
                  false};
        if (!add_key(std::move(k), r.where("per_backend"))) return fail();
      }
      pb_prefix_.emplace_back(*fi, prefix);
    }
    for (const auto& a : aliases) {
      auto rule = std::find_if(std::begin(kAliasRules), std::end(kAliasRules),
                               [&](const AliasName& n) { return n.name == a.value; });
      if (rule == std::end(kAliasRules)) {
        std::vector<std::string_view> known;
        for (const auto& n : kAliasRules) known.push_back(n.name);
        return fail_at(a.where, fmt::format("unknown alias key '{}'{}", a.value, did_you_mean(a.value, known)));
      }
      if (!add_key(KeyInfo{a.value, KeyKind::Alias, 0, rule->rule, -1, -1, false}, a.where)) return fail();
      p.aliases_.push_back(static_cast<KeyId>(p.keys_.size() - 1));
    }

    for (auto req : kRequiredKeys)
      if (!p.find(req))
        return fail_at(r.where("functionality"), fmt::format("the profile must define the key '{}'", req));
    for (auto req : {"Autograd", "CompositeImplicitAutograd", "CompositeExplicitAutograd"})
      if (!p.find(req)) return fail_at(r.where("aliases"), fmt::format("the profile must define the alias '{}'", req));

    // Runtime keys in table order (A.4).
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

    // Derived keysets (B.1).
    p.nested_tensor_ = *p.find("NestedTensor");
    p.autograd_other_ = *p.find("AutogradOther");
    p.autograd_nested_ = *p.find("AutogradNestedTensor");
    p.functorch_batched_ = p.find("FuncTorchBatched").value_or(kUndefined);
    p.autograd_functionality_ = bits("AutogradFunctionality") | bits("AutogradOther") | bits("AutogradNestedTensor");
    auto ago = functionality_keys(r, "autogradother");
    if (r.failed()) return fail();
    p.autogradother_backends_ = ago | p.all_backends_;
    p.backend_keyset_ = p.autogradother_backends_ | bits("Dense");
    p.math_keyset_ = p.backend_keyset_ | p.autograd_functionality_ | bits("NestedTensor");
    p.nested_keyset_ = bits("AutogradNestedTensor") | bits("NestedTensor") | p.all_backends_;
    KeySet nf = p.backend_keyset_ & ~functionality_keys(r, "non_functional_excluded_functionality");
    for (int bi : backend_list(r, "non_functional_excluded_backends")) nf &= ~(KeySet{1} << bi);
    p.nonfunctional_keyset_ = nf;
    p.autograd_backend_keys_ = backend_list(r, "autograd_backend_keys");
    p.autograd_key_backends_ = backend_list(r, "autograd_key_backends");

    if (auto parseable = r.str_array("parseable")) {
      for (const auto& n : *parseable) {
        auto k = p.find(n.value);
        if (!k) return fail_at(n.where, unknown_key(n.value));
        p.keys_[*k].parseable = true;
      }
    }

    // Quirks.
    if (auto ow = r.str("override_warning")) {
      if (ow->value != "always" && ow->value != "once")
        return fail_at(ow->where, "override_warning must be \"always\" or \"once\"");
      p.quirks_.override_warning_once = ow->value == "once";
    }
    p.quirks_.override_warning_exempt = key_list(r, "override_warning_exempt");
    if (auto pre = r.str("override_warning_prefix")) p.quirks_.override_warning_prefix = pre->value;
    p.quirks_.multiple_fallbacks_exempt = key_list(r, "multiple_fallbacks_exempt");
    if (auto rn = r.str_array("reserved_namespaces"))
      for (auto& n : *rn) p.quirks_.reserved_namespaces.push_back(n.value);
    if (auto rk = r.str_array("reserved_namespace_kinds"))
      for (auto& n : *rk) p.quirks_.reserved_namespace_kinds.push_back(n.value);
    if (auto moc = r.str("meta_on_composite")) {
      if (moc->value != "substring" && moc->value != "exact")
        return fail_at(moc->where, "meta_on_composite must be \"substring\" or \"exact\"");
      p.quirks_.meta_on_composite_substring = moc->value == "substring";
    }
    if (auto d = r.boolean("dimname_prints_as_str")) p.quirks_.dimname_prints_as_str = d->value;
    if (auto d = r.boolean("privateuse1_rename")) p.quirks_.privateuse1_rename = d->value;
    if (auto names = r.str_array("privateuse1_reserved_names"))
      for (auto& n : *names) p.quirks_.privateuse1_reserved_names.push_back(n.value);
    if (auto pk = r.str_array("python_library_kinds"))
      for (auto& n : *pk) p.quirks_.python_library_kinds.push_back(n.value);

    // Autocast key per backend (getAutocastRelatedKeySetFromBackend).
    if (const auto* arr = r.table_array("autocast_keys")) {
      for (const auto& e : *arr) {
        TableReader er(*e.as_table(), file_, "an autocast_keys entry", &error_);
        er.allow_only({"backend", "key"});
        auto b = require_str(er, "backend");
        auto k = require_str(er, "key");
        if (er.failed()) return fail();
        auto bit = std::find(p.backends_.begin(), p.backends_.end(), b->value);
        if (bit == p.backends_.end())
          return fail_at(b->where, fmt::format("'{}' is not a backend of this profile", b->value));
        auto id = p.find(k->value);
        if (!id) return fail_at(k->where, unknown_key(k->value));
        p.autocast_keys_.emplace_back(static_cast<int>(bit - p.backends_.begin()), *id);
      }
    }

    // Core backend fallbacks.
    if (const auto* arr = r.table_array("fallback")) {
      for (const auto& e : *arr) {
        TableReader er(*e.as_table(), file_, "a [[fallback]] entry", &error_);
        er.allow_only({"key", "fallthrough", "debug"});
        auto k = require_str(er, "key");
        auto dbg = require_str(er, "debug");
        auto ft = er.boolean("fallthrough");
        if (er.failed()) return fail();
        auto id = p.find(k->value);
        if (!id) return fail_at(k->where, unknown_key(k->value));
        if (!p.is_runtime(*id))
          return fail_at(k->where, fmt::format("fallback key '{}' is not a runtime key", k->value));
        for (const auto& f : p.fallbacks_)
          if (f.key == *id) return fail_at(k->where, fmt::format("two fallbacks for '{}'", k->value));
        p.fallbacks_.push_back(FallbackSpec{*id, ft && ft->value, dbg->value, k->where});
      }
    }
    // PythonDispatcher's key subset: names of keys of this universe.
    if (const toml::table* pd = r.table("python_dispatcher")) {
      TableReader pr(*pd, file_, "the [python_dispatcher] table", &error_);
      pr.allow_only({"runtime_keys", "alias_keys"});
      for (auto [field, list] :
           {std::pair{"runtime_keys", &p.pd_runtime_keys_}, std::pair{"alias_keys", &p.pd_alias_keys_}})
        if (auto names = pr.str_array(field))
          for (const auto& n : *names) {
            if (!p.find(n.value)) return fail_at(n.where, unknown_key(n.value));
            list->push_back(n.value);
          }
      if (pr.failed()) return fail();
    }

    // torch.library device types -> dispatch keys.
    if (const toml::table* dt = r.table("device_types")) {
      for (auto&& [device, value] : *dt) {
        const Location at = location_of(value.source(), file_);
        if (!value.is_string())
          return fail_at(at, fmt::format("device type '{}' must map to a dispatch key name (a string)", device.str()));
        const std::string key(value.as_string()->get());
        auto id = p.find(key);
        if (!id) return fail_at(at, unknown_key(key));
        p.device_types_.emplace_back(std::string(device.str()), *id);
      }
    }

    // Core TORCH_LIBRARY (DEF) blocks.
    if (const auto* arr = r.table_array("library")) {
      for (const auto& e : *arr) {
        TableReader er(*e.as_table(), file_, "a [[library]] entry", &error_);
        er.allow_only({"namespace", "debug"});
        auto ns = require_str(er, "namespace");
        auto dbg = require_str(er, "debug");
        if (er.failed()) return fail();
        for (const auto& l : p.libraries_)
          if (l.ns == ns->value) return fail_at(ns->where, fmt::format("two libraries for '{}'", ns->value));
        p.libraries_.push_back(CoreLibrary{ns->value, dbg->value, ns->where});
      }
    }
    if (r.failed()) return fail();
    return std::move(p_);
  }

 private:
  Expected<Profile, Diagnostic> fail() { return unexpected(std::move(*error_)); }
  Expected<Profile, Diagnostic> fail_at(Location where, std::string msg) {
    Diagnostic d;
    d.where = std::move(where);
    d.message = std::move(msg);
    return unexpected(std::move(d));
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

  bool add_key(KeyInfo k, Location where) {
    if (p_.by_name_.count(k.name)) {
      Diagnostic d;
      d.where = std::move(where);
      d.message = fmt::format("key '{}' is defined twice", k.name);
      error_ = std::move(d);
      return false;
    }
    p_.keys_.push_back(std::move(k));
    // by_name_ holds views into keys_: rebuild after every growth (cheap at this size).
    p_.by_name_.clear();
    for (std::size_t i = 0; i < p_.keys_.size(); ++i)
      if (p_.keys_[i].kind != KeyKind::Marker) p_.by_name_.emplace(p_.keys_[i].name, static_cast<KeyId>(i));
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
    KeySet ks = 0;
    if (auto arr = r.str_array(field)) {
      for (const auto& n : *arr) {
        auto k = p_.find(n.value);
        if (!k || p_.keys_[*k].kind == KeyKind::PerBackend || p_.keys_[*k].kind == KeyKind::Alias) {
          r.fail(n.where, fmt::format("'{}' is not a functionality key of this profile", n.value));
          return 0;
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
  std::vector<std::pair<KeyId, std::string>> pb_prefix_;
};

Expected<Profile, Diagnostic> Profile::parse(std::string_view text, const std::string& file) {
  auto root = parse_toml(text, file);
  if (!root) return unexpected(std::move(root.error()));
  return ProfileBuilder(file).build(*root);
}

std::optional<KeyId> Profile::find(std::string_view name) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::optional<KeyId> Profile::alias_key(AliasRule r) const {
  for (KeyId a : aliases_)
    if (keys_[a].alias == r) return a;
  return std::nullopt;
}

std::vector<std::string> Profile::python_dispatcher_keys() const {
  std::vector<std::string> k = pd_runtime_keys_;
  k.insert(k.end(), pd_alias_keys_.begin(), pd_alias_keys_.end());
  return k;
}

std::vector<std::string_view> Profile::key_names() const {
  std::vector<std::string_view> out;
  for (const auto& k : keys_)
    if (k.kind != KeyKind::Marker) out.push_back(k.name);
  return out;
}

bool Profile::in_alias(KeyId k, AliasRule alias) const {
  if (k == kUndefined) return false;
  const KeySet b = keys_[k].bits;
  switch (alias) {
    case AliasRule::Autograd: {
      // The functionality of k is one of the three autograd functionality keys.
      const KeySet func = b & ~all_backends_;
      return func != 0 && has(autograd_functionality_, func);
    }
    case AliasRule::CIA:
      return has(math_keyset_, b);
    case AliasRule::CIANested:
      return has(nested_keyset_, b);
    case AliasRule::CEA:
      return k != nested_tensor_ && has(backend_keyset_, b);
    case AliasRule::CEANF:
      return k != nested_tensor_ && has(nonfunctional_keyset_, b);
    case AliasRule::FTBD:
      return k == functorch_batched_ && k != kUndefined;
    case AliasRule::None:
      return false;
  }
  return false;
}

std::vector<KeyId> Profile::alias_members(KeyId alias) const {
  std::vector<KeyId> out;
  for (KeyId k : runtime_) {
    if (k == kUndefined) continue;
    if (keys_[alias].kind == KeyKind::Alias ? in_alias(k, keys_[alias].alias) : k == alias) out.push_back(k);
  }
  return out;
}

KeySet Profile::backend_keyset_from_autograd(KeyId k) const {
  if (k == autograd_other_) return autogradother_backends_;
  if (k == autograd_nested_) return keys_[nested_tensor_].bits | all_backends_;
  const KeyInfo& info = keys_[k];
  if (info.kind != KeyKind::PerBackend || !has(autograd_functionality_, info.bits & ~all_backends_)) return 0;
  const auto backend = static_cast<std::size_t>(info.backend);
  if (std::find(autograd_backend_keys_.begin(), autograd_backend_keys_.end(), info.backend) ==
      autograd_backend_keys_.end())
    return 0;
  // The Dense runtime key of that backend (CPU for AutogradCPU).
  auto dense = find(backends_[backend]);
  return dense ? keys_[*dense].bits : 0;
}

KeyId Profile::autograd_key_for_backend_of(KeyId k) const {
  const KeyInfo& info = keys_[k];
  if (info.kind == KeyKind::PerBackend && std::find(autograd_key_backends_.begin(), autograd_key_backends_.end(),
                                                    info.backend) != autograd_key_backends_.end()) {
    if (auto a = find("Autograd" + backends_[static_cast<std::size_t>(info.backend)])) return *a;
  }
  return autograd_other_;
}

bool Profile::is_backend_dispatch_key(KeyId k) const {
  return k != kUndefined && !is_alias(k) && k != nested_tensor_ && keys_[k].kind != KeyKind::Marker &&
         has(backend_keyset_, keys_[k].bits);
}

std::vector<KeyId> Profile::iterate(KeySet ks) const {
  std::vector<KeyId> out;
  for (KeyId k : runtime_)
    if (k != kUndefined && has(ks, keys_[k].bits)) out.push_back(k);
  return out;
}

namespace {
std::string capitalised(std::string_view s) {
  std::string out(s);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}
}  // namespace

std::string Profile::display_name(KeyId k, std::string_view privateuse1) const {
  const KeyInfo& info = keys_[k];
  if (privateuse1.empty() || info.kind != KeyKind::PerBackend ||
      backends_[static_cast<std::size_t>(info.backend)] != "PrivateUse1")
    return info.name;
  const std::string prefix = info.name.substr(0, info.name.size() - std::string_view("PrivateUse1").size());
  return prefix.empty() ? std::string(privateuse1) : prefix + capitalised(privateuse1);
}

std::optional<KeyId> Profile::find_renamed(std::string_view name, std::string_view privateuse1) const {
  if (privateuse1.empty()) return std::nullopt;
  if (name == privateuse1) return find("PrivateUse1");
  // The input contract's spelling ("AutogradFoo"), and PyTorch main's
  // parseDispatchKey retry, which replaces the upper-cased name ("AutogradFOO").
  std::string upper(privateuse1);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (const std::string& spelling : {capitalised(privateuse1), upper})
    if (name.size() >= spelling.size() && name.substr(name.size() - spelling.size()) == spelling)
      if (auto k = find(std::string(name.substr(0, name.size() - spelling.size())) + "PrivateUse1")) return k;
  return std::nullopt;
}

Expected<Profile, Diagnostic> load_profile(std::string_view spec, const ReadFile& read) {
  for (const auto& e : embedded_profiles())
    if (spec == e.name) return Profile::parse(e.text, e.path);
  const std::string path(spec);
  if (path.size() > 5 && path.ends_with(".toml")) {
    auto text = read(path);
    if (!text) {
      Diagnostic d = std::move(text.error());
      d.where = Location{path, 0, 0};
      d.message = "cannot open profile file: " + d.message;
      return unexpected(std::move(d));
    }
    return Profile::parse(*text, path);
  }
  std::vector<std::string_view> names;
  std::vector<std::string> listed;
  for (const auto& e : embedded_profiles()) {
    names.emplace_back(e.name);
    listed.emplace_back(e.name);
  }
  Diagnostic d;
  d.where.file = "--profile";
  d.message = fmt::format(
      "unknown profile '{}'{}; built-in profiles: {} (or give a path ending in "
      ".toml)",
      spec, did_you_mean(spec, names), join(listed, ", "));
  return unexpected(std::move(d));
}

}  // namespace dt
