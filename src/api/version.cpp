#include <dispatchtool/version.hpp>

namespace dispatchtool {

const char* version() { return DISPATCHTOOL_VERSION_STRING; }

}  // namespace dispatchtool
