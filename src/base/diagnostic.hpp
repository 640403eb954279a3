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

}  // namespace dt
template <>
struct fmt::formatter<dt::FileName> : fmt::formatter<std::string_view> {
  template <class Ctx>
  auto format(const dt::FileName& f, Ctx& ctx) const {
    return fmt::formatter<std::string_view>::format(f.view(), ctx);
  }
};
