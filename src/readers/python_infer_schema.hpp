// torch.library.infer_schema (torch/_library/infer_schema.py) over a `def`
// read statically: the nameless schema custom_op derives from a function's
// type annotations, per release.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "readers/python_parser.hpp"

namespace dt {

// What differs between the releases' infer_schema, as measured
// (tests/oracle/py_reader_oracle.py runs each release's own infer_schema on
// a generated corpus): torch 2.6 knows typing.List / typing.Sequence only;
// 2.14 also the builtin `list[...]` and `collections.abc.Sequence[...]`
// (parameters) and `list[Tensor]` (returns).
// A one-element tuple return (`Tuple[Tensor]`), which infer_schema writes
// "-> ((Tensor))": torch 2.6's schema parser reads it as the single return
// Tensor, 2.14's keeps the tuple ("-> ((Tensor))").
// A torch.dtype default is written by its name (str() less "torch."), for
// the release's dtype attributes: `dtypes` (the profile's
// SchemaGrammar::dtype_defaults; null or empty: the names every 2.x has).
struct InferSchemaRelease {
  bool builtin_generics = false;
  bool one_tuple_kept = false;
  const std::vector<std::pair<std::string, std::int64_t>>* dtypes = nullptr;
};

// The release traits of a profile's torch_version ("2.6.0+debian" -> 2.6):
// releases from 2.14 on as 2.14, earlier ones as 2.6.
InferSchemaRelease infer_schema_release(std::string_view torch_version);

struct MutatesArgs {
  bool unknown = false;            // mutates_args="unknown"
  std::vector<std::string> names;  // otherwise
  Location at;
};

// `canonical` maps a name as written (dotted) to what it names after the
// module's imports ("Tensor" -> "torch.Tensor", "Optional" -> "typing.Optional").
// Returns the schema "(Tensor x, SymInt n=2) -> Tensor", alias-annotated
// for mutates_args as infer_schema does. Errors are located at the parameter
// (or annotation) and say what infer_schema says.
Expected<std::string, Diagnostic> infer_schema(const PyFunction& fn, const MutatesArgs& mutates,
                                               const InferSchemaRelease& release,
                                               const std::function<std::string(const std::string&)>& canonical);

// str() of a Python float literal's value, as Python prints it ("1e-05", "1.0").
std::string python_float_repr(double v);

}  // namespace dt
