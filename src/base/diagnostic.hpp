// Source locations and diagnostics shared by the loader, the resolver and lint:
// the public types of <dispatchtool/diagnostic.hpp> (the API's error type is
// the core's own), named in the core's namespace, and their fmt formatter.
#pragma once

#include <dispatchtool/diagnostic.hpp>
#include <fmt/format.h>

namespace dt {

using dispatchtool::add_error;
using dispatchtool::Diagnostic;
using dispatchtool::FileName;
using dispatchtool::format;
using dispatchtool::Location;
using dispatchtool::location_at;
using dispatchtool::make_error;
using dispatchtool::Note;
using dispatchtool::kTooManyErrors;
using dispatchtool::Severity;
using dispatchtool::to_string;

// The error with what it is about in front ("argument 'self' (Tensor): ..."),
// as a caller that knows more than the function that failed words it.
inline Diagnostic about(std::string_view what, Diagnostic d) {
  d.message = fmt::format("{}: {}", what, d.message);
  return d;
}

}  // namespace dt
template <>
struct fmt::formatter<dt::FileName> : fmt::formatter<std::string_view> {
  template <class Ctx>
  auto format(const dt::FileName& f, Ctx& ctx) const {
    return fmt::formatter<std::string_view>::format(f.view(), ctx);
  }
};
