// The schema parser's declarations (schema_parser.hpp): the operator name,
// arguments and returns, checkSchema, and the parser's errors; after
// torch/csrc/jit/frontend/function_schema_parser.cpp.
#include "registry/schema_parser.hpp"

#include <fmt/format.h>

namespace dt {
namespace schema_detail {

namespace {

const SchemaGrammar& default_grammar() {
  static const SchemaGrammar grammar;
  return grammar;
}

}  // namespace

Parser::Parser(std::string_view text, SchemaParseOptions opt)
    : lex_(text, opt.printed), opt_(opt), grammar_(opt.grammar != nullptr ? *opt.grammar : default_grammar()) {
  // parseSchemaOrName: "aten::" and "prim::" schemas may use type variables.
  type_variables_ =
      opt.printed || grammar_.type_variables_everywhere || text.starts_with("aten::") || text.starts_with("prim::");
}

bool Parser::parse_schema(Schema& s) {
  if (!is_punct('(') && !parse_name(s)) return false;
  if (!is_punct('(')) {
    // parseDeclaration returns a bare name; parseExactlyOneDeclaration wants the end.
    if (cur().kind != Tok::End) return fail_expected("eof");
    return fail("Tried to parse a function schema but only the operator name was given");
  }
  if (!parse_arguments(s)) return false;
  if (cur().kind != Tok::Arrow) return fail_expected("arrow");
  advance();
  if (!parse_returns(s) || !check_defaults(s)) return false;
  return expect_end(s);
}

bool Parser::parse_type_only(Mode mode, std::string& out) {
  TypeShape shape;
  std::optional<std::int64_t> size;
  if (!parse_argument_type(mode, out, shape, size)) return false;
  return cur().kind == Tok::End || fail_expected("eof");
}

bool Parser::accept(char c) {
  if (!is_punct(c)) return false;
  advance();
  return true;
}

bool Parser::fail_at(const Token& t, std::string message, std::string_view hint) {
  error_.offset = t.begin;
  error_.message = std::move(message);
  if (cur().kind == Tok::Invalid) {
    // torch's lexer fails as soon as it reaches what it cannot read: the
    // character that starts the "token", blanks before it included.
    const std::string_view src = lex_.src();
    std::size_t start = cur().begin;
    while (start > 0 && is_blank(src[start - 1])) --start;
    std::string found(1, src[start]);
    if (start == cur().begin) {
      if (const auto u = static_cast<unsigned char>(src[start]); u >= 0xc2 && u <= 0xf4)
        found = std::string(src.substr(start, u < 0xe0 ? 2 : u < 0xf0 ? 3 : 4));  // the whole UTF-8 character
    }
    error_.offset = cur().begin;
    error_.message = fmt::format("expected a valid token but found '{}' here", found);
    const char c = src[cur().begin];
    if (c == '"' || c == '\'') hint = "an unterminated string literal";
  }
  if (!hint.empty()) error_.message += fmt::format(" ({})", hint);
  return false;
}

bool Parser::fail_at_offset(std::size_t offset, std::string message, std::string_view hint) {
  Token t;
  t.begin = offset;
  return fail_at(t, std::move(message), hint);
}

bool Parser::fail_expected(std::string_view what, std::string_view hint) {
  return fail(fmt::format("expected {} but found '{}' here", what, token_name(lex_, cur())), hint);
}

bool Parser::expect(char c, std::string_view hint) {
  if (accept(c)) return true;
  return fail_expected(std::string_view(&c, 1), hint);
}

bool Parser::expect_name(std::string_view hint) { return is_name() || fail_expected("ident", hint); }

bool Parser::parse_name(Schema& s) {
  if (!expect_name()) return false;
  std::string_view first = text(cur());
  advance();
  if (accept(':')) {
    if (!expect(':') || !expect_name()) return false;
    s.ns = first;
    first = text(cur());
    advance();
  }
  s.name = first;
  if (accept('.')) {
    if (!expect_name()) return false;
    const Token overload = cur();
    s.overload = text(cur());
    advance();
    // parseName: "default" names the overload-less OpOverload; dunders are Python's.
    if (s.overload == "default" || s.overload.starts_with("__"))
      return fail_at(overload, fmt::format("{} is not a legal overload name for aten operators", s.overload));
  }
  return true;
}

bool Parser::parse_arguments(Schema& s) {
  advance();  // '('
  bool kwarg_only = false;
  if (!is_punct(')')) {
    do {
      if (s.is_vararg) return fail("... must be the last element of the argument list");
      if (accept('*')) {
        kwarg_only = true;
      } else if (cur().kind == Tok::Dots) {
        advance();
        s.is_vararg = true;
      } else {
        SchemaArgument& arg = s.arguments.emplace_back();
        if (!parse_argument(arg, /*is_return=*/false)) return false;
        arg.kwarg_only = kwarg_only;
      }
    } while (accept(','));
  }
  if (!expect(')')) return false;
  if (s.is_vararg && std::any_of(s.arguments.begin(), s.arguments.end(),
                                 [](const SchemaArgument& a) { return a.default_value.has_value(); }))
    return fail("schemas with vararg (...) can't have default value args");
  return true;
}

bool Parser::parse_returns(Schema& s) {
  if (cur().kind == Tok::Dots) {
    advance();
    s.is_varret = true;
    return true;
  }
  if (!is_punct('(')) return parse_argument(s.returns.emplace_back(), /*is_return=*/true);
  advance();
  s.returns_parenthesised = true;
  if (!is_punct(')')) {
    do {
      if (s.is_varret) return fail("... must be the last element of the return list");
      if (cur().kind == Tok::Dots) {
        advance();
        s.is_varret = true;
      } else if (!parse_argument(s.returns.emplace_back(), /*is_return=*/true)) {
        return false;
      }
    } while (accept(','));
  }
  return expect(')');
}

bool Parser::check_defaults(const Schema& s) {
  if (opt_.printed) return true;
  bool seen_default = false;
  for (std::size_t i = 0; i < s.arguments.size(); ++i) {
    const SchemaArgument& a = s.arguments[i];
    if (a.default_value) {
      seen_default = true;
    } else if (!argument_lists_[i] && seen_default && !a.kwarg_only) {
      return fail_at_offset(argument_offsets_[i],
                            fmt::format("Non-default positional argument follows default argument. Parameter {} in {}",
                                        a.name, print_schema(s)));
    }
  }
  return true;
}

bool Parser::expect_end(const Schema& s) {
  if (cur().kind == Tok::Newline && token_name(lex_, cur()) == "newline") advance();
  if (cur().kind == Tok::End) return true;
  if (is_punct(',') && !s.returns_parenthesised)
    return fail_expected("eof", "several returns need parentheses: '-> (A a, B b)'");
  return fail_expected("eof");
}

bool Parser::parse_argument(SchemaArgument& arg, bool is_return) {
  if (!is_return) argument_offsets_.push_back(cur().begin);
  TypeShape shape;
  std::optional<std::int64_t> size;
  if (!parse_argument_type(Mode::Real, arg.type, shape, size)) return false;
  if (is_return) {
    if (is_name()) {
      arg.name = text(cur());
      advance();
    }
    return true;
  }
  argument_lists_.push_back(shape.kind == Kind::List);
  if (!expect_name()) return false;
  arg.name = text(cur());
  advance();
  if (accept('=')) {
    std::string value;
    if (!parse_default(shape, size, value)) return false;
    arg.default_value = std::move(value);
  }
  return true;
}

}  // namespace schema_detail

Expected<Schema, SchemaError> parse_schema(std::string_view text, const SchemaParseOptions& opt) {
  schema_detail::Parser parser(text, opt);
  Schema schema;
  if (!parser.parse_schema(schema)) return unexpected(parser.take_error());
  return schema;
}

}  // namespace dt
