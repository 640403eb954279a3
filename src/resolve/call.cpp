#include "resolve/call.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "base/text.hpp"

namespace dt {

const std::vector<std::string_view> kLayoutWords = {"sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc",
                                                    "sparse",     "quantized",  "mkldnn",     "nested"};
const std::vector<std::string_view> kModifierWords = {"requires_grad", "inference", "conj",  "neg",
                                                      "zerotensor",    "python",    "named", "functional"};

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// The backend component a device word names: a backend's name in lower case,
// torch's "privateuseone", or PrivateUse1's renamed name.
std::optional<int> device_backend(const Profile& p, std::string_view privateuse1, std::string_view word) {
  const auto& b = p.backends();
  const auto pu1 = std::find(b.begin(), b.end(), "PrivateUse1");
  if (pu1 != b.end() && (word == "privateuseone" || (!privateuse1.empty() && word == privateuse1)))
    return static_cast<int>(pu1 - b.begin());
  for (std::size_t i = 0; i < b.size(); ++i)
    if (lower(b[i]) == word) return static_cast<int>(i);
  return std::nullopt;
}

Layout layout_of(std::string_view word) {
  if (word.starts_with("sparse_")) return Layout::SparseCsr;  // csr, csc, bsr, bsc: one key
  if (word == "sparse") return Layout::Sparse;
  if (word == "quantized") return Layout::Quantized;
  if (word == "mkldnn") return Layout::Mkldnn;
  return Layout::Nested;
}

// The name of the key a tensor of this layout on backend B has: B, SparseB, ...
std::string layout_key_name(Layout l, const std::string& backend) {
  switch (l) {
    case Layout::Strided:
      return backend;
    case Layout::Sparse:
      return "Sparse" + backend;
    case Layout::SparseCsr:
      return "SparseCsr" + backend;
    case Layout::Quantized:
      return "Quantized" + backend;
    case Layout::Mkldnn:
      return "Mkldnn" + backend;
    case Layout::Nested:
      return "NestedTensor" + backend;
  }
  return backend;
}

// "sparse_cuda" -> (Sparse, CUDA); "cuda" -> (Strided, CUDA).
bool parse_kind(const Profile& p, std::string_view privateuse1, std::string_view word, TensorArg& t) {
  if (auto b = device_backend(p, privateuse1, word)) {
    t.backend = *b;
    t.layout = Layout::Strided;
    return true;
  }
  for (std::string_view layout : kLayoutWords)
    if (word.size() > layout.size() + 1 && word.starts_with(layout) && word[layout.size()] == '_')
      if (auto b = device_backend(p, privateuse1, word.substr(layout.size() + 1))) {
        t.backend = *b;
        t.layout = layout_of(layout);
        return true;
      }
  return false;
}

bool set_modifier(std::string_view word, TensorArg& t) {
  bool* flags[] = {&t.requires_grad, &t.inference, &t.conj, &t.neg, &t.zerotensor, &t.python, &t.named, &t.functional};
  for (std::size_t i = 0; i < kModifierWords.size(); ++i)
    if (word == kModifierWords[i]) {
      *flags[i] = true;
      return true;
    }
  return false;
}

}  // namespace

std::vector<std::string> device_words(const Profile& p, std::string_view privateuse1) {
  std::vector<std::string> out;
  for (const auto& b : p.backends()) out.push_back(lower(b));
  if (std::find(p.backends().begin(), p.backends().end(), "PrivateUse1") != p.backends().end()) {
    out.emplace_back("privateuseone");
    if (!privateuse1.empty()) out.emplace_back(privateuse1);
  }
  return out;
}

Expected<TensorArg, Diagnostic> parse_tensor_words(const Profile& p, std::string_view privateuse1,
                                                    std::string_view text) {
  TensorArg t;
  t.text = std::string(text);
  bool have_kind = false;
  for (std::string_view raw : split(text, ",")) {
    const std::string_view w = trim(raw);
    if (w.empty()) return unexpected(make_error(fmt::format("empty word in '{}'", printable(text))));
    if (set_modifier(w, t)) continue;
    TensorArg kind;
    if (parse_kind(p, privateuse1, w, kind)) {
      if (have_kind)
        return unexpected(make_error(fmt::format("'{}' names two devices or layouts; one tensor has one", printable(text))));
      have_kind = true;
      t.backend = kind.backend;
      t.layout = kind.layout;
      continue;
    }
    std::vector<std::string> words = device_words(p, privateuse1);
    for (auto m : kModifierWords) words.emplace_back(m);
    for (auto l : kLayoutWords) words.push_back(std::string(l) + "_cpu");
    const std::vector<std::string_view> views(words.begin(), words.end());
    return unexpected(make_error(
        fmt::format("unknown word '{}' in '{}'{}; a tensor is [LAYOUT_]DEVICE[,MODIFIER...], e.g. "
                    "cpu, cuda,requires_grad, sparse_cpu, nested_cuda,inference",
                    printable(w), printable(text), did_you_mean(w, views))));
  }
  if (!have_kind)
    return unexpected(make_error(fmt::format("'{}' names no device (cpu, cuda, meta, sparse_cpu, ...)", printable(text))));
  return t;
}

KeySet autograd_keyset(const KeysetAlgebra& ks) {
  return ks.named("AutogradFunctionality") | ks.named("AutogradOther") | ks.named("AutogradNestedTensor");
}

Expected<KeySet, Diagnostic> tensor_keyset(const KeysetAlgebra& ks, const TensorArg& t) {
  const Profile& p = ks.profile();
  const std::string& backend = p.backends()[static_cast<std::size_t>(t.backend)];
  // 1. What the TensorImpl (sub)class hands to TensorImpl's constructor.
  const std::string key_name = layout_key_name(t.layout, backend);
  const auto key = p.find(key_name);
  if (!key || !p.is_runtime(*key))
    return unexpected(make_error(fmt::format("profile {} has no dispatch key {}: it has no such tensor ('{}')", p.name(), key_name,
                                  printable(t.text))));
  KeySet bits = p.key(*key).bits;  // a non-customisable key (MkldnnCPU, 1.13's SparseCsrCPU) has no backend bit
  if (t.layout == Layout::Nested)  // NestedTensorImpl's generate_nested_key_set
    bits |= ks.named("ADInplaceOrView") | ks.named("AutogradNestedTensor");
  if (t.functional)  // FunctionalTensorWrapper: Functionalize on the wrapped tensor's device
    bits = ks.named("Functionalize") | KeySet::bit(static_cast<unsigned>(t.backend));
  // 2. TensorImpl's constructor: the autocast key of its backend, then
  // ADInplaceOrView and the autograd key, or neither in inference mode.
  const int hb = ks.highest_backend(bits);
  for (const auto& [b, k] : p.autocast_keys())
    if (b == hb) bits |= p.key(k).bits;
  bits = ks.minus(bits, ks.named("Python") | ks.named("PythonTLSSnapshot"));
  if (t.inference) {
    bits = ks.minus(bits, autograd_keyset(ks) | ks.named("ADInplaceOrView"));
  } else {
    KeyId autograd = *p.find("AutogradOther");
    if (hb >= 0)
      if (auto dense = p.find(p.backends()[static_cast<std::size_t>(hb)]))
        autograd = p.autograd_key_for_backend_of(*dense);
    bits |= ks.named("ADInplaceOrView") | p.key(autograd).bits;
  }
  // 3. What later changes to the TensorImpl add.
  const std::pair<bool, const char*> mods[] = {{t.conj, "Conjugate"},        {t.neg, "Negative"},
                                               {t.zerotensor, "ZeroTensor"}, {t.named, "Named"},
                                               {t.python, "Python"},         {t.python, "PythonTLSSnapshot"}};
  for (const auto& [on, name] : mods) {
    if (!on || t.functional) continue;  // a functional wrapper's are the wrapped tensor's
    const KeySet b = ks.named(name);
    if (b.empty())
      return unexpected(make_error(fmt::format("profile {} has no {} key ('{}')", p.name(), name, printable(t.text))));
    bits |= b;
  }
  return bits;
}

std::optional<DispatchArgKind> dispatch_arg_kind(std::string_view type) {
  if (!type.starts_with("Tensor")) return std::nullopt;
  std::string_view rest = type.substr(6);
  if (rest.starts_with('(')) {  // an alias annotation: Tensor(a!)
    const auto close = rest.find(')');
    if (close == std::string_view::npos) return std::nullopt;
    rest = rest.substr(close + 1);
  }
  if (rest.empty()) return DispatchArgKind::Tensor;
  if (rest == "?") return DispatchArgKind::OptionalTensor;
  if (rest.starts_with('[') && rest.ends_with(']') && rest.find('[', 1) == std::string_view::npos)
    return DispatchArgKind::TensorList;
  if (rest == "?[]") return DispatchArgKind::OptionalTensorList;
  return std::nullopt;
}

namespace {

const char* kind_text(DispatchArgKind k) {
  switch (k) {
    case DispatchArgKind::Tensor:
      return "a Tensor";
    case DispatchArgKind::OptionalTensor:
      return "a Tensor?";
    case DispatchArgKind::TensorList:
      return "a Tensor[]";
    case DispatchArgKind::OptionalTensorList:
      return "a Tensor?[]";
  }
  return "a Tensor";
}

// One tensor or None; validates the key set as well.
Expected<std::optional<TensorArg>, Diagnostic> one_item(const KeysetAlgebra& ks, std::string_view privateuse1,
                                                         std::string_view text, bool none_ok, const std::string& arg) {
  if (text == "none") {
    if (!none_ok) return unexpected(make_error(fmt::format("{}: 'none' is not allowed here (not optional)", arg)));
    return std::optional<TensorArg>{};
  }
  auto t = parse_tensor_words(ks.profile(), privateuse1, text);
  if (!t) return unexpected(about(arg, std::move(t.error())));
  if (auto bits = tensor_keyset(ks, *t); !bits) return unexpected(about(arg, std::move(bits.error())));
  return std::optional<TensorArg>{std::move(*t)};
}

Expected<Ok, Diagnostic> bind_value(const KeysetAlgebra& ks, std::string_view privateuse1, BoundArgument& a) {
  const std::string who = fmt::format("argument '{}' ({})", a.name, a.type);
  const bool list = a.kind == DispatchArgKind::TensorList || a.kind == DispatchArgKind::OptionalTensorList;
  const std::string_view text = a.text;
  if (!list) {
    if (text == "[]" || text.find(';') != std::string_view::npos)
      return unexpected(make_error(fmt::format("{} is {}, not a list: '{}'", who, kind_text(a.kind), printable(text))));
    DT_TRY(item, one_item(ks, privateuse1, text, a.kind == DispatchArgKind::OptionalTensor, who));
    a.items.push_back(std::move(item));
    return Ok{};
  }
  a.list = true;
  if (text == "[]") return Ok{};
  for (std::string_view element : split(text, ";")) {
    DT_TRY(item, one_item(ks, privateuse1, trim(element), a.kind == DispatchArgKind::OptionalTensorList, who));
    a.items.push_back(std::move(item));
  }
  return Ok{};
}

}  // namespace

Expected<BoundCall, Diagnostic> bind_arguments(const KeysetAlgebra& ks, std::string_view privateuse1,
                                                const Schema* schema, const std::vector<std::string>& values,
                                                bool allow_missing) {
  BoundCall call;
  call.schema_known = schema != nullptr;
  if (schema != nullptr) {
    for (const auto& arg : schema->arguments) {
      if (auto kind = dispatch_arg_kind(arg.type))
        call.args.push_back(BoundArgument{arg.name, arg.type, *kind, {}, false, {}});
      else
        call.ignored.push_back(IgnoredArgument{arg.name, arg.type});
    }
    if (values.size() > call.args.size()) {
      std::vector<std::string> names;
      for (const auto& a : call.args) names.push_back(a.name + ": " + a.type);
      return unexpected(make_error(
          fmt::format("{} value{} for {} tensor argument{}{}", values.size(), values.size() == 1 ? "" : "s",
                      call.args.size(), call.args.size() == 1 ? "" : "s",
                      names.empty() ? std::string(" (the schema has none)") : " (" + join(names, ", ") + ")")));
    }
  } else {
    for (std::size_t i = 0; i < values.size(); ++i) {
      const bool list = values[i] == "[]" || values[i].find(';') != std::string::npos;
      const bool none = values[i] == "none";  // a None: the argument is a Tensor?
      call.args.push_back(BoundArgument{fmt::format("#{}", i + 1),
                                        list ? "Tensor?[]" : none ? "Tensor?" : "Tensor",
                                        list   ? DispatchArgKind::OptionalTensorList
                                        : none ? DispatchArgKind::OptionalTensor
                                               : DispatchArgKind::Tensor,
                                        {},
                                        false,
                                        {}});
    }
  }
  for (std::size_t i = 0; i < call.args.size(); ++i) {
    BoundArgument& a = call.args[i];
    if (i < values.size()) {
      a.text = values[i];
      DT_TRY_VOID(bind_value(ks, privateuse1, a));
    } else if (a.kind == DispatchArgKind::OptionalTensor) {
      a.items.emplace_back();  // None, as Python passes an omitted optional
    } else if (!allow_missing) {
      return unexpected(
          make_error(fmt::format("argument '{}' ({}) has no value: give one per tensor argument, in schema order ({} "
                                 "needed, {} given)",
                                 a.name, a.type, call.args.size(), values.size())));
    }
  }
  return call;
}

KeySet arguments_keyset(const KeysetAlgebra& ks, const std::vector<BoundArgument>& args) {
  KeySet out;
  for (const auto& a : args)
    for (const auto& item : a.items)
      if (item)
        if (auto bits = tensor_keyset(ks, *item)) out |= *bits;  // bind_arguments validated it
  return out;
}

Expected<ThreadLocalState, TlsError> make_tls(const KeysetAlgebra& ks, std::string_view privateuse1,
                                              const TlsOptions& o) {
  const Profile& p = ks.profile();
  ThreadLocalState s;
  // c10::impl::LocalDispatchKeySet's defaults (DispatchKeySet.h default_included_set / default_excluded_set).
  s.included = ks.named("BackendSelect") | ks.named("ADInplaceOrView");
  for (const auto& [b, k] : p.autocast_keys()) s.excluded |= p.key(k).bits;
  if (o.no_grad) s.grad_mode = false;
  if (o.inference_mode) {  // c10::InferenceMode
    s.included = ks.minus(s.included, ks.named("ADInplaceOrView"));
    s.excluded |= autograd_keyset(ks);
    s.grad_mode = false;
    s.inference_mode = true;
  }
  for (const auto& device : o.autocast) {  // torch.autocast(device): its key leaves the excluded set
    const auto b = device_backend(p, privateuse1, device);
    KeySet key;
    if (b)
      for (const auto& [backend, k] : p.autocast_keys())
        if (backend == *b) key = p.key(k).bits;
    if (key.empty()) {
      std::vector<std::string> known;
      for (const auto& [backend, k] : p.autocast_keys())
        known.push_back(lower(p.backends()[static_cast<std::size_t>(backend)]));
      return unexpected(TlsError{TlsError::Field::Autocast,
                                 make_error(fmt::format("profile {} has no autocast key for '{}' (devices: {})",
                                                        p.name(), printable(device), join(known, ", ")))});
    }
    s.excluded = ks.minus(s.excluded, key);
  }
  if (o.python_mode) {  // a TorchDispatchMode pushed: Python and PythonTLSSnapshot included
    s.included |= ks.named("Python") | ks.named("PythonTLSSnapshot");
    s.python_mode = true;
  }
  for (const auto& [field, values, target] : {std::tuple{TlsError::Field::Include, &o.include, &s.included},
                                              std::tuple{TlsError::Field::Exclude, &o.exclude, &s.excluded}})
    for (const auto& v : *values) {
      auto bits = ks.parse(v, privateuse1);
      if (!bits) return unexpected(TlsError{field, std::move(bits.error())});
      *target |= *bits;
    }
  return s;
}

}  // namespace dt
