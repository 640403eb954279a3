// A small pretty-printing JSON writer: two-space indentation, keys in the
// order they are written, strings escaped by json_quote (text.hpp). For the
// machine-readable outputs (lint's JSON and SARIF).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dt {

class JsonWriter {
 public:
  // Appends to `out`; a complete top-level value ends with a newline.
  explicit JsonWriter(std::string& out) : out_(out) {}

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  void key(std::string_view k);
  void str(std::string_view s);
  void num(std::uint64_t n);
  void boolean(bool b);
  void null();

  // Shorthands for "key": value members.
  void member(std::string_view k, std::string_view s) {
    key(k);
    str(s);
  }
  void member(std::string_view k, std::uint64_t n) {
    key(k);
    num(n);
  }
  void member(std::string_view k, bool b) {
    key(k);
    boolean(b);
  }
  void member(std::string_view k, const char* s) { member(k, std::string_view(s)); }
  void member(std::string_view k, std::nullptr_t) {
    key(k);
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
  std::vector<Level> stack_;
  bool after_key_ = false;
};

}  // namespace dt
