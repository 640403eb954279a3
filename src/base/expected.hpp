// Expected<T, E>: a value or an error (<dispatchtool/expected.hpp>, public),
// named in the core's namespace. The core returns errors as values; only the
// CLI front end prints them.
#pragma once

#include <dispatchtool/expected.hpp>

namespace dt {

using dispatchtool::Expected;
using dispatchtool::Ok;
using dispatchtool::Unexpected;
using dispatchtool::unexpected;

}  // namespace dt

// DT_TRY(var, expr): declares `var` as the value of the Expected `expr`, or
// returns its error from the enclosing function (whose Expected has the same
// error type), as ccache's TRY does: one line per propagation.
#define DT_TRY(var, ...)                                                           \
  auto var##_expected_ = (__VA_ARGS__);                                            \
  if (!var##_expected_) return ::dt::unexpected(std::move(var##_expected_.error())); \
  auto var = std::move(*var##_expected_)

// DT_TRY_VOID(expr): returns the error of the Expected `expr`, if any, from
// the enclosing function; its value is not kept (ccache's TRY).
#define DT_TRY_VOID(...)                                                                 \
  do {                                                                                   \
    auto dt_try_expected_ = (__VA_ARGS__);                                               \
    if (!dt_try_expected_) return ::dt::unexpected(std::move(dt_try_expected_.error())); \
  } while (false)
