// The schema parser's declarations (schema_parser.hpp): the operator name,
// arguments and returns, and the parser's errors; after
// torch/csrc/jit/frontend/function_schema_parser.cpp.
#include "registry/schema_parser.hpp"

#include <fmt/format.h>

namespace dt {
namespace schema_detail {

bool Parser::parse_schema(Schema& s) {
  if (!is_punct('(') && !parse_name(s)) return false;
  if (!is_punct('(')) {
    if (cur().kind == Tok::End) return fail("expected an argument list after the operator name");
    return fail_expected("'(' after the operator name");
  }
  if (!parse_arguments(s)) return false;
  if (cur().kind != Tok::Arrow) return fail_expected("'->' after the argument list");
  advance();
  if (!parse_returns(s)) return false;
  return expect_end(s);
}

bool Parser::parse_type_only(Mode mode, std::string& out) {
  TypeShape shape;
  std::optional<std::int64_t> size;
  if (!parse_argument_type(mode, out, shape, size)) return false;
  return cur().kind == Tok::End || fail_expected("the end of the type");
}

bool Parser::accept(char c) {
  if (!is_punct(c)) return false;
  advance();
  return true;
}

bool Parser::fail_at(const Token& t, std::string message) {
  error_.offset = t.begin;
  error_.message = std::move(message);
  if (t.kind == Tok::Invalid) {
    const char c = lex_.src()[t.begin];
    if (c == '"' || c == '\'') {
      error_.message = "unterminated string literal";
    } else if (c > 0x20 && c < 0x7f) {
      error_.message = fmt::format("unexpected character '{}'", c);
    } else if (const auto u = static_cast<unsigned char>(c); u >= 0xc2 && u <= 0xf4) {
      // A UTF-8 sequence: quote the whole character.
      const std::size_t n = u < 0xe0 ? 2 : u < 0xf0 ? 3 : 4;
      error_.message =
          fmt::format("unexpected character '{}' (names and types are ASCII)", lex_.src().substr(t.begin, n));
    } else {
      error_.message = fmt::format("unexpected byte 0x{:02x}", static_cast<unsigned char>(c));
    }
  }
  return false;
}

bool Parser::fail_at_offset(std::size_t offset, std::string message) {
  Token t;
  t.begin = offset;
  return fail_at(t, std::move(message));
}

bool Parser::fail_expected(std::string_view what) { return fail(fmt::format("expected {}, found {}", what, found())); }

bool Parser::expect(char c, std::string_view what) {
  if (accept(c)) return true;
  return fail_expected(fmt::format("'{}' {}", c, what));
}

std::string Parser::found() const {
  switch (cur().kind) {
    case Tok::End:
      return "end of input";
    case Tok::Newline:
      return "a line break";
    case Tok::String:
      return "a string literal";
    default:
      return fmt::format("'{}'", text(cur()));
  }
}

bool Parser::parse_name(Schema& s) {
  if (!name_token("an operator name")) return false;
  std::string_view first = text(cur());
  advance();
  if (accept(':')) {
    if (!expect(':', "after the namespace")) return false;
    if (!name_token("an operator name after '::'")) return false;
    s.ns = first;
    first = text(cur());
    advance();
  }
  s.name = first;
  if (cur().kind == Tok::Number && text(cur()).starts_with('.'))  // "add.1" lexes as add, .1
    return fail_at_offset(cur().begin + 1,
                          fmt::format("expected an overload name after '.', found '{}'", text(cur()).substr(1)));
  if (accept('.')) {
    if (!name_token("an overload name after '.'")) return false;
    s.overload = text(cur());
    advance();
  }
  return true;
}

bool Parser::name_token(std::string_view what) {
  if (is_name()) return true;
  if (cur().kind == Tok::Ident) return fail(fmt::format("expected {}, found the keyword '{}'", what, text(cur())));
  return fail_expected(what);
}

bool Parser::parse_arguments(Schema& s) {
  advance();  // '('
  bool kwarg_only = false;
  if (!is_punct(')')) {
    bool first = true;
    do {
      if (!first && is_punct(')')) return fail("expected an argument after ','");
      first = false;
      if (s.is_vararg) return fail("'...' must be the last element of the argument list");
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
  return expect(')', "to close the argument list");
}

bool Parser::parse_returns(Schema& s) {
  if (cur().kind == Tok::Dots) {
    advance();
    s.is_varret = true;
    return true;
  }
  if (!is_punct('(')) return parse_return(s);
  advance();
  s.returns_parenthesised = true;
  if (!is_punct(')')) {
    bool first = true;
    do {
      if (!first && is_punct(')')) return fail("expected a return after ','");
      first = false;
      if (s.is_varret) return fail("'...' must be the last element of the return list");
      if (cur().kind == Tok::Dots) {
        advance();
        s.is_varret = true;
      } else if (!parse_return(s)) {
        return false;
      }
    } while (accept(','));
  }
  return expect(')', "to close the return list");
}

bool Parser::parse_return(Schema& s) {
  if (cur().kind == Tok::End) return fail("expected a return type after '->'");
  if (is_punct('*')) return fail("'*' (keyword-only marker) is only allowed among the arguments");
  return parse_argument(s.returns.emplace_back(), /*is_return=*/true);
}

bool Parser::expect_end(const Schema& s) {
  switch (cur().kind) {
    case Tok::End:
      return true;
    case Tok::Newline:
      return fail("unexpected line break after the schema");
    default:
      break;
  }
  if (is_punct(',') && !s.returns_parenthesised)
    return fail("unexpected ',' after the return type; several returns need parentheses: '-> (A a, B b)'");
  return fail(fmt::format("unexpected {} after the schema", found()));
}

bool Parser::parse_argument(SchemaArgument& arg, bool is_return) {
  TypeShape shape;
  std::optional<std::int64_t> size;
  if (!parse_argument_type(Mode::Real, arg.type, shape, size)) return false;
  if (is_return) {
    if (is_name()) {
      arg.name = text(cur());
      advance();
    }
    if (is_punct('=')) return fail("a return cannot have a default value");
    return true;
  }
  if (!is_name()) {
    if (cur().kind == Tok::Ident)
      return fail(fmt::format("'{}' is a keyword and cannot be an argument name", text(cur())));
    return fail_expected(fmt::format("an argument name after the type '{}'", arg.type));
  }
  arg.name = text(cur());
  advance();
  if (accept('=')) {
    std::string value;
    if (!parse_default(shape, size, arg.type, value)) return false;
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
