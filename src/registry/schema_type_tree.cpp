// c10's Union and Optional normalisation (schema_type_tree.hpp).
#include "registry/schema_type_tree.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace dt::schema_detail {

namespace {

TypeNode leaf(Kind kind, std::string name) { return TypeNode{kind, std::move(name), {}}; }
TypeNode number_type() { return leaf(Kind::Number, "Scalar"); }

const TypeNode& none_type() {
  static const TypeNode none = leaf(Kind::None, "NoneType");
  return none;
}

// What Scalar (NumberType) stands for in a Union: int, float and complex.
const std::vector<TypeNode>& number_members() {
  static const std::vector<TypeNode> members = {leaf(Kind::Int, "int"), leaf(Kind::Float, "float"),
                                                leaf(Kind::Complex, "complex")};
  return members;
}

bool is_number_member(Kind k) { return k == Kind::Int || k == Kind::Float || k == Kind::Complex; }

bool holds_kind(const TypeNode& u, Kind k) {
  return std::any_of(u.elems.begin(), u.elems.end(), [&](const TypeNode& e) { return e.kind == k; });
}

// A Union with int, float and complex among its members.
bool holds_numbers(const TypeNode& u) {
  return holds_kind(u, Kind::Int) && holds_kind(u, Kind::Float) && holds_kind(u, Kind::Complex);
}

// flattenUnion: nested Unions and Optionals dissolve, Scalar becomes int,
// float and complex.
void flatten(const TypeNode& t, std::vector<TypeNode>& out) {
  if (t.kind == Kind::Union) {
    for (const TypeNode& e : t.elems) flatten(e, out);
  } else if (t.kind == Kind::Optional) {
    flatten(t.elems[0], out);
    out.push_back(none_type());
  } else if (t.kind == Kind::Number) {
    out.insert(out.end(), number_members().begin(), number_members().end());
  } else {
    out.push_back(t);
  }
}

// UnionType's constructor when only one type is left: an internal assert,
// whose words name the types it was given.
std::string single_type(const std::vector<TypeNode>& reference, const TypeNode& left) {
  std::string msg = "After type unification was performed, the Union with the original types {";
  for (std::size_t i = 0; i < reference.size(); ++i) {
    msg += annotation_str(reference[i]);
    if (i > 0) msg += ',';
    msg += ' ';
  }
  return msg + "} has the single type " + annotation_str(left) +
         ". Use the common supertype instead of creating a Uniontype";
}

std::string too_complex(std::size_t limit) {
  return fmt::format("the Union types of this schema are too complex to normalise (limit: {} type comparisons)", limit);
}

}  // namespace

bool TypeAlgebra::spend() {
  if (++work_ > work_limit_) exhausted_ = true;
  return !exhausted_;
}

bool TypeAlgebra::equals(const TypeNode& a, const TypeNode& b) {
  if (!spend()) return false;
  switch (a.kind) {
    case Kind::Number:  // NumberType::equals
      if (b.kind == Kind::Union) return b.elems.size() == 3 && can_hold(b, a);
      return b.kind == Kind::Number;
    case Kind::List:
    case Kind::Future:
    case Kind::Await:
    case Kind::RRef:
    case Kind::Optional:  // (a normalised Union is never equal to an Optional)
      return b.kind == a.kind && equals(a.elems[0], b.elems[0]);
    case Kind::Dict:
    case Kind::Tuple:
      if (b.kind != a.kind || b.elems.size() != a.elems.size()) return false;
      for (std::size_t i = 0; i < a.elems.size(); ++i)
        if (!equals(a.elems[i], b.elems[i])) return false;
      return true;
    case Kind::Class:
      return b.kind == Kind::Class && a.name == b.name;
    case Kind::Union:
      if (b.kind == Kind::Number) return a.elems.size() == 3 && can_hold(a, b);
      if (b.kind != Kind::Union || b.elems.size() != a.elems.size()) return false;
      return std::all_of(a.elems.begin(), a.elems.end(), [&](const TypeNode& x) {
        return std::any_of(b.elems.begin(), b.elems.end(), [&](const TypeNode& y) { return equals(x, y); });
      });
    default:  // singletons and type variables (VarType::equals compares kinds only)
      return b.kind == a.kind;
  }
}

bool TypeAlgebra::can_hold(const TypeNode& u, const TypeNode& t) {
  if (t.kind == Kind::Number) {
    const auto& numbers = number_members();
    return std::all_of(numbers.begin(), numbers.end(), [&](const TypeNode& n) { return can_hold(u, n); });
  }
  return std::any_of(u.elems.begin(), u.elems.end(), [&](const TypeNode& m) { return is_subtype(t, m); });
}

// Type::isSubtypeOfExt.
bool TypeAlgebra::subtype_base(const TypeNode& a, const TypeNode& b) {
  if (b.kind == Kind::Any || equals(a, b)) return true;
  if (b.kind == Kind::Optional) return is_subtype(a, b.elems[0]);
  if (b.kind == Kind::Union)
    return std::any_of(b.elems.begin(), b.elems.end(), [&](const TypeNode& m) { return is_subtype(a, m); });
  return false;
}

bool TypeAlgebra::is_subtype(const TypeNode& a, const TypeNode& b) {
  if (!spend()) return false;
  switch (a.kind) {
    case Kind::None:
      return b.kind == Kind::Optional || subtype_base(a, b);
    case Kind::Int:
    case Kind::Float:
    case Kind::Complex:
      return b.kind == Kind::Number || subtype_base(a, b);
    case Kind::Number:
      if (b.kind == Kind::Union) return can_hold(b, a);
      return subtype_base(a, b);
    case Kind::Class:
      return b.kind == Kind::AnyClass || subtype_base(a, b);
    case Kind::Tuple:  // covariant
      if (subtype_base(a, b)) return true;
      if (b.kind != Kind::Tuple || b.elems.size() != a.elems.size()) return false;
      for (std::size_t i = 0; i < a.elems.size(); ++i)
        if (!is_subtype(a.elems[i], b.elems[i])) return false;
      return true;
    case Kind::Future:  // covariant
    case Kind::Await:
      return subtype_base(a, b) || (b.kind == a.kind && is_subtype(a.elems[0], b.elems[0]));
    case Kind::Optional:
      if (b.kind == Kind::Optional) return is_subtype(a.elems[0], b.elems[0]);
      if (b.kind == Kind::Union) return can_hold(b, none_type()) && can_hold(b, a.elems[0]);
      return subtype_base(a, b);
    case Kind::Union: {
      // Every member is a subtype of one of b's types (b's members; NoneType
      // and the element of an Optional; int, float and complex for Scalar).
      std::vector<const TypeNode*> rhs;
      if (b.kind == Kind::Union) {
        for (const TypeNode& m : b.elems) rhs.push_back(&m);
      } else if (b.kind == Kind::Optional) {
        rhs.push_back(&none_type());
        if (b.elems[0].kind == Kind::Number) {
          for (const TypeNode& m : number_members()) rhs.push_back(&m);
        } else {
          rhs.push_back(&b.elems[0]);
        }
      } else if (b.kind == Kind::Number) {
        for (const TypeNode& m : number_members()) rhs.push_back(&m);
      } else {
        rhs.push_back(&b);
      }
      return std::all_of(a.elems.begin(), a.elems.end(), [&](const TypeNode& x) {
        return std::any_of(rhs.begin(), rhs.end(), [&](const TypeNode* y) { return is_subtype(x, *y); });
      });
    }
    default:
      return subtype_base(a, b);
  }
}

Expected<std::optional<TypeNode>, std::string> TypeAlgebra::unify(const TypeNode& t1, const TypeNode& t2) {
  if (is_subtype(t1, t2)) return std::optional<TypeNode>(t2);
  if (is_subtype(t2, t1)) return std::optional<TypeNode>(t1);
  const bool none1 = is_subtype(t1, none_type());
  const bool none2 = is_subtype(t2, none_type());
  if (none1 != none2) {
    DT_TRY(opt, make_optional(none1 ? t2 : t1));
    return std::optional<TypeNode>(std::move(opt));
  }
  // unify(Optional[t1], t2) => Optional[unify(t1, t2)]
  if (t1.kind == Kind::Optional || t2.kind == Kind::Optional) {
    const bool first = t1.kind == Kind::Optional;
    auto elem = unify((first ? t1 : t2).elems[0], first ? t2 : t1);
    if (!elem) return elem;
    if (*elem) {
      DT_TRY(opt, make_optional(**elem));
      return std::optional<TypeNode>(std::move(opt));
    }
  }
  if (t1.kind == Kind::Tuple && t2.kind == Kind::Tuple) {
    if (t1.elems.size() != t2.elems.size()) return std::optional<TypeNode>();
    TypeNode tuple{Kind::Tuple, {}, {}};
    for (std::size_t i = 0; i < t1.elems.size(); ++i) {
      auto elem = unify(t1.elems[i], t2.elems[i]);
      if (!elem || !*elem) return elem;
      tuple.elems.push_back(std::move(**elem));
    }
    return std::optional<TypeNode>(std::move(tuple));
  }
  if ((t1.kind == Kind::Future || t1.kind == Kind::Await) && t2.kind == t1.kind) {
    auto elem = unify(t1.elems[0], t2.elems[0]);
    if (!elem || !*elem) return elem;
    return std::optional<TypeNode>(TypeNode{t1.kind, {}, {std::move(**elem)}});
  }
  if (exhausted_) return unexpected(too_complex(work_limit_));
  return std::optional<TypeNode>();
}

Expected<std::vector<TypeNode>, std::string> TypeAlgebra::standardize(const std::vector<TypeNode>& reference) {
  std::vector<TypeNode> types;
  for (const TypeNode& t : reference) flatten(t, types);
  // filterDuplicateSubtypes, step for step: from the right, each type is
  // unified with the first type to its left it unifies with (never a
  // NoneType with anything else); the unified type takes that place.
  if (!types.empty()) {
    std::size_t end = types.size() - 1;
    for (std::size_t i = types.size() - 1; i > 0; --i) {
      for (std::size_t j = std::min(i - 1, end);; --j) {
        const bool none_i = types[i].kind == Kind::None;
        const bool none_j = types[j].kind == Kind::None;
        if (none_i == none_j) {
          DT_TRY(unified, unify(types[i], types[j]));
          if (unified) {
            types[j] = std::move(*unified);
            types[i] = types[end];
            --end;
            break;
          }
        }
        if (j == 0) break;
      }
    }
    types.erase(types.begin() + static_cast<std::ptrdiff_t>(end) + 1, types.end());
  }
  if (exhausted_) return unexpected(too_complex(work_limit_));
  // sortUnion: by kind, then by str().
  std::vector<std::string> keys;
  keys.reserve(types.size());
  for (const TypeNode& t : types) keys.push_back(type_str(t));
  std::vector<std::size_t> order(types.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (types[a].kind != types[b].kind) return types[a].kind < types[b].kind;
    return keys[a] < keys[b];
  });
  std::vector<TypeNode> sorted;
  sorted.reserve(types.size());
  for (const std::size_t i : order) sorted.push_back(std::move(types[i]));
  return sorted;
}

Expected<TypeNode, std::string> TypeAlgebra::make_union(std::vector<TypeNode> members) {
  if (members.empty()) return unexpected(std::string("Cannot create an empty Union"));
  DT_TRY(types, standardize(members));
  if (types.size() < 2) return unexpected(single_type(members, types.front()));
  TypeNode u{Kind::Union, {}, std::move(types)};
  // UnionType::create: a Union of NoneType and one type (or int, float and
  // complex) is an Optional.
  if (holds_kind(u, Kind::None)) {
    if (u.elems.size() == 4 && holds_numbers(u)) return make_optional(number_type());
    if (u.elems.size() == 2) return make_optional(u.elems[0].kind != Kind::None ? u.elems[0] : u.elems[1]);
  }
  return u;
}

Expected<TypeNode, std::string> TypeAlgebra::make_optional(const TypeNode& contained) {
  // OptionalType is a UnionType of {contained, NoneType}, standardised.
  DT_TRY(types, standardize({contained, none_type()}));
  if (types.size() < 2) return unexpected(single_type({contained, none_type()}, types.front()));
  TypeNode opt{Kind::Optional, {}, {}};
  if (types.size() == 2) {
    opt.elems.push_back(types[0].kind != Kind::None ? std::move(types[0]) : std::move(types[1]));
  } else if (contained.kind == Kind::Number ||
             (contained.kind == Kind::Union && contained.elems.size() == 3 && can_hold(contained, number_type()))) {
    opt.elems.push_back(number_type());
  } else {
    std::vector<TypeNode> without_none;
    for (TypeNode& t : types)
      if (t.kind != Kind::None) without_none.push_back(std::move(t));
    TypeNode inner{Kind::Union, {}, {}};
    DT_TRY(standardized, standardize(without_none));
    inner.elems = std::move(standardized);
    opt.elems.push_back(std::move(inner));
  }
  if (exhausted_) return unexpected(too_complex(work_limit_));
  return opt;
}

void append_type_str(std::string& out, const TypeNode& t) {
  const auto append_list = [&](const std::vector<TypeNode>& elems) {
    for (std::size_t i = 0; i < elems.size(); ++i) {
      if (i > 0) out += ", ";
      append_type_str(out, elems[i]);
    }
  };
  switch (t.kind) {
    case Kind::List:
      append_type_str(out, t.elems[0]);
      out += "[]";
      break;
    case Kind::Optional:
      append_type_str(out, t.elems[0]);
      out += '?';
      break;
    case Kind::Tuple:
      out += '(';
      append_list(t.elems);
      out += ')';
      break;
    case Kind::Dict:
    case Kind::Future:
    case Kind::Await:
    case Kind::RRef:
      out += t.kind == Kind::Dict     ? "Dict("
             : t.kind == Kind::Future ? "Future("
             : t.kind == Kind::Await  ? "Await("
                                      : "RRef(";
      append_list(t.elems);
      out += ')';
      break;
    case Kind::Union: {
      // unionStr, comma placement included.
      const bool holds_number = holds_numbers(t);
      out += "Union(";
      bool printed = false;
      for (std::size_t i = 0; i < t.elems.size(); ++i) {
        if (holds_number && is_number_member(t.elems[i].kind)) continue;
        if (i > 0) {
          out += ", ";
          printed = true;
        }
        append_type_str(out, t.elems[i]);
      }
      if (holds_number) {
        if (printed) out += ", ";
        out += "Scalar";
      }
      out += ')';
      break;
    }
    default:
      out += t.name;
  }
}

std::string annotation_str(const TypeNode& t) {
  const auto list = [&](std::string_view head) {
    std::string out(head);
    out += '[';
    for (std::size_t i = 0; i < t.elems.size(); ++i) {
      if (i > 0) out += ", ";
      out += annotation_str(t.elems[i]);
    }
    if (t.kind == Kind::Tuple && t.elems.empty()) out += "()";
    return out + ']';
  };
  switch (t.kind) {
    case Kind::List:
      return list("List");
    case Kind::Optional:
      return list("Optional");
    case Kind::Tuple:
      return list("Tuple");
    case Kind::Dict:
      return list("Dict");
    case Kind::Future:
      return list("Future");
    case Kind::Await:
      return list("Await");
    case Kind::RRef:
      return list("RRef");
    case Kind::Union:
      return list("Union");
    case Kind::Number:
      return "number";
    default:
      return t.name;
  }
}

bool same_tree(const TypeNode& a, const TypeNode& b) {
  if (a.kind != b.kind || a.name != b.name || a.elems.size() != b.elems.size()) return false;
  for (std::size_t i = 0; i < a.elems.size(); ++i)
    if (!same_tree(a.elems[i], b.elems[i])) return false;
  return true;
}

std::string type_str(const TypeNode& t) {
  std::string out;
  append_type_str(out, t);
  return out;
}

}  // namespace dt::schema_detail
