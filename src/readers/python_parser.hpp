// Python expressions and `def` signatures over python_lexer's tokens: the
// part of Python's grammar the torch.library forms are written in (calls with
// keyword arguments, dotted names, literals, tuples and lists, subscripted and
// `|`-joined type annotations). Anything else (a lambda, arithmetic, a
// comprehension) parses as Opaque: a value the reader does not know.
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
  enum Kind : std::uint8_t { Name, Str, Num, Call, Attr, Subscript, BitOr, Tuple, List, Neg, Opaque };
  Kind kind = Opaque;
  std::string text;  // Name: dotted ("torch.library.impl"); Str: the value; Num: as written; Attr: the attribute
  Location at;       // first character (Str: of the value, inside the quotes)
  bool fstring = false;
  std::vector<PyExpr> base;  // Call: the callee; Attr, Subscript: the object; Neg: the operand
  std::vector<PyExpr> args;  // Call: positional; Subscript: the index (a Tuple for a, b); Tuple, List, BitOr: items
  // Call: keyword arguments, names and values (two vectors: a vector of an
  // incomplete type is allowed, a pair of one is not).
  std::vector<std::string> kwarg_names;
  std::vector<PyExpr> kwargs;
  bool starred = false;                                // Call has *args / **kwargs

  [[nodiscard]] const PyExpr* kwarg(std::string_view name) const;
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

}  // namespace dt
