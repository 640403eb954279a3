// The floor for any toml++-based tool: parse every file, one at a time, and
// drop it. Prints the number of top-level entries so the work is observable.
#include <toml++/toml.h>

#include <cstdio>

int main(int argc, char** argv) {
  std::size_t entries = 0;
  for (int i = 1; i < argc; ++i) {
    try {
      const toml::table t = toml::parse_file(argv[i]);
      for (auto&& [k, v] : t) entries += v.is_array() ? v.as_array()->size() : 1;
    } catch (const toml::parse_error& e) {
      std::fprintf(stderr, "%s: %s\n", argv[i], std::string(e.description()).c_str());
      return 2;
    }
  }
  std::printf("%zu\n", entries);
  return 0;
}
