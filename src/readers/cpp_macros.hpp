// Macros as the C++ preprocessor expands them ([cpp.replace]): object-like
// and function-like, # and ##, __VA_ARGS__ (and GNU's `args...` and
// `, ## __VA_ARGS__`), __VA_OPT__, arguments fully expanded before they
// replace a parameter, rescanning with hide sets (Prosser's algorithm: a
// macro never expands inside its own expansion). Used by the preprocessor
// (cpp_preprocessor.hpp) for the text of a file and for #if conditions.
//
// Locations, as clang's SourceManager keeps them for diagnostics: a token
// an expansion makes is located where the outermost macro was invoked (so
// a registration a project macro makes is reported at its call site, and
// __LINE__ there is that line, as GCC has it); a token passed in an
// argument keeps its own place; CppToken::expansion names the macro it
// came from (its definition, for a note).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <unordered_set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/diagnostic.hpp"
#include "readers/cpp_scanner.hpp"

namespace dt {

struct CppMacro {
  std::string name;
  bool function = false;
  bool variadic = false;          // the last parameter takes the rest (__VA_ARGS__ or `name...`)
  std::vector<std::string> params;  // a variadic macro's last one is its name ("__VA_ARGS__" or GNU's)
  std::vector<CppToken> body;
  Location defined;  // where its name is in its #define (unknown: a -D option)
};

// One macro expansion, for the notes of what a reader reports inside it.
struct CppExpansion {
  std::string macro;
  Location defined;
};

// A bound on arguments nested without end (the tokens expansion may make:
// CppOptions::max_expanded_tokens, CppMacros::max_produced).
inline constexpr int kCppMaxMacroNesting = 200;

// Hashes std::string and std::string_view alike (lookups by a token's text allocate nothing).
struct CppNameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <class T>
using CppNameMap = std::unordered_map<std::string, T, CppNameHash, std::equal_to<>>;

class CppMacros {
 public:
  // Defines (or redefines) a macro; a later #undef removes it.
  void define(CppMacro m);
  void undefine(std::string_view name);
  [[nodiscard]] const CppMacro* find(std::string_view name) const;
  // Names the expander leaves alone even when defined (the registration
  // macros the reader reads itself, e.g. TORCH_LIBRARY): they stay in the
  // stream with their arguments, each expanded or not as `expand_arg` says
  // (by argument index), as the release's own definition would treat it.
  void keep(std::string name, std::vector<bool> expand_arg);
  [[nodiscard]] const std::vector<bool>* kept(std::string_view name) const;

  // Storage for the text of tokens expansion makes (pasted, stringified):
  // their string_views point into it, stable for its lifetime.
  std::string_view store(std::string text);

  std::vector<CppExpansion> expansions;
  std::size_t produced = 0;  // tokens made by expansions so far
  std::size_t max_produced = 4'000'000;   // past it, an error (CppOptions::max_expanded_tokens)

  // Hide sets, interned: 0 is the empty set.
  std::uint32_t hide_with(std::uint32_t set, std::uint32_t macro_id);
  std::uint32_t hide_intersect(std::uint32_t a, std::uint32_t b);
  std::uint32_t hide_union(std::uint32_t a, std::uint32_t b);
  [[nodiscard]] bool hidden(std::uint32_t set, std::uint32_t macro_id) const;
  [[nodiscard]] std::uint32_t id_of(std::string_view name) const;  // 0: not a macro

 private:
  CppNameMap<CppMacro> macros_;
  CppNameMap<std::vector<bool>> kept_;
  CppNameMap<std::uint32_t> ids_;  // macro name -> id (1, 2, ...), stable across #undef
  std::deque<std::string> text_;
  std::vector<std::vector<std::uint32_t>> sets_{{}};  // sorted ids
  std::unordered_map<std::string, std::uint32_t> set_index_;
  std::uint32_t intern(std::vector<std::uint32_t> set);
};

// Where expansion takes its tokens from: a list, then (for a function-like
// macro's arguments that go on past it) `more`, which returns the next
// token of the file or nullopt at its end or at a directive.
class CppExpander {
 public:
  using More = std::function<std::optional<CppToken>()>;
  using Builtin = std::function<std::optional<CppToken>(const CppToken&)>;  // __LINE__, __FILE__, ...

  CppExpander(CppMacros& macros, const Builtin& builtin, int nesting = 0)
      : m_(macros), builtin_(builtin), nesting_(nesting) {}

  // Expands `in` (and what `more` supplies while an invocation needs it)
  // into `out`. Errors: a message (the caller locates it) when a bound is
  // passed. A function-like macro whose arguments do not close stays as it
  // is; `unclosed` is set to its name, `unclosed_line` and `unclosed_col`
  // to where it was written (the first such macro's).
  Expected<bool, Diagnostic> run(std::vector<CppToken> in, std::vector<CppToken>& out, const More& more = {});
  std::string unclosed;
  std::uint32_t unclosed_line = 0, unclosed_col = 0;

 private:
  std::optional<CppToken> next();
  std::optional<CppToken> peek_paren();  // the next token if it is '(' (consumed), else nullopt (pushed back)
  // The arguments of an invocation whose '(' was read; nullopt if they do not close.
  std::optional<std::vector<std::vector<CppToken>>> arguments(CppToken& rparen);
  Expected<bool, Diagnostic> expand(const CppMacro& m, const CppToken& name, std::vector<std::vector<CppToken>> args,
                                     std::uint32_t hide);
  Expected<std::vector<CppToken>, Diagnostic> expanded_arg(const std::vector<CppToken>& arg);
  CppToken stringify(const std::vector<CppToken>& arg, const CppToken& at);
  std::optional<CppToken> paste(const CppToken& a, const CppToken& b, const CppToken& at);
  Expected<bool, Diagnostic> kept_invocation(const CppToken& name, const std::vector<bool>& expand_arg,
                                              std::vector<CppToken>& out);

  CppMacros& m_;
  const Builtin& builtin_;
  int nesting_;
  std::vector<CppToken> stack_;  // the input still to read, last first
  const More* more_ = nullptr;
};

// A #define's tokens after "define" as a macro (its name located in
// at.file); std::nullopt when they are not one (no name, a malformed
// parameter list).
std::optional<CppMacro> parse_macro_definition(const std::vector<CppToken>& t, const Location& at);

// Whether the tokens at t[i] register: a block macro, RegisterOperators, a
// .def( / .impl( / .fallback( call, or a macro whose body registers (the
// release's own macros, `prelude`, excepted at the top).
bool cpp_registers_at(const CppMacros& macros, const std::unordered_set<std::string>& prelude,
                      const std::vector<CppToken>& t, std::size_t i);
// Whether macro m's body registers, through the macros it uses (`seen`:
// those looked at, at most 64).
bool cpp_macro_registers(const CppMacros& macros, const std::unordered_set<std::string>& prelude, const CppMacro& m,
                         std::unordered_set<std::string>& seen);

}  // namespace dt
