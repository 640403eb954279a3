// A JSON reader (RFC 8259) for what the core reads in JSON:
// compile_commands.json (readers/compile_commands.hpp). One pass, a depth
// bound (kJsonMaxDepth), errors located at line and column.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"

namespace dt {

inline constexpr int kJsonMaxDepth = 256;

struct JsonMember;  // an object's member; a struct, not std::pair: clang 14 with libstdc++ 12
                    // refuses std::pair<std::string, JsonValue> inside JsonValue (incomplete)

struct JsonValue {
  enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  std::string text;  // a String's value (decoded), a Number as written
  std::vector<JsonValue> items;                          // Array
  std::vector<JsonMember> members;  // Object, in order
  Location at;

  // An object's member (the last of that name), or nullptr.
  [[nodiscard]] const JsonValue* get(std::string_view key) const;
};

struct JsonMember {
  std::string key;
  JsonValue value;
};

// Errors: "FILE:LINE:COL: error: ..." (invalid JSON, nesting deeper than kJsonMaxDepth).
Expected<JsonValue, Diagnostic> parse_json(std::string_view text, FileName file);

}  // namespace dt
