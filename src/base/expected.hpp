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
