// cpp_schema_type, infer_signature, find_function (cpp_signature.hpp): the
// C++ -> schema type table of c10's infer_schema.h
// (c10::detail::infer_schema::createArguments, getTypePtr in
// ATen/core/jit_type.h) for the types kernels use.
#include "readers/cpp_signature.hpp"

#include <fmt/format.h>

#include <array>
#include <unordered_map>
#include <utility>

namespace dt {

namespace {

// The type's spelling without cv/ref qualifiers and without the namespaces
// at:: c10:: std:: torch:: ::, e.g. "optional<Tensor>"; an unqualified
// name of `aliases` is the type it names. Empty past kMaxTypeText bytes (no
// kernel type is that long; aliases of aliases could double it each time).
constexpr std::size_t kMaxTypeText = 4096;
std::string plain(const std::vector<CppToken>& toks, std::size_t b, std::size_t e, bool& ref, bool& cnst,
                  const CppAliases* aliases = nullptr) {
  std::string out;
  for (std::size_t i = b; i < e; ++i) {
    const CppToken& t = toks[i];
    if (aliases != nullptr && t.kind == CppToken::Kind::Ident && (i == b || !toks[i - 1].is("::")) &&
        (i + 1 == e || !toks[i + 1].is("::"))) {
      if (const auto it = aliases->find(t.text); it != aliases->end()) {
        out += it->second.plain;
        if (out.size() > kMaxTypeText) return {};
        ref = ref || it->second.ref;
        cnst = cnst || it->second.cnst;
        continue;
      }
    }
    if (t.is("const")) {
      cnst = true;
      continue;
    }
    if (t.is("&")) {
      ref = true;
      continue;
    }
    if ((t.is("at") || t.is("c10") || t.is("std") || t.is("torch")) && i + 1 < e && toks[i + 1].is("::")) {
      ++i;
      continue;
    }
    if (t.is("::") && (i == b || out.empty() || out.back() == '<' || out.back() == ',')) continue;
    out += t.text;
    if (out.size() > kMaxTypeText) return {};
  }
  return out;
}

std::optional<std::string> scalar(std::string_view t) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 27> kTypes = {{
      {"Tensor", "Tensor"},         {"int64_t", "int"},           {"double", "float"},
      {"bool", "bool"},             {"Scalar", "Scalar"},         {"IntArrayRef", "int[]"},
      {"TensorList", "Tensor[]"},   {"string_view", "str"},       {"string", "str"},
      {"SymInt", "SymInt"},         {"SymIntArrayRef", "SymInt[]"}, {"ScalarType", "ScalarType"},
      {"Layout", "Layout"},         {"Device", "Device"},         {"MemoryFormat", "MemoryFormat"},
      {"Generator", "Generator"},   {"Storage", "Storage"},       {"Stream", "Stream"},
      {"Dimname", "Dimname"},       {"DimnameList", "Dimname[]"}, {"QScheme", "QScheme"},
      {"OptionalIntArrayRef", "int[]?"}, {"OptionalSymIntArrayRef", "SymInt[]?"}, {"ITensorListRef", "Tensor[]"},
      {"SymFloat", "SymFloat"},     {"SymBool", "SymBool"},       {"IValue", "Any"},
  }};
  for (const auto& [c, s] : kTypes)
    if (t == c) return std::string(s);
  return std::nullopt;
}

// The arguments of a template's argument list ("A,B<C,D>,E" -> A, B<C,D>, E),
// split at its top-level commas; nothing when its angle brackets do not balance.
std::optional<std::vector<std::string_view>> template_args(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t c = 0; c < s.size(); ++c) {
    if (s[c] == '<') {
      ++depth;
    } else if (s[c] == '>') {
      if (--depth < 0) return std::nullopt;
    } else if (s[c] == ',' && depth == 0) {
      out.push_back(s.substr(start, c - start));
      start = c + 1;
    }
  }
  if (depth != 0) return std::nullopt;
  out.push_back(s.substr(start));
  return out;
}

// "optional<Tensor>" -> "Tensor?", "ArrayRef<int64_t>" -> "int[]", ...
std::optional<std::string> schema_of(std::string_view t, int depth = 0) {
  if (auto s = scalar(t)) return s;
  if (depth > 3) return std::nullopt;  // no kernel type nests deeper (vector<vector<optional<Tensor>>>)
  auto inner = [&](std::string_view tmpl) -> std::optional<std::string_view> {
    if (t.size() > tmpl.size() + 2 && t.starts_with(tmpl) && t[tmpl.size()] == '<' && t.back() == '>')
      return t.substr(tmpl.size() + 1, t.size() - tmpl.size() - 2);
    return std::nullopt;
  };
  if (auto in = inner("optional")) {
    auto s = schema_of(*in, depth + 1);
    if (!s || s->ends_with('?')) return std::nullopt;
    return *s + "?";
  }
  if (auto in = inner("complex")) {  // c10::complex<double> (complex<float> is not a kernel type)
    if (*in == "double") return std::string("complex");
    return std::nullopt;
  }
  // c10::Dict<K, V>: "Dict(K, V)".
  if (auto in = inner("Dict")) {
    const auto a = template_args(*in);
    if (!a || a->size() != 2) return std::nullopt;
    auto k = schema_of((*a)[0], depth + 1);
    auto v = schema_of((*a)[1], depth + 1);
    if (!k || !v) return std::nullopt;
    return "Dict(" + *k + ", " + *v + ")";
  }
  // std::array<T, N>: a list of T (getTypePtr_<std::array<T, N>>: the size is not part of the type).
  if (auto in = inner("array")) {
    const auto a = template_args(*in);
    if (!a || a->size() != 2 || (*a)[1].empty()) return std::nullopt;
    for (char c : (*a)[1])
      if (c < '0' || c > '9') return std::nullopt;
    auto s = schema_of((*a)[0], depth + 1);
    if (!s || s->ends_with("]") || s->ends_with("?")) return std::nullopt;
    return *s + "[]";
  }
  // std::tuple<A, B> as an argument: "(A, B)" (a return's tuple is several returns: infer_signature).
  if (auto in = inner("tuple")) {
    const auto a = template_args(*in);
    if (!a || a->empty()) return std::nullopt;
    std::string out = "(";
    for (std::size_t k = 0; k < a->size(); ++k) {
      auto s = schema_of((*a)[k], depth + 1);
      if (!s) return std::nullopt;
      out += (k == 0 ? "" : ", ") + *s;
    }
    return out + ")";
  }
  for (std::string_view list : {"ArrayRef", "vector", "List"}) {
    if (auto in = inner(list)) {
      auto s = schema_of(*in, depth + 1);
      // A list of lists: std::vector<std::vector<T>>, c10::List<c10::List<T>> ("T[][]", measured on 2.14).
      const bool nested = list != "ArrayRef" && in->starts_with(list) && in->substr(list.size()).starts_with("<");
      if (!s || (s->ends_with("]") && !nested) || (s->ends_with("?") && *s != "Tensor?")) return std::nullopt;
      if (*s == "Tensor?" && list != "List") return std::nullopt;
      return *s + "[]";
    }
  }
  return std::nullopt;
}

}  // namespace

CppAliases index_aliases(const std::vector<CppToken>& toks) {
  CppAliases out;
  const auto add = [&](std::string_view name, std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; ++k)
      if (toks[k].is("(") || toks[k].is("[") || toks[k].is("{")) return;  // a function pointer, an array, a struct
    CppAlias a;
    a.plain = plain(toks, b, e, a.ref, a.cnst, &out);
    if (!a.plain.empty()) out.try_emplace(name, std::move(a));
  };
  for (std::size_t i = 0; i < toks.size(); ++i) {
    if (toks[i].is("using") && i + 3 < toks.size() && toks[i + 1].kind == CppToken::Kind::Ident &&
        toks[i + 2].is("=") && !(i > 0 && toks[i - 1].is(">"))) {  // not an alias template
      std::size_t e = i + 3;
      while (e < toks.size() && !toks[e].is(";")) ++e;
      add(toks[i + 1].text, i + 3, e);
      i = e;
    } else if (toks[i].is("typedef")) {
      std::size_t e = i + 1;
      while (e < toks.size() && !toks[e].is(";") && !toks[e].is("{")) ++e;
      if (e < toks.size() && toks[e].is(";") && e >= i + 3 && toks[e - 1].kind == CppToken::Kind::Ident)
        add(toks[e - 1].text, i + 1, e - 1);
      i = e;
    }
  }
  return out;
}

std::optional<std::string> cpp_schema_type(const std::vector<CppToken>& toks, std::size_t b, std::size_t e,
                                           const CppAliases* aliases) {
  bool ref = false, cnst = false;
  const std::string t = plain(toks, b, e, ref, cnst, aliases);
  // A non-const reference is a kernel argument only for Tensor (Tensor&).
  if (ref && !cnst && t != "Tensor") return std::nullopt;
  return schema_of(t);
}

std::optional<std::string> infer_signature(const std::vector<CppToken>& toks, std::size_t rb, std::size_t re,
                                           std::size_t pb, std::size_t pe, std::string& why,
                                           const CppAliases* aliases) {
  std::string out = "(";
  std::size_t n = 0, i = pb;
  while (i < pe) {
    std::size_t j = i;
    int depth = 0;
    while (j < pe && !(depth == 0 && toks[j].is(","))) {
      if (toks[j].is("<") || toks[j].is("(")) ++depth;
      if (toks[j].is(">") || toks[j].is(")")) --depth;
      ++j;
    }
    // Drop the parameter's name (and a default value) when there is one.
    std::size_t end = j;
    for (std::size_t k = i; k < j; ++k)
      if (toks[k].is("=")) end = k;
    if (end - i >= 2 && toks[end - 1].kind == CppToken::Kind::Ident && !toks[end - 2].is("::")) {
      bool type_before = false;
      for (std::size_t k = i; k + 1 < end; ++k)
        if (toks[k].kind == CppToken::Kind::Ident && !toks[k].is("const")) type_before = true;
      if (type_before) --end;
    }
    if (end == i) {
      why = "an unnamed or empty parameter";
      return std::nullopt;
    }
    if (end == i + 1 && toks[i].is("void") && n == 0 && j == pe) break;
    if (i == pb) {  // c10 drops a first DispatchKeySet (by value) from the schema: remove_DispatchKeySet_arg_from_func
      bool ref = false, cnst = false;
      if (plain(toks, i, end, ref, cnst, aliases) == "DispatchKeySet" && !ref) {
        i = j + 1;
        continue;
      }
    }
    auto s = cpp_schema_type(toks, i, end, aliases);
    if (!s) {
      why = "parameter type '";
      for (std::size_t k = i; k < end && why.size() < 80; ++k) why += std::string(toks[k].text) + (k + 1 < end ? " " : "");
      if (why.size() >= 80) why = why.substr(0, 77) + "...";
      why += "'";
      return std::nullopt;
    }
    out += (n ? ", " : "") + *s + " _" + std::to_string(n);
    ++n;
    i = j + 1;
  }
  out += ") -> ";
  // The return: void, one type, or std::tuple<...>.
  bool ref = false, cnst = false;
  const std::string r = plain(toks, rb, re, ref, cnst, aliases);
  if (r == "void") return out + "()";
  if (r.starts_with("tuple<") && r.back() == '>') {
    const auto a = template_args(std::string_view(r).substr(6, r.size() - 7));
    std::string rets = "(";
    for (std::size_t k = 0; a && k < a->size(); ++k) {
      auto s = schema_of((*a)[k]);
      if (!s) break;
      rets += (k ? ", " : "") + *s + " _" + std::to_string(k);
      if (k + 1 == a->size()) return out + rets + ")";
    }
    why = "return type '" + (r.size() > 80 ? r.substr(0, 77) + "..." : r) + "'";
    return std::nullopt;
  }
  const std::string shown = r.size() > 80 ? r.substr(0, 77) + "..." : r;
  if ((ref && !cnst && r != "Tensor")) {
    why = "return type '" + shown + "&'";
    return std::nullopt;
  }
  auto s = schema_of(r);
  if (!s) {
    why = "return type '" + shown + "'";
    return std::nullopt;
  }
  return out + *s + " _0";
}

namespace {

// The declaration whose name is token i, if it is one.
std::optional<CppFunctionDecl> decl_at(const std::vector<CppToken>& toks, const std::vector<std::size_t>& close,
                                       std::size_t i) {
  if (i == 0 || i + 1 >= toks.size() || toks[i].kind != CppToken::Kind::Ident || !toks[i + 1].is("(")) return std::nullopt;
  const std::size_t cl = close[i + 1];
  if (cl == std::string::npos || cl + 1 >= toks.size()) return std::nullopt;
  const CppToken& after = toks[cl + 1];
  if (!after.is("{") && !after.is(";") && !after.is("noexcept")) return std::nullopt;
  // The return type: back to the previous ; { } ) or start of file.
  // Inside a template head's <...> (template <bool kIsMeta = false>), '=' and
  // ')' belong to a parameter's default, not to the statement before.
  std::size_t rb = i;
  int angle = 0;
  while (rb > 0 && i - rb < 64) {
    const CppToken& p = toks[rb - 1];
    if (p.is(";") || p.is("{") || p.is("}")) break;
    if (p.is(">")) {
      ++angle;
    } else if (p.is(">>")) {
      angle += 2;
    } else if (p.is("<") && angle > 0) {
      --angle;
    } else if (angle == 0 && (p.is(")") || p.is("=") || p.is(".") || p.is("->") ||
                              p.kind == CppToken::Kind::String || p.is(":"))) {
      break;
    }
    --rb;
  }
  std::size_t re = i;
  while (re > rb + 1 && toks[re - 1].is("::")) re -= 2;  // a qualified definition ns::f
  auto specifiers = [&] {
    while (rb < re && (toks[rb].is("static") || toks[rb].is("inline") || toks[rb].is("constexpr") ||
                       toks[rb].is("TORCH_API") || toks[rb].is("C10_EXPORT") || toks[rb].is("extern")))
      ++rb;
  };
  specifiers();
  // template <...>: a function template (its specializations share the signature
  // when the parameters are not types; a type parameter is refused by the inference).
  if (rb + 1 < re && toks[rb].is("template") && toks[rb + 1].is("<")) {
    const std::size_t q = match_angle(toks, close, rb + 1, re);
    if (q == std::string::npos) return std::nullopt;
    rb = q + 1;
    specifiers();
  }
  if (rb >= re || toks[re - 1].is("return") || toks[re - 1].is("new")) return std::nullopt;  // a call
  return CppFunctionDecl{rb, re, i + 2, cl};
}

}  // namespace

std::optional<CppFunctionDecl> find_function(const std::vector<CppToken>& toks, const std::vector<std::size_t>& close,
                                             std::string_view name) {
  for (std::size_t i = 1; i + 1 < toks.size(); ++i)
    if (toks[i].text == name)
      if (auto d = decl_at(toks, close, i)) return d;
  return std::nullopt;
}

namespace {

std::string scoped(std::string_view outer, std::string_view inner) {
  if (outer.empty()) return std::string(inner);
  if (inner.empty()) return std::string(outer);
  return fmt::format("{}::{}", outer, inner);
}

// The qualifier written in toks[b, e) before the last name (`a::b::` of a::b::f), as "a::b".
std::string qualifier(const std::vector<CppToken>& toks, std::size_t b, std::size_t e) {
  std::string q;
  for (std::size_t j = b; j < e; ++j)
    if (toks[j].kind == CppToken::Kind::Ident && j + 1 < e && toks[j + 1].is("::"))
      q += (q.empty() ? "" : "::") + std::string(toks[j].text);
  return q;
}

// Whether scope `s` ends with the components of `q`.
bool ends_with_scope(std::string_view s, std::string_view q) {
  return s == q || (s.size() > q.size() && s.ends_with(q) && s.substr(0, s.size() - q.size()).ends_with("::"));
}

}  // namespace

CppFunctionIndex index_functions(const std::vector<CppToken>& toks, const std::vector<std::size_t>& close) {
  CppFunctionIndex out;
  out.scopes.emplace_back();
  out.scope_at.resize(toks.size(), 0);
  // The scope each brace opens: a namespace's or a class's own, every other
  // brace (a function body, an anonymous namespace, an enum) the one around it.
  std::unordered_map<std::size_t, std::uint32_t> opens;
  std::vector<std::uint32_t> stack;
  std::uint32_t cur = 0;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const CppToken& t = toks[i];
    const bool ns = t.is("namespace"), cls = (t.is("class") || t.is("struct") || t.is("union")) &&
                                                 !(i > 0 && toks[i - 1].is("enum"));
    if ((ns || cls) && i + 1 < toks.size() && toks[i + 1].kind == CppToken::Kind::Ident) {
      std::string name;
      std::size_t j = i + 1;
      for (; j < toks.size() && j < i + 64; ++j) {
        if (toks[j].is("{") || toks[j].is(";") || toks[j].is("=") || toks[j].is("(")) break;
        if (toks[j].kind == CppToken::Kind::Ident && (name.empty() || toks[j - 1].is("::")) && !toks[j].is("final"))
          name += (name.empty() ? "" : "::") + std::string(toks[j].text);
        if (cls && toks[j].is(":")) {  // a base list: up to the brace
          while (j < toks.size() && j < i + 64 && !toks[j].is("{") && !toks[j].is(";")) ++j;
          break;
        }
      }
      if (j < toks.size() && toks[j].is("{") && !name.empty()) {
        out.scopes.push_back(scoped(out.scopes[cur], name));
        opens[j] = static_cast<std::uint32_t>(out.scopes.size() - 1);
      }
    }
    if (t.is("{")) {
      stack.push_back(cur);
      if (auto it = opens.find(i); it != opens.end()) cur = it->second;
    } else if (t.is("}") && !stack.empty()) {
      cur = stack.back();
      stack.pop_back();
    }
    out.scope_at[i] = cur;
  }
  for (std::size_t i = 1; i + 1 < toks.size(); ++i)
    if (toks[i].kind == CppToken::Kind::Ident && toks[i + 1].is("("))
      if (auto d = decl_at(toks, close, i)) {
        // A qualified definition (ns::f, C::f) belongs to that scope within the one it is in.
        const std::string q = qualifier(toks, d->re, i + 1);
        d->scope = out.scope_at[i];
        if (!q.empty()) {
          out.scopes.push_back(scoped(out.scopes[d->scope], q));
          d->scope = static_cast<std::uint32_t>(out.scopes.size() - 1);
        }
        out.by_name[toks[i].text].push_back(*d);
      }
  return out;
}

std::optional<CppFunctionDecl> CppFunctionIndex::find(const std::vector<CppToken>& toks, std::size_t b, std::size_t e,
                                                      std::size_t use) const {
  if (b >= e) return std::nullopt;
  const auto it = by_name.find(toks[e - 1].text);
  if (it == by_name.end() || it->second.empty()) return std::nullopt;
  const std::vector<CppFunctionDecl>& all = it->second;
  const std::string q = qualifier(toks, b, e);
  const bool global = toks[b].is("::");
  // An unqualified name declared once: that declaration (a using-directive may bring it in).
  if (all.size() == 1 && q.empty() && !global) return all.front();
  const std::string& here = scopes[use < scope_at.size() ? scope_at[use] : 0];
  const CppFunctionDecl* best = nullptr;
  std::size_t best_len = 0;
  for (const CppFunctionDecl& d : all) {
    const std::string& s = scopes[d.scope];
    if (!q.empty() || global) {
      // ns::f: a scope ending with ns (written inside another namespace, or from the top with ::).
      if (global ? s != q : !ends_with_scope(s, q)) continue;
      if (best == nullptr) best = &d;
      continue;
    }
    // f: declared in this scope or one around it; the innermost wins.
    if (!(s.empty() || here == s || (here.starts_with(s) && here.substr(s.size()).starts_with("::")))) continue;
    if (best == nullptr || s.size() > best_len) best = &d, best_len = s.size();
  }
  if (best == nullptr) return std::nullopt;
  return *best;
}

bool has_symint_argument(std::string_view signature) {
  return signature.substr(0, signature.find(" -> ")).find("SymInt") != std::string_view::npos;
}

}  // namespace dt
