// parse_json (json_reader.hpp).
#include "base/json_reader.hpp"

#include <fmt/format.h>

#include <optional>

#include "base/text.hpp"

namespace dt {

const JsonValue* JsonValue::get(std::string_view key) const {
  const JsonValue* found = nullptr;
  for (const auto& [k, v] : members)
    if (k == key) found = &v;
  return found;
}

namespace {

class JsonParser {
 public:
  JsonParser(std::string_view s, FileName f) : s_(s), file_(f) {}

  Expected<JsonValue, Diagnostic> run() {
    if (s_.starts_with("\xEF\xBB\xBF")) i_ = 3;
    ws();
    JsonValue v;
    if (!value(v, 0)) return unexpected(std::move(*error_));
    ws();
    if (i_ < s_.size()) return fail_at("unexpected text after the JSON value"), unexpected(std::move(*error_));
    return v;
  }

 private:
  [[nodiscard]] Location here() const { return Location{file_, line_, col_}; }
  bool fail_at(std::string msg) {
    if (!error_) error_ = make_error(here(), std::move(msg));
    return false;
  }
  void step() {
    if (s_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else if ((static_cast<unsigned char>(s_[i_]) & 0xC0) != 0x80) {
      ++col_;
    }
    ++i_;
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) step();
  }
  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return fail_at("invalid JSON value");
    for (std::size_t k = 0; k < word.size(); ++k) step();
    return true;
  }

  bool value(JsonValue& v, int depth) {
    if (depth > kJsonMaxDepth)
      return fail_at(fmt::format("JSON nested deeper than {} levels (limit: {})", kJsonMaxDepth, kJsonMaxDepth));
    v.at = here();
    if (i_ >= s_.size()) return fail_at("the JSON ends where a value was expected");
    const char c = s_[i_];
    if (c == '{') return object(v, depth);
    if (c == '[') return array(v, depth);
    if (c == '"') {
      v.type = JsonValue::Type::String;
      return string(v.text);
    }
    if (c == 't' || c == 'f') {
      v.type = JsonValue::Type::Bool;
      v.boolean = c == 't';
      return literal(c == 't' ? "true" : "false");
    }
    if (c == 'n') return literal("null");
    if (c == '-' || (c >= '0' && c <= '9')) {
      v.type = JsonValue::Type::Number;
      const std::size_t b = i_;
      while (i_ < s_.size() && (std::string_view("+-.eE0123456789").find(s_[i_]) != std::string_view::npos)) step();
      v.text = std::string(s_.substr(b, i_ - b));
      return true;
    }
    return fail_at("invalid JSON value");
  }

  bool object(JsonValue& v, int depth) {
    v.type = JsonValue::Type::Object;
    step();  // {
    ws();
    if (i_ < s_.size() && s_[i_] == '}') return step(), true;
    for (;;) {
      ws();
      if (i_ >= s_.size() || s_[i_] != '"') return fail_at("expected a member name (a string)");
      std::string key;
      if (!string(key)) return false;
      ws();
      if (i_ >= s_.size() || s_[i_] != ':') return fail_at("expected ':'");
      step();
      ws();
      JsonValue member;
      if (!value(member, depth + 1)) return false;
      v.members.push_back(JsonMember{std::move(key), std::move(member)});
      ws();
      if (i_ < s_.size() && s_[i_] == ',') {
        step();
        continue;
      }
      if (i_ < s_.size() && s_[i_] == '}') return step(), true;
      return fail_at("expected ',' or '}'");
    }
  }

  bool array(JsonValue& v, int depth) {
    v.type = JsonValue::Type::Array;
    step();  // [
    ws();
    if (i_ < s_.size() && s_[i_] == ']') return step(), true;
    for (;;) {
      ws();
      JsonValue item;
      if (!value(item, depth + 1)) return false;
      v.items.push_back(std::move(item));
      ws();
      if (i_ < s_.size() && s_[i_] == ',') {
        step();
        continue;
      }
      if (i_ < s_.size() && s_[i_] == ']') return step(), true;
      return fail_at("expected ',' or ']'");
    }
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::optional<std::uint32_t> hex4() {
    if (i_ + 4 > s_.size()) return std::nullopt;
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) return std::nullopt;
      v = v * 16 + static_cast<std::uint32_t>(d);
      step();
    }
    return v;
  }

  bool string(std::string& out) {
    step();  // "
    for (;;) {
      if (i_ >= s_.size()) return fail_at("unterminated JSON string");
      const char c = s_[i_];
      if (c == '"') return step(), true;
      if (static_cast<unsigned char>(c) < 0x20) return fail_at("a control character inside a JSON string");
      if (c != '\\') {
        out += c;
        step();
        continue;
      }
      step();
      if (i_ >= s_.size()) return fail_at("unterminated JSON string");
      const char e = s_[i_];
      step();
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          auto cp = hex4();
          if (!cp) return fail_at("invalid \\u escape");
          if (*cp >= 0xD800 && *cp < 0xDC00 && s_.substr(i_, 2) == "\\u") {
            step();
            step();
            auto lo = hex4();
            if (!lo || *lo < 0xDC00 || *lo > 0xDFFF) return fail_at("invalid surrogate pair");
            *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*lo - 0xDC00);
          }
          append_utf8(out, *cp);
          break;
        }
        default:
          return fail_at(fmt::format("invalid escape '\\{}' in a JSON string", printable(std::string(1, e))));
      }
    }
  }

  std::string_view s_;
  FileName file_;
  std::size_t i_ = 0;
  std::uint32_t line_ = 1, col_ = 1;
  std::optional<Diagnostic> error_;
};

}  // namespace

Expected<JsonValue, Diagnostic> parse_json(std::string_view text, FileName file) { return JsonParser(text, file).run(); }

}  // namespace dt
