// An f-string's replacement fields (readers/python_parser.hpp, parse_fstring):
// the literal text between them and each field's expression, parsed as the
// rest of Python is (readers/python_parser.cpp).
#include <algorithm>

#include "readers/python_parser.hpp"

namespace dt {

std::vector<FStringPart> parse_fstring(FileName file, const PyExpr& fs) {
  std::vector<FStringPart> out;
  const std::string& s = fs.text;
  std::string lit;
  auto flush = [&] {
    if (lit.empty()) return;
    FStringPart p;
    p.text = std::move(lit);
    lit.clear();
    out.push_back(std::move(p));
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if ((c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c) {
      lit += c;
      ++i;
      continue;
    }
    if (c != '{') {
      lit += c;
      continue;
    }
    // A replacement field: up to its closing brace at depth 0 (strings inside skipped).
    std::size_t j = i + 1;
    int depth = 0;
    char quote = 0;
    std::size_t bang = std::string::npos, colon = std::string::npos;
    for (; j < s.size(); ++j) {
      const char d = s[j];
      if (quote != 0) {
        if (d == quote) quote = 0;
        continue;
      }
      if (d == '\'' || d == '"') {
        quote = d;
      } else if (d == '(' || d == '[' || d == '{') {
        ++depth;
      } else if (d == ')' || d == ']' || (d == '}' && depth > 0)) {
        --depth;
      } else if (d == '}') {
        break;
      } else if (depth == 0 && d == '!' && j + 1 < s.size() && s[j + 1] != '=' && bang == std::string::npos &&
                 colon == std::string::npos) {
        bang = j;
      } else if (depth == 0 && d == ':' && colon == std::string::npos) {
        colon = j;
      }
    }
    flush();
    FStringPart p;
    p.literal = false;
    const std::size_t end = std::min({j, bang, colon});
    std::string field = s.substr(i + 1, end - i - 1);
    if (!field.empty() && field.back() == '=') field.pop_back();  // f"{x=}": not modelled (Opaque below)
    if (bang != std::string::npos && bang + 1 < s.size()) p.conversion = s[bang + 1];
    p.has_spec = colon != std::string::npos && colon < j;
    const Location at{file, fs.at.line, fs.at.column + static_cast<std::uint32_t>(i + 1)};
    p.expr.kind = PyExpr::Opaque;
    p.expr.text = "f-string field";
    p.expr.at = at;
    if (j < s.size() && s.substr(i + 1, end - i - 1).find('=') == std::string::npos) {
      PyLexer lex(file, field);
      std::vector<PyToken> toks;
      if (auto more = lex.next_line(toks); more && *more) {
        for (PyToken& t : toks) {
          t.line = at.line;
          t.column += at.column - 1;
        }
        std::size_t pos = 0;
        if (auto e = parse_py_expr(file, toks, pos); e && toks[pos].kind == PyTok::Newline) p.expr = std::move(*e);
      }
    }
    out.push_back(std::move(p));
    i = j;
  }
  flush();
  return out;
}

}  // namespace dt
