#include "base/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace dt {

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

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0U; };
  const unsigned c = b(0);
  const auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return b(k) >= lo && b(k) <= hi; };
  if (i >= s.size()) return 0;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (c >= 0xE1 && c <= 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

bool is_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

}  // namespace dt
