// The registrations: libraries, operator definitions, kernels per dispatch key,
// backend fallbacks. Mirrors the state of c10's Dispatcher/OperatorEntry, plus
// the source location of every registration (for errors and lint).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "registry/schema.hpp"

namespace dt {

enum class LibraryKind : std::uint8_t { Def, Impl, Fragment };
const char* to_string(LibraryKind k);   // "DEF" | "IMPL" | "FRAGMENT"
const char* macro_name(LibraryKind k);  // "TORCH_LIBRARY" | "TORCH_LIBRARY_IMPL" | ...

// One input file = one library block.
struct Library {
  std::string ns;  // "_" for a wildcard IMPL block
  LibraryKind kind = LibraryKind::Fragment;
  bool kind_explicit = false;
  std::optional<KeyId> key;  // IMPL blocks only
  Location where;            // the file (line 1) or the `kind` field
};

enum class AliasAnalysis : std::uint8_t { FromSchema, Conservative, PureFunction, ConservativeDefault };
const char* to_string(AliasAnalysis a);  // as _dispatch_dump prints it

struct Definition {
  Schema schema;        // qualified
  std::string printed;  // print_schema(schema) for the profile
  std::string debug;    // "registered at ..."
  AliasAnalysis alias = AliasAnalysis::FromSchema;
  std::vector<std::string> tags;
  // `differentiable = false`: no output can carry a gradient (integer indices,
  // masks), as derivatives.yaml's output_differentiability: [False] says.
  bool differentiable = true;
  // torch.library.custom_op's: the Python function it wraps (its errors name
  // it); "" for any other definition.
  std::string custom_op_function;
  Location where;
  std::uint32_t library = 0;
};

// The kernels torch.library.custom_op registers whose behaviour depends on
// whether register_fake / register_autograd gave it a function.
enum class CustomOpKernel : std::uint8_t {
  None,           // not one of them
  Fake,           // the Meta kernel, register_fake given: runs it
  FakeUnset,      // the Meta kernel without register_fake: raises when called
  Autograd,       // the Autograd kernel, register_autograd given: records its backward
  AutogradUnset,  // the Autograd kernel without register_autograd: records a backward that raises
};

// The torch.library API that registers a kernel from Python, where its own
// checks refuse registrations c10 would take ([[impl]] python_api): a Meta
// kernel on an operator that already has a CompositeImplicitAutograd kernel
// ([torch_library] meta_on_composite_error / fake_on_composite_error), and
// register_* on an operator not defined yet (undefined_op_error /
// undefined_attr_error).
enum class PythonApi : std::uint8_t {
  None,           // not from Python's torch.library (or not checked)
  Impl,           // Library.impl("op", ...): the refusal names the operator as written, unqualified
  ImplQualified,  // Library.impl("ns::op"), torch.library.impl, register_kernel: named qualified
  RegisterFake,   // register_fake, impl_abstract, Library._register_fake: the operator must exist
  LooksUp,        // register_autograd, register_vmap, register_autocast: torch.ops.NS.NAME must exist
};

// Whether torch.library.register_autograd takes the custom op of schema `s`:
// a functional operator (no argument written to, a return, no return that is
// a view) or, where the release allows (`views`), a view with one Tensor
// argument and one Tensor return (custom_ops.py's register_autograd).
bool register_autograd_takes(const Schema& s, bool views);

struct Kernel {
  std::string debug;  // the kernel's name as shown in tables
  // Inferred C++ schema, printed; shared by the kernels of a file that have
  // the same one (usually all kernels of an operator).
  std::shared_ptr<const std::string> signature;
  bool fallthrough = false;
  bool boxed_only = false;
  bool catch_all = false;  // registered without a key (stored as CIA)
  // Declared by the input (`redispatches = true`): the kernel calls on below
  // its key, as PyTorch's own kernels of that key do (trace follows it).
  bool redispatches = false;
  // Its override warning is raised (and TORCH_WARN_ONCE spent) but filtered
  // out by Python's warnings module, as custom_op does for its second
  // ADInplaceOrView kernel in 2.14 (warnings.filterwarnings("ignore", ...)).
  bool warning_filtered = false;
  CustomOpKernel custom_op = CustomOpKernel::None;
  PythonApi python_api = PythonApi::None;
  Location where;
  std::uint32_t library = 0;
  std::uint32_t seq = 0;  // global registration order
};

// The kernels registered on one key of an operator, newest first: front()
// is the active one, iteration goes from newest to oldest. Stored oldest
// first, so that registering (an override) appends in constant time.
class KernelStack {
 public:
  using Storage = std::vector<Kernel>;
  using const_iterator = Storage::const_reverse_iterator;

  [[nodiscard]] const_iterator begin() const { return stored_.rbegin(); }
  [[nodiscard]] const_iterator end() const { return stored_.rend(); }
  [[nodiscard]] std::size_t size() const { return stored_.size(); }
  [[nodiscard]] bool empty() const { return stored_.empty(); }
  [[nodiscard]] const Kernel& front() const { return stored_.back(); }  // the newest: active
  [[nodiscard]] const Kernel& back() const { return stored_.front(); }  // the oldest
  [[nodiscard]] const Kernel& operator[](std::size_t i) const { return stored_[stored_.size() - 1 - i]; }

  void push_newest(Kernel k) { stored_.push_back(std::move(k)); }
  // Drops the kernels `pred` picks, asking it newest first (as the stack reads).
  template <class Pred>
  void erase_if(Pred pred) {
    std::vector<bool> drop(stored_.size());
    for (std::size_t i = stored_.size(); i-- > 0;) drop[i] = pred(static_cast<const Kernel&>(stored_[i]));
    std::size_t kept = 0;
    for (std::size_t i = 0; i < stored_.size(); ++i)
      if (!drop[i]) {
        if (kept != i) stored_[kept] = std::move(stored_[i]);
        ++kept;
      }
    stored_.erase(stored_.begin() + static_cast<std::ptrdiff_t>(kept), stored_.end());
  }

 private:
  Storage stored_;
};

struct KeyKernels {
  KeyId key = kUndefined;
  KernelStack kernels;  // newest first; front() is the active one
};

// The first typed kernel of an operator (OperatorEntry's cpp_signature_):
// every later typed kernel must have the same C++ signature.
struct CppSignatureRecord {
  std::string debug;
  std::shared_ptr<const std::string> signature;  // inferred schema; null if not given
  KeyId key = kUndefined;
  bool catch_all = false;
  Location where;
};

struct Operator {
  std::string name;  // ns::name[.overload]
  std::optional<Definition> def;
  std::vector<KeyKernels> kernels;  // sorted by key (enum order)
  // The first kernel with an unboxed C++ entry point (also named by the
  // override warning), and the first SymInt one (boxed_only with a signature).
  std::optional<CppSignatureRecord> cpp_signature, sym_cpp_signature;
  Location first_seen;
  bool library = false;           // PyTorch's own: materialized from the profile's operator library
  std::string signature_checked;  // last kernel signature found compatible with def (a cache)

  [[nodiscard]] const Kernel* get(KeyId k) const;
  [[nodiscard]] const KernelStack* all(KeyId k) const;
};

// A torch.library text about custom op `op` ([torch_library] no_fake_error,
// no_autograd_error) with its fields filled: {op} "ns::name", {function} the
// function custom_op wraps, {overload} "ns.name.default" (str(OpOverload)).
std::string custom_op_text(std::string text, const Operator& op);

struct Fallback {
  KeyId key = kUndefined;
  std::string debug;
  bool fallthrough = false;
  bool core = false;  // registered by PyTorch itself (profile)
  Location where;
  // For an alias key: the debug string of every runtime key after the first.
  // c10::Library::_fallback moves the debug string into the first
  // registration, so the others get debugString("", file, line).
  std::string debug_after_first;
  // Registration order, counted with the kernels' seq (0 for PyTorch's own):
  // replaying registrations in order (resolve/runtime_table.hpp) needs it.
  std::uint32_t seq = 0;
  // The fallback raises instead of serving the call (torch-xpu-ops' XPU
  // fallback without PYTORCH_ENABLE_XPU_FALLBACK): [[fallback]] raises = true,
  // with what it raises in `message` (may be empty). Dispatch is unchanged (the
  // table still shows the fallback); coverage counts it as nothing to call.
  bool raises = false;
  std::string message;
};

// A kernel's or fallback's debug text as people read it. Where a profile
// does not know the file and line of PyTorch's own registration, its debug
// text holds placeholders ("registered at <src>/aten/src/ATen/X.cpp:<n>");
// that reads "PyTorch's own fallback (aten/src/ATen/X.cpp)". Every other text
// is returned as it is. The raw dumps and JSON keep the exact text.
std::string readable_debug(std::string_view debug);

// What happens to a registration the dispatcher refuses.
enum class OnRefusal : std::uint8_t { Fail, Record };

class OpLibrary;

// Kernels' inferred schemas by their text, parsed once (at most kSignatureCacheSize kept).
using SignatureCache = std::unordered_map<std::string, Schema>;
inline constexpr std::size_t kSignatureCacheSize = 4096;

class Registry {
 public:
  explicit Registry(const Profile& profile);
  // With PyTorch's own operators: each is materialized from `library` the
  // first time it is registered to or asked for, before any registration of
  // the inputs reaches it (as PyTorch registers its own at start-up). The
  // library's blocks are the first libraries().
  Registry(const Profile& profile, std::shared_ptr<const OpLibrary> library);

  [[nodiscard]] const OpLibrary* library() const { return library_.get(); }
  // The operator named `name`, materialized from the library if need be;
  // nullptr if neither the registrations nor the library have it.
  const Operator* materialize(std::string_view name);
  // Every operator of the library.
  void materialize_all();
  // Whether an operator of this name exists here or in the library.
  [[nodiscard]] bool knows(std::string_view name) const;
  // Every operator name, here or in the library, sorted (byte order), each once.
  [[nodiscard]] std::vector<std::string_view> names() const;
  // The same, only operators with a definition.
  [[nodiscard]] std::vector<std::string_view> defined_names() const;

  [[nodiscard]] const Profile& profile() const { return *profile_; }

  std::uint32_t add_library(Library lib);
  [[nodiscard]] const std::vector<Library>& libraries() const { return libraries_; }
  // The first DEF (TORCH_LIBRARY) block of namespace `ns` among libraries(); null if none.
  [[nodiscard]] const Library* def_library(const std::string& ns) const;

  // Dispatcher-level registrations; a refusal is a Diagnostic with PyTorch's
  // message and every location involved.
  // define() returns every refusal it causes, one each: the def itself
  // (defined twice), or the kernels already registered that it refuses
  // (schema mismatch: each is dropped, the def stays).
  std::vector<Diagnostic> define(Definition def);
  Expected<Ok, Diagnostic> impl(const std::string& op, KeyId key, Kernel k);
  Expected<Ok, Diagnostic> fallback(Fallback f);

  // In order of first registration; a deque, so entries never move.
  [[nodiscard]] const std::deque<Operator>& operators() const { return ops_; }
  // Operators sorted by qualified name (byte order).
  [[nodiscard]] std::vector<const Operator*> sorted_operators() const;
  [[nodiscard]] const Operator* find(std::string_view name) const;
  // Backend fallback for a runtime key (by table slot).
  [[nodiscard]] const Fallback* fallback_for(KeyId k) const;
  // Fallbacks registered by the inputs, in order: one per runtime key of an
  // alias, and those on building blocks, which c10 accepts but which fill no row.
  [[nodiscard]] const std::vector<Fallback>& user_fallbacks() const { return user_fallbacks_; }

  // Warnings PyTorch would print while registering (kernel overrides): the
  // first limits::kOverrideWarningBytes of them, and how many more there were.
  [[nodiscard]] const std::vector<Diagnostic>& warnings() const { return warnings_; }
  [[nodiscard]] std::size_t warnings_not_kept() const { return warnings_not_kept_; }
  // What register_fake / register_autograd (Kernel::python_api) raise on an
  // operator that was not defined when they ran: once every input is applied,
  // those whose operator no file read defines, or only its own file, later.
  // (Python modules import each other: across files, the order of their
  // registrations is the imports', not the command line's.)
  [[nodiscard]] std::vector<Diagnostic> undefined_refusals() const;

  std::string privateuse1_name;  // torch.utils.rename_privateuse1_backend
  Location privateuse1_where;

 private:
  Operator& entry(const std::string& name, const Location& where);
  Operator& add_operator(std::string_view name);
  [[nodiscard]] std::vector<std::string_view> names(bool defined_only) const;
  Operator& materialize(std::size_t library_index);

  const Profile* profile_;
  std::shared_ptr<const OpLibrary> library_;
  std::vector<Library> libraries_;
  std::unordered_map<std::string, std::uint32_t> def_libraries_;  // namespace -> first DEF block in libraries_
  SignatureCache parsed_signatures_;  // kernels' inferred schemas, parsed (check_kernel_schema)
  std::deque<Operator> ops_;
  std::unordered_map<std::string, std::uint32_t> index_;
  std::vector<std::optional<Fallback>> fallbacks_;  // by table slot
  std::vector<Fallback> user_fallbacks_;
  std::vector<Diagnostic> warnings_;
  std::vector<Diagnostic> undefined_;  // python_api kernels of operators not defined yet (their refusals)
  std::size_t warnings_not_kept_ = 0;
  std::size_t warning_bytes_ = 0;
  std::uint32_t seq_ = 0;
  std::uint32_t last_ = UINT32_MAX;  // operator of the previous registration
  bool warned_once_ = false;
};

}  // namespace dt
