// Python expressions and signatures (readers/python_parser.hpp).
#include "readers/python_parser.hpp"

#include <fmt/format.h>

namespace dt {

const PyExpr* PyExpr::kwarg(std::string_view name) const {
  for (std::size_t i = 0; i < kwarg_names.size(); ++i)
    if (kwarg_names[i] == name) return &kwargs[i];
  return nullptr;
}

namespace {

constexpr int kMaxDepth = 200;

class Parser {
 public:
  Parser(FileName file, const std::vector<PyToken>& t, std::size_t& pos) : file_(file), t_(t), p_(pos) {}

  Expected<PyExpr, Diagnostic> expr(int depth) {
    if (depth > kMaxDepth) return fail(cur(), "expression nested too deeply");
    if (is_name("lambda")) {  // its parameters (defaults included), then its body
      PyExpr e;
      e.at = loc(cur());
      int depth_in = 0;
      for (++p_; cur().kind != PyTok::End && cur().kind != PyTok::Newline; ++p_) {
        if (cur().kind != PyTok::Op) continue;
        const std::string& o = cur().text;
        if (o == "(" || o == "[" || o == "{")
          ++depth_in;
        else if (o == ")" || o == "]" || o == "}")
          --depth_in;
        else if (o == ":" && depth_in == 0)
          break;
      }
      if (!is_op(":")) return fail(cur(), "expected ':' in a lambda");
      ++p_;
      auto body = expr(depth + 1);
      if (!body) return body;
      return e;
    }
    auto left = unary(depth + 1);
    if (!left) return left;
    bool opaque = false;
    while (true) {
      if (is_op("|")) {
        ++p_;
        auto right = unary(depth + 1);
        if (!right) return right;
        if (left->kind != PyExpr::BitOr) {
          PyExpr b;
          b.kind = PyExpr::BitOr;
          b.at = left->at;
          b.args.push_back(std::move(*left));
          *left = std::move(b);
        }
        left->args.push_back(std::move(*right));
        continue;
      }
      if (binary_op()) {
        ++p_;
        if (is_name("not")) ++p_;
        auto right = unary(depth + 1);
        if (!right) return right;
        opaque = true;
        continue;
      }
      if (is_name("if") || is_name("for") || is_name("async")) {
        opaque = true;
        skip_to_delimiter();
      }
      break;
    }
    if (opaque) left->kind = PyExpr::Opaque;
    return left;
  }

  Expected<PyFunction, Diagnostic> def() {
    PyFunction f;
    f.at = loc(cur());
    ++p_;  // def
    if (cur().kind != PyTok::Name) return fail(cur(), "expected a function name after 'def'");
    f.name = cur().text;
    ++p_;
    if (!is_op("(")) return fail(cur(), "expected '(' after the function name");
    ++p_;
    PyParam::Kind kind = PyParam::Positional;
    while (!is_op(")")) {
      if (cur().kind == PyTok::End || cur().kind == PyTok::Newline) return fail(cur(), "unterminated parameter list");
      if (is_op("/")) {
        for (auto& q : f.params) q.kind = PyParam::PositionalOnly;
        ++p_;
      } else if (is_op("*") || is_op("**")) {
        const bool kw = is_op("**");
        ++p_;
        if (cur().kind == PyTok::Name) {
          PyParam q;
          q.name = cur().text;
          q.at = loc(cur());
          q.kind = kw ? PyParam::VarKw : PyParam::VarArgs;
          ++p_;
          if (auto e = param_tail(q); !e) return unexpected(std::move(e.error()));
          f.params.push_back(std::move(q));
        }
        kind = PyParam::KeywordOnly;
      } else if (cur().kind == PyTok::Name) {
        PyParam q;
        q.name = cur().text;
        q.at = loc(cur());
        q.kind = kind;
        ++p_;
        if (auto e = param_tail(q); !e) return unexpected(std::move(e.error()));
        f.params.push_back(std::move(q));
      } else {
        return fail(cur(), fmt::format("unexpected '{}' in a parameter list", cur().text));
      }
      if (is_op(","))
        ++p_;
      else if (!is_op(")"))
        return fail(cur(), "expected ',' or ')' in a parameter list");
    }
    ++p_;
    if (is_op("->")) {
      ++p_;
      auto r = expr(0);
      if (!r) return unexpected(std::move(r.error()));
      f.has_return = true;
      f.returns = std::move(*r);
    }
    if (!is_op(":")) return fail(cur(), "expected ':' after the signature");
    ++p_;
    return f;
  }

 private:
  FileName file_;
  const std::vector<PyToken>& t_;
  std::size_t& p_;

  const PyToken& cur() const { return t_[std::min(p_, t_.size() - 1)]; }
  bool is_op(std::string_view o) const { return cur().kind == PyTok::Op && cur().text == o; }
  bool is_name(std::string_view n) const { return cur().kind == PyTok::Name && cur().text == n; }
  Location loc(const PyToken& k) const { return Location{file_, k.line, k.column}; }
  dispatchtool::Unexpected<Diagnostic> fail(const PyToken& k, std::string msg) const {
    return unexpected(make_error(loc(k), std::move(msg)));
  }

  bool binary_op() const {
    static constexpr std::string_view kOps[] = {"+",  "-",  "*",  "/",  "%", "**", "//", "&",  "^",
                                                "<<", ">>", "==", "!=", "<", ">",  "<=", ">=", "@"};
    if (cur().kind == PyTok::Op) {
      for (auto o : kOps)
        if (cur().text == o) return true;
      return false;
    }
    return is_name("and") || is_name("or") || is_name("in") || is_name("is") || is_name("not");
  }

  // Skips to the next ',' ')' ']' '}' ':' '=' or end of line outside brackets.
  void skip_to_delimiter() {
    int depth = 0;
    while (cur().kind != PyTok::End && cur().kind != PyTok::Newline) {
      if (cur().kind == PyTok::Op) {
        const std::string& o = cur().text;
        if (o == "(" || o == "[" || o == "{")
          ++depth;
        else if (o == ")" || o == "]" || o == "}") {
          if (depth == 0) return;
          --depth;
        } else if (depth == 0 && (o == "," || o == ":" || o == "="))
          return;
      }
      ++p_;
    }
  }

  Expected<bool, Diagnostic> param_tail(PyParam& q) {
    if (is_op(":")) {
      ++p_;
      auto a = expr(0);
      if (!a) return unexpected(std::move(a.error()));
      q.has_annotation = true;
      q.annotation = std::move(*a);
    }
    if (is_op("=")) {
      ++p_;
      auto d = expr(0);
      if (!d) return unexpected(std::move(d.error()));
      q.has_default = true;
      q.default_value = std::move(*d);
    }
    return true;
  }

  Expected<PyExpr, Diagnostic> unary(int depth) {
    if (depth > kMaxDepth) return fail(cur(), "expression nested too deeply");
    if (is_op("-") || is_op("+") || is_op("~") || is_name("not") || is_name("await")) {
      const bool neg = is_op("-");
      PyExpr e;
      e.at = loc(cur());
      ++p_;
      auto operand = unary(depth + 1);
      if (!operand) return operand;
      if (neg) {
        e.kind = PyExpr::Neg;
        e.base.push_back(std::move(*operand));
      }
      return e;
    }
    auto e = atom(depth + 1);
    if (!e) return e;
    while (true) {
      if (is_op(".")) {
        ++p_;
        if (cur().kind != PyTok::Name) return fail(cur(), "expected a name after '.'");
        if (e->kind == PyExpr::Name) {
          e->text += "." + cur().text;
        } else {
          PyExpr a;
          a.kind = PyExpr::Attr;
          a.text = cur().text;
          a.at = e->at;
          a.base.push_back(std::move(*e));
          *e = std::move(a);
        }
        ++p_;
      } else if (is_op("(")) {
        auto c = call(std::move(*e), depth + 1);
        if (!c) return c;
        *e = std::move(*c);
      } else if (is_op("[")) {
        PyExpr s;
        s.kind = PyExpr::Subscript;
        s.at = e->at;
        s.base.push_back(std::move(*e));
        ++p_;
        auto items = sequence("]", depth + 1);
        if (!items) return unexpected(std::move(items.error()));
        if (items->size() == 1 && !last_comma_)
          s.args.push_back(std::move(items->front()));
        else {
          PyExpr tup;
          tup.kind = PyExpr::Tuple;
          tup.at = s.at;
          tup.args = std::move(*items);
          s.args.push_back(std::move(tup));
        }
        *e = std::move(s);
      } else {
        break;
      }
    }
    return e;
  }

  bool last_comma_ = false;

  // Items up to `close` (consumed), comma-separated; slices and other
  // non-expressions become Opaque items.
  Expected<std::vector<PyExpr>, Diagnostic> sequence(std::string_view close, int depth) {
    std::vector<PyExpr> items;
    last_comma_ = false;
    while (!is_op(close)) {
      if (cur().kind == PyTok::End) return unexpected(make_error(loc(cur()), "unexpected end of file"));
      if (is_op("*") || is_op("**")) ++p_;
      auto e = expr(depth);
      if (!e) return unexpected(std::move(e.error()));
      if (is_op(":") || is_op("=") || is_name("for")) {  // a slice, a dict entry, a comprehension
        skip_to_delimiter();
        while (is_op(":") || is_op("=")) {
          ++p_;
          skip_to_delimiter();
        }
        e->kind = PyExpr::Opaque;
      }
      items.push_back(std::move(*e));
      last_comma_ = false;
      if (is_op(",")) {
        ++p_;
        last_comma_ = true;
      } else if (!is_op(close)) {
        return unexpected(make_error(loc(cur()), fmt::format("expected ',' or '{}'", close)));
      }
    }
    ++p_;
    return items;
  }

  Expected<PyExpr, Diagnostic> call(PyExpr callee, int depth) {
    PyExpr c;
    c.kind = PyExpr::Call;
    c.at = callee.at;
    c.base.push_back(std::move(callee));
    ++p_;  // (
    while (!is_op(")")) {
      if (cur().kind == PyTok::End) return fail(cur(), "unexpected end of file in a call");
      if (is_op("*") || is_op("**")) {
        ++p_;
        c.starred = true;
        auto e = expr(depth);
        if (!e) return e;
      } else if (cur().kind == PyTok::Name && p_ + 1 < t_.size() && t_[p_ + 1].kind == PyTok::Op &&
                 t_[p_ + 1].text == "=") {
        std::string key = cur().text;
        p_ += 2;
        auto e = expr(depth);
        if (!e) return e;
        c.kwarg_names.push_back(std::move(key));
        c.kwargs.push_back(std::move(*e));
      } else {
        auto e = expr(depth);
        if (!e) return e;
        if (is_name("for")) {
          skip_to_delimiter();
          e->kind = PyExpr::Opaque;
        }
        c.args.push_back(std::move(*e));
      }
      if (is_op(","))
        ++p_;
      else if (!is_op(")"))
        return fail(cur(), "expected ',' or ')' in a call");
    }
    ++p_;
    return c;
  }

  Expected<PyExpr, Diagnostic> atom(int depth) {
    const PyToken& k = cur();
    PyExpr e;
    e.at = loc(k);
    switch (k.kind) {
      case PyTok::Name:
        e.kind = PyExpr::Name;
        e.text = k.text;
        ++p_;
        return e;
      case PyTok::Number:
        e.kind = PyExpr::Num;
        e.text = k.text;
        ++p_;
        return e;
      case PyTok::String:
        e.kind = PyExpr::Str;
        while (cur().kind == PyTok::String) {  // implicit concatenation
          e.text += cur().text;
          e.fstring = e.fstring || cur().fstring || cur().bytes;
          ++p_;
        }
        return e;
      case PyTok::Op:
        if (k.text == "(" || k.text == "[" || k.text == "{") {
          const std::string close = k.text == "(" ? ")" : k.text == "[" ? "]" : "}";
          ++p_;
          auto items = sequence(close, depth);
          if (!items) return unexpected(std::move(items.error()));
          if (k.text == "(" && items->size() == 1 && !last_comma_) return std::move(items->front());
          e.kind = k.text == "(" ? PyExpr::Tuple : k.text == "[" ? PyExpr::List : PyExpr::Opaque;
          e.args = std::move(*items);
          return e;
        }
        if (k.text == "...") {
          ++p_;
          return e;
        }
        break;
      default:
        break;
    }
    return fail(k, k.kind == PyTok::Newline || k.kind == PyTok::End ? "expected an expression"
                                                                    : fmt::format("unexpected '{}'", k.text));
  }
};

}  // namespace

Expected<PyExpr, Diagnostic> parse_py_expr(FileName file, const std::vector<PyToken>& tokens, std::size_t& pos) {
  return Parser(file, tokens, pos).expr(0);
}

Expected<PyFunction, Diagnostic> parse_py_def(FileName file, const std::vector<PyToken>& tokens, std::size_t& pos) {
  return Parser(file, tokens, pos).def();
}

}  // namespace dt
