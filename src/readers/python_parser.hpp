// Python expressions and `def` signatures over python_lexer's tokens: the
// part of Python's grammar registration code is written in -- calls with
// keyword arguments, dotted names, literals (strings, f-strings, numbers,
// tuples, lists, sets, dicts), subscripts and slices, `|`-joined type
// annotations, arithmetic, comparisons, `and` / `or` / `not`, conditional
// expressions and lambdas -- with Python's precedence. A comprehension or a
// walrus parses as Opaque: a value the reader does not know.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "readers/python_lexer.hpp"

namespace dt {

struct PyExpr {
  enum Kind : std::uint8_t {
    Name,       // text: dotted ("torch.library.impl")
    Str,        // text: the value (an f-string's raw text, braces and all, with `fstring`)
    Num,        // text: as written
    Call,       // base[0]: the callee; args; kwarg_names / kwargs
    Attr,       // base[0].text: the attribute of a non-name (f().x)
    Subscript,  // base[0][args[0]] (args[0] a Tuple for a, b; a Slice for a:b)
    BitOr,      // args joined by `|`
    Tuple,
    List,
    Set,
    Dict,       // args: keys, kwargs: values
    Neg,        // -base[0]
    Not,        // not base[0]
    Binary,     // args[0] text args[1]: + - * / // % ** @ & ^ << >>
    BoolOp,     // args joined by text ("and" / "or")
    Compare,    // args[0] ops[0] args[1] ops[1] args[2] ...: < > == != <= >= in "not in" is "is not"
    IfExp,      // args: body, condition, else
    Lambda,     // a function whose body the reader does not read
    Slice,      // args: lower, upper, step (Opaque with empty text where absent)
    Opaque
  };
  Kind kind = Opaque;
  std::string text;
  Location at;  // first character (Str: of the value, inside the quotes)
  bool fstring = false;
  std::vector<PyExpr> base;
  std::vector<PyExpr> args;
  // Call: keyword arguments, names and values (two vectors: a vector of an
  // incomplete type is allowed, a pair of one is not).
  std::vector<std::string> kwarg_names;
  std::vector<PyExpr> kwargs;
  std::vector<std::string> ops;  // Compare
  bool starred = false;          // Call has *args / **kwargs
  std::vector<PyExpr> star_args, star_kwargs;  // Call: *args, **kwargs

  [[nodiscard]] const PyExpr* kwarg(std::string_view name) const;
  [[nodiscard]] bool absent() const { return kind == Opaque && text.empty() && args.empty(); }
};

struct PyParam {
  std::string name;
  Location at;
  enum Kind : std::uint8_t { Positional, KeywordOnly, PositionalOnly, VarArgs, VarKw } kind = Positional;
  bool has_annotation = false, has_default = false;
  PyExpr annotation, default_value;
};

struct PyFunction {
  std::string name;
  Location at;  // the `def`
  std::vector<PyParam> params;
  bool has_return = false;
  PyExpr returns;
};

// Parses one expression from tokens[pos], advancing pos past it. Errors: a
// token no expression starts with, nesting deeper than 200.
Expected<PyExpr, Diagnostic> parse_py_expr(FileName file, const std::vector<PyToken>& tokens, std::size_t& pos);

// Parses `def NAME(PARAMS) [-> EXPR]:` from tokens[pos] (the `def`).
Expected<PyFunction, Diagnostic> parse_py_def(FileName file, const std::vector<PyToken>& tokens, std::size_t& pos);

// An f-string's parts: literal text (with `{{` `}}` unescaped) and the
// replacement fields' expressions (their `!r` / `:spec` suffixes dropped;
// `conversion` keeps the `!r`/`!s` letter). A field that does not parse is an
// Opaque expression.
struct FStringPart {
  bool literal = true;
  std::string text;
  PyExpr expr;
  char conversion = 0;
  bool has_spec = false;
};
std::vector<FStringPart> parse_fstring(FileName file, const PyExpr& fstring);

}  // namespace dt
