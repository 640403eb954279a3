// The schema c10 infers from a C++ kernel's type (c10::inferFunctionSchema-
// FromFunctor, ATen/core/op_registration/infer_schema.h), read from the
// function's declaration in the same file or from a lambda: what
// _dispatch_dump prints after "::" for an unboxed kernel, e.g.
// "(Tensor _0, int _1) -> Tensor _0". Only the types whose schema type is
// certain are inferred; anything else leaves the signature unknown (and the
// reader says so), never a guess.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "readers/cpp_scanner.hpp"

namespace dt {

// The type aliases a file declares at any scope (`using NAME = TYPE;`,
// `typedef TYPE NAME;`), by name: each as the type it names, with the
// aliases before it resolved (as C++ requires, an alias is declared before
// it is used). Kernels' types are read through them (vLLM's `using fptr_t =
// int64_t;`). Scopes are not told apart: the first declaration of a name
// counts, as for index_functions. Alias templates, function-pointer and
// struct typedefs are left out (a type through them stays unknown).
struct CppAlias {
  std::string plain;  // the type without cv/ref qualifiers nor at::, c10::, std::, torch::
  bool ref = false, cnst = false;
};
using CppAliases = std::unordered_map<std::string_view, CppAlias>;
CppAliases index_aliases(const std::vector<CppToken>& toks);

// One C++ parameter or return type, as tokens (`const at::Tensor&`,
// `std::optional<at::Tensor>`) -> its schema type ("Tensor", "Tensor?"), or
// nothing. `ret`: a return type, where `void` is "()" and
// std::tuple<...> several returns.
std::optional<std::string> cpp_schema_type(const std::vector<CppToken>& toks, std::size_t b, std::size_t e,
                                           const CppAliases* aliases = nullptr);

// The inferred schema of a function whose return type is tokens [rb, re) and
// whose parameter list (without the parentheses) is [pb, pe): "(T _0, ...) ->
// R _0" / "-> (R _0, R _1)" / "-> ()"; nothing when a type is not known. A
// first parameter of type c10::DispatchKeySet (by value: a redispatching
// kernel's) is not in the schema, as c10 drops it.
// `why` names the type that was not.
std::optional<std::string> infer_signature(const std::vector<CppToken>& toks, std::size_t rb, std::size_t re,
                                           std::size_t pb, std::size_t pe, std::string& why,
                                           const CppAliases* aliases = nullptr);

// Whether an inferred signature has a SymInt argument (fn_has_symint in
// c10/core/boxing/KernelFunction_impl.h looks at the parameters only): c10
// then keeps no plain unboxed entry point, and _dispatch_dump prints
// "[ boxed ]"; a SymInt return keeps "[ boxed unboxed ]".
bool has_symint_argument(std::string_view signature);

// Where function `name` (its last component) is declared or defined at
// namespace scope: the return type's and the parameters' token ranges.
struct CppFunctionDecl {
  std::size_t rb = 0, re = 0, pb = 0, pe = 0;
  std::uint32_t scope = 0;  // CppFunctionIndex::scopes: the namespaces and classes it belongs to
};
std::optional<CppFunctionDecl> find_function(const std::vector<CppToken>& toks, const std::vector<std::size_t>& close,
                                             std::string_view name);
// Every function declared in the tokens, by name, with the namespaces and
// classes each belongs to: one pass, for files with many kernels.
struct CppFunctionIndex {
  std::vector<std::string> scopes;        // "" (the global namespace), "a::b", "a::C", ...
  std::vector<std::uint32_t> scope_at;    // the scope each token is in
  std::unordered_map<std::string_view, std::vector<CppFunctionDecl>> by_name;

  // The declaration the name written at toks[b, e) (`f`, `ns::f`, `C::f`,
  // `::f`) names where it is used (toks[use]), as C++'s lookup finds it: a
  // qualified name in a scope ending with its qualifier, an unqualified one
  // in the innermost enclosing scope that declares it; an unqualified name
  // declared once is that declaration. nullopt when none is visible there.
  [[nodiscard]] std::optional<CppFunctionDecl> find(const std::vector<CppToken>& toks, std::size_t b, std::size_t e,
                                                    std::size_t use) const;
};
CppFunctionIndex index_functions(const std::vector<CppToken>& toks, const std::vector<std::size_t>& close);

}  // namespace dt
