// Internal to the readers layer: what the C++ reader's parts share
// (cpp_reader.cpp: library blocks; cpp_legacy.cpp: torch::RegisterOperators).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "readers/cpp_kernel.hpp"
#include "readers/cpp_preprocessor.hpp"
#include "readers/readers.hpp"

namespace dt::cppread {

using Kind = CppToken::Kind;

// A string literal, also as PyTorch's TORCH_SELECTIVE_NAME("...") /
// TORCH_SELECTIVE_SCHEMA("...") (torch/library.h: the literal itself unless
// the build is a selective mobile build).
struct Literal {
  std::string value;
  Location at;         // its first character
  std::uint32_t span;  // TomlField::span: columns of the first literal's line from `at` on
};
std::optional<Literal> literal(const CppScan& s, TokenRange r);
Literal literal(const CppScan& s, const CppToken& t);

// Tokens as a message shows them (at most 80 characters).
std::string text(const std::vector<CppToken>& t, TokenRange r);

// A located warning at `t` (with a note for the macro it was expanded from).
// `op`: the operators the registration names (Diagnostic::op), when known.
void warn(Blocks& out, const CppScan& s, const CppToken& t, std::string msg, std::string op = {});

// torch::RegisterOperators (c10's legacy registration API) at token i, the
// name RegisterOperators: its registrations as library blocks (measured on
// torch 2.14: each op a def "registered by RegisterOperators", kernels on
// their keys or catch-all, the same debug string). Returns the index to go
// on after.
std::size_t register_operators(const CppScan& s, const CppTokens& tk, std::size_t i, Blocks& out);

// A library block as its macro's arguments give it: where it is, its
// namespace and kind, the dispatch key of an IMPL block, the name of the
// Library& parameter.
struct BlockHead {
  const CppToken& anchor;
  std::string shown;
  std::string_view kind;  // DEF | FRAGMENT | IMPL
  const CppToken& ns_at;
  std::string_view ns;
  const CppToken* key_at;
  std::string key;  // the dispatch key's name ("" when none or not a key)
  std::string handle;
  bool stable;
};
struct StaticInitBlock {
  BlockHead head;
  std::size_t body, body_end;  // the braces of the block's function
};

// What TORCH_LIBRARY* expand to, written out by a project's own macro (IPEX's
// IPEX_TORCH_LIBRARY_IMPL), at token i (TorchLibraryInit): `NAME(torch::Library::KIND,
// &INIT, "ns", std::make_optional(c10::DispatchKey::K) | std::nullopt, __FILE__,
// __LINE__);` and then `void INIT(torch::Library& m) { ... }`, the block's body.
// nullopt when it is not one, or cannot be read (then a located warning in
// `out`); `next`: the index to go on after.
std::optional<StaticInitBlock> static_init_head(const CppScan& s, const CppTokens& tk, std::size_t i, Blocks& out,
                                                std::size_t& next);

}  // namespace dt::cppread
