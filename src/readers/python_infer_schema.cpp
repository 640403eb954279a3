// infer_schema, statically (readers/python_infer_schema.hpp).
#include "readers/python_infer_schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <set>

namespace dt {

std::string python_float_repr(double v) {
  if (v != v) return "nan";
  if (v == 1.0 / 0.0) return "inf";
  if (v == -1.0 / 0.0) return "-inf";
  // fmt's shortest round-trip form ("123.45", "100", "1e+16", "1.5e-07"),
  // as its digits and the decimal exponent of the first one.
  std::string s = fmt::format("{}", v);
  const bool neg = s[0] == '-';
  if (neg) s.erase(0, 1);
  int exp10 = 0;
  if (const std::size_t epos = s.find('e'); epos != std::string::npos) {
    exp10 = std::atoi(s.c_str() + epos + 1);
    s.resize(epos);
  }
  const std::size_t dot = s.find('.');
  const std::string int_part = dot == std::string::npos ? s : s.substr(0, dot);
  std::string digits = int_part + (dot == std::string::npos ? "" : s.substr(dot + 1));
  const std::size_t first = digits.find_first_not_of('0');
  int exp = 0;
  if (first == std::string::npos) {
    digits = "0";
  } else {
    exp = exp10 + static_cast<int>(int_part.size()) - 1 - static_cast<int>(first);
    digits.erase(0, first);
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  }
  std::string out;
  if (exp >= -5 + 1 && exp < 16) {  // Python's repr: fixed for -4 <= exp < 16
    if (exp >= 0) {
      if (static_cast<int>(digits.size()) <= exp + 1) {
        out = digits + std::string(static_cast<std::size_t>(exp + 1) - digits.size(), '0') + ".0";
      } else {
        out = digits.substr(0, static_cast<std::size_t>(exp + 1)) + "." +
              digits.substr(static_cast<std::size_t>(exp + 1));
      }
    } else {
      out = "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
    }
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += fmt::format("e{}{:02d}", exp < 0 ? '-' : '+', std::abs(exp));
  }
  return neg ? "-" + out : out;
}

namespace {

using Canon = InferCanonical;

// A base type of SUPPORTED_PARAM_TYPES by its canonical name.
struct Base {
  std::string_view python, schema;
  bool list_base, optional_base_list, optional_list_base;
};
constexpr Base kBases[] = {
    {"torch.Tensor", "Tensor", true, true, false},
    {"int", "SymInt", true, false, true},
    {"float", "float", true, false, true},
    {"bool", "bool", true, false, true},
    {"str", "str", false, false, false},
    {"torch.types.Number", "Scalar", true, false, false},
    {"torch.dtype", "ScalarType", false, false, false},
    {"torch.device", "Device", false, false, false},
};

const Base* base_named(const std::string& n) {
  for (const Base& b : kBases)
    if (b.python == n) return &b;
  return nullptr;
}

class Inferer {
 public:
  Inferer(const InferSchemaRelease& rel, const Canon& canon) : rel_(rel), canon_(canon) {}

  // The canonical name of a Name expression ("" for anything else).
  std::string name_of(const PyExpr& e) const {
    if (e.kind == PyExpr::Name) return canon_(e.text).value_or("");
    return {};
  }

  // A name in an annotation the reader cannot resolve, or one whose meaning
  // to infer_schema it does not know (a type alias of another package).
  std::optional<std::pair<std::string, Location>> unknown_name(const PyExpr& e) const {
    if (e.kind == PyExpr::Name) {
      if (e.text == "None") return std::nullopt;
      auto c = canon_(e.text);
      if (!c) return std::make_pair(e.text, e.at);
      static constexpr std::string_view kKnown[] = {
          "torch.Tensor", "torch.types.Number", "torch.dtype", "torch.device", "int", "float", "bool", "str",
          "complex", "dict", "list", "tuple", "set", "frozenset", "bytes", "object", "type", "collections.abc.Sequence"};
      if (c->starts_with("typing.") || c->starts_with("typing_extensions.")) return std::nullopt;
      for (std::string_view k : kKnown)
        if (*c == k) return std::nullopt;
      return std::make_pair(*c, e.at);
    }
    if (e.kind == PyExpr::Subscript || e.kind == PyExpr::BitOr || e.kind == PyExpr::Tuple) {
      for (const auto& b : e.base)
        if (auto u = unknown_name(b)) return u;
      for (const auto& a : e.args)
        if (auto u = unknown_name(a)) return u;
      return std::nullopt;
    }
    if (e.kind == PyExpr::List) return std::nullopt;
    return std::make_pair(std::string("an annotation expression"), e.at);
  }

  // Members of a Union (Optional[X], Union[...], X | Y); empty if not a union.
  std::optional<std::vector<const PyExpr*>> union_members(const PyExpr& e) const {
    std::vector<const PyExpr*> out;
    if (e.kind == PyExpr::BitOr) {
      for (const auto& a : e.args) {
        auto inner = union_members(a);
        if (inner)
          out.insert(out.end(), inner->begin(), inner->end());
        else
          out.push_back(&a);
      }
      return out;
    }
    if (e.kind == PyExpr::Subscript) {
      const std::string n = name_of(e.base[0]);
      const PyExpr& idx = e.args[0];
      if (n == "typing.Optional") {
        out.push_back(&idx);
        out.push_back(&none_);
        return out;
      }
      if (n == "typing.Union") {
        if (idx.kind == PyExpr::Tuple) {
          for (const auto& a : idx.args) {
            auto inner = union_members(a);
            if (inner)
              out.insert(out.end(), inner->begin(), inner->end());
            else
              out.push_back(&a);
          }
        } else {
          out.push_back(&idx);
        }
        return out;
      }
    }
    return std::nullopt;
  }

  static bool is_none(const PyExpr& e) { return e.kind == PyExpr::Name && e.text == "None"; }

  // The base type a non-generic annotation names ("torch.Tensor", "int", ...),
  // the Number union included.
  const Base* base(const PyExpr& e) const {
    if (const Base* b = base_named(name_of(e))) return b;
    if (auto m = union_members(e); m && !has_none(*m)) {
      std::set<std::string> names;
      for (const PyExpr* x : *m) names.insert(name_of(*x));
      if (names == std::set<std::string>{"int", "float", "bool"}) return base_named("torch.types.Number");
    }
    return nullptr;
  }
  static bool has_none(const std::vector<const PyExpr*>& m) {
    return std::any_of(m.begin(), m.end(), [](const PyExpr* x) { return is_none(*x); });
  }

  // X of Optional[X] (a union of X and None, X possibly the Number union).
  std::optional<PyExpr> optional_of(const PyExpr& e) const {
    auto m = union_members(e);
    if (!m || !has_none(*m)) return std::nullopt;
    std::vector<const PyExpr*> rest;
    for (const PyExpr* x : *m)
      if (!is_none(*x)) rest.push_back(x);
    if (rest.size() == 1) return *rest[0];
    if (rest.empty()) return std::nullopt;
    PyExpr u;
    u.kind = PyExpr::BitOr;
    for (const PyExpr* x : rest) u.args.push_back(*x);
    return u;
  }

  // The element of Sequence[X] / List[X] (and, where the release has them,
  // list[X] / collections.abc.Sequence[X]).
  const PyExpr* seq_of(const PyExpr& e) const {
    if (e.kind != PyExpr::Subscript || e.args[0].kind == PyExpr::Tuple) return nullptr;
    const std::string n = name_of(e.base[0]);
    if (n == "typing.Sequence" || n == "typing.List") return &e.args[0];
    if (rel_.builtin_generics && (n == "list" || n == "collections.abc.Sequence")) return &e.args[0];
    return nullptr;
  }

  std::optional<std::string> param_type(const PyExpr& e) const {
    if (const Base* b = base(e)) return std::string(b->schema);
    if (auto inner = optional_of(e)) {
      if (const Base* b = base(*inner)) return std::string(b->schema) + "?";
      if (const PyExpr* el = seq_of(*inner))
        if (const Base* b = base(*el); b && b->optional_list_base) return std::string(b->schema) + "[]?";
      return std::nullopt;
    }
    if (const PyExpr* el = seq_of(e)) {
      if (const Base* b = base(*el); b && b->list_base) return std::string(b->schema) + "[]";
      if (auto inner = optional_of(*el))
        if (const Base* b = base(*inner); b && b->optional_base_list) return std::string(b->schema) + "?[]";
    }
    return std::nullopt;
  }

  std::optional<std::string> return_one(const PyExpr& e) const {
    const std::string n = name_of(e);
    if (n == "torch.Tensor") return "Tensor";
    if (n == "int") return "SymInt";
    if (n == "float" || n == "bool") return n;
    if (const Base* b = base(e); b && b->schema == "Scalar") return "Scalar";
    if (e.kind == PyExpr::Subscript && e.args[0].kind != PyExpr::Tuple && name_of(e.args[0]) == "torch.Tensor") {
      const std::string g = name_of(e.base[0]);
      if (g == "typing.List" || (rel_.builtin_generics && g == "list")) return "Tensor[]";
    }
    return std::nullopt;
  }

  // `None` return: "()"; tuple[...] / Tuple[...]: "(A, B)", one element "(A)" or "((A))".
  std::optional<std::string> return_type(const PyExpr& e) const {
    if (is_none(e)) return "()";
    if (e.kind == PyExpr::Subscript) {
      const std::string g = name_of(e.base[0]);
      if (g == "typing.Tuple" || g == "tuple") {
        const PyExpr& idx = e.args[0];
        std::vector<const PyExpr*> items;
        if (idx.kind == PyExpr::Tuple)
          for (const auto& a : idx.args) items.push_back(&a);
        else
          items.push_back(&idx);
        std::string out;
        for (const PyExpr* a : items) {
          auto t = return_one(*a);
          if (!t) return std::nullopt;
          out += (out.empty() ? "" : ", ") + *t;
        }
        if (items.size() == 1 && rel_.one_tuple_kept) out = "(" + out + ")";
        return "(" + out + ")";
      }
    }
    return return_one(e);
  }

 private:
  const InferSchemaRelease& rel_;
  const Canon& canon_;
  PyExpr none_ = [] {
    PyExpr n;
    n.kind = PyExpr::Name;
    n.text = "None";
    return n;
  }();
};

Expected<std::string, InferError> refuse(Location at, std::string what) {
  return unexpected(InferError{make_error(std::move(at), "infer_schema(func): " + std::move(what)), true});
}

Expected<std::string, InferError> unknown(Location at, std::string what) {
  return unexpected(InferError{make_error(std::move(at), std::move(what)), false});
}

}  // namespace

Expected<std::string, InferError> infer_schema(const PyFunction& fn, const MutatesArgs& mutates,
                                               const InferSchemaRelease& release, const Canon& canonical,
                                               const InferDefault& default_repr) {
  Inferer inf(release, canonical);
  std::vector<std::string> params;
  std::set<std::string> seen;
  bool kw_only = false;
  for (std::size_t idx = 0; idx < fn.params.size(); ++idx) {
    const PyParam& p = fn.params[idx];
    if (p.kind != PyParam::Positional && p.kind != PyParam::KeywordOnly)
      return refuse(p.at, "We do not support positional-only args, varargs, or varkwargs.");
    if (p.kind == PyParam::KeywordOnly && !kw_only) {
      params.emplace_back("*");
      kw_only = true;
    }
    if (!p.has_annotation) return refuse(p.at, fmt::format("Parameter {} must have a type annotation.", p.name));
    if (p.annotation.kind == PyExpr::Str)
      return unknown(p.annotation.at, fmt::format("parameter {}'s annotation is a string: dispatchtool reads "
                                                  "annotations written as expressions only",
                                                  p.name));
    if (auto u = inf.unknown_name(p.annotation))
      return unknown(u->second, fmt::format("parameter {}'s annotation names {}, which dispatchtool cannot resolve to "
                                            "a type infer_schema knows",
                                            p.name, u->first));
    auto type = inf.param_type(p.annotation);
    if (!type)
      return refuse(p.annotation.at, fmt::format("Parameter {} has unsupported type (not one of "
                                               "torch.library.infer_schema's SUPPORTED_PARAM_TYPES "
                                               "in this release).",
                                               p.name));
    const bool tensorish = type->starts_with("Tensor");
    const bool mutated = mutates.unknown
                             ? tensorish
                             : std::find(mutates.names.begin(), mutates.names.end(), p.name) != mutates.names.end();
    if (mutated) {
      if (!tensorish)
        return refuse(p.at, fmt::format("Parameter {} is in mutable_args but only Tensors or collections of "
                                      "Tensors can be mutated",
                                      p.name));
      *type = fmt::format("Tensor(a{}!){}", idx, type->substr(6));
    }
    seen.insert(p.name);
    if (!p.has_default) {
      params.push_back(*type + " " + p.name);
    } else {
      DT_TRY(d, default_repr(idx));
      params.push_back(fmt::format("{} {}={}", *type, p.name, d));
    }
  }
  if (!mutates.unknown)
    for (const std::string& m : mutates.names)
      if (seen.count(m) == 0)
        return refuse(mutates.at, fmt::format("{{'{}'}} in mutates_args were not found in the custom op's signature. "
                                            "mutates_args should contain the names of all args that the custom op "
                                            "mutates, or just the string 'unknown' if you don't know.",
                                            m));
  if (!fn.has_return) return refuse(fn.at, "No return type annotation was provided. Please add one.");
  if (fn.returns.kind == PyExpr::Str)
    return unknown(fn.returns.at, "the return annotation is a string: dispatchtool reads annotations written as "
                                  "expressions only");
  if (auto u = inf.unknown_name(fn.returns))
    return unknown(u->second, fmt::format("the return annotation names {}, which dispatchtool cannot resolve to a "
                                          "type infer_schema knows",
                                          u->first));
  auto ret = inf.return_type(fn.returns);
  if (!ret)
    return refuse(fn.returns.at,
                "Return has unsupported type (not one of torch.library.infer_schema's "
                "SUPPORTED_RETURN_TYPES in this release).");
  std::string out = "(";
  for (std::size_t i = 0; i < params.size(); ++i) out += (i ? ", " : "") + params[i];
  return out + ") -> " + *ret;
}

}  // namespace dt
