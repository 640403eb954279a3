// The schema parser's types (schema_parser.hpp): primary types, lists,
// optionals, tuples, unions, custom classes and alias annotations; after
// torch/csrc/jit/frontend/schema_type_parser.cpp.
#include <fmt/format.h>

#include <charconv>
#include <iterator>

#include "base/limits.hpp"
#include "registry/schema_parser.hpp"

namespace dt::schema_detail {

namespace {

struct BaseType {
  std::string_view name;  // as written
  std::string_view real;  // as printed in a schema
  std::string_view fake;  // as compared and printed inside other types
  Kind kind;
  bool real_int = false;  // really IntType (affects how int-list defaults print)
};

// schema_type_parser.cpp's parseBaseType table, plus Tensor.
constexpr std::array<BaseType, 27> kBaseTypes = {{
    {"Tensor", "Tensor", "Tensor", Kind::Tensor},
    {"Scalar", "Scalar", "Scalar", Kind::Number},
    {"int", "int", "int", Kind::Int, true},
    {"SymInt", "SymInt", "int", Kind::Int},
    {"ScalarType", "ScalarType", "int", Kind::Int},
    {"Layout", "Layout", "int", Kind::Int},
    {"MemoryFormat", "MemoryFormat", "int", Kind::Int},
    {"ConstQuantizerPtr", "int", "int", Kind::Int, true},
    {"float", "float", "float", Kind::Float},
    {"SymFloat", "SymFloat", "float", Kind::Float},
    {"bool", "bool", "bool", Kind::Bool},
    {"SymBool", "SymBool", "bool", Kind::Bool},
    {"complex", "complex", "complex", Kind::Complex},
    {"str", "str", "str", Kind::String},
    {"Dimname", "Dimname", "str", Kind::String},
    {"Device", "Device", "Device", Kind::Device},
    {"Generator", "Generator", "Generator", Kind::Generator},
    {"Storage", "Storage", "Storage", Kind::Storage},
    {"Stream", "Stream", "Stream", Kind::Stream},
    {"Capsule", "Capsule", "Capsule", Kind::Capsule},
    {"Any", "Any", "Any", Kind::Any},
    {"AnyClassType", "AnyClassType", "AnyClassType", Kind::AnyClass},
    {"AnyEnumType", "AnyEnumType", "AnyEnumType", Kind::AnyEnum},
    {"QScheme", "QScheme", "QScheme", Kind::QScheme},
    {"Quantizer", "Quantizer", "Quantizer", Kind::Quantizer},
    {"None", "NoneType", "NoneType", Kind::None},
    {"NoneType", "NoneType", "NoneType", Kind::None},
}};

const BaseType* find_base_type(std::string_view name) {
  for (const BaseType& t : kBaseTypes)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace

bool Parser::parse_argument_type(Mode mode, std::string& out, TypeShape& shape, std::optional<std::int64_t>& size) {
  if (!parse_type(mode, out, shape)) return false;
  if (!accept('[')) return true;
  const Token& n = cur();
  const std::string_view digits = text(n);
  std::int64_t value = -1;
  if (n.kind == Tok::Number && std::all_of(digits.begin(), digits.end(), is_digit)) {
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc{} || value > kMaxListSize)
      return fail(fmt::format("list size {} is too large (at most {})", digits, kMaxListSize));
  } else {
    return fail_expected("a list size (a non-negative integer) or ']'");
  }
  advance();
  if (!expect(']', "to close the list size")) return false;
  size = value;
  if (mode == Mode::Real) {
    fmt::format_to(std::back_inserter(out), "[{}]", value);
  } else {
    out += "[]";
  }
  shape = wrap(Kind::List, shape);
  if (!parse_alias(mode == Mode::Real ? &out : nullptr)) return false;
  if (accept('?')) {
    out += '?';
    shape = wrap(Kind::Optional, shape);
  }
  return true;
}

bool Parser::parse_type(Mode mode, std::string& out, TypeShape& shape, TypeNode* tree) {
  // Nested types recurse through here: bounded, so that no input overflows the stack.
  const DepthGuard nested(type_depth_);
  if (type_depth_ > limits::kSchemaTypeDepth)
    return fail(fmt::format("type nested more than {} levels deep (limit: {})", limits::kSchemaTypeDepth,
                            limits::kSchemaTypeDepth));
  const std::size_t start = out.size();
  TypeNode local;
  TypeNode& node = tree != nullptr ? *tree : local;
  // Whether `node` describes the type: always inside a Union (tree given),
  // otherwise only for a Union or Scalar, whose Optional needs c10's rules.
  bool known = tree != nullptr;
  bool alias_allowed = true;
  if (!parse_primary_type(mode, out, shape, alias_allowed, node, known)) return false;
  std::size_t primary_end = out.size();
  if (alias_allowed && !parse_alias(mode == Mode::Real ? &out : nullptr)) return false;
  std::size_t alias_end = out.size();
  if (alias_end != primary_end && shape.kind == Kind::Optional) {
    // A Union that is an Optional, with an alias annotation: PyTorch prints
    // the annotation before the '?' ("Union(Tensor, None)(a)" is "Tensor(a)?").
    out.erase(primary_end - 1, 1);
    out += '?';
    --primary_end;
    --alias_end;
  }
  for (;;) {
    if (is_punct('[') && lex_.peek().kind == Tok::Punct && lex_.peek().punct == ']') {
      advance();
      advance();
      out += "[]";
      shape = wrap(Kind::List, shape);
      if (known) node = TypeNode{Kind::List, {}, {std::move(node)}};
      if (!parse_alias(mode == Mode::Real ? &out : nullptr)) return false;
    } else if (is_punct('?')) {
      const Token question = cur();
      advance();
      if (alias_allowed && is_punct('(')) return fail("an alias annotation goes before the '?', as in 'Tensor(a!)?'");
      if (!known) {
        // An Optional of an Optional is that Optional ("int??" is "int?").
        if (shape.kind != Kind::Optional) {
          out += '?';
          shape = wrap(Kind::Optional, shape);
        }
        continue;
      }
      auto optional = types_.make_optional(node);
      if (!optional) return fail_at(question, std::move(optional.error()));
      TypeNode& contained = optional->elems[0];
      if (same_tree(contained, node)) {
        out += '?';
        shape = wrap(Kind::Optional, shape);
      } else if (!same_tree(*optional, node)) {
        // The Optional of a Union or of Scalar? is written anew, as c10
        // prints it, with the primary type's alias annotation (no "[]" can
        // have followed: the type is a Union or an Optional).
        std::string alias = out.substr(primary_end, alias_end - primary_end);
        out.resize(start);
        append_type_str(out, contained);
        primary_end = out.size();
        out += alias;
        alias_end = out.size();
        out += '?';
        shape = {Kind::Optional, contained.kind};
      }
      node = std::move(*optional);
    } else {
      return true;
    }
  }
}

bool Parser::parse_primary_type(Mode mode, std::string& out, TypeShape& shape, bool& alias_allowed, TypeNode& node,
                                bool& known) {
  TypeNode* const tree = known ? &node : nullptr;
  if (is_punct('(')) {
    alias_allowed = false;
    shape = {Kind::Tuple};
    return parse_tuple(out, tree);
  }
  if (cur().kind != Tok::Ident) return fail_expected("a type");
  const std::string_view word = text(cur());
  if (word == "Future" || word == "RRef") {
    alias_allowed = false;
    return parse_future_or_rref(out, shape, tree);
  }
  if (word == "Dict") return parse_dict(out, shape, tree);
  if (word == "Union") {
    known = true;
    return parse_union(out, shape, node);
  }
  const std::size_t start = out.size();
  if (word == "__torch__") {
    alias_allowed = false;
    shape = {Kind::Class};
    if (!parse_class(out)) return false;
    if (tree != nullptr) node = TypeNode{Kind::Class, out.substr(start), {}};
    return true;
  }
  if (word == "Dimname" && !opt_.dimname) return fail("unknown type 'Dimname' (this release's schemas have no Dimname)");
  if (const BaseType* base = find_base_type(word)) {
    advance();
    out += mode == Mode::Real ? base->real : base->fake;
    shape = {base->kind, Kind::Any, base->real_int, false, word == "ScalarType"};
    if (base->kind == Kind::Number || base->kind == Kind::None) known = true;
    if (known) node = TypeNode{base->kind, std::string(base->fake), {}};
    return true;
  }
  shape = {Kind::Var};
  if (!parse_type_variable(out)) return false;
  if (tree != nullptr) node = TypeNode{Kind::Var, out.substr(start), {}};
  return true;
}

bool Parser::parse_future_or_rref(std::string& out, TypeShape& shape, TypeNode* tree) {
  const std::string_view word = text(cur());
  advance();
  out += word;
  if (!expect('(', fmt::format("after '{}'", word))) return false;
  out += '(';
  TypeShape inner;
  TypeNode elem;
  if (!parse_type(Mode::Fake, out, inner, tree != nullptr ? &elem : nullptr)) return false;
  if (!expect(')', fmt::format("to close the {} type", word))) return false;
  out += ')';
  shape = {word == "Future" ? Kind::Future : Kind::RRef};
  if (tree != nullptr) *tree = TypeNode{shape.kind, {}, {std::move(elem)}};
  return true;
}

bool Parser::parse_dict(std::string& out, TypeShape& shape, TypeNode* tree) {
  advance();
  out += "Dict(";
  TypeShape inner;
  std::array<TypeNode, 2> kv;
  const bool build = tree != nullptr;
  if (!expect('(', "after 'Dict'") || !parse_type(Mode::Fake, out, inner, build ? &kv[0] : nullptr)) return false;
  if (!expect(',', "between the key and value types of the Dict")) return false;
  out += ", ";
  if (!parse_type(Mode::Fake, out, inner, build ? &kv[1] : nullptr) || !expect(')', "to close the Dict type"))
    return false;
  out += ')';
  shape = {Kind::Dict};
  if (build) *tree = TypeNode{Kind::Dict, {}, {std::move(kv[0]), std::move(kv[1])}};
  return true;
}

bool Parser::parse_type_variable(std::string& out) {
  const std::string_view word = text(cur());
  if (is_keyword(word)) return fail(fmt::format("expected a type, found the keyword '{}'", word));
  if (word == "double") return fail("unknown type 'double'; a C++ double is 'float' in a schema");
  if (word == "int64_t") return fail("unknown type 'int64_t'; a C++ int64_t is 'int' (or 'SymInt') in a schema");
  if (word == "List" || word == "Optional" || word == "Tuple") {
    static constexpr std::string_view kHints[] = {"T[]", "T?", "(T1, T2)"};
    const std::size_t i = word == "List" ? 0 : word == "Optional" ? 1 : 2;
    return fail(fmt::format("unknown type '{}'; write '{}' in a schema", word, kHints[i]));
  }
  if (!(word[0] >= 'a' && word[0] <= 'z')) return fail(fmt::format("unknown type '{}'", word));
  out += word;
  advance();
  return true;
}

bool Parser::parse_tuple(std::string& out, TypeNode* tree) {
  advance();
  out += '(';
  if (tree != nullptr) *tree = TypeNode{Kind::Tuple, {}, {}};
  if (!is_punct(')')) {
    bool first = true;
    do {
      if (!first) out += ", ";
      first = false;
      TypeShape inner;
      TypeNode* elem = tree != nullptr ? &tree->elems.emplace_back() : nullptr;
      if (!parse_type(Mode::Fake, out, inner, elem)) return false;
    } while (accept(','));
  }
  if (!expect(')', "to close the tuple type")) return false;
  out += ')';
  return true;
}

bool Parser::parse_union(std::string& out, TypeShape& shape, TypeNode& node) {
  const Token union_token = cur();
  advance();
  if (!expect('(', "after 'Union'")) return false;
  std::vector<TypeNode> members;
  do {
    std::string member;
    TypeShape inner;
    if (!parse_type(Mode::Fake, member, inner, &members.emplace_back())) return false;
  } while (accept(','));
  if (!expect(')', "to close the Union type")) return false;
  auto type = types_.make_union(std::move(members));
  if (!type) return fail_at(union_token, std::move(type.error()));
  node = std::move(*type);
  if (node.kind == Kind::Optional) {
    append_type_str(out, node.elems[0]);
    out += '?';
    shape = {Kind::Optional, node.elems[0].kind};
  } else {
    append_type_str(out, node);
    shape = {Kind::Union};
  }
  return true;
}

bool Parser::parse_class(std::string& out) {
  static constexpr std::string_view kSyntax = "'__torch__.torch.classes.<namespace>.<class>'";
  out += text(cur());
  advance();
  for (const std::string_view part : {"torch", "classes", "", ""}) {
    if (!is_punct('.')) return fail(fmt::format("expected {} for a custom class type", kSyntax));
    advance();
    if (!is_name() || (!part.empty() && text(cur()) != part))
      return fail(fmt::format("expected {} for a custom class type", kSyntax));
    out += '.';
    out += text(cur());
    advance();
  }
  return true;
}

bool Parser::parse_alias(std::string* out) {
  if (is_punct('!'))
    return fail("a bare '!' alias annotation is not supported; name the alias set, as in 'Tensor(a!)'");
  if (!accept('(')) return true;
  AliasSets before;
  AliasSets after;
  if (!parse_alias_sets(before)) return false;
  const bool write = accept('!');
  bool has_after = false;
  if (cur().kind == Tok::Arrow) {
    advance();
    if (!parse_alias_sets(after)) return false;
    has_after = true;
  }
  if (!expect(')', "to close the alias annotation")) return false;
  if (out != nullptr) {
    *out += '(';
    before.append_to(*out);
    if (write) *out += '!';
    if (has_after && !before.same_sets(after)) {
      *out += " -> ";
      after.append_to(*out);
    }
    *out += ')';
  }
  return true;
}

bool Parser::parse_alias_sets(AliasSets& sets) {
  bool wildcard = false;
  do {
    bool added = true;
    if (accept('*')) {
      added = sets.add("*");
      wildcard = true;
    } else if (wildcard && cur().kind == Tok::Ident) {
      return fail("no alias set may follow the wildcard '*'");
    } else if (is_name()) {
      added = sets.add(text(cur()));
      advance();
    } else {
      return fail_expected("an alias set name or '*'");
    }
    if (!added) return fail(fmt::format("too many alias sets (at most {})", AliasSets::kMax));
  } while (accept('|'));
  return true;
}

}  // namespace dt::schema_detail
