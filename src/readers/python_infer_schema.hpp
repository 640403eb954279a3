// torch.library.infer_schema (torch/_library/infer_schema.py) over a `def`
// read statically: the nameless schema custom_op derives from a function's
// type annotations, per release.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "readers/python_parser.hpp"

namespace dt {

// What differs between the releases' infer_schema, as measured (the
// profile's [torch_library.python], tools/gen_torch_library.py; checked by
// tests/oracle/py_reader_oracle.py on a generated corpus): torch 2.6 knows
// typing.List / typing.Sequence only; 2.14 also the builtin `list[...]` and
// `collections.abc.Sequence[...]` (parameters) and `list[Tensor]` (returns).
// A one-element tuple return (`Tuple[Tensor]`): torch 2.6's infer_schema
// writes "-> (Tensor)" (one Tensor), 2.14's "-> ((Tensor))" (a tuple).
struct InferSchemaRelease {
  bool builtin_generics = false;
  bool one_tuple_kept = false;
};

// Why infer_schema gave no schema: the release's infer_schema refuses the
// function (`refused`: torch raises at import, a located error), or
// dispatchtool cannot know what it would write (an annotation or a default
// it cannot resolve statically: a located warning, the op not read).
struct InferError {
  Diagnostic diag;
  bool refused = false;
};

struct MutatesArgs {
  bool unknown = false;            // mutates_args="unknown"
  std::vector<std::string> names;  // otherwise
  Location at;
};

// `canonical` maps a name as written (dotted) to what it names after the
// module's imports ("Tensor" -> "torch.Tensor", "Optional" ->
// "typing.Optional", "int" -> "int"), nullopt for a name the reader cannot
// resolve. `default_repr` gives a parameter's default as infer_schema prints
// it ("1e-05", "\"a\"", "float32"), or why not. Returns the schema
// "(Tensor x, SymInt n=2) -> Tensor", alias-annotated for mutates_args as
// infer_schema does; errors are located at the parameter (or annotation).
using InferCanonical = std::function<std::optional<std::string>(const std::string&)>;
using InferDefault = std::function<Expected<std::string, InferError>(std::size_t param)>;
Expected<std::string, InferError> infer_schema(const PyFunction& fn, const MutatesArgs& mutates,
                                               const InferSchemaRelease& release, const InferCanonical& canonical,
                                               const InferDefault& default_repr);

// str() of a Python float literal's value, as Python prints it ("1e-05", "1.0").
std::string python_float_repr(double v);

}  // namespace dt
