// A small JSON writer: keys in the order they are written, strings escaped
// by json_quote (text.hpp). Pretty (two-space indentation; the outputs of
// --format json and SARIF) or compact (no whitespace; the HTML page's data).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dt {

class JsonWriter {
 public:
  // Appends to `out`; a complete top-level value ends with a newline.
  enum class Layout : std::uint8_t { Pretty, Compact };
  explicit JsonWriter(std::string& out, Layout layout = Layout::Pretty) : out_(out), layout_(layout) {}

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  void key(std::string_view k);
  void str(std::string_view s);
  void num(std::uint64_t n);
  void boolean(bool b);
  void null();
  // A value that is already JSON (written by another JsonWriter), as is.
  void raw_value(std::string_view json);

  // Shorthands for "key": value members.
  void member(std::string_view k, std::string_view s) {
    key(k);
    str(s);
  }
  void member(std::string_view k, std::uint64_t n) {
    key(k);
    num(n);
  }
  // Named, not overloaded: a string literal would convert to bool before string_view.
  void bool_member(std::string_view k, bool b) {
    key(k);
    boolean(b);
  }
  void null_member(std::string_view k) {
    key(k);
    null();
  }
  // "k": "s", or "k": null when s is empty.
  void nonempty_member(std::string_view k, std::string_view s) {
    if (s.empty())
      null_member(k);
    else
      member(k, s);
  }
  // "k": "s", or "k": null without a value.
  void optional_member(std::string_view k, std::optional<std::string_view> s) {
    key(k);
    if (s)
      str(*s);
    else
      null();
  }
  void text_member(std::string_view k, std::string_view text);  // "k": {"text": ...} (SARIF message)

 private:
  struct Level {
    bool empty = true;
  };
  // Before a value or key: comma and newline as needed (not after a key).
  void separate();
  void open(char c);
  void close(char c);
  void newline();

  std::string& out_;
  Layout layout_;
  std::vector<Level> stack_;
  bool after_key_ = false;
};

// Opens the object of a --format json document and writes its envelope
// (docs/json.md): "version": 1, "tool": {"name", "version"}, "profile". The
// caller writes the payload and closes the object.
void begin_envelope(JsonWriter& w, std::string_view tool_version, std::string_view profile);

}  // namespace dt
