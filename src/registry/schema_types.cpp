// The schema parser's types (schema_parser.hpp): primary types, lists,
// optionals, tuples, unions, custom classes and alias annotations; after
// torch/csrc/jit/frontend/schema_type_parser.cpp, printed as Argument's
// operator<< prints them (ATen/core/function_schema.h).
#include <fmt/format.h>

#include <charconv>
#include <iterator>
#include <limits>

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

// schema_type_parser.cpp's parseBaseType table (every release's), plus Tensor.
// Which of them a release accepts is its grammar's.
constexpr std::array<BaseType, 29> kBaseTypes = {{
    {"Tensor", "Tensor", "Tensor", Kind::Tensor},
    {"Scalar", "Scalar", "Scalar", Kind::Number},
    {"int", "int", "int", Kind::Int, true},
    {"SymInt", "SymInt", "int", Kind::Int},
    {"ScalarType", "ScalarType", "int", Kind::Int},
    {"Layout", "Layout", "int", Kind::Int},
    {"MemoryFormat", "MemoryFormat", "int", Kind::Int},
    {"ConstQuantizerPtr", "int", "int", Kind::Int, true},
    {"DeviceIndex", "int", "int", Kind::Int, true},
    {"float", "float", "float", Kind::Float},
    {"bool", "bool", "bool", Kind::Bool},
    {"SymFloat", "SymFloat", "SymFloat", Kind::SymFloat},
    {"SymBool", "SymBool", "SymBool", Kind::SymBool},
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

// Argument's operator<<: an Optional's '?' comes last; a list prints its
// element, the element's annotation, "[N]", then its own annotation (when it
// names a set). So "Tensor(a)?[]" prints "Tensor?(a)[]" and "Tensor(a)[][]"
// "Tensor[]()[]", as PyTorch prints them.
std::string printed_type(const std::string& plain, const std::optional<AliasInfo>& alias) {
  if (!alias) return plain;
  const bool optional = plain.ends_with('?');
  const std::string_view unopt(plain.data(), plain.size() - (optional ? 1 : 0));
  std::string out;
  if (unopt.ends_with(']')) {
    const std::size_t open = unopt.rfind('[');
    out = unopt.substr(0, open);
    if (alias->contained) out += *alias->contained;
    out += unopt.substr(open);
  } else {
    out = unopt;
  }
  if (alias->has_before) out += alias->own;
  if (optional) out += '?';
  return out;
}

}  // namespace

bool Parser::parse_argument_type(Mode mode, std::string& out, TypeShape& shape, std::optional<std::int64_t>& size) {
  std::string plain;
  std::optional<AliasInfo> alias;
  std::optional<AliasInfo>* const keep = mode == Mode::Real ? &alias : nullptr;
  if (!parse_type(mode, plain, shape, keep)) return false;
  if (accept('[')) {
    // parseArgument: N = std::stoll(L.expect(TK_NUMBER).text()), kept as an int32_t.
    if (cur().kind != Tok::Number) return fail_expected("number");
    const auto value = stoll_prefix(text(cur()));
    if (!value) return fail("stoll", "the list size is no integer");
    const auto n = static_cast<std::int32_t>(static_cast<std::uint32_t>(*value));  // as int32_t keeps it
    advance();
    if (!expect(']')) return false;
    size = n;
    if (mode == Mode::Real) {
      fmt::format_to(std::back_inserter(plain), "[{}]", n);
    } else {
      plain += "[]";
    }
    shape = wrap(Kind::List, shape);
    if (!list_alias(keep)) return false;
    if (accept('?')) {
      plain += '?';
      shape = wrap(Kind::Optional, shape);
    }
  }
  out += mode == Mode::Real ? printed_type(plain, alias) : plain;
  return true;
}

bool Parser::parse_type(Mode mode, std::string& plain, TypeShape& shape, std::optional<AliasInfo>* alias,
                        TypeNode* tree) {
  // Nested types recurse through here: bounded, so that no input overflows the stack.
  const DepthGuard nested(type_depth_);
  if (type_depth_ > limits::kSchemaTypeDepth)
    return fail(fmt::format("type nested more than {} levels deep (limit: {})", limits::kSchemaTypeDepth,
                            limits::kSchemaTypeDepth));
  const std::size_t start = plain.size();
  TypeNode local;
  TypeNode& node = tree != nullptr ? *tree : local;
  // Whether `node` describes the type: always inside a Union (tree given),
  // otherwise only for a Union or Scalar, whose Optional needs c10's rules.
  bool known = tree != nullptr;
  bool alias_allowed = true;
  if (!parse_primary_type(mode, plain, shape, alias_allowed, node, known)) return false;
  if (alias_allowed && !parse_alias(alias)) return false;
  for (;;) {
    if (is_punct('[') && lex_.peek().kind == Tok::Punct && lex_.peek().punct == ']') {
      advance();
      advance();
      plain += "[]";
      shape = wrap(Kind::List, shape);
      if (known) node = TypeNode{Kind::List, {}, {std::move(node)}};
      if (!list_alias(alias)) return false;
    } else if (is_punct('?')) {
      const Token question = cur();
      advance();
      // A printed "Tensor?(a)[]": the annotation of the list's element.
      if (opt_.printed && alias_allowed && is_punct('(') && (alias == nullptr || !*alias) && !parse_alias(alias))
        return false;
      if (!known) {
        // An Optional of an Optional is that Optional ("int??" is "int?").
        if (shape.kind != Kind::Optional) {
          plain += '?';
          shape = wrap(Kind::Optional, shape);
        }
        continue;
      }
      auto optional = types_.make_optional(node);
      if (!optional) return fail_at(question, std::move(optional.error()));
      TypeNode& contained = optional->elems[0];
      if (same_tree(contained, node)) {
        plain += '?';
        shape = wrap(Kind::Optional, shape);
      } else if (!same_tree(*optional, node)) {
        // The Optional of a Union or of Scalar? is written anew, as c10 prints it.
        plain.resize(start);
        append_type_str(plain, contained);
        plain += '?';
        shape = {Kind::Optional, contained.kind};
      }
      node = std::move(*optional);
    } else {
      return true;
    }
  }
}

bool Parser::list_alias(std::optional<AliasInfo>* alias) {
  std::optional<AliasInfo> container;
  if (!parse_alias(alias != nullptr ? &container : nullptr)) return false;
  if (alias == nullptr) return true;
  if (*alias) {
    // The element's annotation is the one the list's contains; a list without
    // one of its own gets an empty one that writes where the element does.
    if (!container) container = AliasInfo{(*alias)->write ? "(!)" : "()", false, (*alias)->write, {}};
    container->contained = (*alias)->own;
  }
  *alias = std::move(container);
  return true;
}

bool Parser::parse_primary_type(Mode mode, std::string& out, TypeShape& shape, bool& alias_allowed, TypeNode& node,
                                bool& known) {
  TypeNode* const tree = known ? &node : nullptr;
  if (is_punct('(')) {
    alias_allowed = false;
    shape = {Kind::Tuple};
    return parse_tuple(out, tree);
  }
  const std::string_view word = cur().kind == Tok::Ident ? text(cur()) : std::string_view();
  if (word == "Future" || word == "RRef" || (word == "Await" && (opt_.printed || grammar_.has_type("Await")))) {
    alias_allowed = false;
    return parse_wrapper(out, shape, tree);
  }
  if (word == "Dict") return parse_dict(out, shape, tree);
  if (word == "Union") {
    known = true;
    return parse_union(out, shape, node);
  }
  if (word == "__torch__") {
    alias_allowed = false;
    shape = {Kind::Class};
    const std::size_t start = out.size();
    if (!parse_class(out)) return false;
    if (tree != nullptr) node = TypeNode{Kind::Class, out.substr(start), {}};
    return true;
  }
  return parse_base_type(mode, out, shape, node, known);
}

bool Parser::parse_base_type(Mode mode, std::string& out, TypeShape& shape, TypeNode& node, bool& known) {
  // parseBaseType: None and NoneType are keywords; any other token must be a name.
  if (cur().kind != Tok::Ident || (is_keyword(text(cur())) && !is_word("None") && !is_word("NoneType")))
    return fail_expected("ident");
  const Token token = cur();
  const std::string_view word = text(token);
  const BaseType* base = find_base_type(word);
  // c10 infers SymFloat and SymBool from a kernel's C++ types in releases
  // whose parser has no such type; an input cannot tell an inferred schema
  // (m.def("name", fn)) from a written one, so both are always types here.
  const bool inferred_type = word == "SymFloat" || word == "SymBool";
  if (base != nullptr && !opt_.printed && !inferred_type) {
    const bool dimname = word == "Dimname" && !grammar_.measured;
    if (dimname ? !opt_.dimname : !grammar_.has_type(base->name)) base = nullptr;
  }
  const std::size_t start = out.size();
  advance();  // L.expect(TK_IDENT): read, then looked up
  if (base != nullptr) {
    out += mode == Mode::Real ? base->real : base->fake;
    shape = {base->kind, Kind::Any, base->real_int, false, word == "ScalarType", false};
    if (base->kind == Kind::Number || base->kind == Kind::None) known = true;
    if (known) node = TypeNode{base->kind, std::string(base->fake), {}};
    return true;
  }
  if (type_variables_ && word[0] >= 'a' && word[0] <= 'z') {
    // A lower-case word that is no type is a type variable.
    out += word;
    shape = {Kind::Var};
    if (known) node = TypeNode{Kind::Var, out.substr(start), {}};
    return true;
  }
  if (word == "double" && !grammar_.double_type.empty()) return fail_at(token, grammar_.double_type);
  if (word == "int64_t" && !grammar_.int64_type.empty()) return fail_at(token, grammar_.int64_type);
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kHints = {{
      {"List", "write 'T[]' in a schema"},
      {"Optional", "write 'T?' in a schema"},
      {"Tuple", "write '(T1, T2)' in a schema"},
      {"double", "a C++ double is 'float' in a schema"},
      {"int64_t", "a C++ int64_t is 'int' (or 'SymInt') in a schema"},
  }};
  std::string_view hint;
  for (const auto& [name, text] : kHints)
    if (name == word) hint = text;
  if (word[0] >= 'a' && word[0] <= 'z' && hint.empty())
    hint = "type variables are only allowed in aten:: and prim:: schemas";
  return fail_at(token, grammar_.unknown_type, hint);
}

bool Parser::parse_wrapper(std::string& out, TypeShape& shape, TypeNode* tree) {
  const std::string_view word = text(cur());
  advance();
  out += word;
  if (!expect('(')) return false;
  out += '(';
  TypeShape inner;
  TypeNode elem;
  if (!parse_type(Mode::Fake, out, inner, nullptr, tree != nullptr ? &elem : nullptr)) return false;
  if (!expect(')')) return false;
  out += ')';
  shape = {word == "Future" ? Kind::Future : word == "Await" ? Kind::Await : Kind::RRef};
  if (tree != nullptr) *tree = TypeNode{shape.kind, {}, {std::move(elem)}};
  return true;
}

bool Parser::parse_dict(std::string& out, TypeShape& shape, TypeNode* tree) {
  advance();
  out += "Dict(";
  TypeShape inner;
  std::array<TypeNode, 2> kv;
  const bool build = tree != nullptr;
  if (!expect('(') || !parse_type(Mode::Fake, out, inner, nullptr, build ? &kv[0] : nullptr)) return false;
  if (!expect(',')) return false;
  out += ", ";
  if (!parse_type(Mode::Fake, out, inner, nullptr, build ? &kv[1] : nullptr) || !expect(')')) return false;
  out += ')';
  shape = {Kind::Dict};
  if (build) *tree = TypeNode{Kind::Dict, {}, {std::move(kv[0]), std::move(kv[1])}};
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
      if (!parse_type(Mode::Fake, out, inner, nullptr, elem)) return false;
    } while (accept(','));
  }
  if (!expect(')')) return false;
  out += ')';
  return true;
}

bool Parser::parse_union(std::string& out, TypeShape& shape, TypeNode& node) {
  const Token union_token = cur();
  advance();
  if (!expect('(')) return false;
  std::vector<TypeNode> members;
  for (bool first = true; first || !is_punct(')'); first = false) {
    if (!first && !expect(',')) return false;
    std::string member;
    TypeShape inner;
    if (!parse_type(Mode::Fake, member, inner, nullptr, &members.emplace_back())) return false;
  }
  if (!expect(')')) return false;
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
  out += text(cur());
  advance();
  for (const std::string_view part : {"torch", "classes", "", ""}) {
    if (!expect('.') || !expect_name()) return false;
    const Token name = cur();
    advance();
    if (!part.empty() && text(name) != part)
      return fail_at(name, fmt::format("Expected classes namespace but got {}", text(name)));
    out += '.';
    out += text(name);
  }
  return true;
}

bool Parser::parse_alias(std::optional<AliasInfo>* alias) {
  if (accept('!')) {
    // A fresh alias set, written to, with no set after the write.
    const std::size_t id = fresh_sets_++;
    if (alias != nullptr) *alias = AliasInfo{fmt::format("(${}! -> )", id), true, true, {}};
    return true;
  }
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
  if (!expect(')')) return false;
  if (alias != nullptr) {
    std::string own = "(";
    before.append_to(own);
    if (write) own += '!';
    if (has_after && !before.same_sets(after)) {
      own += " -> ";
      after.append_to(own);
    }
    own += ')';
    *alias = AliasInfo{std::move(own), !before.empty(), write, {}};
  }
  return true;
}

bool Parser::parse_alias_sets(AliasSets& sets) {
  if (opt_.printed && (is_punct(')') || is_punct('!'))) return true;  // "()", "(!)", "($0! -> )"
  bool wildcard = false;
  do {
    bool added = true;
    if (accept('*')) {
      added = sets.add("*");
      wildcard = true;
    } else if (!wildcard) {
      // After the wildcard, what follows is left for the ')' to refuse.
      if (!expect_name()) return false;
      added = sets.add(text(cur()));
      advance();
    }
    if (!added) return fail(fmt::format("too many alias sets (at most {})", AliasSets::kMax));
  } while (accept('|'));
  return true;
}

}  // namespace dt::schema_detail
