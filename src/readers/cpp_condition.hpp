// The value of a preprocessor condition (#if, #elif) once `defined`,
// `__has_include` and macros are done with (readers/cpp_preprocessor.hpp):
// C++'s integer constant expressions as [cpp.cond] has them — integer and
// character literals, `true`/`false`, every unary, binary and conditional
// operator, parentheses — in intmax_t/uintmax_t arithmetic. An identifier
// left over is 0, as a compiler takes it, and is named in `unknown` so that
// the caller can say the answer rests on it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/expected.hpp"
#include "readers/cpp_scanner.hpp"

namespace dt {

struct CppConditionValue {
  bool value = false;
  std::vector<std::string> unknown;  // identifiers taken as 0, in order, each once
};

// An error: a message for "#if: MESSAGE" (the caller locates it at the
// directive): a malformed expression, division by zero, nesting deeper
// than kCppMaxConditionDepth.
Expected<CppConditionValue, std::string> evaluate_condition(const std::vector<CppToken>& tokens);

inline constexpr int kCppMaxConditionDepth = 256;

}  // namespace dt
