// Python expressions and signatures (readers/python_parser.hpp).
#include "readers/python_parser.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace dt {

const PyExpr* PyExpr::kwarg(std::string_view name) const {
  for (std::size_t i = 0; i < kwarg_names.size(); ++i)
    if (kwarg_names[i] == name) return &kwargs[i];
  return nullptr;
}

namespace {

constexpr int kMaxDepth = 200;

PyExpr make(PyExpr::Kind k, std::string text, Location at) {
  PyExpr e;
  e.kind = k;
  e.text = std::move(text);
  e.at = at;
  return e;
}

// Binary operators by precedence level, lowest first (after `|`, which is BitOr).
constexpr std::string_view kLevels[][4] = {{"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%"}};
constexpr int kLevelCount = 5;

class PyParser {
 public:
  PyParser(FileName file, const std::vector<PyToken>& t, std::size_t& pos) : file_(file), t_(t), p_(pos) {}

  // expr := lambda | or_test ['if' or_test 'else' expr]
  Expected<PyExpr, Diagnostic> expr(int depth) {
    if (depth > kMaxDepth) return fail(cur(), "expression nested too deeply");
    if (is_name("lambda")) return lambda(depth);
    auto body = or_test(depth);
    if (!body) return body;
    if (is_name("if")) {
      PyExpr e;
      e.kind = PyExpr::IfExp;
      e.at = body->at;
      ++p_;
      auto cond = or_test(depth + 1);
      if (!cond) return cond;
      if (!is_name("else")) return fail(cur(), "expected 'else' in a conditional expression");
      ++p_;
      auto other = expr(depth + 1);
      if (!other) return other;
      e.args.push_back(std::move(*body));
      e.args.push_back(std::move(*cond));
      e.args.push_back(std::move(*other));
      return e;
    }
    if (is_op(":=")) {  // a walrus: its value is not tracked
      ++p_;
      auto v = expr(depth + 1);
      if (!v) return v;
      body->kind = PyExpr::Opaque;
      body->text = ":=";
    }
    return body;
  }

  Expected<PyFunction, Diagnostic> def() {
    PyFunction f;
    f.at = loc(cur());
    ++p_;  // def
    if (cur().kind != PyTok::Name) return fail(cur(), "expected a function name after 'def'");
    f.name = cur().text;
    ++p_;
    if (is_op("[")) skip_brackets();  // PEP 695 type parameters
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
          DT_TRY_VOID(param_tail(q));
          f.params.push_back(std::move(q));
        }
        kind = PyParam::KeywordOnly;
      } else if (cur().kind == PyTok::Name) {
        PyParam q;
        q.name = cur().text;
        q.at = loc(cur());
        q.kind = kind;
        ++p_;
        DT_TRY_VOID(param_tail(q));
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
      DT_TRY(r, expr(0));
      f.has_return = true;
      f.returns = std::move(r);
    }
    if (!is_op(":")) return fail(cur(), "expected ':' after the signature");
    ++p_;
    return f;
  }

 private:
  FileName file_;
  const std::vector<PyToken>& t_;
  std::size_t& p_;
  bool last_comma_ = false;

  const PyToken& cur() const { return t_[std::min(p_, t_.size() - 1)]; }
  bool is_op(std::string_view o) const { return cur().kind == PyTok::Op && cur().text == o; }
  bool is_name(std::string_view n) const { return cur().kind == PyTok::Name && cur().text == n; }
  bool at_end() const { return cur().kind == PyTok::End || cur().kind == PyTok::Newline; }
  Location loc(const PyToken& k) const { return Location{file_, k.line, k.column}; }
  dispatchtool::Unexpected<Diagnostic> fail(const PyToken& k, std::string msg) const {
    return unexpected(make_error(loc(k), std::move(msg)));
  }

  void skip_brackets() {
    int depth = 0;
    do {
      if (is_op("(") || is_op("[") || is_op("{")) ++depth;
      if (is_op(")") || is_op("]") || is_op("}")) --depth;
      ++p_;
    } while (depth > 0 && !at_end());
  }

  // lambda PARAMS: BODY -- the parameters' defaults and the body are parsed
  // (so that the tokens are consumed) and dropped.
  Expected<PyExpr, Diagnostic> lambda(int depth) {
    PyExpr e;
    e.kind = PyExpr::Lambda;
    e.at = loc(cur());
    int depth_in = 0;
    for (++p_; !at_end(); ++p_) {
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

  Expected<PyExpr, Diagnostic> bool_op(int depth, std::string_view word) {
    auto left = word == "or" ? bool_op(depth, "and") : not_test(depth);
    if (!left || !is_name(word)) return left;
    PyExpr e;
    e.kind = PyExpr::BoolOp;
    e.text = std::string(word);
    e.at = left->at;
    e.args.push_back(std::move(*left));
    while (is_name(word)) {
      ++p_;
      auto right = word == "or" ? bool_op(depth, "and") : not_test(depth);
      if (!right) return right;
      e.args.push_back(std::move(*right));
    }
    return e;
  }
  Expected<PyExpr, Diagnostic> or_test(int depth) { return bool_op(depth, "or"); }

  Expected<PyExpr, Diagnostic> not_test(int depth) {
    if (!is_name("not")) return comparison(depth);
    if (depth > kMaxDepth) return fail(cur(), "expression nested too deeply");
    PyExpr e;
    e.kind = PyExpr::Not;
    e.at = loc(cur());
    ++p_;
    auto operand = not_test(depth + 1);
    if (!operand) return operand;
    e.base.push_back(std::move(*operand));
    return e;
  }

  // The comparison operator at the cursor ("not in", "is not" as one), or "".
  std::string compare_op() const {
    if (cur().kind == PyTok::Op) {
      for (std::string_view o : {"<", ">", "==", "!=", "<=", ">="})
        if (cur().text == o) return std::string(o);
      return {};
    }
    if (is_name("in")) return "in";
    if (is_name("is")) {
      const PyToken& n = t_[std::min(p_ + 1, t_.size() - 1)];
      return n.kind == PyTok::Name && n.text == "not" ? "is not" : "is";
    }
    if (is_name("not")) {
      const PyToken& n = t_[std::min(p_ + 1, t_.size() - 1)];
      if (n.kind == PyTok::Name && n.text == "in") return "not in";
    }
    return {};
  }

  Expected<PyExpr, Diagnostic> comparison(int depth) {
    auto left = bit_or(depth);
    if (!left) return left;
    std::string op = compare_op();
    if (op.empty()) return left;
    PyExpr e;
    e.kind = PyExpr::Compare;
    e.at = left->at;
    e.args.push_back(std::move(*left));
    while (!op.empty()) {
      p_ += op.find(' ') != std::string::npos ? 2U : 1U;
      auto right = bit_or(depth);
      if (!right) return right;
      e.ops.push_back(op);
      e.args.push_back(std::move(*right));
      op = compare_op();
    }
    return e;
  }

  Expected<PyExpr, Diagnostic> bit_or(int depth) {
    auto left = binary(depth, 0);
    if (!left || !is_op("|")) return left;
    PyExpr b;
    b.kind = PyExpr::BitOr;
    b.at = left->at;
    b.args.push_back(std::move(*left));
    while (is_op("|")) {
      ++p_;
      auto right = binary(depth, 0);
      if (!right) return right;
      b.args.push_back(std::move(*right));
    }
    return b;
  }

  bool level_op(int level) const {
    if (cur().kind != PyTok::Op) return false;
    for (std::string_view o : kLevels[level])
      if (!o.empty() && cur().text == o) return true;
    return level == kLevelCount - 1 && cur().text == "@";
  }

  Expected<PyExpr, Diagnostic> binary(int depth, int level) {
    if (level == kLevelCount) return factor(depth);
    auto left = binary(depth, level + 1);
    if (!left) return left;
    while (level_op(level)) {
      PyExpr e;
      e.kind = PyExpr::Binary;
      e.text = cur().text;
      e.at = left->at;
      ++p_;
      auto right = binary(depth, level + 1);
      if (!right) return right;
      e.args.push_back(std::move(*left));
      e.args.push_back(std::move(*right));
      *left = std::move(e);
    }
    return left;
  }

  Expected<PyExpr, Diagnostic> factor(int depth) {
    if (is_op("-") || is_op("+") || is_op("~")) {
      if (depth > kMaxDepth) return fail(cur(), "expression nested too deeply");
      const bool neg = is_op("-"), tilde = is_op("~");
      PyExpr e;
      e.at = loc(cur());
      ++p_;
      auto operand = factor(depth + 1);
      if (!operand) return operand;
      if (neg) {
        e.kind = PyExpr::Neg;
        e.base.push_back(std::move(*operand));
        return e;
      }
      if (!tilde) return std::move(*operand);
      e.text = "~";
      return e;
    }
    auto base = power(depth);
    return base;
  }

  Expected<PyExpr, Diagnostic> power(int depth) {
    if (is_name("await")) {
      ++p_;
      auto e = primary(depth + 1);
      if (e) *e = make(PyExpr::Opaque, "await", e->at);
      return e;
    }
    auto left = primary(depth);
    if (!left || !is_op("**")) return left;
    PyExpr e;
    e.kind = PyExpr::Binary;
    e.text = "**";
    e.at = left->at;
    ++p_;
    auto right = factor(depth + 1);
    if (!right) return right;
    e.args.push_back(std::move(*left));
    e.args.push_back(std::move(*right));
    return e;
  }

  Expected<PyExpr, Diagnostic> primary(int depth) {
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
        DT_TRY(items, sequence("]", depth + 1, true));
        if (items.size() == 1 && !last_comma_) {
          s.args.push_back(std::move(items.front()));
        } else {
          PyExpr tup;
          tup.kind = PyExpr::Tuple;
          tup.at = s.at;
          tup.args = std::move(items);
          s.args.push_back(std::move(tup));
        }
        *e = std::move(s);
      } else {
        break;
      }
    }
    return e;
  }

  // Skips to the next ',' ')' ']' '}' ':' '=' or end of line outside brackets.
  void skip_to_delimiter() {
    int depth = 0;
    while (!at_end()) {
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

  // Skips a comprehension's `for ... in ... [if ...]` clauses up to `close`.
  void skip_comprehension(std::string_view close) {
    int depth = 0;
    while (!at_end()) {
      if (cur().kind == PyTok::Op) {
        const std::string& o = cur().text;
        if (o == "(" || o == "[" || o == "{") {
          ++depth;
        } else if (o == ")" || o == "]" || o == "}") {
          if (depth == 0 && o == close) return;
          if (depth == 0) return;
          --depth;
        } else if (depth == 0 && o == ",") {
          return;
        }
      }
      ++p_;
    }
  }

  Expected<bool, Diagnostic> param_tail(PyParam& q) {
    if (is_op(":")) {
      ++p_;
      DT_TRY(a, expr(0));
      q.has_annotation = true;
      q.annotation = std::move(a);
    }
    if (is_op("=")) {
      ++p_;
      DT_TRY(d, expr(0));
      q.has_default = true;
      q.default_value = std::move(d);
    }
    return true;
  }

  // One slice bound, or an absent one.
  Expected<PyExpr, Diagnostic> slice_part(int depth) {
    if (is_op(":") || is_op("]") || is_op(",")) return PyExpr{};
    return expr(depth);
  }

  // Items up to `close` (consumed), comma-separated. In a subscript, `a:b:c`
  // is a Slice. Dict entries go to dict_values_ (a Dict's values).
  Expected<std::vector<PyExpr>, Diagnostic> sequence(std::string_view close, int depth, bool subscript = false,
                                                     std::vector<PyExpr>* dict_values = nullptr) {
    std::vector<PyExpr> items;
    last_comma_ = false;
    while (!is_op(close)) {
      if (cur().kind == PyTok::End) return unexpected(make_error(loc(cur()), "unexpected end of file"));
      bool star = false;
      if (is_op("*") || is_op("**")) {
        ++p_;
        star = true;
      }
      PyExpr e;
      if (subscript && is_op(":")) {
        e = PyExpr{};
      } else {
        DT_TRY(v, expr(depth));
        e = std::move(v);
      }
      if (subscript && is_op(":")) {
        PyExpr s;
        s.kind = PyExpr::Slice;
        s.at = loc(cur());
        s.args.push_back(std::move(e));
        ++p_;
        DT_TRY(upper, slice_part(depth));
        s.args.push_back(std::move(upper));
        PyExpr step;
        if (is_op(":")) {
          ++p_;
          DT_TRY(st, slice_part(depth));
          step = std::move(st);
        }
        s.args.push_back(std::move(step));
        e = std::move(s);
      } else if (dict_values != nullptr && is_op(":") && !star) {
        ++p_;
        DT_TRY(v, expr(depth));
        dict_values->push_back(std::move(v));
      } else if (is_name("for") || is_name("async")) {  // a comprehension
        skip_comprehension(close);
        e = make(PyExpr::Opaque, "comprehension", e.at);
      } else if (is_op(":") || is_op("=")) {
        skip_to_delimiter();
        while (is_op(":") || is_op("=")) {
          ++p_;
          skip_to_delimiter();
        }
        e.kind = PyExpr::Opaque;
      }
      if (star) e = make(PyExpr::Opaque, "*", e.at);
      items.push_back(std::move(e));
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
        const bool kw = is_op("**");
        ++p_;
        c.starred = true;
        auto e = expr(depth);
        if (!e) return e;
        (kw ? c.star_kwargs : c.star_args).push_back(std::move(*e));
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
        if (is_name("for") || is_name("async")) {
          skip_comprehension(")");
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
    if (depth > kMaxDepth) return fail(cur(), "expression nested too deeply");
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
          if (cur().fstring && !e.fstring && !e.text.empty()) {
            // A plain literal before an f-string: braces escaped, so that the
            // whole reads as one f-string.
            std::string esc;
            for (char c : e.text) esc += c == '{' || c == '}' ? std::string(2, c) : std::string(1, c);
            e.text = std::move(esc);
          }
          if (e.fstring && !cur().fstring) {
            for (char c : cur().text) e.text += c == '{' || c == '}' ? std::string(2, c) : std::string(1, c);
          } else {
            e.text += cur().text;
          }
          e.fstring = e.fstring || cur().fstring;
          if (cur().bytes) e.kind = PyExpr::Opaque;
          ++p_;
        }
        return e;
      case PyTok::Op:
        if (k.text == "(" || k.text == "[" || k.text == "{") {
          const std::string close = k.text == "(" ? ")" : k.text == "[" ? "]" : "}";
          ++p_;
          std::vector<PyExpr> values;
          DT_TRY(items, sequence(close, depth, false, k.text == "{" ? &values : nullptr));
          if (k.text == "(" && items.size() == 1 && !last_comma_) return std::move(items.front());
          e.kind = k.text == "(" ? PyExpr::Tuple : k.text == "[" ? PyExpr::List : PyExpr::Set;
          if (k.text == "{" && (items.empty() || !values.empty())) {
            if (values.size() != items.size()) {
              e.kind = PyExpr::Opaque;  // {**a, 'k': v}: mixed
              return e;
            }
            e.kind = PyExpr::Dict;
            e.kwargs = std::move(values);
          }
          e.args = std::move(items);
          return e;
        }
        if (k.text == "...") {
          ++p_;
          e.text = "...";
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
  return PyParser(file, tokens, pos).expr(0);
}

Expected<PyFunction, Diagnostic> parse_py_def(FileName file, const std::vector<PyToken>& tokens, std::size_t& pos) {
  return PyParser(file, tokens, pos).def();
}

}  // namespace dt
