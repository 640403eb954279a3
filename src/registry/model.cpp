#include "registry/model.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/limits.hpp"
#include "base/operator_name.hpp"
#include "base/text.hpp"
#include "registry/library.hpp"

namespace dt {

const char* to_string(LibraryKind k) {
  switch (k) {
    case LibraryKind::Def:
      return "DEF";
    case LibraryKind::Impl:
      return "IMPL";
    case LibraryKind::Fragment:
      return "FRAGMENT";
  }
  return "FRAGMENT";
}

std::string readable_debug(std::string_view debug) {
  constexpr std::string_view prefix = "registered at <src>/", suffix = ":<n>";
  if (!debug.starts_with(prefix)) return std::string(debug);
  std::string_view path = debug.substr(prefix.size());
  if (path.ends_with(suffix)) path.remove_suffix(suffix.size());
  return fmt::format("PyTorch's own fallback ({})", path);
}

bool register_autograd_takes(const Schema& s, bool views) {
  // Tensor, not Tensor? or Tensor[] (what custom_ops.py counts as one Tensor).
  const auto plain_tensor = [](const SchemaArgument& a) {
    return a.type.starts_with("Tensor") && !a.type.ends_with("?") && !a.type.ends_with("]");
  };
  const auto written = [](const SchemaArgument& a) { return a.type.find("!)") != std::string::npos; };
  const auto view = [&](const SchemaArgument& a) { return a.type.find('(') != std::string::npos && !written(a); };
  if (s.returns.empty() || std::any_of(s.arguments.begin(), s.arguments.end(), written)) return false;
  if (std::none_of(s.returns.begin(), s.returns.end(), view)) return true;
  return views && std::count_if(s.arguments.begin(), s.arguments.end(), plain_tensor) == 1 &&
         std::count_if(s.returns.begin(), s.returns.end(), plain_tensor) == 1;
}

std::string custom_op_text(std::string text, const Operator& op) {
  const std::string_view name = op.name;
  std::string overload = replace_all(std::string(name), "::", ".");
  if (OperatorName::without_overload(name) == name) overload += ".default";
  text = replace_all(std::move(text), "{op}", OperatorName::without_overload(name));
  text = replace_all(std::move(text), "{function}", op.def ? op.def->custom_op_function : std::string());
  return replace_all(std::move(text), "{overload}", overload);
}

const char* macro_name(LibraryKind k) {
  switch (k) {
    case LibraryKind::Def:
      return "TORCH_LIBRARY";
    case LibraryKind::Impl:
      return "TORCH_LIBRARY_IMPL";
    case LibraryKind::Fragment:
      return "TORCH_LIBRARY_FRAGMENT";
  }
  return "TORCH_LIBRARY_FRAGMENT";
}

const char* to_string(AliasAnalysis a) {
  switch (a) {
    case AliasAnalysis::FromSchema:
      return "FROM_SCHEMA";
    case AliasAnalysis::Conservative:
      return "CONSERVATIVE";
    case AliasAnalysis::PureFunction:
      return "PURE_FUNCTION";
    case AliasAnalysis::ConservativeDefault:
      return "CONSERVATIVE (default)";
  }
  return "FROM_SCHEMA";
}

const Kernel* Operator::get(KeyId k) const {
  const auto* v = all(k);
  return (v == nullptr || v->empty()) ? nullptr : &v->front();
}

const KernelStack* Operator::all(KeyId k) const {
  auto it =
      std::lower_bound(kernels.begin(), kernels.end(), k, [](const KeyKernels& kk, KeyId key) { return kk.key < key; });
  return (it == kernels.end() || it->key != k) ? nullptr : &it->kernels;
}

Registry::Registry(const Profile& profile) : profile_(&profile), fallbacks_(profile.runtime_keys().size()) {
  for (const auto& f : profile.fallbacks())
    fallbacks_[static_cast<std::size_t>(profile.key(f.key).slot)] =
        Fallback{f.key, f.debug, f.fallthrough, true, f.where, {}, 0, false, {}};
}

Registry::Registry(const Profile& profile, std::shared_ptr<const OpLibrary> library) : Registry(profile) {
  library_ = std::move(library);
  if (!library_) return;
  for (const Library& lib : library_->libraries()) add_library(lib);
  // PyTorch's registrations come first: the inputs' are numbered after them.
  seq_ = library_->kernel_count();
}

std::uint32_t Registry::add_library(Library lib) {
  const auto index = static_cast<std::uint32_t>(libraries_.size());
  if (lib.kind == LibraryKind::Def) def_libraries_.try_emplace(lib.ns, index);
  libraries_.push_back(std::move(lib));
  return index;
}

const Library* Registry::def_library(const std::string& ns) const {
  const auto it = def_libraries_.find(ns);
  return it == def_libraries_.end() ? nullptr : &libraries_[it->second];
}

Operator& Registry::add_operator(std::string_view name) {
  index_.emplace(std::string(name), static_cast<std::uint32_t>(ops_.size()));
  last_ = static_cast<std::uint32_t>(ops_.size());
  Operator& op = ops_.emplace_back();
  op.name = std::string(name);
  return op;
}

Operator& Registry::materialize(std::size_t library_index) {
  Operator& op = add_operator(library_->name(library_index));
  library_->materialize(library_index, op);
  return op;
}

Operator& Registry::entry(const std::string& name, const Location& where) {
  // Registrations come in runs for one operator: check the last one first.
  if (last_ != UINT32_MAX && ops_[last_].name == name) return ops_[last_];
  if (auto it = index_.find(name); it != index_.end()) {
    last_ = it->second;
    return ops_[it->second];
  }
  if (library_)
    if (auto i = library_->find(name)) return materialize(*i);
  Operator& op = add_operator(name);
  op.first_seen = where;
  return op;
}

const Operator* Registry::find(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? nullptr : &ops_[it->second];
}

const Operator* Registry::materialize(std::string_view name) {
  if (const Operator* op = find(name)) return op;
  if (!library_) return nullptr;
  auto i = library_->find(name);
  return i ? &materialize(*i) : nullptr;
}

void Registry::materialize_all() {
  if (!library_) return;
  for (std::size_t i = 0; i < library_->size(); ++i)
    if (find(library_->name(i)) == nullptr) materialize(i);
}

std::vector<std::string_view> Registry::names(bool defined_only) const {
  std::vector<std::string_view> out;
  out.reserve(ops_.size() + (library_ ? library_->size() : 0));
  for (const Operator& op : ops_)
    if (!defined_only || op.def) out.emplace_back(op.name);
  // A library operator the files touched is in ops_ (with its state now).
  if (library_)
    for (std::size_t i = 0; i < library_->size(); ++i)
      if ((!defined_only || library_->defined(i)) && find(library_->name(i)) == nullptr)
        out.push_back(library_->name(i));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string_view> Registry::names() const { return names(false); }
std::vector<std::string_view> Registry::defined_names() const { return names(true); }

bool Registry::knows(std::string_view name) const {
  return find(name) != nullptr || (library_ && library_->find(name).has_value());
}

std::vector<const Operator*> Registry::sorted_operators() const {
  std::vector<const Operator*> out;
  out.reserve(ops_.size());
  for (const auto& op : ops_) out.push_back(&op);
  std::sort(out.begin(), out.end(), [](const Operator* a, const Operator* b) { return a->name < b->name; });
  return out;
}

const Fallback* Registry::fallback_for(KeyId k) const {
  const int slot = profile_->key(k).slot;
  if (slot < 0) return nullptr;
  const auto& f = fallbacks_[static_cast<std::size_t>(slot)];
  return f ? &*f : nullptr;
}

namespace {

// The def as the mismatch message prints it: with real types (SymInt -> int),
// except for a SymInt kernel (here: boxed-only with a signature).
std::string expected_schema_text(const Definition& def, const Kernel& k, const Profile& p) {
  if (k.boxed_only || def.printed.find("Sym") == std::string::npos) return def.printed;
  return print_schema(with_real_types(def.schema), SchemaPrintOptions{p.quirks().dimname_prints_as_str});
}

// The profile's override-warning prefix (TORCH_WARN_ONCE's text in main)
// ends in a line break and an indent: kept as a continuation line; every
// other control character is escaped.
std::string prefix_lines(std::string_view prefix) {
  std::string out;
  for (std::size_t start = 0; start <= prefix.size();) {
    const std::size_t nl = prefix.find('\n', start);
    out += printable(prefix.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (nl == std::string_view::npos) break;
    out += prefix.substr(nl + 1).starts_with("  ") ? "\n" : "\\x0a";
    start = nl + 1;
  }
  return out;
}

std::optional<Diagnostic> check_kernel_schema(Operator& op, const Kernel& k, const Profile& p,
                                              SignatureCache& parsed) {
  if (!op.def || !k.signature || *k.signature == op.signature_checked) return std::nullopt;
  // Operators share signatures (PyTorch's 13,321 kernels have 1,022): each is parsed once.
  auto it = parsed.find(*k.signature);
  if (it == parsed.end()) {
    auto inferred = parse_schema(*k.signature);
    if (!inferred) return std::nullopt;  // validated by the loader
    if (parsed.size() >= kSignatureCacheSize) parsed.clear();  // bounded, whatever the input
    it = parsed.emplace(*k.signature, std::move(*inferred)).first;
  }
  auto reason = schema_mismatch_reason(op.def->schema, it->second);
  if (!reason) {
    op.signature_checked = *k.signature;
    return std::nullopt;
  }
  Diagnostic d;
  d.where = k.where;
  d.message = fmt::format(
      "Inferred operator schema for a C++ kernel function doesn't match the expected function "
      "schema.\n  operator: {}\n  expected schema: {}\n    {}\n  inferred schema: {}\n    {}\n  "
      "reason: {}",
      op.name, printable(expected_schema_text(*op.def, k, p)), printable(op.def->debug), printable(*k.signature),
      printable(k.debug), printable(*reason));
  d.multi_line = true;
  d.notes.push_back({op.def->where, "the operator is defined here"});
  d.code = "schema-mismatch";
  d.op = op.name;
  return d;
}

// Whether two inferred schemas stand for the same C++ function type: the same
// argument and return types (a C++ type has no argument names).
bool same_cpp_types(const std::string& a, const std::string& b) {
  if (a == b) return true;
  auto x = parse_schema(a), y = parse_schema(b);
  if (!x || !y) return false;  // validated by the loader
  const auto types = [](const std::vector<SchemaArgument>& args) {
    std::vector<std::string_view> out;
    for (const auto& arg : args) out.push_back(arg.type);
    return out;
  };
  return types(x->arguments) == types(y->arguments) && types(x->returns) == types(y->returns) &&
         x->is_vararg == y->is_vararg && x->is_varret == y->is_varret;
}

// What torch.library refuses before c10 sees a kernel (Kernel::python_api),
// in the release's words where they are measured ([torch_library]).
//
// An operator not defined yet: register_fake looks it up in the dispatcher,
// register_autograd (vmap, autocast) as an attribute of torch.ops.NS.
std::optional<Diagnostic> python_undefined(const Operator& op, const Kernel& k, const Profile& p) {
  const TorchLibraryInfo& tl = p.torch_library();
  if (op.def) return std::nullopt;
  if (k.python_api == PythonApi::RegisterFake && !tl.undefined_op_error.empty()) {
    Diagnostic d = make_error(k.where, replace_all(tl.undefined_op_error, "{op}", op.name));
    d.op = op.name;
    return d;
  }
  if (k.python_api == PythonApi::LooksUp && !tl.undefined_attr_error.empty()) {
    const std::size_t sep = op.name.find("::");
    const std::string base = op.name.substr(sep + 2);
    Diagnostic d = make_error(k.where, replace_all(replace_all(tl.undefined_attr_error, "{ns}", op.name.substr(0, sep)),
                                                   "{name}", base.substr(0, base.find('.'))));
    d.op = op.name;
    return d;
  }
  return std::nullopt;
}

// A Meta kernel from Python on an operator that has a CompositeImplicitAutograd
// kernel (library.py's Library._impl; 2.6's fake_impl for register_fake).
std::optional<Diagnostic> python_api_refusal(const Operator& op, KeyId key, const Kernel& k, const Profile& p) {
  if (k.python_api == PythonApi::None || p.find("Meta") != key) return std::nullopt;
  const TorchLibraryInfo& tl = p.torch_library();
  const auto cia = p.find("CompositeImplicitAutograd");
  const bool composite = std::any_of(op.kernels.begin(), op.kernels.end(),
                                     [&](const KeyKernels& kk) { return kk.key == cia && !kk.kernels.empty(); });
  const std::string& text =
      k.python_api == PythonApi::RegisterFake ? tl.fake_on_composite_error : tl.meta_on_composite_error;
  if (!composite || text.empty()) return std::nullopt;
  std::string name = op.name;
  if (k.python_api == PythonApi::Impl) name = name.substr(name.find("::") + 2);
  Diagnostic d = make_error(k.where, replace_all(text, "{name}", name));
  d.op = op.name;
  d.key = "Meta";
  return d;
}

// OperatorEntry::registerKernel: a typed kernel's C++ signature must equal the
// first one registered for the operator. Kernels with different inferred
// schemas have different C++ types; the C++ type names themselves are not in
// the input, so the message shows the inferred schemas in their place.
std::optional<Diagnostic> check_cpp_signature(const Operator& op, KeyId key, const Kernel& k, const Profile& p) {
  if (k.fallthrough || !k.signature) return std::nullopt;
  const auto& first = k.boxed_only ? op.sym_cpp_signature : op.cpp_signature;
  if (!first || !first->signature || same_cpp_types(*first->signature, *k.signature)) return std::nullopt;
  const auto key_text = [&](KeyId kk, bool catch_all) {
    return catch_all ? std::string("(catch all)") : p.name_of(kk);
  };
  Diagnostic d;
  d.where = k.where;
  d.message = fmt::format(
      "Mismatch in kernel C++ signatures\n  operator: {}\n    {}\n  kernel 1: {}\n    dispatch key: {}\n    {}\n"
      "  kernel 2: {}\n    dispatch key: {}\n    {}",
      printable(op.def ? op.def->printed : op.name), printable(op.def ? op.def->debug : "no debug info"),
      printable(*first->signature), printable(key_text(first->key, first->catch_all)), printable(first->debug),
      printable(*k.signature), printable(key_text(key, k.catch_all)), printable(k.debug));
  d.multi_line = true;
  d.notes.push_back({first->where, "kernel 1 is registered here"});
  d.code = "schema-mismatch";
  d.op = op.name;
  d.key = p.name_of(key);
  return d;
}

}  // namespace

std::vector<Diagnostic> Registry::define(Definition def) {
  const std::string name = operator_name(def.schema).qualified();
  Operator& op = entry(name, def.where);
  if (op.def) {
    Diagnostic d;
    d.where = def.where;
    d.message = fmt::format(
        "Tried to register an operator ({}) with the same name and overload name multiple "
        "times. Each overload's schema should only be registered with a single call to def(). "
        "Duplicate registration: {}. Original registration: {}",
        def.printed, def.debug, op.def->debug);
    d.notes.push_back({op.def->where, "the original definition is here"});
    d.code = "duplicate-def";
    d.op = name;
    return {std::move(d)};
  }
  op.def = std::move(def);
  op.signature_checked.clear();
  // PyTorch refuses whichever of def and kernel arrives second. Here the def
  // stays and every kernel that contradicts it is dropped and reported, so
  // that what remains (and what lint reports) does not depend on the order.
  std::vector<Diagnostic> refused;
  for (auto& kk : op.kernels)
    kk.kernels.erase_if([&](const Kernel& k) {
      auto d = check_kernel_schema(op, k, *profile_, parsed_signatures_);
      if (!d) return false;
      // Reported when the second of the two arrives: here, the def.
      std::swap(d->where, d->notes.front().where);
      d->notes.front().message = "the kernel is registered here";
      d->key = profile_->name_of(kk.key);
      refused.push_back(std::move(*d));
      return true;
    });
  std::erase_if(op.kernels, [](const KeyKernels& kk) { return kk.kernels.empty(); });
  return refused;
}

Expected<Ok, Diagnostic> Registry::impl(const std::string& name, KeyId key, Kernel k) {
  const Profile& p = *profile_;
  Operator& op = entry(name, k.where);
  if (auto d = python_api_refusal(op, key, k, p)) return unexpected(std::move(*d));
  if (auto d = python_undefined(op, k, p)) undefined_.push_back(std::move(*d));
  if (auto d = check_cpp_signature(op, key, k, p)) return unexpected(std::move(*d));
  // OperatorEntry::registerKernel records the first C++ signature before it
  // checks the schema and before it warns, so "previous kernel" can name the
  // new kernel itself.
  if (!k.fallthrough) {
    auto& slot = k.boxed_only ? op.sym_cpp_signature : op.cpp_signature;
    const bool typed = !k.boxed_only || k.signature != nullptr;
    if (typed && !slot) slot = CppSignatureRecord{k.debug, k.signature, key, k.catch_all, k.where};
  }
  if (auto d = check_kernel_schema(op, k, p, parsed_signatures_)) {
    d->key = p.name_of(key);
    return unexpected(std::move(*d));
  }
  k.seq = seq_++;
  auto it = std::lower_bound(op.kernels.begin(), op.kernels.end(), key,
                             [](const KeyKernels& kk, KeyId kid) { return kk.key < kid; });
  if (it == op.kernels.end() || it->key != key) it = op.kernels.insert(it, KeyKernels{key, {}});
  if (!it->kernels.empty()) {
    const auto& ex = p.quirks().override_warning_exempt;
    const bool exempt = std::find(ex.begin(), ex.end(), key) != ex.end();
    // The warning's size, known before it is formatted (its fixed text is under 256 bytes).
    const std::size_t size = 256 + (op.def ? op.def->printed.size() + op.def->debug.size() : op.name.size()) +
                             k.debug.size() + p.name_of(key).size() +
                             (op.cpp_signature ? op.cpp_signature->debug.size() : 0) +
                             (op.sym_cpp_signature ? op.sym_cpp_signature->debug.size() : 0);
    const bool warns = !exempt && !(p.quirks().override_warning_once && warned_once_);
    if (warns && k.warning_filtered) {
      warned_once_ = true;  // raised, so spent for the process, but never shown
    } else if (warns && warning_bytes_ + size > limits::kOverrideWarningBytes) {
      ++warnings_not_kept_;
    } else if (warns) {
      warning_bytes_ += size;
      warned_once_ = true;
      Diagnostic d;
      d.severity = Severity::Warning;
      d.where = k.where;
      d.message = fmt::format(
          "{}Overriding a previously registered kernel for the same operator and the same "
          "dispatch key\n  operator: {}\n    {}\n  dispatch key: {}\n  previous kernel: {}\n  "
          "     new kernel: {}",
          prefix_lines(p.quirks().override_warning_prefix), printable(op.def ? op.def->printed : op.name),
          printable(op.def ? op.def->debug : "no debug info"), printable(k.catch_all ? "(catch all)" : p.name_of(key)),
          // The first typed kernel's debug; a SymInt one if there is no other.
          printable(op.cpp_signature       ? op.cpp_signature->debug
                    : op.sym_cpp_signature ? op.sym_cpp_signature->debug
                                           : std::string("no debug info")),
          printable(k.debug));
      d.multi_line = true;
      d.notes.push_back({it->kernels.front().where, "the kernel it overrides is registered here"});
      d.code = "duplicate-registration";
      d.op = op.name;
      d.key = p.name_of(key);
      warnings_.push_back(std::move(d));
    }
  }
  it->kernels.push_newest(std::move(k));
  return Ok{};
}

std::vector<Diagnostic> Registry::undefined_refusals() const {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : undefined_) {
    auto it = index_.find(d.op);
    const Operator* op = it == index_.end() ? nullptr : &ops_[it->second];
    if (op == nullptr || !op->def || (op->def->where.file == d.where.file && d.where < op->def->where))
      out.push_back(d);
  }
  return out;
}

Expected<Ok, Diagnostic> Registry::fallback(Fallback f) {
  const Profile& p = *profile_;
  f.seq = seq_++;
  std::vector<KeyId> targets = p.is_alias(f.key) ? p.alias_members(f.key) : std::vector<KeyId>{f.key};
  for (KeyId k : targets) {
    const int slot = p.key(k).slot;
    if (slot < 0 && p.key(k).kind == KeyKind::BuildingBlock) {
      // Accepted by c10 (any number of times, as torch 1.13 shows) but it
      // fills no row: no runtime key equals a building block. Kept for lint.
      Fallback one = f;
      one.key = k;
      user_fallbacks_.push_back(std::move(one));
      continue;
    }
    if (slot < 0) {
      Diagnostic d;
      d.where = f.where;
      d.message = fmt::format(
          "cannot register a backend fallback for '{}': it is not a runtime "
          "dispatch key (it has no row in the dispatch table)",
          p.name_of(k));
      return unexpected(std::move(d));
    }
    // The debug string this key's registration gets (see debug_after_first).
    const std::string& debug = k != targets.front() && !f.debug_after_first.empty() ? f.debug_after_first : f.debug;
    auto& cur = fallbacks_[static_cast<std::size_t>(slot)];
    const auto& ex = p.quirks().multiple_fallbacks_exempt;
    if (cur && std::find(ex.begin(), ex.end(), k) == ex.end()) {
      Diagnostic d;
      d.where = f.where;
      d.message = fmt::format(
          "Tried to register multiple backend fallbacks for the same dispatch key {}; previous "
          "registration {}, new registration {}",
          p.name_of(k), cur->debug, debug);
      d.notes.push_back({cur->where, cur->core ? "the previous fallback is registered by PyTorch "
                                                 "itself (profile " +
                                                     p.name() + ")"
                                               : "the previous fallback is registered here"});
      d.code = "duplicate-fallback";
      d.key = p.name_of(k);
      return unexpected(std::move(d));
    }
    Fallback one = f;
    one.key = k;
    one.debug = debug;
    cur = one;
    user_fallbacks_.push_back(std::move(one));
  }
  return Ok{};
}

}  // namespace dt
