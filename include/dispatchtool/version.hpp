// dispatchtool public API: the version of the library (and of the tool built
// with it). CMakeLists.txt reads the project's version from these lines.
#pragma once

#define DISPATCHTOOL_VERSION_MAJOR 0
#define DISPATCHTOOL_VERSION_MINOR 1
#define DISPATCHTOOL_VERSION_PATCH 0
// MAJOR * 10000 + MINOR * 100 + PATCH, for #if.
#define DISPATCHTOOL_VERSION \
  (DISPATCHTOOL_VERSION_MAJOR * 10000 + DISPATCHTOOL_VERSION_MINOR * 100 + DISPATCHTOOL_VERSION_PATCH)
#define DISPATCHTOOL_VERSION_STRING "0.1.0"

#include <dispatchtool/export.hpp>

namespace dispatchtool {

// The version of the library linked, which may differ from the header's
// DISPATCHTOOL_VERSION_STRING when a shared library is replaced: "0.1.0".
DISPATCHTOOL_API const char* version();

}  // namespace dispatchtool
