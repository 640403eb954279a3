// The dispatch-key universe of one PyTorch release ("profile"), loaded from
// data (configs/profiles/*.toml) and expanded exactly as c10 does: keyset bits,
// enum values, runtime-key (table) order, alias sets.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/io.hpp"
#include "keys/keyset.hpp"
#include "keys/schema_grammar.hpp"

namespace dt {

// The DispatchKey enum value. A profile has at most 64 functionality keys and
// backends together (keyset bits), so at most a few thousand keys: the
// builder counts in size_t and refuses more before it narrows to KeyId.
using KeyId = std::uint16_t;
inline constexpr KeyId kUndefined = 0;

enum class KeyKind : std::uint8_t {
  Undefined,
  Functionality,  // a plain functionality key: FPGA, BackendSelect, AutogradOther, ...
  BuildingBlock,  // a per-backend functionality: Dense, Sparse, AutogradFunctionality, ...
  PerBackend,     // a per-backend runtime key: CPU, SparseCUDA, AutogradXLA, ...
  Alias,          // Autograd, CompositeImplicitAutograd, ...
  Marker,         // EndOfFunctionalityKeys, StartOf<F>Backends: not a key
};

// The alias keys whose rules the resolver implements (dispatcher-notes B.2).
enum class AliasRule : std::uint8_t { None, Autograd, CIA, CIANested, CEA, CEANF, FTBD };

struct KeyInfo {
  std::string name;
  KeyKind kind = KeyKind::Marker;
  KeySet bits;  // DispatchKeySet(k); empty for Undefined, aliases
  AliasRule alias = AliasRule::None;
  int slot = -1;           // row in the dispatch table; -1 if not a runtime key
  int backend = -1;        // backend component index for PerBackend keys
  bool parseable = false;  // accepted by parseDispatchKey (Python strings)
};

struct FallbackSpec {
  KeyId key = kUndefined;
  bool fallthrough = false;
  std::string debug;
  Location where;
};

// A TORCH_LIBRARY (DEF) block core PyTorch registers at start-up: a user
// file with kind = "DEF" for the same namespace is refused (dispatcher-notes F.5).
struct CoreLibrary {
  std::string ns;
  std::string debug;  // "registered at FILE:LINE", as the refusal message quotes it
  Location where;     // in the profile
};

// An operator tag of the release (torch.Tag; tags.yaml in torchgen).
struct TagInfo {
  std::string name;         // "inplace_view"
  std::string description;  // one line
};

struct ProfileQuirks {
  bool override_warning_once = false;
  // Prepended to the override warning ("once" mode: TORCH_WARN_ONCE's text in main).
  std::string override_warning_prefix;
  std::vector<KeyId> override_warning_exempt;
  std::vector<KeyId> multiple_fallbacks_exempt;
  std::vector<std::string> reserved_namespaces;
  std::vector<std::string> reserved_namespace_kinds;
  bool meta_on_composite_substring = true;
  bool dimname_prints_as_str = false;
  bool dimname_in_schemas = true;                       // false: "Dimname" is no schema type (2.14)
  bool privateuse1_rename = false;                      // torch.utils.rename_privateuse1_backend exists
  std::vector<std::string> privateuse1_reserved_names;  // names it refuses ("in-tree device name")
  std::vector<std::string> python_library_kinds;        // kinds torch.library.Library accepts
  // The AutogradOther ambiguity raised at run time (ambiguous_autogradother_kernel):
  // the internal assert's "... INTERNAL ASSERT FAILED at ..., please report a bug
  // to PyTorch. " and the inference-mode hint after the message's first line.
  std::string ambiguity_assert_prefix;
  std::string ambiguity_hint;
  // Run-time behaviours (tools/gen_profile_runtime.py): texts as Python shows
  // them, {op} the operator's name, {schema} its schema; empty: not done.
  std::string autograd_fallback_warning;                 // backward through the boxed autograd fallback (2.x)
  std::string meta_fallback_error;                       // the Meta backend fallback's NotImplementedError (2.x)
  std::string functionalize_alias_error;                 // the Functionalize fallback on an alias-annotated schema
  bool python_fallback_asserts_without_snapshot = true;  // 1.13: tls_on_entry assert; 2.x: dispatches
  // Whether key names print under the privateuse1_backend name (torch-main, the
  // spec) or stay PrivateUse1 everywhere but the "Could not run" headline (2.x).
  bool privateuse1_shown_renamed = true;
};

// torch.library's Python APIs as one release registers them: the profile's
// [torch_library] table, measured by tools/gen_torch_library.py. Absent
// (measured == false) in a profile not generated from a build.
struct TorchLibraryInfo {
  bool measured = false;
  std::vector<std::string> apis;  // "custom_op", "register_kernel", ...
  std::vector<std::string> custom_op_tags;
  bool custom_op_user_tags = false;  // custom_op(..., tags=) exists
  bool python_override = false;      // Library.impl may replace a Python kernel
  bool autograd_views = false;       // register_autograd takes a view with one Tensor in and out
  int inplace_mutable = 0, inplace_view = 0, inplace_mutable_view = 0;
  // Debug strings by role: "def", "fake", "autograd", "default", "device",
  // "inplace", "backend_select", "kernel", "vmap", "autocast".
  std::vector<std::pair<std::string, std::string>> debug;
  // What custom_op's kernels raise without register_fake (when a Meta / fake
  // tensor reaches the fake kernel; {op} is the operator "ns::name",
  // {function} the Python function custom_op wraps) and without
  // register_autograd (at backward; {overload} is "ns.name.default"); whether
  // a mutable operator returning nothing gets a trivial fake impl instead.
  // Empty where not measured (profiles exported before they were): then
  // custom_op's kernels are not modelled beyond their registrations.
  std::string no_fake_error, no_autograd_error;
  // What Library.impl (meta_on_composite_error) and register_fake
  // (fake_on_composite_error) raise for a Meta kernel on an operator with a
  // CompositeImplicitAutograd kernel ({name}: the operator as the call names
  // it); empty where not measured (a profile exported before they were).
  std::string meta_on_composite_error, fake_on_composite_error;
  // What register_fake ({op}: ns::name) and register_autograd / register_vmap
  // ({ns}, {name}: torch.ops.NS.NAME) raise on an operator not defined yet.
  std::string undefined_op_error, undefined_attr_error;
  bool trivial_fake = false;
  // The Python reader's data ([torch_library.python], docs/profile-format.md):
  // the debug-string patterns of torch.library's Python forms by form
  // ("library", "define", "impl_decorator", "fake", "autograd_lib", ...; a
  // form's "<form>_in_function" where a call inside a function differs), the
  // names infer_schema prints for torch's dtype attributes ("float" ->
  // "float32"), torch.library's attributes, and infer_schema's release traits.
  bool python_measured = false;
  std::vector<std::pair<std::string, std::string>> python_debug;
  std::vector<std::pair<std::string, std::string>> dtype_names;
  std::vector<std::string> library_names;
  bool infer_builtin_generics = false;  // list[T], collections.abc.Sequence[T]
  bool infer_one_tuple_kept = false;    // Tuple[T] -> "((T))" kept by the schema parser

  [[nodiscard]] bool has(std::string_view api) const;
  // The role's debug string; empty when the profile has none.
  [[nodiscard]] std::string debug_of(std::string_view role) const;
  // A Python form's debug pattern; empty when the profile has none.
  [[nodiscard]] std::string python_debug_of(std::string_view form) const;
  // str(torch.<attr>) without "torch." ("float" -> "float32"); empty when not a dtype.
  [[nodiscard]] std::string dtype_name(std::string_view attr) const;
};

class Profile {
 public:
  // Not copied (a profile is built once and shared by reference).
  Profile(const Profile&) = delete;
  Profile& operator=(const Profile&) = delete;
  Profile(Profile&&) noexcept = default;
  Profile& operator=(Profile&&) noexcept = default;
  ~Profile() = default;

  // Parses and validates a profile file; errors point into `file`.
  static Expected<Profile, Diagnostic> parse(std::string_view text, const std::string& file);

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const std::string& description() const { return description_; }
  [[nodiscard]] const std::string& torch_version() const { return torch_version_; }
  [[nodiscard]] const std::string& source() const { return source_; }
  // Embedded into the binary (a built-in profile), not read from a file.
  [[nodiscard]] bool builtin() const { return builtin_; }
  // The operator library the profile names (operator_library): directories or
  // TOML files as written, relative to the profile file; empty if none.
  [[nodiscard]] const std::vector<std::string>& operator_library() const { return operator_library_; }
  [[nodiscard]] const Location& operator_library_where() const { return operator_library_where_; }
  // A profile directory's cpp_prelude.h (PyTorch's registration macros as the
  // exported torch's headers define them, written by dispatchtool-export);
  // empty for a built-in (its prelude is embedded) or a directory without one.
  [[nodiscard]] const std::string& cpp_prelude() const { return cpp_prelude_; }

  // Every enum value 0 .. EndOfAliasKeys, markers included.
  [[nodiscard]] std::span<const KeyInfo> keys() const { return keys_; }
  [[nodiscard]] const KeyInfo& key(KeyId k) const { return keys_[k]; }
  [[nodiscard]] const std::string& name_of(KeyId k) const { return keys_[k].name; }
  // Runtime keys in table order, Undefined first (dispatcher-notes A.4).
  [[nodiscard]] const std::vector<KeyId>& runtime_keys() const { return runtime_; }
  [[nodiscard]] const std::vector<KeyId>& alias_keys() const { return aliases_; }
  [[nodiscard]] const std::vector<std::string>& backends() const { return backends_; }
  [[nodiscard]] std::optional<KeyId> find(std::string_view name) const;
  [[nodiscard]] std::optional<KeyId> alias_key(AliasRule r) const;
  // All key names a user may write, for did-you-mean suggestions.
  [[nodiscard]] std::vector<std::string_view> key_names() const;

  [[nodiscard]] bool is_alias(KeyId k) const { return keys_[k].kind == KeyKind::Alias; }
  [[nodiscard]] bool is_runtime(KeyId k) const { return keys_[k].slot >= 0; }

  // isIncludedInAlias(k, alias) for a runtime key k (dispatcher-notes B.2).
  [[nodiscard]] bool in_alias(KeyId k, AliasRule alias) const;
  // getRuntimeDispatchKeySet(alias) expanded to runtime keys in table order
  // (a runtime key: itself; a building block: none). Computed once, when built.
  [[nodiscard]] const std::vector<KeyId>& alias_members(KeyId alias) const { return members_[alias]; }
  // getBackendKeySetFromAutograd(k) (dispatcher-notes B.3).
  [[nodiscard]] KeySet backend_keyset_from_autograd(KeyId k) const;
  // getAutogradKeyFromBackend(backend of k) (dispatcher-notes B.4).
  [[nodiscard]] KeyId autograd_key_for_backend_of(KeyId k) const;
  // isBackendDispatchKey(k) (dispatcher-notes B.5).
  [[nodiscard]] bool is_backend_dispatch_key(KeyId k) const;
  [[nodiscard]] KeySet autogradother_backends() const { return autogradother_backends_; }
  // Runtime keys of a keyset in table order.
  [[nodiscard]] std::vector<KeyId> iterate(KeySet ks) const;
  // The per-backend runtime keys of a building block (Sparse: SparseCPU,
  // SparseCUDA, ...), in table order; empty for any other key.
  [[nodiscard]] std::vector<KeyId> building_block_members(KeyId block) const;

  [[nodiscard]] const std::vector<FallbackSpec>& fallbacks() const { return fallbacks_; }
  [[nodiscard]] const std::vector<CoreLibrary>& libraries() const { return libraries_; }
  // The release's operator tags ([[tag]]), in the profile's order; empty when
  // the profile lists none (then any tag name is accepted).
  [[nodiscard]] const std::vector<TagInfo>& tags() const { return tags_; }
  // An unknown tag's error (no location): "unknown tag 'x' (did you mean
  // 'y'?); the tags of torch-1.13: a, b, ...", or Ok for a known tag (any tag
  // when the profile lists none).
  [[nodiscard]] Expected<Ok, Diagnostic> check_tag(std::string_view tag) const;
  // torch._python_dispatcher.PythonDispatcher's key subset (runtime_keys,
  // alias_keys), as names; every one is a key of this universe.
  [[nodiscard]] const std::vector<std::string>& python_dispatcher_runtime_keys() const { return pd_runtime_keys_; }
  [[nodiscard]] const std::vector<std::string>& python_dispatcher_alias_keys() const { return pd_alias_keys_; }
  // PythonDispatcher.keys(): runtime_keys + alias_keys.
  [[nodiscard]] std::vector<std::string> python_dispatcher_keys() const;
  // register()'s error for a list with duplicates, "{keys}" standing for the
  // list's repr (the spelling changed: 1.13 and 2.6 "Overriden", 2.14 "Overridden").
  [[nodiscard]] const std::string& python_dispatcher_duplicates_error() const { return pd_duplicates_error_; }
  // torch.library device types ("cpu", "cuda", "default", "privateuseone", ...)
  // and the key each registers to, sorted by name.
  [[nodiscard]] const std::vector<std::pair<std::string, KeyId>>& device_types() const { return device_types_; }
  [[nodiscard]] const ProfileQuirks& quirks() const { return quirks_; }
  [[nodiscard]] const TorchLibraryInfo& torch_library() const { return torch_library_; }
  // How this release's def parses a schema ([schema]; defaults when absent).
  [[nodiscard]] const SchemaGrammar& schema_grammar() const { return schema_grammar_; }
  // (backend index, Autocast key) pairs: the autocast key a tensor of that backend carries.
  [[nodiscard]] const std::vector<std::pair<int, KeyId>>& autocast_keys() const { return autocast_keys_; }

  // Name of `k` as output shows it: with PrivateUse1 renamed
  // (torch.utils.rename_privateuse1_backend) where the profile's release shows
  // the new name (privateuse1_shown = "renamed"), else the key's own name.
  [[nodiscard]] std::string display_name(KeyId k, std::string_view privateuse1) const;
  // Name of `k` in the "Could not run ... from the 'K' backend" headline: 2.x
  // renames there only, lower case as given ('AutogradPrivateUse1' -> 'Autogradfoo');
  // the key's own name where the profile shows renamed names elsewhere (torch-main).
  [[nodiscard]] std::string error_key_name(KeyId k, std::string_view privateuse1) const;
  // The KeyId named `name` after renaming PrivateUse1 to `privateuse1`.
  [[nodiscard]] std::optional<KeyId> find_renamed(std::string_view name, std::string_view privateuse1) const;
  // What to say after "could not parse dispatch key: NAME": " (did you mean 'X'?)"
  // among `candidates`; or, for a lower-case name like a device's ("npu")
  // while PrivateUse1 is not renamed (`privateuse1` empty), how a backend of
  // one's own gets that name (privateuse1_backend), or that this release
  // cannot rename PrivateUse1.
  [[nodiscard]] std::string suggest_key(std::string_view name, const std::vector<std::string_view>& candidates,
                                        std::string_view privateuse1) const;

 private:
  Profile() = default;  // built by ProfileBuilder (parse)

  std::string name_, description_, torch_version_, source_, cpp_prelude_;
  std::vector<std::string> operator_library_;
  std::vector<TagInfo> tags_;
  Location operator_library_where_;
  bool builtin_ = false;
  std::vector<std::string> backends_;
  std::vector<KeyInfo> keys_;
  std::vector<KeyId> runtime_;
  std::vector<std::vector<KeyId>> members_;  // alias_members, by key
  std::vector<KeyId> aliases_;
  // Owns its names: views into keys_ would dangle when keys_ grows.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, KeyId, NameHash, std::equal_to<>> by_name_;
  std::size_t nb_ = 0;  // number of backend components
  KeyId nf_ = 0;        // EndOfFunctionalityKeys
  KeySet all_backends_;
  KeySet autograd_functionality_;  // {AutogradFunctionality, AutogradOther, AutogradNestedTensor}
  KeySet autogradother_backends_;
  KeySet backend_keyset_;
  KeySet math_keyset_;
  KeySet nested_keyset_;
  KeySet nonfunctional_keyset_;
  KeyId nested_tensor_ = kUndefined, autograd_other_ = kUndefined, autograd_nested_ = kUndefined,
        functorch_batched_ = kUndefined;
  std::vector<int> autograd_backend_keys_;  // backend indices (dispatcher-notes B.3)
  std::vector<int> autograd_key_backends_;  // backend indices (dispatcher-notes B.4)
  std::vector<FallbackSpec> fallbacks_;
  std::vector<CoreLibrary> libraries_;
  std::vector<std::string> pd_runtime_keys_, pd_alias_keys_;
  std::string pd_duplicates_error_ = "Overriden is not allowed but found duplicates in {keys}.";
  std::vector<std::pair<std::string, KeyId>> device_types_;
  ProfileQuirks quirks_;
  TorchLibraryInfo torch_library_;
  SchemaGrammar schema_grammar_;
  std::vector<std::pair<int, KeyId>> autocast_keys_;

  friend class ProfileBuilder;
  friend Expected<Profile, Diagnostic> load_profile(std::string_view spec, const ReadFile& read,
                                                    const FileSystem* dirs);
};

struct EmbeddedProfile {
  const char* name;  // "torch-1.13"
  const char* path;  // "configs/profiles/torch-1.13.toml"
  const char* text;
};
const std::vector<EmbeddedProfile>& embedded_profiles();

inline constexpr std::string_view kDefaultProfile = "torch-2.14";

// `spec` is an embedded profile name, a path ending in ".toml" (read with
// `read`), or -- given `dirs` -- a directory holding profile.toml (what
// dispatchtool-export writes), whose profile.toml is read with
// dirs->read_inside(file, {directory}) (a link in the directory must not lead
// out of it) and whose operator library is then read from disk.
Expected<Profile, Diagnostic> load_profile(std::string_view spec, const ReadFile& read,
                                           const FileSystem* dirs = nullptr);

}  // namespace dt
