// dispatchtool::version() (src/api/version.cpp) and <dispatchtool/version.hpp>.
#include <dispatchtool/version.hpp>

#include <string>

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("api version: the header's numbers, its string, the library's and the tool's agree") {
  const std::string numbers = std::to_string(DISPATCHTOOL_VERSION_MAJOR) + "." +
                              std::to_string(DISPATCHTOOL_VERSION_MINOR) + "." +
                              std::to_string(DISPATCHTOOL_VERSION_PATCH);
  CHECK(numbers == DISPATCHTOOL_VERSION_STRING);
  CHECK(std::string(dispatchtool::version()) == DISPATCHTOOL_VERSION_STRING);
  CHECK(std::string(DT_VERSION) == DISPATCHTOOL_VERSION_STRING);  // what --version and JSON documents say
  CHECK(DISPATCHTOOL_VERSION == DISPATCHTOOL_VERSION_MAJOR * 10000 + DISPATCHTOOL_VERSION_MINOR * 100 +
                                    DISPATCHTOOL_VERSION_PATCH);
}

}  // namespace dt::test
