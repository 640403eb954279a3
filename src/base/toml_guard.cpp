// The pre-scan of TOML text (toml_guard.hpp). One pass over the bytes, no
// recursion: open arrays and inline tables are a stack of bracket characters.
// Each scanning member returns true to go on and false to stop: after a
// refusal (error_) or where toml++ reports an error of its own.
#include "base/toml_guard.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "base/limits.hpp"
#include "base/located.hpp"

namespace dt {

namespace {

// toml++ 3.3.0's is_non_ascii_horizontal_whitespace reaches TOML_UNREACHABLE
// (undefined behaviour) for these code points.
bool unreachable_in_tomlpp(std::uint32_t cp) {
  return (cp >= 0xA1 && cp <= 0x499) || (cp >= 0x2C5E && cp <= 0x3057 && cp != 0x3000) ||
         (cp >= 0xFB26 && cp <= 0xFEFE);
}

// The code points that function counts as horizontal whitespace.
bool tomlpp_nonascii_blank(std::uint32_t cp) {
  return cp == 0xA0 || cp == 0x1680 || cp == 0x180E || (cp >= 0x2000 && cp <= 0x200B) || cp == 0x202F || cp == 0x205F ||
         cp == 0x2060 || cp == 0x3000 || cp == 0xFEFF;
}

constexpr std::array<bool, 256> kBareKeyChar = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[static_cast<std::size_t>(c)] =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  return t;
}();

}  // namespace

bool toml_bare_key_char(char c) { return kBareKeyChar[static_cast<unsigned char>(c)]; }

namespace {

// What ends a bare value (a number, boolean, date): is_value_terminator's ASCII part.
bool value_end(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}' || c == '#';
}

bool digit(char c) { return c >= '0' && c <= '9'; }

class GuardScanner {
 public:
  GuardScanner(std::string_view text, FileName file) : t_(text), file_(file) {
    if (t_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // toml++ skips a byte order mark
  }

  std::optional<Diagnostic> run() {
    while (statement()) {
    }
    return std::move(error_);
  }

 private:
  // ---- statements: blank lines, comments, [headers], key = value ----
  bool statement() {
    blanks();
    if (end()) return false;
    const char c = t_[pos_];
    if (c == '\n' || c == '\r') return line_break();
    if (c == '#') return comment();
    if (c == '[') return header() && rest_of_line();
    if (!toml_bare_key_char(c) && c != '"' && c != '\'') return stop();
    return key() && equals() && values() && rest_of_line();
  }

  bool header() {
    const std::size_t at = pos_++;
    const bool spaced = blanks();
    bool array = false;
    if (!end() && t_[pos_] == '[') {
      if (spaced) return stop();  // "[ [": toml++'s own error
      array = true;
      ++pos_;
      blanks();
    }
    if (end() || t_[pos_] == ']') return stop();
    if (!toml_bare_key_char(t_[pos_]) && t_[pos_] != '"' && t_[pos_] != '\'')
      return fail(at, "expected a table name after '['");
    if (!key()) return false;
    for (int closing = array ? 2 : 1; closing > 0; --closing) {
      if (end() || t_[pos_] != ']') return stop();
      ++pos_;
    }
    return true;
  }

  // The rest of a statement's line: blanks, a comment, the line break.
  bool rest_of_line() {
    blanks();
    if (end()) return false;
    if (t_[pos_] == '#') return comment();
    if (t_[pos_] == '\n' || t_[pos_] == '\r') return line_break();
    return stop();
  }

  // ---- keys: parts separated by dots, each bare or quoted ----
  bool key() {
    const std::size_t at = pos_;
    for (std::size_t parts = 1;; ++parts) {
      if (parts > limits::kTomlKeyParts)
        return fail(at, fmt::format("a dotted key or table name with more than {} parts (limit: {})",
                                    limits::kTomlKeyParts, limits::kTomlKeyParts));
      blanks();
      if (end()) return stop();
      if (t_[pos_] == '"' || t_[pos_] == '\'') {
        if (!string()) return false;
      } else if (toml_bare_key_char(t_[pos_])) {
        while (!end() && toml_bare_key_char(t_[pos_])) ++pos_;
      } else {
        return stop();
      }
      blanks();
      if (end() || t_[pos_] != '.') return true;
      ++pos_;
    }
  }

  bool equals() {
    blanks();
    if (end() || t_[pos_] != '=') return stop();
    ++pos_;
    blanks();
    return true;
  }

  // ---- values, with the arrays and inline tables they open ----
  bool values() {
    bool want_value = true;
    for (;;) {
      if (want_value) {
        if (!value(want_value)) return false;
        continue;
      }
      if (open_.empty()) return true;
      if (!after_value(want_value)) return false;
    }
  }

  // A value at pos_ (blanks skipped): a string, a bare value, or the opening
  // of an array or inline table (then want_value says what comes next).
  bool value(bool& want_value) {
    if (end()) return stop();
    const char c = t_[pos_];
    if (c == '"' || c == '\'') {
      want_value = false;
      return string();
    }
    if (c == '[' || c == '{') {
      if (open_.size() == limits::kTomlNesting)
        return fail(pos_, fmt::format("arrays and inline tables nested more than {} deep (limit: {})",
                                      limits::kTomlNesting, limits::kTomlNesting));
      open_.push_back(c);
      ++pos_;
      return c == '[' ? array_element(want_value) : table_entry(want_value, true);
    }
    want_value = false;
    return bare_value();
  }

  // After '[' or ',' in an array: the next value, or the closing ']'.
  bool array_element(bool& want_value) {
    gaps();
    if (end()) return stop();
    if (t_[pos_] == '}') return fail(pos_, "expected a value or ']' in an array, saw '}'");
    if (t_[pos_] == ']') {
      ++pos_;
      open_.pop_back();
      want_value = false;
      return true;
    }
    if (t_[pos_] == ',') return stop();
    want_value = true;
    return true;
  }

  // After '{' or ',' in an inline table: a key = (then its value), or '}' right after '{'.
  bool table_entry(bool& want_value, bool first) {
    blanks();
    if (end()) return stop();
    if (first && t_[pos_] == '}') {
      ++pos_;
      open_.pop_back();
      want_value = false;
      return true;
    }
    if (!toml_bare_key_char(t_[pos_]) && t_[pos_] != '"' && t_[pos_] != '\'') return stop();
    want_value = true;
    return key() && equals();
  }

  // After a value inside an array or inline table.
  bool after_value(bool& want_value) {
    const bool array = open_.back() == '[';
    if (array)
      gaps();
    else
      blanks();
    if (end()) return stop();
    const char c = t_[pos_];
    if (c == ',') {
      ++pos_;
      return array ? array_element(want_value) : table_entry(want_value, false);
    }
    if (c != (array ? ']' : '}')) return stop();
    ++pos_;
    open_.pop_back();
    return true;
  }

  bool bare_value() {
    const std::size_t start = pos_;
    // toml++ decides on a date-time with a space from the value's characters
    // without its underscores, looking at the 5th and 8th: the first 8 are kept.
    std::array<char, 8> kept{};
    std::size_t kept_count = 0;
    while (!end() && !value_end(t_[pos_])) {
      if (!ascii_outside_strings(pos_)) return false;
      if (t_[pos_] != '_') {
        if (kept_count < kept.size()) kept[kept_count] = t_[pos_];
        ++kept_count;
      }
      ++pos_;
      // A date-time may have a space instead of the 'T' ("1979-05-27 07:32:00").
      if (kept_count == 10 && pos_ + 1 < t_.size() && t_[pos_] == ' ' &&
          digit(t_[pos_ + 1]) && kept[4] == '-' && kept[7] == '-') {
        // One digit and the value's end: toml++'s scan asserts it is not at
        // the end (found by fuzz_lint_config twice, the second time with
        // underscores, which toml++ leaves out when it counts). Never valid TOML.
        if (pos_ + 2 >= t_.size() || value_end(t_[pos_ + 2]))
          return fail(pos_ + 1, "a date-time needs a time (HH:MM:SS) after the space");
        ++pos_;
      }
    }
    if (pos_ == start) return stop();  // no value: toml++ says so
    // "1979-05-27T" not followed by a digit: toml++'s parse_date_time calls
    // parse_time, which asserts a digit (found by fuzz_load). Never valid TOML.
    const std::string_view v = t_.substr(start, pos_ - start);
    if (v.size() >= 11 && v[4] == '-' && v[7] == '-' && (v[10] == 'T' || v[10] == 't') &&
        (v.size() == 11 || !digit(v[11])))
      return fail(start + 10, fmt::format("a date-time needs a time (HH:MM:SS) after '{}'", v[10]));
    return true;
  }

  // ---- strings ----
  bool string() {
    const char q = t_[pos_];
    if (pos_ + 2 < t_.size() && t_[pos_ + 1] == q && t_[pos_ + 2] == q) return multi_line_string(q);
    // Most of a file is the text of its strings: memchr finds the closing
    // quote, then whether a line break (or, in a basic string, a backslash)
    // comes before it, instead of a test per character.
    const char* text = t_.data();
    const std::size_t n = t_.size();
    for (++pos_;;) {
      const auto find = [&](char c, std::size_t to) {
        const void* p = std::memchr(text + pos_, c, to - pos_);
        return p == nullptr ? to : static_cast<std::size_t>(static_cast<const char*>(p) - text);
      };
      std::size_t first = find(q, n);
      first = find('\n', first);
      first = find('\r', first);
      if (q == '"') first = find('\\', first);
      pos_ = first;
      if (pos_ == n) return stop();
      const char c = text[pos_];
      if (c == q) {
        ++pos_;
        return true;
      }
      if (c == '\n' || c == '\r') return stop();
      if (pos_ + 1 < n) ++pos_;  // a backslash: the character after it is escaped (toml++ checks which)
      ++pos_;
    }
  }

  bool multi_line_string(char q) {
    for (pos_ += 3; !end();) {
      const char c = t_[pos_];
      if (c == q) {
        std::size_t run = 0;
        while (pos_ + run < t_.size() && t_[pos_ + run] == q) ++run;
        pos_ += std::min<std::size_t>(run, 5);  // up to two quotes end the text, three the string
        if (run >= 3) return true;
      } else if (c == '\\' && q == '"') {
        if (!escape()) return false;
      } else {
        ++pos_;
      }
    }
    return stop();
  }

  // A backslash in a multi-line basic string: toml++ asks whether the next
  // character is whitespace (a line-ending backslash), and then of every
  // character it skips after it.
  bool escape() {
    const std::size_t at = pos_++;
    if (end()) return stop();
    const char c = t_[pos_];
    if (static_cast<unsigned char>(c) >= 0x80)
      return fail(at, fmt::format("a backslash followed by {} is not an escape sequence", code_point_text(pos_)));
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      ++pos_;  // \" \\ \n \uXXXX ...: toml++ checks them
      return true;
    }
    while (!end() && (t_[pos_] == ' ' || t_[pos_] == '\t')) ++pos_;
    if (!end() && static_cast<unsigned char>(t_[pos_]) >= 0x80) {
      skippable_code_point();  // refuses what toml++ cannot test; its own error otherwise
      return false;
    }
    if (end() || (t_[pos_] != '\n' && t_[pos_] != '\r')) return false;  // toml++: it must end the line
    for (;;) {                                                          // the blanks and line breaks it skips
      if (end()) return stop();
      const char s = t_[pos_];
      if (s == ' ' || s == '\t' || s == '\n' || (s == '\r' && pos_ + 1 < t_.size() && t_[pos_ + 1] == '\n')) {
        ++pos_;
      } else if (static_cast<unsigned char>(s) >= 0x80) {
        if (!skippable_code_point()) return !error_;
      } else {
        return true;
      }
    }
  }

  // At a non-ASCII character after a line-ending backslash: refuses one that
  // toml++ cannot test for whitespace; skips one it counts as whitespace
  // (true); false otherwise (not whitespace: the string's text goes on, and
  // error_ stays empty).
  bool skippable_code_point() {
    std::size_t len = 0;
    const auto cp = decode(pos_, len);
    if (cp && unreachable_in_tomlpp(*cp))
      return fail(pos_, fmt::format("{} right after a line-ending backslash is refused (toml++ 3.3.0 cannot test it "
                                    "for whitespace; see docs/toml++-3.3.0.md)",
                                    code_point_text(pos_)));
    if (!cp || !tomlpp_nonascii_blank(*cp)) return false;
    pos_ += len;
    return true;
  }

  // ---- blanks, line breaks, comments ----
  bool blanks() {
    const std::size_t at = pos_;
    while (!end() && (t_[pos_] == ' ' || t_[pos_] == '\t')) ++pos_;
    return pos_ != at;
  }

  // Blanks, line breaks and comments (between the elements of an array).
  void gaps() {
    for (;;) {
      blanks();
      if (end()) return;
      if (t_[pos_] == '#') {
        comment();
      } else if (t_[pos_] == '\n' || (t_[pos_] == '\r' && pos_ + 1 < t_.size() && t_[pos_ + 1] == '\n')) {
        pos_ += t_[pos_] == '\n' ? std::size_t{1} : std::size_t{2};
      } else {
        return;
      }
    }
  }

  bool line_break() {
    if (t_[pos_] == '\n') {
      ++pos_;
      return true;
    }
    if (pos_ + 1 < t_.size() && t_[pos_ + 1] == '\n') {
      pos_ += 2;
      return true;
    }
    return fail(pos_, "a carriage return not followed by a line feed");
  }

  // A comment runs to the end of its line; toml++ checks its characters.
  bool comment() {
    const std::size_t nl = t_.find('\n', pos_);
    pos_ = nl == std::string_view::npos ? t_.size() : nl;
    return true;
  }

  // ---- characters ----
  [[nodiscard]] bool end() const { return pos_ >= t_.size(); }

  // Stops scanning where toml++ reports an error itself -- after making sure
  // that the character it stops at is one toml++ can look at safely.
  bool stop() {
    if (!end()) ascii_outside_strings(pos_);
    return false;
  }

  // Outside strings and comments TOML is ASCII without control characters
  // (but tab and line breaks); toml++ 3.3.0 cannot even classify some code points.
  bool ascii_outside_strings(std::size_t at) {
    const auto c = static_cast<unsigned char>(t_[at]);
    if (c >= 0x80)
      return fail(at,
                  fmt::format("{} outside a string or comment (TOML allows only ASCII there)", code_point_text(at)));
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F)
      return fail(at, fmt::format("control character U+{:04X} outside a string or comment", c));
    return true;
  }

  // The UTF-8 sequence at `at`, or nullopt if it is not one.
  std::optional<std::uint32_t> decode(std::size_t at, std::size_t& len) const {
    const auto b0 = static_cast<unsigned char>(t_[at]);
    len = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 1;
    if (b0 < 0xC2 || b0 > 0xF4 || at + len > t_.size()) return std::nullopt;
    std::uint32_t cp = b0 & (0x7Fu >> len);
    for (std::size_t i = 1; i < len; ++i) {
      const auto b = static_cast<unsigned char>(t_[at + i]);
      if ((b & 0xC0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (b & 0x3Fu);
    }
    return cp;
  }

  [[nodiscard]] std::string code_point_text(std::size_t at) const {
    std::size_t len = 0;
    if (const auto cp = decode(at, len)) return fmt::format("character U+{:04X}", *cp);
    return fmt::format("byte 0x{:02X} (not UTF-8)", static_cast<unsigned char>(t_[at]));
  }

  bool fail(std::size_t at, std::string message) {
    if (!error_) error_ = make_error(location_at(t_, at, file_), std::move(message));
    return false;
  }

  std::string_view t_;
  FileName file_;
  std::size_t pos_ = 0;
  std::vector<char> open_;  // '[' or '{' of each open array and inline table
  std::optional<Diagnostic> error_;
};

}  // namespace

std::optional<Diagnostic> check_toml_input(std::string_view text, FileName file) { return GuardScanner(text, file).run(); }

}  // namespace dt
