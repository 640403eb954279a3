// Internal: the part of c10's type system that decides how a Union or an
// Optional is written (schema_parser.hpp builds these trees only for types
// inside a Union and for an Optional of a Union or of Scalar; every other type
// is printed while it is parsed). After torch 1.13's
//   aten/src/ATen/core/union_type.cpp  (flattenUnion, filterDuplicateSubtypes,
//                                       sortUnion, UnionType::create, unionStr,
//                                       OptionalType's constructor)
//   aten/src/ATen/core/type.cpp        (unifyTypes, Type::isSubtypeOfExt)
//   aten/src/ATen/core/jit_type.h      (equals and isSubtypeOfExt overrides)
// The trees hold "fake" types (ScalarType is int, Dimname is str), as
// PyTorch's Union members do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/expected.hpp"
#include "base/limits.hpp"

namespace dt::schema_detail {

// The type kinds that matter here, in c10::TypeKind order (Union members are
// sorted by it). Kinds are those of PyTorch's "fake" types: ScalarType,
// Layout, MemoryFormat and SymInt are Int, Dimname is String.
enum class Kind : std::uint8_t {
  Any,
  AnyEnum,
  Tensor,
  Storage,
  Tuple,
  List,
  Dict,
  Number,
  Float,
  Complex,
  Future,
  Await,
  RRef,
  Int,
  None,
  String,
  Generator,
  Quantizer,
  Bool,
  Optional,
  Var,
  Device,
  Stream,
  Class,
  Capsule,
  QScheme,
  AnyClass,
  SymFloat,
  SymBool,
  Union,
};

// A type: a leaf (`name` as printed: "int", "Scalar", a type variable, a
// custom class) or a container of `elems`: List, Optional, Future, RRef (1),
// Dict (key, value), Tuple (n), Union (n, normalised and sorted).
struct TypeNode {
  Kind kind = Kind::Any;
  std::string name;
  std::vector<TypeNode> elems;
};

// Union normalisation with a work budget shared by one schema's types
// (limits::kSchemaUnionWork: PyTorch's algorithm is quadratic in a Union's
// members and recurses into tuples, so a hostile schema could make it explode).
// Errors are messages; the parser locates them.
class TypeAlgebra {
 public:
  explicit TypeAlgebra(std::size_t work_limit = limits::kSchemaUnionWork) : work_limit_(work_limit) {}

  // UnionType::create(members): flattened, deduplicated by unification,
  // sorted; an Optional when only T and NoneType remain.
  Expected<TypeNode, std::string> make_union(std::vector<TypeNode> members);
  // OptionalType::create(contained): "int??" is "int?", "Union(int?, str)?"
  // is "Union(int, str)?", "Scalar??" is "Union(Scalar)?".
  Expected<TypeNode, std::string> make_optional(const TypeNode& contained);

 private:
  // Type::isSubtypeOf and Type::operator== (equals), as c10 defines them for
  // these kinds: a type variable equals every type variable, tuples and
  // futures are covariant, lists and dicts invariant.
  bool is_subtype(const TypeNode& a, const TypeNode& b);
  bool subtype_base(const TypeNode& a, const TypeNode& b);
  bool equals(const TypeNode& a, const TypeNode& b);
  // UnionType::canHoldType; `t` Number means int, float and complex.
  bool can_hold(const TypeNode& u, const TypeNode& t);
  // unifyTypes(t1, t2, /*default_to_union=*/false).
  Expected<std::optional<TypeNode>, std::string> unify(const TypeNode& t1, const TypeNode& t2);
  // standardizeVectorForUnion: flatten, filterDuplicateSubtypes, sortUnion.
  Expected<std::vector<TypeNode>, std::string> standardize(const std::vector<TypeNode>& reference);
  bool spend();

  std::size_t work_limit_;
  std::size_t work_ = 0;
  bool exhausted_ = false;
};

// Type::str(): "int[]", "(int, str)", "Dict(str, int)", "int?", and
// unionStr, which (in 1.13) prints a Union that holds int, float and complex
// as "Scalar" after its other members, with a comma placement of its own:
// "Union(, str, Scalar)", "Union(TensorScalar)".
std::string type_str(const TypeNode& t);
// Type::annotation_str(), as c10's messages name types: "int",
// "Optional[int]", "List[Tensor]", "Union[int, str]", "number" (Scalar).
std::string annotation_str(const TypeNode& t);
// Structurally identical (kinds, names and elements).
bool same_tree(const TypeNode& a, const TypeNode& b);
void append_type_str(std::string& out, const TypeNode& t);

}  // namespace dt::schema_detail
