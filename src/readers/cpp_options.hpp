// How a C++ source is compiled, as far as the C++ reader's preprocessor
// (readers/cpp_preprocessor.hpp) needs it: the -D/-U/-I flags a build gives
// a file (compile_commands.json, or dispatchtool's own -D/-U/-I), and how its
// includes are read. A header of its own so that the loader's and the
// readers' interfaces need not see the preprocessor.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/io.hpp"

namespace dt {

// How a file is compiled: the flags a build gives it (compile_commands.json,
// or -D/-U/-I on dispatchtool's command line).
struct CppOptions {
  // -D NAME[=VALUE] (value nullopt: -U NAME), in order.
  std::vector<std::pair<std::string, std::optional<std::string>>> defines;
  std::vector<std::string> quote_dirs;       // -iquote
  std::vector<std::string> include_dirs;     // -I (also -isystem's: searched, but their headers' tokens kept too)
  std::vector<std::string> forced_includes;  // -include FILE
  // How includes are read (nullptr: never followed, every #include is a
  // header not found).
  const FileSystem* fs = nullptr;
  // The most tokens macro expansion may make in one file, against macros that
  // grow exponentially (#define A B B / #define B C C ...): past it, an error.
  std::size_t max_expanded_tokens = 4'000'000;
};

}  // namespace dt
