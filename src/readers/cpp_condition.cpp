// evaluate_condition (cpp_condition.hpp): precedence climbing over the
// directive's tokens, with the usual arithmetic conversions between signed
// and unsigned operands, and the operands of &&, || and ?: that are not
// evaluated not evaluated (so `0 && 1 / 0` is 0, not an error).
#include "readers/cpp_condition.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>

namespace dt {

namespace {

struct Value {
  std::intmax_t v = 0;
  bool is_unsigned = false;
  [[nodiscard]] std::uintmax_t u() const { return static_cast<std::uintmax_t>(v); }
  [[nodiscard]] bool truth() const { return v != 0; }
};

Value make(bool b) { return Value{b ? 1 : 0, false}; }

class ConditionParser {
 public:
  explicit ConditionParser(const std::vector<CppToken>& t) : t_(t) {}

  Expected<CppConditionValue, Diagnostic> run() {
    if (t_.empty()) return unexpected(make_error("no expression"));
    const Value v = comma(true);
    if (!error_.empty()) return unexpected(make_error(error_));
    if (i_ < t_.size()) return unexpected(make_error(fmt::format("unexpected '{}' in the expression", shown(t_[i_]))));
    return CppConditionValue{v.truth(), std::move(unknown_)};
  }

 private:
  static std::string shown(const CppToken& t) {
    return t.kind == CppToken::Kind::String ? "\"" + t.value + "\"" : std::string(t.text);
  }
  [[nodiscard]] bool at(std::string_view p) const {
    return i_ < t_.size() && t_[i_].kind == CppToken::Kind::Punct && t_[i_].text == p;
  }
  // Two-character operators are two punctuation tokens to the scanner
  // (only :: and -> are one): `<` `<` is a shift when the two touch.
  [[nodiscard]] bool at2(char a, char b) const {
    return i_ + 1 < t_.size() && t_[i_].kind == CppToken::Kind::Punct && t_[i_ + 1].kind == CppToken::Kind::Punct &&
           t_[i_].text.size() == 1 && t_[i_].text[0] == a && t_[i_ + 1].text.size() == 1 && t_[i_ + 1].text[0] == b &&
           !t_[i_ + 1].space;
  }
  Value fail(std::string msg) {
    if (error_.empty()) error_ = std::move(msg);
    i_ = t_.size();
    return Value{};
  }

  Value comma(bool eval) {
    Value v = conditional(eval);
    while (error_.empty() && at(",")) {
      ++i_;
      v = conditional(eval);
    }
    return v;
  }

  Value conditional(bool eval) {
    if (++depth_ > kCppMaxConditionDepth) return fail(fmt::format("nested deeper than {} levels", kCppMaxConditionDepth));
    Value c = binary(0, eval);
    if (error_.empty() && at("?")) {
      ++i_;
      Value a = comma(eval && c.truth());
      if (!at(":")) {
        --depth_;
        return fail("'?' without its ':'");
      }
      ++i_;
      Value b = conditional(eval && !c.truth());
      Value r = c.truth() ? a : b;
      r.is_unsigned = a.is_unsigned || b.is_unsigned;
      c = r;
    }
    --depth_;
    return c;
  }

  // The binary operator at i_ and its precedence (higher binds tighter), or -1.
  int binary_op(std::string_view& op) const {
    if (i_ >= t_.size() || t_[i_].kind != CppToken::Kind::Punct) return -1;
    if (at2('|', '|')) return op = "||", 1;
    if (at2('&', '&')) return op = "&&", 2;
    if (at2('=', '=')) return op = "==", 6;
    if (at2('!', '=')) return op = "!=", 6;
    if (at2('<', '=')) return op = "<=", 7;
    if (at2('>', '=')) return op = ">=", 7;
    if (at2('<', '<')) return op = "<<", 8;
    if (at2('>', '>')) return op = ">>", 8;
    const std::string_view p = t_[i_].text;
    if (p == "|") return op = "|", 3;
    if (p == "^") return op = "^", 4;
    if (p == "&") return op = "&", 5;
    if (p == "<" || p == ">") return op = p, 7;
    if (p == "+" || p == "-") return op = p, 9;
    if (p == "*" || p == "/" || p == "%") return op = p, 10;
    return -1;
  }

  Value binary(int min_prec, bool eval) {
    Value lhs = unary(eval);
    for (;;) {
      std::string_view op;
      const int prec = binary_op(op);
      if (prec < 0 || prec < min_prec || !error_.empty()) return lhs;
      i_ += op.size();
      const bool rhs_eval = eval && !(op == "&&" && !lhs.truth()) && !(op == "||" && lhs.truth());
      Value rhs = binary(prec + 1, rhs_eval);
      lhs = apply(op, lhs, rhs, rhs_eval);
    }
  }

  Value apply(std::string_view op, Value a, Value b, bool eval) {
    if (op == "&&") return make(a.truth() && b.truth());
    if (op == "||") return make(a.truth() || b.truth());
    const bool u = a.is_unsigned || b.is_unsigned;
    Value r;
    r.is_unsigned = u;
    if (op == "==") return make(u ? a.u() == b.u() : a.v == b.v);
    if (op == "!=") return make(u ? a.u() != b.u() : a.v != b.v);
    if (op == "<") return make(u ? a.u() < b.u() : a.v < b.v);
    if (op == ">") return make(u ? a.u() > b.u() : a.v > b.v);
    if (op == "<=") return make(u ? a.u() <= b.u() : a.v <= b.v);
    if (op == ">=") return make(u ? a.u() >= b.u() : a.v >= b.v);
    const auto wrap = [&](std::uintmax_t x) {
      r.v = static_cast<std::intmax_t>(x);
      return r;
    };
    if (op == "+") return wrap(a.u() + b.u());
    if (op == "-") return wrap(a.u() - b.u());
    if (op == "*") return wrap(a.u() * b.u());
    if (op == "&") return wrap(a.u() & b.u());
    if (op == "|") return wrap(a.u() | b.u());
    if (op == "^") return wrap(a.u() ^ b.u());
    if (op == "<<" || op == ">>") {
      r.is_unsigned = a.is_unsigned;
      const std::uintmax_t n = b.u();
      if (n >= 64) return wrap(0);
      return wrap(op == "<<" ? a.u() << n : (a.is_unsigned ? a.u() >> n : static_cast<std::uintmax_t>(a.v >> n)));
    }
    // / and %
    if (b.v == 0) return eval ? fail("division by zero") : r;
    if (u) return wrap(op == "/" ? a.u() / b.u() : a.u() % b.u());
    if (a.v == INTMAX_MIN && b.v == -1) return wrap(op == "/" ? a.u() : 0);
    return wrap(static_cast<std::uintmax_t>(op == "/" ? a.v / b.v : a.v % b.v));
  }

  Value unary(bool eval) {
    if (i_ >= t_.size()) return fail("the expression ends too soon");
    if (++depth_ > kCppMaxConditionDepth) return fail(fmt::format("nested deeper than {} levels", kCppMaxConditionDepth));
    Value out;
    const CppToken& t = t_[i_];
    if (t.kind == CppToken::Kind::Punct && (t.text == "!" || t.text == "~" || t.text == "-" || t.text == "+")) {
      ++i_;
      Value v = unary(eval);
      if (t.text == "!") out = make(!v.truth());
      else if (t.text == "~") out = Value{static_cast<std::intmax_t>(~v.u()), v.is_unsigned};
      else if (t.text == "-") out = Value{static_cast<std::intmax_t>(0 - v.u()), v.is_unsigned};
      else out = v;
    } else if (at("(")) {
      ++i_;
      out = comma(eval);
      if (!at(")")) {
        --depth_;
        return fail("'(' without its ')'");
      }
      ++i_;
    } else {
      out = primary(eval);
    }
    --depth_;
    return out;
  }

  Value primary(bool eval) {
    const CppToken& t = t_[i_++];
    if (t.kind == CppToken::Kind::Number) return number(t.text);
    if (t.kind == CppToken::Kind::Char) return character(t.text);
    if (t.kind == CppToken::Kind::Ident) {
      if (t.text == "true") return make(true);
      if (t.text == "false") return make(false);
      // Only what the answer rests on: not the operand of a short-circuited && or ||.
      const std::string name(t.text);
      if (eval && std::find(unknown_.begin(), unknown_.end(), name) == unknown_.end()) unknown_.push_back(name);
      return Value{};
    }
    --i_;
    return fail(fmt::format("unexpected '{}' in the expression", shown(t)));
  }

  Value number(std::string_view s) {
    std::string digits;
    for (char c : s)
      if (c != '\'') digits += c;
    std::size_t i = 0;
    unsigned base = 10;
    if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) base = 16, i = 2;
    else if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) base = 2, i = 2;
    else if (digits.size() > 1 && digits[0] == '0') base = 8, i = 1;
    std::uintmax_t v = 0;
    bool overflow = false;
    for (; i < digits.size(); ++i) {
      const char c = digits[i];
      unsigned d = 0;
      if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
      else if (base == 16 && c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
      else if (base == 16 && c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
      else break;
      if (d >= base) return fail(fmt::format("'{}' is not an integer", s));
      if (v > (UINTMAX_MAX - d) / base) overflow = true;
      v = v * base + d;
    }
    bool is_unsigned = false;
    for (; i < digits.size(); ++i) {
      const char c = digits[i];
      if (c == 'u' || c == 'U') is_unsigned = true;
      else if (c != 'l' && c != 'L' && c != 'z' && c != 'Z')
        return fail(fmt::format("'{}' is not an integer (a floating literal in a preprocessor condition?)", s));
    }
    if (overflow) return fail(fmt::format("'{}' is too large", s));
    if (v > static_cast<std::uintmax_t>(INTMAX_MAX)) is_unsigned = true;
    return Value{static_cast<std::intmax_t>(v), is_unsigned};
  }

  static Value character(std::string_view s) {
    const std::size_t q = s.find('\'');
    if (q == std::string_view::npos || q + 1 >= s.size()) return Value{};
    const std::string_view body = s.substr(q + 1, s.size() - q - 2);
    if (body.empty()) return Value{};
    if (body[0] != '\\') return Value{static_cast<unsigned char>(body[0]), false};
    if (body.size() < 2) return Value{};
    switch (body[1]) {
      case 'n': return Value{'\n', false};
      case 't': return Value{'\t', false};
      case 'r': return Value{'\r', false};
      case 'a': return Value{'\a', false};
      case 'b': return Value{'\b', false};
      case 'f': return Value{'\f', false};
      case 'v': return Value{'\v', false};
      case 'x': {
        std::intmax_t v = 0;
        for (std::size_t k = 2; k < body.size() && k < 4; ++k) {
          const char c = body[k];
          const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
          if (d < 0) break;
          v = v * 16 + d;
        }
        return Value{v, false};
      }
      default:
        if (body[1] >= '0' && body[1] <= '7') {
          std::intmax_t v = 0;
          for (std::size_t k = 1; k < body.size() && k < 4 && body[k] >= '0' && body[k] <= '7'; ++k) v = v * 8 + (body[k] - '0');
          return Value{v, false};
        }
        return Value{static_cast<unsigned char>(body[1]), false};
    }
  }

  const std::vector<CppToken>& t_;
  std::size_t i_ = 0;
  int depth_ = 0;
  std::string error_;
  std::vector<std::string> unknown_;
};

}  // namespace

UnknownWhy unknown_why(const std::vector<std::string>& unknown) {
  std::vector<std::string_view> names, headers;
  for (const std::string& u : unknown) (u.starts_with('<') || u.starts_with('"') ? headers : names).push_back(u);
  auto are = [](std::size_t n) { return n == 1 ? "is" : "are"; };
  auto them = [](std::size_t n) { return n == 1 ? "it" : "them"; };
  UnknownWhy out;
  if (!names.empty()) {
    out.why = fmt::format("{} {} not defined here (a compiler takes {} as 0)", fmt::join(names, ", "),
                          are(names.size()), them(names.size()));
    out.fix = fmt::format("define {} with -D", them(names.size()));
  }
  if (!headers.empty()) {
    const std::string_view sep = names.empty() ? "" : " and ";
    out.why += fmt::format("{}the header{} {} {} not found here (__has_include takes {} as 0)", sep,
                           headers.size() == 1 ? "" : "s", fmt::join(headers, ", "), are(headers.size()),
                           them(headers.size()));
    out.fix += fmt::format("{}give {} director{} with -I", sep, headers.size() == 1 ? "its" : "their",
                           headers.size() == 1 ? "y" : "ies");
  }
  return out;
}

Expected<CppConditionValue, Diagnostic> evaluate_condition(const std::vector<CppToken>& tokens) {
  return ConditionParser(tokens).run();
}

void resolve_condition_queries(std::vector<CppToken>& in, const CppConditionQueries& q,
                               std::vector<std::string>& queried) {
    std::vector<CppToken> out;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const CppToken& x = in[i];
      const bool has_include = x.is("__has_include") || x.is("__has_include_next");
      if (x.is("defined") || has_include) {
        std::size_t j = i + 1;
        const bool paren = j < in.size() && is_punct(in[j], "(");
        if (paren) ++j;
        bool value = false;
        if (j < in.size() && x.is("defined") && in[j].kind == CppToken::Kind::Ident) {
          value = q.defined(in[j].text) || in[j].is("__has_include") || in[j].is("__has_include_next");
          if (!value) queried.emplace_back(in[j].text);  // a name nothing here defines: 0, and recorded
        } else if (j < in.size() && has_include &&
                   (in[j].kind == CppToken::Kind::HeaderName || in[j].kind == CppToken::Kind::String)) {
          const bool quoted = in[j].kind == CppToken::Kind::String;
          value = q.has_include(in[j].value, quoted);
          if (!value) queried.push_back(quoted ? "\"" + in[j].value + "\"" : "<" + in[j].value + ">");
        } else if (j < in.size() && has_include && is_punct(in[j], "<")) {
          // __has_include(<a/b.h>) after a macro: the header name as tokens.
          std::string name;
          for (++j; j < in.size() && !is_punct(in[j], ">"); ++j) name += in[j].text;
          value = q.has_include(name, false);
          if (!value) queried.push_back("<" + name + ">");
        }
        if (paren) {
          ++j;
          if (j < in.size() && is_punct(in[j], ")")) ++j;
        } else {
          ++j;
        }
        CppToken n = x;
        n.kind = CppToken::Kind::Number;
        n.text = value ? "1" : "0";
        out.push_back(n);
        i = j - 1;
        continue;
      }
      // A compiler query (__has_builtin(...)), or a function-like macro nothing here defines
      // (glibc's __GNUC_PREREQ (4, 6)): 0, and recorded.
      if (x.kind == CppToken::Kind::Ident && i + 1 < in.size() && is_punct(in[i + 1], "(") &&
          !q.defined(x.text)) {
        std::size_t j = i + 1;
        int depth = 0;
        for (; j < in.size(); ++j) {
          if (is_punct(in[j], "(")) ++depth;
          else if (is_punct(in[j], ")") && --depth == 0) break;
        }
        queried.emplace_back(x.text);
        CppToken n = x;
        n.kind = CppToken::Kind::Number;
        n.text = "0";
        out.push_back(n);
        i = j;
        continue;
      }
      out.push_back(x);
    }
    in = std::move(out);
}

}  // namespace dt
