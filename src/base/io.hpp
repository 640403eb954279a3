// How the core reads files: injected, so that tests can load in-memory files
// and only the front end touches the process's real I/O.
#pragma once

#include <functional>
#include <string>

#include "base/expected.hpp"

namespace dt {

// Reads a file's contents; "-" means standard input. The error is a plain
// message ("No such file or directory"). load() calls it from several threads
// at once (never twice for "-").
using ReadFile = std::function<Expected<std::string, std::string>(const std::string& path)>;

// The real file system (and standard input).
ReadFile filesystem_reader();

}  // namespace dt
