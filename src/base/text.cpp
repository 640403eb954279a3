#include "base/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace dt {

namespace {
char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }
}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance: insertions, deletions, substitutions
  // and transpositions of neighbours ("cdua" -> "cuda") cost 1.
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

std::optional<std::string> closest(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::optional<std::string> best;
  std::size_t best_d = 0;
  for (auto c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (!best || d < best_d || (d == best_d && c < *best)) {
      best = std::string(c);
      best_d = d;
    }
  }
  // Accept up to a third of the word's length (at least 1, at most 4) edits.
  const std::size_t limit = std::clamp<std::size_t>(word.size() / 3, 1, 4);
  if (best && best_d <= limit) return best;
  return std::nullopt;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates) {
  if (auto c = closest(word, candidates)) return " (did you mean '" + *c + "'?)";
  return {};
}

void append_printable(std::string_view text, std::string& out, int newline_indent) {
  for (const char ch : text) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '\n' && newline_indent >= 0) {
      out += '\n';
      out.append(static_cast<std::size_t>(newline_indent), ' ');
    } else if ((u < 0x20 && ch != '\t') || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out += ch;
    }
  }
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_printable(text, out);
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::string_view trim(std::string_view s, std::string_view chars) {
  const auto first = s.find_first_not_of(chars);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(chars) - first + 1);
}

std::vector<std::string_view> split(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t p = s.find(sep, start);
    if (p == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, p - start));
    start = p + sep.size();
  }
}

std::vector<std::string_view> split_list(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> out;
  for (const std::string_view field : split(s, sep))
    if (const std::string_view item = trim(field); !item.empty()) out.push_back(item);
  return out;
}

std::string paint(std::string_view text, std::string_view sgr, bool on) {
  if (!on) return std::string(text);
  return fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
}

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7f)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else
          out += ch;
    }
  }
  out += '"';
  return out;
}

namespace {

// Whether c matches the set at pattern[p] (just after '['); sets `end` past its ']'.
// A set without its ']' is a literal '['.
bool match_set(std::string_view pattern, std::size_t p, char c, std::size_t& end, bool& literal) {
  const bool negate = p < pattern.size() && (pattern[p] == '!' || pattern[p] == '^');
  std::size_t i = negate ? p + 1 : p;
  bool found = false;
  for (bool first = true; i < pattern.size() && (first || pattern[i] != ']'); first = false) {
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      found = found || (pattern[i] <= c && c <= pattern[i + 2]);
      i += 3;
    } else {
      found = found || pattern[i] == c;
      ++i;
    }
  }
  literal = i >= pattern.size();
  end = literal ? p : i + 1;
  return literal ? c == '[' : found != negate;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0;
  std::size_t star = std::string_view::npos, retry = 0;  // the last '*' and where its match ends
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      retry = t;
      continue;
    }
    if (p < pattern.size()) {
      std::size_t next = p + 1;
      bool literal = false;
      bool ok = pattern[p] == '?' ||
                (pattern[p] == '[' ? match_set(pattern, p + 1, text[t], next, literal) : pattern[p] == text[t]);
      if (ok) {
        p = next;
        ++t;
        continue;
      }
    }
    if (star == std::string_view::npos) return false;
    p = star + 1;  // let the last '*' take one more character
    t = ++retry;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool is_glob(std::string_view pattern) { return pattern.find_first_of("*?[") != std::string_view::npos; }

}  // namespace dt
