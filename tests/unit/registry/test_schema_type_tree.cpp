// c10's Union and Optional rules (registry/schema_type_tree.cpp), on trees:
// what UnionType::create and OptionalType::create make of their members, how
// unionStr prints, and the work budget. tests/oracle/schema_oracle.py checks
// the same rules through the parser against the live torch.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "registry/schema_type_tree.hpp"

namespace dt::test {
namespace {

using schema_detail::Kind;
using schema_detail::TypeAlgebra;
using schema_detail::TypeNode;

TypeNode leaf(Kind k, std::string name) { return TypeNode{k, std::move(name), {}}; }
TypeNode int_t() { return leaf(Kind::Int, "int"); }
TypeNode str_t() { return leaf(Kind::String, "str"); }
TypeNode none_t() { return leaf(Kind::None, "NoneType"); }
TypeNode number_t() { return leaf(Kind::Number, "Scalar"); }
TypeNode wrap(Kind k, TypeNode t) { return TypeNode{k, {}, {std::move(t)}}; }
TypeNode tuple(std::vector<TypeNode> elems) { return TypeNode{Kind::Tuple, {}, std::move(elems)}; }

std::string union_of(std::vector<TypeNode> members, std::size_t work_limit = limits::kSchemaUnionWork) {
  TypeAlgebra algebra(work_limit);
  auto t = algebra.make_union(std::move(members));
  return t ? schema_detail::type_str(*t) : "error: " + t.error();
}

std::string optional_of(const TypeNode& t) {
  TypeAlgebra algebra;
  auto o = algebra.make_optional(t);
  return o ? schema_detail::type_str(*o) : "error: " + o.error();
}

}  // namespace

TEST_CASE("schema_type_tree: a Union is flattened, unified, sorted by kind, and an Optional when T and None remain") {
  CHECK(union_of({str_t(), int_t(), str_t()}) == "Union(int, str)");
  CHECK(union_of({wrap(Kind::Optional, int_t()), str_t()}) == "Union(int, NoneType, str)");
  CHECK(union_of({int_t(), none_t()}) == "int?");
  CHECK(union_of({leaf(Kind::Var, "t"), leaf(Kind::Var, "l"), none_t()}) == "t?");  // VarType equals by kind
  CHECK(union_of({tuple({int_t(), str_t()}), tuple({none_t(), str_t()}), str_t()}) == "Union((int?, str), str)");
  CHECK(union_of({wrap(Kind::List, int_t()), wrap(Kind::List, wrap(Kind::Optional, int_t()))}) ==
        "Union(int?[], int[])");  // lists are invariant
  // UnionType's internal assert, whose words name the original types (annotation_str).
  CHECK(union_of({int_t(), leaf(Kind::Any, "Any")}) ==
        "error: After type unification was performed, the Union with the original types {int Any, } has the single "
        "type Any. Use the common supertype instead of creating a Uniontype");
  CHECK(union_of({none_t(), none_t()}) ==
        "error: After type unification was performed, the Union with the original types {NoneType NoneType, } has "
        "the single type NoneType. Use the common supertype instead of creating a Uniontype");
  CHECK(union_of({}) == "error: Cannot create an empty Union");
}

TEST_CASE("schema_type_tree: Scalar in a Union is int, float and complex, printed as unionStr does") {
  CHECK(union_of({number_t(), none_t()}) == "Scalar?");
  CHECK(union_of({number_t(), int_t()}) == "Union(Scalar)");
  CHECK(union_of({number_t(), str_t()}) == "Union(, str, Scalar)");
  CHECK(union_of({leaf(Kind::Tensor, "Tensor"), number_t()}) == "Union(TensorScalar)");
}

TEST_CASE("schema_type_tree: the Optional of an Optional, a Union or Scalar") {
  CHECK(optional_of(int_t()) == "int?");
  CHECK(optional_of(wrap(Kind::Optional, int_t())) == "int?");
  CHECK(optional_of(number_t()) == "Scalar?");
  CHECK(optional_of(wrap(Kind::Optional, number_t())) == "Union(Scalar)?");
  CHECK(optional_of(leaf(Kind::Any, "Any")) == "Any?");
  CHECK(optional_of(none_t()) ==
        "error: After type unification was performed, the Union with the original types {NoneType NoneType, } has "
        "the single type NoneType. Use the common supertype instead of creating a Uniontype");
  TypeAlgebra algebra;
  auto u = algebra.make_union({wrap(Kind::Optional, int_t()), str_t()});
  REQUIRE(u);
  CHECK(optional_of(*u) == "Union(int, str)?");
}

TEST_CASE("schema_type_tree: the work of normalising is bounded") {
  // 200 distinct members: about 20,000 pairs, several comparisons each.
  std::vector<TypeNode> members;
  for (int i = 0; i < 200; ++i) members.push_back(leaf(Kind::Class, "__torch__.torch.classes.a.C" + std::to_string(i)));
  CHECK(union_of(members, 10'000) ==
        "error: the Union types of this schema are too complex to normalise (limit: 10000 type comparisons)");
  const std::string fits = union_of(members, 1'000'000);
  CHECK(fits.rfind("Union(__torch__.torch.classes.a.C0, ", 0) == 0);
}

TEST_CASE("schema_type_tree: same_tree compares structure, type_str prints it") {
  CHECK(schema_detail::same_tree(wrap(Kind::List, int_t()), wrap(Kind::List, int_t())));
  CHECK_FALSE(schema_detail::same_tree(wrap(Kind::List, int_t()), wrap(Kind::Optional, int_t())));
  CHECK_FALSE(schema_detail::same_tree(leaf(Kind::Var, "t"), leaf(Kind::Var, "l")));
  CHECK(schema_detail::type_str(TypeNode{Kind::Dict, {}, {str_t(), wrap(Kind::Future, int_t())}}) ==
        "Dict(str, Future(int))");
}

TEST_CASE("schema_type_tree: annotation_str names types as c10's messages do") {
  CHECK(annotation_str(int_t()) == "int");
  CHECK(annotation_str(number_t()) == "number");
  CHECK(annotation_str(wrap(Kind::Optional, wrap(Kind::List, int_t()))) == "Optional[List[int]]");
  CHECK(annotation_str(tuple({int_t(), str_t()})) == "Tuple[int, str]");
  CHECK(annotation_str(tuple({})) == "Tuple[()]");
  CHECK(annotation_str(TypeNode{Kind::Await, {}, {int_t()}}) == "Await[int]");
}

}  // namespace dt::test
