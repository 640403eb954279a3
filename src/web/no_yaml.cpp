// The playground's stand-in for the releases' embedded native_functions.yaml
// (no --build in the page: it reads TOML only, and yaml_tree.cpp is compiled
// with DT_NO_LIBYAML, libyaml having no WebAssembly build).
#include "readers/release_yaml.hpp"

namespace dt {

const std::vector<EmbeddedYaml>& embedded_yaml() {
  static const std::vector<EmbeddedYaml> none;
  return none;
}

}  // namespace dt
