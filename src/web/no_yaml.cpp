// The playground's stand-ins for what needs libyaml, which has no
// WebAssembly build in Debian: the page reads TOML only. parse_yaml (the
// readers' one use of libyaml, yaml_tree.cpp) says so, located; the
// releases' native_functions.yaml are not embedded (no --build).
#include <fmt/format.h>

#include "readers/release_yaml.hpp"
#include "readers/yaml_tree.hpp"

namespace dt {

Expected<YamlDoc, Diagnostic> parse_yaml(FileName file, std::string_view /*text*/, YamlLimits /*limits*/) {
  return unexpected(make_error(Location{file, 1, 1}, "yaml files are not read in the playground (the command-line "
                                                     "tool reads them)"));
}

const std::vector<EmbeddedYaml>& embedded_yaml() {
  static const std::vector<EmbeddedYaml> none;
  return none;
}

}  // namespace dt
