// read_native_yaml (native_yaml.hpp): torchgen's rules, one step at a time.
//   1. Each entry as NativeFunction.from_yaml reads it (torchgen/model.py):
//      its schema's kind (functional, inplace, out, mutable, scratch), its
//      dispatch table (comma-separated keys; CompositeImplicitAutograd when
//      there is none and the function is neither structured nor delegated;
//      CPU and CUDA for a ufunc_inner_loop), structured / structured_delegate,
//      manual_kernel_registration, autogen, tags.
//   2. The operators autogen names (native_function_generation.py
//      add_generated_native_functions): a CompositeExplicitAutograd kernel each.
//   3. For each dispatch key, what RegisterDispatchKey emits
//      (dest/register_dispatch_key.py): a structured group (an out= function
//      with `structured: True` and the functions delegating to it) registers
//      all its functions on Meta, all but the out= one on
//      CompositeExplicitAutogradNonFunctional, and all on a key where the
//      out= function has a structured kernel (CPU, CUDA, MPS, XPU, MTIA);
//      elsewhere each function registers where its own dispatch table has
//      the key; an in-place function with one return and no composite
//      kernel also gets a Meta kernel. manual_kernel_registration: none.
//   4. BackendSelect (gen.py needs_backend_select): functions with
//      TensorOptions arguments, but neither new_* nor *_like.
#include "readers/native_yaml.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>

#include "base/text.hpp"
#include "readers/yaml_tree.hpp"

namespace dt {

namespace {

// torchgen/model.py dispatch_keys, in its order, then BackendSelect.
constexpr std::array<std::string_view, 31> kTorchgenKeys = {
    "CPU", "SparseCPU", "SparseCsrCPU", "MkldnnCPU", "CUDA", "MPS", "XPU", "SparseXPU", "SparseCsrXPU",
    "SparseCUDA", "SparseCsrCUDA", "SparseMPS", "SparseCsrMPS", "QuantizedCPU", "QuantizedCUDA",
    "CompositeImplicitAutograd", "CompositeImplicitAutogradNestedTensor", "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional", "NestedTensorCPU", "NestedTensorCUDA", "NestedTensorXPU",
    "NestedTensorHPU", "Meta", "SparseMeta", "SparseCsrMeta", "QuantizedMeta", "NestedTensorMeta",
    "ZeroTensor", "MTIA", "BackendSelect"};
static_assert(kTorchgenKeys.size() <= 32, "a Fn's dispatch table is a 32-bit mask of these keys");

// The index of `key` in kTorchgenKeys (kTorchgenKeys.size(): not there).
constexpr std::size_t key_index(std::string_view key) {
  for (std::size_t i = 0; i < kTorchgenKeys.size(); ++i)
    if (kTorchgenKeys[i] == key) return i;
  return kTorchgenKeys.size();
}

}  // namespace

const std::vector<std::string_view>& torchgen_dispatch_keys() {
  static const std::vector<std::string_view> keys(kTorchgenKeys.begin(), kTorchgenKeys.end());
  return keys;
}

namespace {

constexpr std::string_view kCIA = "CompositeImplicitAutograd";
constexpr std::string_view kCEA = "CompositeExplicitAutograd";
constexpr std::string_view kCEANF = "CompositeExplicitAutogradNonFunctional";
constexpr std::size_t kCIAi = key_index(kCIA), kCEAi = key_index(kCEA), kCEANFi = key_index(kCEANF);
constexpr std::size_t kMetai = key_index("Meta"), kBackendSelecti = key_index("BackendSelect");
constexpr std::size_t kCPUi = key_index("CPU"), kCUDAi = key_index("CUDA");
// The keys a structured kernel registers on (CPU, CUDA, MPS, XPU, MTIA).
constexpr std::array kStructuredKeys = {key_index("CPU"), key_index("CUDA"), key_index("MPS"), key_index("XPU"),
                                        key_index("MTIA")};

constexpr std::uint32_t bit(std::size_t key) { return std::uint32_t{1} << key; }

bool structured_key(std::size_t k) {
  return std::find(kStructuredKeys.begin(), kStructuredKeys.end(), k) != kStructuredKeys.end();
}

// The keys of kTorchgenKeys a dispatch table may name with this profile
// (torchgen's dispatch keys the profile has; not BackendSelect).
std::uint32_t allowed_keys(const Profile& profile) {
  std::uint32_t mask = 0;
  for (std::size_t i = 0; i < kTorchgenKeys.size(); ++i)
    if (i != kBackendSelecti && profile.find(kTorchgenKeys[i])) mask |= bit(i);
  return mask;
}

// A namespace and a name (or signature) as one hash-map key, without
// building "ns::name": views into the functions read.
using NsName = std::pair<std::string_view, std::string_view>;
struct NsNameHash {
  std::size_t operator()(const NsName& k) const {
    const std::size_t a = std::hash<std::string_view>{}(k.first);
    return a ^ (std::hash<std::string_view>{}(k.second) + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  }
};

struct Fn {
  NativeSchema s;
  std::string_view schema;                            // in the YamlDoc
  Location at;                                        // the entry
  Location func_at;                                   // func:'s value
  std::uint32_t keys = 0;                             // the dispatch table: bits of kTorchgenKeys
  std::vector<std::pair<std::uint8_t, Location>> dispatch;  // key (index) -> where, in the order read
  bool structured = false;
  bool manual = false;
  bool manual_cpp_binding = false;
  std::string_view delegate;                          // in the YamlDoc
  Location delegate_at;
  std::vector<std::pair<std::string, Location>> autogen;
  std::vector<std::string> tags;
  Location tags_at;
  [[nodiscard]] bool has(std::size_t k) const { return (keys & bit(k)) != 0; }
  // Where the dispatch table names key `k` (has(k) first).
  [[nodiscard]] const Location& where(std::size_t k) const {
    for (const auto& [key, key_at] : dispatch)
      if (key == k) return key_at;
    return func_at;
  }
  // The first of a key wins (a std::map's emplace: torchgen reads a dict).
  void add_key(std::size_t k, const Location& where) {
    if (has(k)) return;
    keys |= bit(k);
    dispatch.emplace_back(static_cast<std::uint8_t>(k), where);
  }
  [[nodiscard]] bool has_composite() const { return has(kCIAi) || has(kCEAi) || has(kCEANFi); }
  [[nodiscard]] bool has_tag(std::string_view t) const { return std::find(tags.begin(), tags.end(), t) != tags.end(); }
  // model.py NativeFunction.is_view_op.
  [[nodiscard]] bool is_view_op() const {
    return s.view_return || s.wildcard ||
           (has_tag("inplace_view") && s.name != "resize_" && s.name != "resize_as_");
  }
};


// A scalar's text (strings, and plain numbers or booleans as written).
const std::string_view* scalar(const YamlNode* n) {
  return n != nullptr && n->kind == YamlNode::Kind::Scalar ? &n->value : nullptr;
}

// The fields of an entry (model.py NativeFunction.from_yaml pops these);
// those read here have a slot in Fields.
enum class Field : std::uint8_t {
  Func, Structured, ManualKernel, ManualCpp, Delegate, Tags, Dispatch, Ufunc, Autogen,
  Other  // known, not read here
};
constexpr std::array<std::pair<std::string_view, Field>, 18> kFields = {{
    {"func", Field::Func},
    {"use_const_ref_for_mutable_tensors", Field::Other},
    {"variants", Field::Other},
    {"manual_kernel_registration", Field::ManualKernel},
    {"manual_cpp_binding", Field::ManualCpp},
    {"python_module", Field::Other},
    {"category_override", Field::Other},
    {"device_guard", Field::Other},
    {"device_check", Field::Other},
    {"structured", Field::Structured},
    {"structured_delegate", Field::Delegate},
    {"structured_inherits", Field::Other},
    {"precomputed", Field::Other},
    {"cpp_no_default_args", Field::Other},
    {"dispatch", Field::Dispatch},
    {"autogen", Field::Autogen},
    {"ufunc_inner_loop", Field::Ufunc},
    {"tags", Field::Tags},
}};

// One entry of the file's top-level list; `allowed`: allowed_keys(profile).
Expected<Fn, Diagnostic> read_entry(const Profile& profile, std::uint32_t allowed, const YamlDoc& doc,
                                    const YamlNode& e) {
  Fn f;
  f.at = doc.where(e);
  if (e.kind != YamlNode::Kind::Mapping) return fail(f.at, "a native_functions.yaml entry must be a mapping (func: ..., dispatch: ...)");
  // One pass over the keys: each field's value (the first, as YamlDoc::get).
  std::array<const YamlNode*, static_cast<std::size_t>(Field::Other)> field{};
  for (std::size_t i = 0; i + 1 < e.items.size(); i += 2) {
    const YamlNode& k = doc.at(e.items[i]);
    const auto* known = k.kind == YamlNode::Kind::Scalar
                            ? std::find_if(kFields.begin(), kFields.end(), [&](const auto& p) { return p.first == k.value; })
                            : kFields.end();
    if (known == kFields.end())
      return fail(doc.where(k), fmt::format("unknown field '{}' in a native_functions.yaml entry (torchgen/model.py "
                                            "NativeFunction.from_yaml: \"leftover entries\")",
                                            k.kind == YamlNode::Kind::Scalar ? k.value : std::string_view("?")));
    if (known->second != Field::Other && field[static_cast<std::size_t>(known->second)] == nullptr)
      field[static_cast<std::size_t>(known->second)] = &doc.at(e.items[i + 1]);
  }
  auto get = [&](Field which) { return field[static_cast<std::size_t>(which)]; };
  const YamlNode* func = get(Field::Func);
  if (scalar(func) == nullptr) return fail(f.at, "entry without 'func: SCHEMA'");
  f.schema = func->value;
  f.func_at = doc.where(*func);
  auto s = analyse_native_schema(f.schema);
  if (!s) return fail(f.func_at, fmt::format("malformed schema: {}", s.error().message));
  f.s = std::move(*s);
  auto flag = [&](Field which, std::string_view name, bool& out) -> Expected<Ok, Diagnostic> {
    if (const YamlNode* n = get(which)) {
      auto b = YamlDoc::as_bool(*n);
      if (!b) return fail(doc.where(*n), fmt::format("'{}' must be True or False", name));
      out = *b;
    }
    return Ok{};
  };
  DT_TRY_VOID(flag(Field::Structured, "structured", f.structured));
  DT_TRY_VOID(flag(Field::ManualKernel, "manual_kernel_registration", f.manual));
  DT_TRY_VOID(flag(Field::ManualCpp, "manual_cpp_binding", f.manual_cpp_binding));
  if (const YamlNode* d = get(Field::Delegate)) {
    if (scalar(d) == nullptr) return fail(doc.where(*d), "'structured_delegate' must be an operator name");
    f.delegate = d->value, f.delegate_at = doc.where(*d);
  }
  if (const YamlNode* t = get(Field::Tags)) {
    f.tags_at = doc.where(*t);
    std::vector<const YamlNode*> names;
    if (t->kind == YamlNode::Kind::Scalar) names.push_back(t);
    else if (t->kind == YamlNode::Kind::Sequence) for (std::uint32_t i : t->items) names.push_back(&doc.at(i));
    for (const YamlNode* n : names) {
      if (scalar(n) == nullptr) return fail(doc.where(*n), "a tag must be a name");
      if (auto ok = profile.check_tag(n->value); !ok) {
        Diagnostic d = std::move(ok.error());
        d.where = doc.where(*n);
        return unexpected(std::move(d));
      }
      f.tags.emplace_back(n->value);
    }
  }
  const YamlNode* dispatch = get(Field::Dispatch);
  if (dispatch != nullptr && !YamlDoc::is_null(*dispatch)) {
    if (dispatch->kind != YamlNode::Kind::Mapping) return fail(doc.where(*dispatch), "'dispatch' must be a mapping KEY: kernel");
    f.dispatch.reserve(dispatch->items.size() / 2);
    for (std::size_t i = 0; i + 1 < dispatch->items.size(); i += 2) {
      const YamlNode& ks = doc.at(dispatch->items[i]);
      const YamlNode& v = doc.at(dispatch->items[i + 1]);
      if (ks.kind != YamlNode::Kind::Scalar || v.kind != YamlNode::Kind::Scalar)
        return fail(doc.where(ks), "a dispatch entry must be 'KEY[, KEY...]: kernel'");
      std::size_t pos = 0;
      while (pos <= ks.value.size()) {
        const std::size_t comma = std::min(ks.value.find(',', pos), ks.value.size());
        const std::string_view key = trim(ks.value.substr(pos, comma - pos), " \t");
        const std::size_t k = key_index(key);
        if (k == kTorchgenKeys.size() || (allowed & bit(k)) == 0) {
          Location key_at{doc.file(), ks.line, static_cast<std::uint32_t>(ks.column + pos)};
          return fail(key_at, fmt::format("unknown dispatch key '{}' for native_functions.yaml (torchgen/model.py "
                                          "dispatch_keys)",
                                          key));
        }
        f.add_key(k, doc.where(v));
        pos = comma + 1;
      }
    }
  } else if (!f.structured && f.delegate.empty()) {
    f.add_key(kCIAi, f.func_at);
  }
  if (const YamlNode* u = get(Field::Ufunc)) {
    if (!f.structured) return fail(doc.where(*u), "ufunc must be structured");
    f.add_key(kCPUi, doc.where(*u));
    f.add_key(kCUDAi, doc.where(*u));
  }
  if (const YamlNode* a = get(Field::Autogen)) {
    if (scalar(a) == nullptr) return fail(doc.where(*a), "autogen is not a str");
    std::size_t pos = 0;
    const std::string_view v = a->value;
    while (!v.empty() && pos <= v.size()) {
      const std::size_t comma = std::min(v.find(", ", pos), v.size());
      f.autogen.emplace_back(std::string(v.substr(pos, comma - pos)),
                             Location{doc.file(), a->line, static_cast<std::uint32_t>(a->column + pos)});
      pos = comma + 2;
    }
  }
  return f;
}

Diagnostic warning_at(Location at, std::string msg) {
  Diagnostic d = make_error(std::move(at), std::move(msg));
  d.severity = Severity::Warning;
  return d;
}

// native_function_generation.py add_generated_native_functions: which of
// the autogen names torchgen generates (with a CompositeExplicitAutograd
// kernel each), per function. Functions group by signature; a group of
// manual_cpp_binding functions, with a view, or all CompositeImplicitAutograd
// (unless tagged core) generates nothing; an out= function is generated
// where the group has none, a functional one where it has none.
std::vector<std::vector<std::pair<std::string, Location>>> generated_functions(const std::vector<Fn>& fns) {
  std::vector<std::vector<std::pair<std::string, Location>>> generated(fns.size());
  {
    // Each group decides for its own functions only: the groups' order does not matter.
    std::unordered_map<NsName, std::vector<std::size_t>, NsNameHash> groups;
    groups.reserve(fns.size());
    for (std::size_t i = 0; i < fns.size(); ++i) groups[NsName(fns[i].s.ns, fns[i].s.signature)].push_back(i);
    for (const auto& [sig, d] : groups) {
      bool manual = true, view = false, cia = true, core = false, has_out = false, has_functional = false;
      for (std::size_t i : d) {
        const Fn& f = fns[i];
        manual = manual && f.manual_cpp_binding;
        view = view || (f.is_view_op() && f.s.name != "set_" && !f.s.name.starts_with("set_."));
        cia = cia && f.has(kCIAi);
        core = core || f.has_tag("core");
        has_out = has_out || f.s.kind == SchemaKind::Out;
        has_functional = has_functional || f.s.kind == SchemaKind::Functional;
      }
      if (manual || view || (cia && !core) || (has_out && d.size() == 1)) continue;
      // Only the base function's autogen counts: the mutable one, else the
      // in-place one, else out=, else the functional one.
      std::size_t base = d.front();
      for (SchemaKind k : {SchemaKind::Functional, SchemaKind::Out, SchemaKind::Inplace, SchemaKind::Mutable})
        for (std::size_t i : d)
          if (fns[i].s.kind == k) base = i;
      for (std::size_t i : {base})
        for (const auto& [name, at] : fns[i].autogen) {
          const std::string_view overload = std::string_view(name).substr(std::min(name.find('.'), name.size()));
          const bool out_name = overload == ".out" || overload.ends_with("_out");
          if (out_name ? !has_out : !has_functional) generated[i].emplace_back(name, at);
        }
    }
  }
  return generated;
}

}  // namespace

Expected<std::vector<NativeFunctionInfo>, Diagnostic> read_native_functions(const Profile& profile, FileName file,
                                                                             std::string_view text) {
  DT_TRY(doc, parse_yaml(file, text));
  std::vector<NativeFunctionInfo> out;
  if (doc.root().kind != YamlNode::Kind::Sequence) return out;
  std::vector<Fn> fns;
  fns.reserve(doc.root().items.size());
  const std::uint32_t allowed = allowed_keys(profile);
  for (std::uint32_t i : doc.root().items) {
    DT_TRY(f, read_entry(profile, allowed, doc, doc.at(i)));
    fns.push_back(std::move(f));
  }
  const auto generated = generated_functions(fns);
  for (std::size_t i = 0; i < fns.size(); ++i) {
    Fn* f = &fns[i];
    for (const auto& [name, at] : generated[i]) {
      NativeFunctionInfo g{f->s, false, false};
      g.s.name = name;
      const std::string_view overload = std::string_view(name).substr(std::min(name.find('.'), name.size()));
      g.s.kind = overload == ".out" || overload.ends_with("_out") ? SchemaKind::Out : SchemaKind::Functional;
      out.push_back(std::move(g));
    }
    out.push_back(NativeFunctionInfo{std::move(f->s), f->manual, f->has(kCIAi)});
  }
  return out;
}

namespace {

// read_native_yaml's phases, in torchgen's order (gen.py parse_native_yaml,
// then the codegen per key): the entries read, the structured groups, the
// (operator, key) registrations, and the library block they are written to.

// Phase 1: every entry, each operator declared once.
struct Functions {
  std::vector<Fn> fns;
  // Looked up only (never iterated): a hash map. (fns is reserved: the views
  // into its names stay valid.)
  std::unordered_map<NsName, std::size_t, NsNameHash> by_name;
};

Expected<Functions, Diagnostic> read_functions(const Profile& profile, const YamlDoc& doc) {
  const YamlNode& root = doc.root();
  Functions out;
  out.fns.reserve(root.items.size());
  out.by_name.reserve(root.items.size());
  const std::uint32_t allowed = allowed_keys(profile);
  for (std::uint32_t i : root.items) {
    DT_TRY(f, read_entry(profile, allowed, doc, doc.at(i)));
    out.fns.push_back(std::move(f));
    const NativeSchema& s = out.fns.back().s;
    if (auto [it, added] = out.by_name.emplace(NsName(s.ns, s.name), out.fns.size() - 1); !added)
      return fail(out.fns.back().func_at, fmt::format("operator {} is declared twice (first at line {})", s.qualified(),
                                                      out.fns[it->second].func_at.line));
  }
  return out;
}

// Phase 2: the structured groups, the out= function and those delegating to
// it: for each function, the index of its group's out= function (SIZE_MAX: none).
Expected<std::vector<std::size_t>, Diagnostic> structured_groups(const Functions& in) {
  const std::vector<Fn>& fns = in.fns;
  std::vector<std::size_t> group_of(fns.size(), SIZE_MAX);
  for (std::size_t i = 0; i < fns.size(); ++i) {
    if (fns[i].structured) {
      if (fns[i].s.kind != SchemaKind::Out)
        return fail(fns[i].func_at, "'structured: True' is for out= functions; the others name it in structured_delegate");
      group_of[i] = i;
    }
  }
  for (std::size_t i = 0; i < fns.size(); ++i) {
    if (fns[i].delegate.empty()) continue;
    // "name" is in the function's own namespace; "ns::name" as written.
    const std::string_view d = fns[i].delegate;
    const std::size_t sep = d.find("::");
    auto it = in.by_name.find(sep == std::string_view::npos ? NsName(fns[i].s.ns, d)
                                                            : NsName(d.substr(0, sep), d.substr(sep + 2)));
    if (it == in.by_name.end() || !fns[it->second].structured)
      return fail(fns[i].delegate_at, fmt::format("structured_delegate '{}' is no structured out= function of this file",
                                                  fns[i].delegate));
    for (std::size_t k : kStructuredKeys)
      if (fns[i].has(k))
        return fail(fns[i].where(k), fmt::format("if structured_delegate, then must not have {} in dispatch dictionary "
                                                 "(it is delegated!)",
                                                 kTorchgenKeys[k]));
    group_of[i] = it->second;
  }
  return group_of;
}

// Phase 3: the registrations torchgen generates, function by function, key by
// key in its order, each located where the yaml says it; only on `enabled`
// keys (a mask of kTorchgenKeys).
class Registrations {
 public:
  Registrations(const std::vector<Fn>& fns, const std::vector<std::size_t>& group_of, std::uint32_t enabled)
      : fns_(fns), group_of_(group_of), enabled_(enabled) {}

  // add(key index, where) for each registration of function i.
  template <class Add>
  void each(std::size_t i, Add&& add) const {
    const Fn& f = fns_[i];
    for (std::size_t key = 0; key < kTorchgenKeys.size(); ++key) {
      if ((enabled_ & bit(key)) == 0) continue;
      if (key == kBackendSelecti) {
        if (f.s.tensor_options && !f.s.base.starts_with("new_") && !f.s.base.ends_with("_like")) add(key, f.func_at);
        continue;
      }
      if (group_of_[i] != SIZE_MAX) {
        const Fn& o = fns_[group_of_[i]];
        if (key == kMetai) { add(key, f.func_at); continue; }
        if (key == kCEANFi) { if (f.s.kind != SchemaKind::Out) add(key, f.func_at); continue; }
        if (o.has(key) && structured_key(key)) { add(key, o.where(key)); continue; }
      }
      if (f.manual) continue;
      if (f.has(key)) add(key, f.where(key));
      else if (key == kMetai && f.s.kind == SchemaKind::Inplace && !f.has_composite() && f.s.returns == 1)
        add(key, f.func_at);
    }
  }

 private:
  const std::vector<Fn>& fns_;
  const std::vector<std::size_t>& group_of_;
  std::uint32_t enabled_;
};

}  // namespace

namespace {

// The tags RegisterSchema.cpp defines a function with (model.py
// NativeFunction.from_yaml): its own, and those every aten function, out=
// function and in-place function receives where the release's tags.yaml has
// them (2.14's has all three, 2.6's only pt2_compliant_tag), sorted.
std::vector<std::string> schema_tags(const Profile& profile, const Fn& f) {
  std::vector<std::string> tags = f.tags;
  auto implied = [&](bool applies, std::string_view tag) {
    if (!applies) return;
    for (const TagInfo& t : profile.tags())
      if (t.name == tag) tags.emplace_back(tag);
  };
  implied(f.s.ns == "aten", "pt2_compliant_tag");
  implied(f.s.kind == SchemaKind::Out || f.s.kind == SchemaKind::Scratch, "out");
  implied(f.s.kind == SchemaKind::Inplace, "inplace");
  std::sort(tags.begin(), tags.end());
  tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
  return tags;
}

}  // namespace

Expected<Blocks, Diagnostic> read_native_yaml(const Profile& profile, FileName file, std::string_view text,
                                              const NativeYamlOptions& options) {
  DT_TRY(doc, parse_yaml(file, text));
  const YamlNode& root = doc.root();
  Blocks out;
  if (YamlDoc::is_null(root)) return out;
  if (root.kind != YamlNode::Kind::Sequence)
    return fail(doc.where(root),
                root.kind == YamlNode::Kind::Mapping && doc.get(root, "official") != nullptr
                    ? "this is op-plugin's op_plugin_functions.yaml (official: ..., for every release at once): "
                      "torch_npu's codegen keeps a release's entries and merges them into its backend yaml "
                      "(backend: NPU); read that merged npu_native_functions_by_codegen.yaml, or torch_npu's "
                      "npu_native_functions.yaml"
                    : "native_functions.yaml must be a list of entries (- func: ...)");
  DT_TRY(functions, read_functions(profile, doc));
  const std::vector<Fn>& fns = functions.fns;
  DT_TRY(group_of, structured_groups(functions));
  const auto generated = generated_functions(fns);
  auto wanted = [&](std::string_view key) {
    return options.keys.empty() || std::find(options.keys.begin(), options.keys.end(), key) != options.keys.end();
  };
  // The keys registrations are generated for (wanted, and in the profile).
  std::uint32_t enabled = 0;
  for (std::size_t key = 0; key < kTorchgenKeys.size(); ++key)
    if (wanted(kTorchgenKeys[key]) && profile.find(kTorchgenKeys[key])) enabled |= bit(key);
  const Registrations registrations(fns, group_of, enabled);

  // Phase 4: the blocks torchgen writes, one per namespace in the order
  // first met, aten's first (gen.py get_native_function_schema_registrations:
  // RegisterSchema.cpp's TORCH_LIBRARY(NS) for a namespace of its own, a
  // FRAGMENT for aten and model.py's FRAGMENT_NAMESPACES; Register<KEY>.cpp's
  // TORCH_LIBRARY_IMPL(NS, KEY)), each with its definitions where asked for
  // and each function's registrations and those of the operators it autogens.
  std::vector<TomlBlock> blocks(1);
  std::unordered_map<std::string_view, std::size_t> namespaces{{"aten", 0}};  // -> its block
  blocks[0].at = doc.where(root);
  blocks[0].add("namespace", "aten", blocks[0].at);
  blocks[0].add("kind", "FRAGMENT", blocks[0].at);
  blocks[0].entries.reserve(fns.size() * 4);  // 2.14's native_functions.yaml: 3.5 per function
  auto block_of = [&](const Fn& f) -> TomlBlock& {
    if (f.s.ns == "aten") return blocks[0];  // every function of PyTorch's own yaml
    const auto [it, fresh] = namespaces.emplace(f.s.ns, blocks.size());
    if (!fresh) return blocks[it->second];
    const bool fragment = !options.keys.empty() || f.s.ns == "quantized" || f.s.ns == "quantized_decomposed";
    TomlBlock& block = blocks.emplace_back();
    block.at = f.at;
    block.add("namespace", f.s.ns, f.func_at);
    block.add("kind", fragment ? "FRAGMENT" : "DEF", f.at);
    return block;
  };
  // The debug string: "registered at FILE:LINE" of the yaml line. Reading
  // the file itself, that is the contract's default for an empty kernel (the
  // entry's own location, which the loader maps back to the yaml: a string
  // naming the yaml's line would be taken for a line of the translation).
  auto debug = [&](const Location& at) {
    return options.debug_file.empty() ? std::string{} : fmt::format("registered at {}:{}", options.debug_file, at.line);
  };
  // Which functions get a [[def]]: none when only some keys' registrations
  // are asked for (a build's); aten's where the library lacks them.
  auto defines = [&](const Fn& f) {
    if (!options.keys.empty()) return false;
    if (options.define_aten || f.s.ns != "aten") return true;
    return options.in_library && !options.in_library(f.s.qualified(), {});
  };
  for (std::size_t i = 0; i < fns.size(); ++i) {
    const Fn& f = fns[i];
    TomlBlock& block = block_of(f);
    const bool defined_here = defines(f);
    if (defined_here) {
      TomlEntry d{"def", {}, f.at, {}};
      d.add("schema", std::string(f.schema), f.func_at);
      if (auto tags = schema_tags(profile, f); !tags.empty()) d.add("tags", std::move(tags), f.tags_at);
      if (!options.debug_file.empty()) d.add("debug", debug(f.func_at), f.func_at);
      block.entries.push_back(std::move(d));
    }
    const std::string op = f.s.qualified();
    registrations.each(i, [&](std::size_t key, const Location& at) {
      TomlEntry& e = block.entries.emplace_back(TomlEntry{"impl", {}, at, {}});
      e.fields.reserve(3);
      e.add("op", op, f.func_at);
      e.add("key", std::string(kTorchgenKeys[key]), at);
      e.add("kernel", debug(at), at);
    });
    // native_function_generation.py: each operator autogen names gets a
    // CompositeExplicitAutograd kernel; its schema torchgen derives from this
    // one's, which dispatchtool does not: defined only where the library has it.
    if (wanted(kCEA) && profile.find(kCEA)) {
      for (const auto& [name, at] : generated[i]) {
        TomlEntry e{"impl", {}, at, "autogen"};
        e.fields.reserve(3);
        e.add("op", f.s.ns + "::" + name, at);
        e.add("key", std::string(kCEA), at);
        e.add("kernel", debug(at), at);
        block.entries.push_back(std::move(e));
      }
    }
    if (!f.autogen.empty() && defined_here)
      out.warnings.push_back(warning_at(f.autogen.front().second,
                                        fmt::format("autogen: the schemas torchgen derives for {} "
                                                    "(native_function_generation.py) are not read; define them in TOML",
                                                    f.autogen.size() == 1 ? f.autogen.front().first : "these operators")));
  }
  // aten's block, empty in a file of other namespaces only, is left out.
  for (std::size_t b = blocks.size() > 1 && blocks[0].entries.empty() ? 1 : 0; b < blocks.size(); ++b)
    out.blocks.push_back(std::move(blocks[b]));
  return out;
}

}  // namespace dt
