// How the core reaches files: injected, so that tests work on in-memory files
// and only the front end wires in the process's real file system
// (real_filesystem(), io.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"

namespace dt {

// Reads a file's contents; "-" means standard input. The error is located at
// the file (no line) and its message is the system's reason ("No such file or
// directory"); callers say what they were reading. load() calls it from
// several threads at once (never twice for "-").
using ReadFile = std::function<Expected<std::string, Diagnostic>(const std::string& path)>;

// Creates or replaces a file with `text`. Errors as for ReadFile; when only
// closing the file fails, the message is empty.
using WriteFile = std::function<Expected<Ok, Diagnostic>(const std::string& path, std::string_view text)>;

// What a path names (symbolic links followed); Other also when it cannot be
// told (a loop of links, no permission).
enum class FileKind : std::uint8_t { Missing, Regular, Directory, Other };
using FileKindOf = std::function<FileKind(const std::string& path)>;

// The entries of a directory, each as the directory's path joined with its
// name, in no particular order. Errors as for ReadFile.
using ListDirectory = std::function<Expected<std::vector<std::string>, Diagnostic>(const std::string& path)>;

// Everything the core asks of a file system.
struct FileSystem {
  ReadFile read;
  WriteFile write;
  FileKindOf kind;
  ListDirectory list;
};

// The process's file system and standard input.
FileSystem real_filesystem();

// How messages name a file given on the command line: "-" is "<stdin>".
inline constexpr std::string_view kStdinName = "<stdin>";
std::string display_path(std::string_view path);

}  // namespace dt
