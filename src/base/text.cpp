#include "base/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>

namespace dt {

namespace {

// The code point at text[i] and its length in bytes, or length 0 where the
// bytes are not valid UTF-8 (overlong forms, surrogates and values past
// U+10FFFF included).
struct CodePoint {
  char32_t value = 0;
  std::size_t size = 0;
};
CodePoint decode(std::string_view text, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return {c, 1};
  std::size_t n = 0;
  char32_t v = 0;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    v = c & 0x1fU;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    v = c & 0x0fU;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    v = c & 0x07U;
  } else {
    return {};
  }
  if (i + n > text.size()) return {};
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xc0U) != 0x80) return {};
    v = (v << 6) | (b(k) & 0x3fU);
  }
  const char32_t min = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return {};
  return {v, n};
}

// What a terminal or a reader would act on: C1 controls, bidi controls, line
// and paragraph separators (text.hpp, append_printable).
bool acted_on(char32_t v) {
  return (v >= 0x80 && v <= 0x9f) || v == 0x61c || v == 0x200e || v == 0x200f || (v >= 0x202a && v <= 0x202e) ||
         (v >= 0x2066 && v <= 0x2069) || v == 0x2028 || v == 0x2029;
}

// White space as .NET's String.Trim() sees it (the Actions runner trims each line).
bool runner_space(char32_t v) {
  return v == ' ' || (v >= 0x09 && v <= 0x0d) || v == 0x85 || v == 0xa0 || v == 0x1680 ||
         (v >= 0x2000 && v <= 0x200a) || v == 0x2028 || v == 0x2029 || v == 0x202f || v == 0x205f || v == 0x3000;
}

// Appends the character at text[i] (escaped when it must be); returns its length.
// `keep`: the C0 characters written as they are.
std::size_t append_char(std::string_view text, std::size_t i, std::string& out, std::string_view keep) {
  const CodePoint cp = decode(text, i);
  const auto u = static_cast<unsigned char>(text[i]);
  if (cp.size == 0) {
    out += fmt::format("\\x{:02x}", u);
    return 1;
  }
  if (cp.size == 1) {
    if ((u < 0x20 || u == 0x7f) && keep.find(text[i]) == std::string_view::npos)
      out += fmt::format("\\x{:02x}", u);
    else
      out += text[i];
    return 1;
  }
  if (acted_on(cp.value))
    out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(cp.value));
  else
    out.append(text.substr(i, cp.size));
  return cp.size;
}

}  // namespace

void append_printable(std::string_view text, std::string& out, int newline_indent) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t k = i;  // a run of printable ASCII: copied whole
    while (k < text.size() && text[k] >= 0x20 && text[k] < 0x7f) ++k;
    if (k > i) {
      out.append(text.substr(i, k - i));
      i = k;
    } else if (text[i] == '\n' && newline_indent >= 0) {
      out += '\n';
      out.append(static_cast<std::size_t>(newline_indent), ' ');
      ++i;
    } else {
      i += append_char(text, i, out, "\t");
    }
  }
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_printable(text, out);
  return out;
}

void append_inert(std::string_view text, std::string& out, bool color) {
  const std::string_view keep = color ? std::string_view("\n\t\x1b", 3) : std::string_view("\n\t");
  bool line_start = true;
  for (std::size_t i = 0; i < text.size();) {
    if (line_start) {
      line_start = false;
      std::size_t j = i;
      for (CodePoint cp;
           j < text.size() && text[j] != '\n' && (cp = decode(text, j)).size != 0 && runner_space(cp.value);)
        j += cp.size;
      while (i < j) i += append_char(text, i, out, keep);
      if (text.substr(j).starts_with("::")) {
        out += "\\x3a";
        ++i;
      }
      continue;
    }
    // A run of printable ASCII other than '#' needs no look: copied whole.
    std::size_t k = i;
    while (k < text.size() && text[k] >= 0x20 && text[k] < 0x7f && text[k] != '#') ++k;
    if (k > i) {
      out.append(text.substr(i, k - i));
      i = k;
    } else if (text[i] == '\n') {
      out += '\n';
      ++i;
      line_start = true;
    } else if (text.substr(i).starts_with("##[")) {
      out += "##\\x5b";
      i += 3;
    } else {
      i += append_char(text, i, out, keep);
    }
  }
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  if (from.empty()) return text;
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
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
  for (std::size_t i = 0; i < s.size();) {
    const CodePoint cp = decode(s, i);
    if (cp.size == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD for a byte that is not UTF-8
      ++i;
      continue;
    }
    if (cp.size > 1) {
      if (acted_on(cp.value))
        out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(cp.value));
      else
        out.append(s.substr(i, cp.size));
      i += cp.size;
      continue;
    }
    const char ch = s[i];
    switch (ch) {
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
      case '#':
        if (s.substr(i).starts_with("##[")) {
          out += "##\\u005b";
          i += 3;
          continue;
        }
        out += ch;
        break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(ch)));
        else
          out += ch;
    }
    ++i;
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

std::size_t utf8_width(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1U : 0U;
  return n;
}

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) { return i < s.size() ? decode(s, i).size : 0; }

std::size_t utf8_valid_prefix(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    // ASCII eight bytes at a time (a whole translation is checked by import).
    std::uint64_t word = 0;
    if (i + 8 <= s.size() && (std::memcpy(&word, s.data() + i, 8), (word & 0x8080808080808080ULL) == 0)) {
      i += 8;
      continue;
    }
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) return i;
    i += n;
  }
  return s.size();
}

}  // namespace dt
