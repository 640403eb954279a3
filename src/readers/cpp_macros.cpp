// CppMacros and CppExpander (cpp_macros.hpp).
#include "readers/cpp_macros.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace dt {

// ---- the macro table and hide sets ----------------------------------------------------------

void CppMacros::define(CppMacro m) {
  ids_.try_emplace(m.name, static_cast<std::uint32_t>(ids_.size() + 1));
  std::string name = m.name;
  macros_.insert_or_assign(std::move(name), std::move(m));
}

void CppMacros::undefine(std::string_view name) {
  if (auto it = macros_.find(name); it != macros_.end()) macros_.erase(it);
}

const CppMacro* CppMacros::find(std::string_view name) const {
  if (macros_.empty()) return nullptr;
  auto it = macros_.find(name);
  return it == macros_.end() ? nullptr : &it->second;
}

void CppMacros::keep(std::string name, std::vector<bool> expand_arg) {
  kept_.insert_or_assign(std::move(name), std::move(expand_arg));
}

const std::vector<bool>* CppMacros::kept(std::string_view name) const {
  auto it = kept_.find(name);
  return it == kept_.end() ? nullptr : &it->second;
}

std::string_view CppMacros::store(std::string text) { return text_.emplace_back(std::move(text)); }

std::uint32_t CppMacros::id_of(std::string_view name) const {
  auto it = ids_.find(name);
  return it == ids_.end() ? 0 : it->second;
}

std::uint32_t CppMacros::intern(std::vector<std::uint32_t> set) {
  std::string key;
  for (auto id : set) key += fmt::format("{},", id);
  auto [it, added] = set_index_.try_emplace(std::move(key), static_cast<std::uint32_t>(sets_.size()));
  if (added) sets_.push_back(std::move(set));
  return it->second;
}

std::uint32_t CppMacros::hide_with(std::uint32_t set, std::uint32_t macro_id) {
  if (hidden(set, macro_id)) return set;
  std::vector<std::uint32_t> s = sets_[set];
  s.insert(std::upper_bound(s.begin(), s.end(), macro_id), macro_id);
  return intern(std::move(s));
}

std::uint32_t CppMacros::hide_intersect(std::uint32_t a, std::uint32_t b) {
  if (a == b) return a;
  if (a == 0 || b == 0) return 0;
  std::vector<std::uint32_t> s;
  std::set_intersection(sets_[a].begin(), sets_[a].end(), sets_[b].begin(), sets_[b].end(), std::back_inserter(s));
  return intern(std::move(s));
}

std::uint32_t CppMacros::hide_union(std::uint32_t a, std::uint32_t b) {
  if (a == b || b == 0) return a;
  if (a == 0) return b;
  std::vector<std::uint32_t> s;
  std::set_union(sets_[a].begin(), sets_[a].end(), sets_[b].begin(), sets_[b].end(), std::back_inserter(s));
  return intern(std::move(s));
}

bool CppMacros::hidden(std::uint32_t set, std::uint32_t macro_id) const {
  const auto& s = sets_[set];
  return std::binary_search(s.begin(), s.end(), macro_id);
}

// ---- expansion ----------------------------------------------------------------------------

namespace {

// `##`: two '#' tokens that touch.
bool is_paste(const std::vector<CppToken>& b, std::size_t i) {
  return i + 1 < b.size() && is_punct(b[i], "#") && is_punct(b[i + 1], "#") && !b[i + 1].space;
}

}  // namespace

std::optional<CppToken> CppExpander::next() {
  if (!stack_.empty()) {
    CppToken t = std::move(stack_.back());
    stack_.pop_back();
    return t;
  }
  if (more_ != nullptr && *more_) return (*more_)();
  return std::nullopt;
}

std::optional<CppToken> CppExpander::peek_paren() {
  auto t = next();
  if (!t) return std::nullopt;
  if (is_punct(*t, "(")) return t;
  stack_.push_back(std::move(*t));
  return std::nullopt;
}

std::optional<std::vector<std::vector<CppToken>>> CppExpander::arguments(CppToken& rparen) {
  std::vector<std::vector<CppToken>> args(1);
  std::vector<CppToken> taken;  // to give back if the invocation does not close
  int depth = 0;
  for (;;) {
    auto t = next();
    if (!t) {
      for (auto it = taken.rbegin(); it != taken.rend(); ++it) stack_.push_back(std::move(*it));
      return std::nullopt;
    }
    taken.push_back(*t);
    if (is_punct(*t, "(")) {
      ++depth;
    } else if (is_punct(*t, ")")) {
      if (depth == 0) {
        rparen = std::move(*t);
        return args;
      }
      --depth;
    } else if (is_punct(*t, ",") && depth == 0) {
      args.emplace_back();
      continue;
    }
    args.back().push_back(std::move(*t));
  }
}

Expected<bool, Diagnostic> CppExpander::run(std::vector<CppToken> in, std::vector<CppToken>& out, const More& more) {
  more_ = &more;
  stack_.reserve(stack_.size() + in.size());
  for (auto it = in.rbegin(); it != in.rend(); ++it) stack_.push_back(std::move(*it));
  while (auto t = next()) {
    if (t->kind != CppToken::Kind::Ident) {
      out.push_back(std::move(*t));
      continue;
    }
    if (auto b = builtin_ ? builtin_(*t) : std::nullopt) {
      out.push_back(std::move(*b));
      continue;
    }
    if (const auto* keep = m_.kept(t->text)) {
      if (auto r = kept_invocation(*t, *keep, out); !r) return r;
      continue;
    }
    const CppMacro* m = m_.find(t->text);
    const std::uint32_t id = m != nullptr ? m_.id_of(t->text) : 0;
    if (m == nullptr || m_.hidden(t->hide, id)) {
      out.push_back(std::move(*t));
      continue;
    }
    if (!m->function) {
      if (auto r = expand(*m, *t, {}, m_.hide_with(t->hide, id)); !r) return r;
      continue;
    }
    auto open = peek_paren();
    if (!open) {
      out.push_back(std::move(*t));
      continue;
    }
    CppToken rparen;
    auto args = arguments(rparen);
    if (!args) {
      stack_.push_back(std::move(*open));
      if (unclosed.empty()) {
        unclosed = m->name;
        unclosed_line = t->line;
        unclosed_col = t->col;
      }
      out.push_back(std::move(*t));
      continue;
    }
    // A macro of no parameters takes an empty argument list; one of one takes an empty argument.
    if (m->params.empty() && args->size() == 1 && args->front().empty()) args->clear();
    if (m->variadic && args->size() + 1 == m->params.size()) args->emplace_back();
    if (args->size() != m->params.size() && !(m->variadic && args->size() > m->params.size())) {
      out.push_back(std::move(*t));  // a compiler's error: left as written
      stack_.push_back(std::move(rparen));
      continue;
    }
    if (m->variadic && args->size() > m->params.size()) {
      // The rest, commas included, is the variadic argument.
      std::vector<CppToken>& rest = (*args)[m->params.size() - 1];
      for (std::size_t k = m->params.size(); k < args->size(); ++k) {
        CppToken comma;
        comma.kind = CppToken::Kind::Punct;
        comma.text = ",";
        comma.line = t->line;
        comma.col = t->col;
        comma.file = t->file;
        rest.push_back(comma);
        for (auto& x : (*args)[k]) rest.push_back(std::move(x));
      }
      args->resize(m->params.size());
    }
    if (auto r = expand(*m, *t, std::move(*args), m_.hide_with(m_.hide_intersect(t->hide, rparen.hide), id)); !r)
      return r;
  }
  return true;
}

Expected<bool, Diagnostic> CppExpander::kept_invocation(const CppToken& name, const std::vector<bool>& expand_arg,
                                                         std::vector<CppToken>& out) {
  out.push_back(name);
  auto open = peek_paren();
  if (!open) return true;
  CppToken rparen;
  auto args = arguments(rparen);
  if (!args) {
    stack_.push_back(std::move(*open));
    return true;
  }
  out.push_back(std::move(*open));
  for (std::size_t i = 0; i < args->size(); ++i) {
    if (i != 0) {
      CppToken comma = rparen;
      comma.text = ",";
      out.push_back(std::move(comma));
    }
    if (i < expand_arg.size() && expand_arg[i]) {
      DT_TRY(e, expanded_arg((*args)[i]));
      for (auto& x : e) out.push_back(std::move(x));
    } else {
      for (auto& x : (*args)[i]) out.push_back(std::move(x));
    }
  }
  out.push_back(std::move(rparen));
  return true;
}

Expected<std::vector<CppToken>, Diagnostic> CppExpander::expanded_arg(const std::vector<CppToken>& arg) {
  std::vector<CppToken> out;
  if (nesting_ + 1 > kCppMaxMacroNesting)
    return unexpected(make_error(fmt::format("macro arguments nested deeper than {} levels", kCppMaxMacroNesting)));
  CppExpander inner(m_, builtin_, nesting_ + 1);
  DT_TRY_VOID(inner.run(arg, out));
  return out;
}

CppToken CppExpander::stringify(const std::vector<CppToken>& arg, const CppToken& at) {
  std::string spelled;
  for (std::size_t i = 0; i < arg.size(); ++i) {
    const CppToken& t = arg[i];
    if (i != 0 && t.space) spelled += ' ';
    if (t.kind == CppToken::Kind::String || t.kind == CppToken::Kind::Char) {
      for (char c : t.text) {
        if (c == '"' || c == '\\') spelled += '\\';
        spelled += c;
      }
    } else {
      spelled += t.text;
    }
  }
  CppToken s = at;
  s.kind = CppToken::Kind::String;
  s.text = m_.store("\"" + spelled + "\"");
  // The value a compiler reads from that literal: the spelling itself, but
  // for the escapes of string and character literals inside.
  std::string value;
  for (std::size_t i = 0; i < arg.size(); ++i) {
    const CppToken& t = arg[i];
    if (i != 0 && t.space) value += ' ';
    value += t.text;
  }
  s.value = std::move(value);
  s.value_line = at.line;
  s.value_col = at.col;
  return s;
}

std::optional<CppToken> CppExpander::paste(const CppToken& a, const CppToken& b, const CppToken& at) {
  const std::string joined = std::string(a.text) + std::string(b.text);
  // The result must be one token (an identifier, a number, or punctuation
  // the scanner reads as one).
  auto lexed = lex_cpp(FileName{}, joined);
  if (!lexed || lexed->tokens.size() != 1) return std::nullopt;
  CppToken t = lexed->tokens.front();
  t.text = m_.store(joined);
  if (t.kind == CppToken::Kind::String) {
    auto again = lex_cpp(FileName{}, t.text);
    t.value = again->tokens.front().value;
  }
  t.line = at.line;
  t.col = at.col;
  t.file = at.file;
  t.value_line = at.line;
  t.value_col = at.col;
  t.space = a.space;
  t.bol = false;
  return t;
}

Expected<bool, Diagnostic> CppExpander::expand(const CppMacro& m, const CppToken& name,
                                                std::vector<std::vector<CppToken>> args, std::uint32_t hide) {
  const auto param = [&](const CppToken& t) -> int {
    if (t.kind != CppToken::Kind::Ident) return -1;
    for (std::size_t i = 0; i < m.params.size(); ++i)
      if (t.text == m.params[i]) return static_cast<int>(i);
    return -1;
  };
  const bool va_empty = m.variadic && !args.empty() && args.back().empty();
  m_.expansions.push_back(CppExpansion{m.name, m.defined});
  const auto expansion = static_cast<std::uint32_t>(m_.expansions.size());
  std::vector<std::optional<std::vector<CppToken>>> expanded(args.size());
  std::vector<CppToken> result;
  const std::vector<CppToken>& b = m.body;
  // Body tokens take the invocation's place.
  const auto placed = [&](CppToken t) {
    t.line = name.line;
    t.col = name.col;
    t.file = name.file;
    if (t.kind == CppToken::Kind::String) {
      t.value_line = name.line;
      t.value_col = name.col;
    }
    t.expansion = expansion;
    t.cond = name.cond;
    return t;
  };
  bool paste_next = false;  // the previous body token was followed by ##
  for (std::size_t i = 0; i < b.size(); ++i) {
    const CppToken& t = b[i];
    // __VA_OPT__(x): x when the variadic argument is not empty.
    if (m.variadic && t.kind == CppToken::Kind::Ident && t.text == "__VA_OPT__" && i + 1 < b.size() &&
        is_punct(b[i + 1], "(")) {
      int depth = 0;
      std::size_t j = i + 1;
      for (; j < b.size(); ++j) {
        if (is_punct(b[j], "(")) ++depth;
        else if (is_punct(b[j], ")") && --depth == 0) break;
      }
      if (va_empty) {
        i = j;
        continue;
      }
      // Keep the inside: drop the closing parenthesis when it comes.
      std::vector<CppToken> inside(b.begin() + static_cast<std::ptrdiff_t>(i) + 2,
                                   b.begin() + static_cast<std::ptrdiff_t>(std::min(j, b.size())));
      CppMacro sub = m;
      sub.body = std::move(inside);
      sub.body.insert(sub.body.end(), b.begin() + static_cast<std::ptrdiff_t>(std::min(j + 1, b.size())), b.end());
      std::vector<CppToken> before(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(i));
      sub.body.insert(sub.body.begin(), before.begin(), before.end());
      m_.expansions.pop_back();
      return expand(sub, name, std::move(args), hide);
    }
    // # param
    if (m.function && is_punct(t, "#") && !is_paste(b, i) && !(i > 0 && is_paste(b, i - 1)) && i + 1 < b.size() &&
        param(b[i + 1]) >= 0) {
      result.push_back(placed(stringify(args[static_cast<std::size_t>(param(b[i + 1]))], name)));
      ++i;
      if (paste_next && result.size() >= 2) {
        auto p = paste(result[result.size() - 2], result.back(), name);
        if (p) {
          result.pop_back();
          result.back() = placed(*p);
        }
      }
      paste_next = false;
      continue;
    }
    if (is_paste(b, i)) {
      paste_next = true;
      ++i;
      continue;
    }
    const int p = param(t);
    const bool followed_by_paste = is_paste(b, i + 1);
    std::vector<CppToken> piece;
    if (p >= 0) {
      const auto k = static_cast<std::size_t>(p);
      if (paste_next || followed_by_paste) {
        piece = args[k];  // an operand of ## is not expanded
        // GNU: `, ## __VA_ARGS__` drops the comma when the argument is empty.
        if (paste_next && piece.empty() && m.variadic && k + 1 == m.params.size() && !result.empty() &&
            is_punct(result.back(), ",")) {
          result.pop_back();
          paste_next = false;
          continue;
        }
      } else {
        if (!expanded[k]) {
          DT_TRY(e, expanded_arg(args[k]));
          expanded[k] = std::move(e);
        }
        piece = *expanded[k];
      }
      if (!piece.empty()) piece.front().space = t.space;
    } else {
      piece.push_back(placed(t));
    }
    if (paste_next && !result.empty() && !piece.empty()) {
      auto joined = paste(result.back(), piece.front(), name);
      if (joined) {
        result.back() = placed(*joined);
        piece.erase(piece.begin());
      }
    }
    paste_next = false;
    for (auto& x : piece) result.push_back(std::move(x));
  }
  m_.produced += result.size();
  if (m_.produced > m_.max_produced)
    return unexpected(make_error(fmt::format("expanding macro '{}' makes more than {} tokens (limit: {})", m.name,
                                  m_.max_produced, m_.max_produced)));
  for (auto it = result.rbegin(); it != result.rend(); ++it) {
    // The hide set of every token of the result: its own and the invocation's.
    it->hide = m_.hide_union(it->hide, hide);
    stack_.push_back(std::move(*it));
  }
  return true;
}

std::optional<CppMacro> parse_macro_definition(const std::vector<CppToken>& t, const Location& at) {
  if (t.empty() || t[0].kind != CppToken::Kind::Ident) return std::nullopt;
  CppMacro m;
  m.name = std::string(t[0].text);
  m.defined = Location{at.file, t[0].line, t[0].col};
  std::size_t i = 1;
  if (i < t.size() && is_punct(t[i], "(") && !t[i].space) {
    m.function = true;
    ++i;
    for (; i < t.size() && !is_punct(t[i], ")"); ++i) {
      if (is_punct(t[i], ",")) continue;
      if (is_punct(t[i], ".") && i + 2 < t.size() && is_punct(t[i + 1], ".") && is_punct(t[i + 2], ".")) {
        m.variadic = true;
        m.params.emplace_back("__VA_ARGS__");
        i += 2;
        continue;
      }
      if (t[i].kind != CppToken::Kind::Ident) return std::nullopt;
      m.params.emplace_back(t[i].text);
      if (i + 3 < t.size() && is_punct(t[i + 1], ".") && is_punct(t[i + 2], ".") && is_punct(t[i + 3], ".")) {
        m.variadic = true;  // GNU: `args...`
        i += 3;
      }
    }
    if (i >= t.size()) return std::nullopt;
    ++i;  // ')'
  }
  m.body.assign(t.begin() + static_cast<std::ptrdiff_t>(i), t.end());
  for (CppToken& b : m.body) b.hide = 0;
  return m;
}

bool cpp_registers_at(const CppMacros& macros, const std::unordered_set<std::string>& prelude,
                      const std::vector<CppToken>& t, std::size_t i) {
  const CppToken& x = t[i];
  if (x.kind == CppToken::Kind::Ident) {
    if (x.text.starts_with("TORCH_LIBRARY") || x.text.starts_with("STABLE_TORCH_LIBRARY") ||
        x.text == "RegisterOperators")
      return true;
    if (const CppMacro* m = macros.find(x.text); m != nullptr && !prelude.contains(m->name)) {
      std::unordered_set<std::string> seen;
      return cpp_macro_registers(macros, prelude, *m, seen);
    }
    return false;
  }
  return (is_punct(x, ".") || is_punct(x, "->")) && i + 2 < t.size() &&
         (t[i + 1].is("def") || t[i + 1].is("impl") || t[i + 1].is("fallback")) && is_punct(t[i + 2], "(");
}

bool cpp_macro_registers(const CppMacros& macros, const std::unordered_set<std::string>& prelude, const CppMacro& m,
                         std::unordered_set<std::string>& seen) {
  if (!seen.insert(m.name).second || seen.size() > 64) return false;
  for (std::size_t i = 0; i < m.body.size(); ++i) {
    const CppToken& x = m.body[i];
    if (x.kind == CppToken::Kind::Ident) {
      if (x.text.starts_with("TORCH_LIBRARY") || x.text.starts_with("STABLE_TORCH_LIBRARY") ||
          x.text == "RegisterOperators")
        return true;
      if (const CppMacro* inner = macros.find(x.text); inner != nullptr && cpp_macro_registers(macros, prelude, *inner, seen))
        return true;
    } else if (cpp_registers_at(macros, prelude, m.body, i)) {
      return true;
    }
  }
  return false;
}

}  // namespace dt
