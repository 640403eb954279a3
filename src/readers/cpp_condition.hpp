// The value of a preprocessor condition (#if, #elif) once `defined`,
// `__has_include` and macros are done with (readers/cpp_preprocessor.hpp):
// C++'s integer constant expressions as [cpp.cond] has them — integer and
// character literals, `true`/`false`, every unary, binary and conditional
// operator, parentheses — in intmax_t/uintmax_t arithmetic. An identifier
// left over is 0, as a compiler takes it, and is named in `unknown` so that
// the caller can say the answer rests on it.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <string>
#include <vector>

#include "base/diagnostic.hpp"
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
Expected<CppConditionValue, Diagnostic> evaluate_condition(const std::vector<CppToken>& tokens);

inline constexpr int kCppMaxConditionDepth = 256;

// What a condition asks of the preprocessor before macros expand: whether a
// macro is defined, and whether a header would be found (quoted: "..." ).
struct CppConditionQueries {
  std::function<bool(std::string_view)> defined;
  std::function<bool(const std::string&, bool quoted)> has_include;
};

// Replaces `defined X`, `defined(X)`, `__has_include(...)` by 1 or 0, and a
// call of a name nothing defines (a compiler query such as __has_builtin(x),
// glibc's __GNUC_PREREQ (4, 6)) by 0; the names taken as 0 are appended to
// `queried`, and so is each header __has_include does not find, as it is
// written ("<cuda_fp8.h>", "\"config.h\"").
void resolve_condition_queries(std::vector<CppToken>& tokens, const CppConditionQueries& q,
                               std::vector<std::string>& queried);

// Why a condition that rests on `unknown` (names taken as 0, headers not
// found) may differ from a compiler's, and what settles it, for the
// messages of registrations in its groups: {"X is not defined here (a
// compiler takes it as 0)", "define it with -D"}; for a header, {"the header
// <h> is not found here (__has_include takes it as 0)", "give its directory
// with -I"}; both joined by "and" when there are both.
struct UnknownWhy {
  std::string why;
  std::string fix;
};
UnknownWhy unknown_why(const std::vector<std::string>& unknown);

}  // namespace dt
