// The inputs of a simulated call (dispatcher-notes G.1, G.2): tensor arguments described in
// words users know ("cuda,requires_grad"), the key set a TensorImpl of that
// kind carries in the chosen profile, which schema arguments count
// (DispatchKeyExtractor), and the thread-local include/exclude sets of the
// contexts a call runs under (no_grad, inference_mode, autocast, guards).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "registry/schema.hpp"
#include "resolve/dispatch_keyset.hpp"

namespace dt {

enum class Layout : std::uint8_t { Strided, Sparse, SparseCsr, Quantized, Mkldnn, Nested };

// One tensor, as its --arg words describe it.
struct TensorArg {
  std::string text;  // the words as written
  int backend = 0;   // backend component index (the device)
  Layout layout = Layout::Strided;
  bool requires_grad = false;  // changes no key (AutogradMeta only)
  bool inference = false;      // created under inference_mode
  bool conj = false, neg = false, zerotensor = false;
  bool python = false;      // a __torch_dispatch__ subclass (or FakeTensor)
  bool named = false;       // a named tensor
  bool functional = false;  // wrapped by functionalization (FunctionalTensorWrapper)
};

// The words of --arg: "[LAYOUT_]DEVICE[,MODIFIER...]" (docs: docs/usage.md, man page).
Expected<TensorArg, Diagnostic> parse_tensor_words(const Profile& p, std::string_view privateuse1,
                                                    std::string_view text);
// The device and layout words the profile accepts, for messages and completion.
std::vector<std::string> device_words(const Profile& p, std::string_view privateuse1);
extern const std::vector<std::string_view> kLayoutWords;    // "sparse", "sparse_csr", ...
extern const std::vector<std::string_view> kModifierWords;  // "requires_grad", "inference", ...

// The key set a TensorImpl of this kind has (TensorImpl's constructor, dispatcher-notes G.1):
// backend and layout key, its autocast key, ADInplaceOrView and its autograd
// key unless created in inference mode, then the modifiers' keys. Errors: a
// layout the profile has no key for on that device.
Expected<KeySet, Diagnostic> tensor_keyset(const KeysetAlgebra& ks, const TensorArg& t);

// How a schema argument takes part in dispatch (makeBitsetForDispatchArgs):
// Tensor, Tensor?, Tensor[], Tensor?[] do; everything else (Scalars, ints,
// Generators in a boxed call) does not.
enum class DispatchArgKind : std::uint8_t { Tensor, OptionalTensor, TensorList, OptionalTensorList };
std::optional<DispatchArgKind> dispatch_arg_kind(std::string_view schema_type);

// A dispatch argument bound to the value an --arg gives it.
struct BoundArgument {
  std::string name;  // the schema's argument name ("self"); "#N" without a schema
  std::string type;  // the schema type ("Tensor?[]")
  DispatchArgKind kind = DispatchArgKind::Tensor;
  std::string text;  // the --arg as written; "" when not given
  bool list = false;
  std::vector<std::optional<TensorArg>> items;  // one for a single tensor; nullopt: None
};

// The arguments of a schema that are not dispatch arguments (names and types), for display.
struct IgnoredArgument {
  std::string name, type;
};

struct BoundCall {
  std::vector<BoundArgument> args;
  std::vector<IgnoredArgument> ignored;
  bool schema_known = false;
};

// Binds --arg values in order to the schema's dispatch arguments. A value is
// tensor words, "none" (Tensor?, or an element of Tensor?[]), or for a list
// ';'-separated elements ("cpu;meta") and "[]" for an empty list. Missing
// values: Tensor? is None; a Tensor or list without a value is an error
// unless `allow_missing` (--keyset given). More values than dispatch
// arguments is an error. Without a schema every value is one argument ("none": a Tensor? given None).
Expected<BoundCall, Diagnostic> bind_arguments(const KeysetAlgebra& ks, std::string_view privateuse1,
                                                const Schema* schema, const std::vector<std::string>& values,
                                                bool allow_missing);

// The union of the arguments' key sets (getDispatchKeySetBoxed).
KeySet arguments_keyset(const KeysetAlgebra& ks, const std::vector<BoundArgument>& args);

// Thread-local dispatch state.
struct ThreadLocalState {
  KeySet included, excluded;
  bool grad_mode = true;
  bool inference_mode = false;
  bool python_mode = false;  // a TorchDispatchMode is active
};

struct TlsOptions {
  bool no_grad = false;
  bool inference_mode = false;
  std::vector<std::string> autocast;  // device words: cpu, cuda, ...
  bool python_mode = false;
  std::vector<std::string> include, exclude;  // key names (comma lists allowed)
};

// A TlsOptions value that cannot be had: which field (the front end names
// it: --autocast or autocast) and why, in words that do not name it.
struct TlsError {
  enum class Field : std::uint8_t { Autocast, Include, Exclude };
  Field field = Field::Autocast;
  Diagnostic diagnostic;
};

// c10's defaults (included BackendSelect, ADInplaceOrView; excluded every
// autocast key), then the contexts in this order: no_grad, inference_mode,
// autocast, a TorchDispatchMode, include, exclude (as guards entered in
// that order).
Expected<ThreadLocalState, TlsError> make_tls(const KeysetAlgebra& ks, std::string_view privateuse1,
                                              const TlsOptions& o);

// The autograd functionality keys (autograd_dispatch_keyset's functionality bits).
KeySet autograd_keyset(const KeysetAlgebra& ks);

}  // namespace dt
