// The kernel expressions of C++ registrations (m.impl's and m.def's kernel,
// m.fallback's): what kind of kernel c10 makes of one, and the schema it
// infers from a function's or a lambda's type (readers/cpp_signature.hpp).
// Read by read_cpp (readers/cpp_reader.hpp), which knows the statements.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/diagnostic.hpp"
#include "readers/cpp_scanner.hpp"
#include "readers/cpp_signature.hpp"

namespace dt {

// How deep nested scopes and kernel expressions are read (beyond: a warning).
inline constexpr int kCppMaxDepth = 200;

// Tokens [b, e).
struct TokenRange {
  std::size_t b = 0, e = 0;
  [[nodiscard]] bool empty() const { return b >= e; }
};

// One file's tokens with their brackets matched, and the functions it
// declares (indexed on first use).
class CppTokens {
 public:
  explicit CppTokens(const std::vector<CppToken>& toks) : t(toks), close_(match_brackets(toks)) {}
  const std::vector<CppToken>& t;

  // The bracket closing the one at i (npos: none, or not a bracket).
  [[nodiscard]] std::size_t close(std::size_t i) const { return i < close_.size() ? close_[i] : std::string::npos; }
  // The comma-separated arguments inside the parentheses opened at `open`.
  [[nodiscard]] std::vector<TokenRange> args(std::size_t open) const;
  // The last identifier of a qualified name starting at j (a::b::c), and the index after it.
  [[nodiscard]] std::pair<std::string_view, std::size_t> path(std::size_t j, std::size_t e) const;
  // The '>' closing the '<' at `open` (match_angle).
  [[nodiscard]] std::size_t match_angle(std::size_t open, std::size_t end, std::size_t limit = std::string::npos) const {
    return dt::match_angle(t, close_, open, end, limit);
  }
  // The declaration of the function named at [b, e) (`f`, `ns::f`) where it is used (token `use`).
  [[nodiscard]] std::optional<CppFunctionDecl> function(std::size_t b, std::size_t e, std::size_t use) const;
  // Whether a function of that (last) name is declared anywhere in the tokens.
  [[nodiscard]] bool declares(std::string_view name) const;
  // The type aliases the file declares (indexed on first use).
  [[nodiscard]] const CppAliases& aliases() const {
    if (!aliases_) aliases_ = index_aliases(t);
    return *aliases_;
  }

 private:
  std::vector<std::size_t> close_;
  mutable std::optional<CppFunctionIndex> functions_;
  mutable std::optional<CppAliases> aliases_;
};

// A kernel expression, read.
struct CppKernel {
  enum class What { Function, Fallthrough, Boxed, Unknown } what = What::Unknown;
  std::optional<std::string> key;  // torch::dispatch(KEY, ...): "" = CatchAll
  Location key_at;
  std::optional<std::string> signature;
  bool symint = false;   // a SymInt argument: c10 keeps no unboxed entry point ("[ boxed ]")
  // The operator's own C++ function wrapped (autocast's WrapFunction over
  // decltype(ATEN_FN(op))): its inferred schema comes from the operator's schema.
  bool op_signature = false;
  std::string unknown;   // why the signature (or the expression) is not known
  // An expression the reader does not read (a project's helper call,
  // make_pytorch_shim(&f)), taken for an unboxed kernel of unknown signature
  // by impl (CppFunction's constructor takes functions and functors; in a
  // STABLE_TORCH_LIBRARY block, a boxed kernel); a fallback's is not read.
  bool opaque = false;
};

// The kernel expression `r` of a registration (`files`: CppScan::files, where
// its tokens are); `stable`: a STABLE_TORCH_LIBRARY block, whose impl takes a
// boxed function.
CppKernel read_kernel(const CppTokens& toks, const std::vector<FileName>& files, TokenRange r, bool stable);

// c10's name for a key as the C++ source spells it (c10::DispatchKey's
// enum aliases of torch 2.x): "DefaultBackend" -> "CompositeExplicitAutograd",
// "Autocast" -> "AutocastCUDA", "PrivateUse1_PreAutograd" ->
// "AutogradPrivateUse1", "CatchAll" -> "" (no key); a c10::DeviceType
// constant (kCUDA) -> its dispatch key (c10::computeDispatchKey). Other names
// are returned as they are.
std::string cpp_key_name(std::string_view spelled);

}  // namespace dt
