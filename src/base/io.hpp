// How the core reaches files: injected, so that tests work on in-memory files
// and only the front end wires in the process's real file system
// (real_filesystem(), io.cpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/limits.hpp"

namespace dt {

// Reads a file's contents; "-" means standard input. The error is located at
// the file (no line) and its message is the system's reason ("No such file or
// directory"); callers say what they were reading -- except for a file
// larger than the read budget (code kInputTooLarge), whose error is located
// at its first byte past the limit and names the limit: pass it on as it is.
// load() calls it from several threads at once (never twice for "-").
using ReadFile = std::function<Expected<std::string, Diagnostic>(const std::string& path)>;

// Diagnostic::code of a read that stopped at the budget (ReadBudget).
inline constexpr std::string_view kInputTooLarge = "input-too-large";

// Creates or replaces a regular file with `text`. The directory it goes in
// is reached from the current directory (or /) without a symbolic link: a
// path whose directory part passes through a link (`reports/m.html` with
// `reports -> elsewhere`) is refused, and so is a path that names a symbolic
// link, a directory, a FIFO or a device. The text goes to a new file in that
// directory, which then replaces the path (so the path is never half-written
// either); the new file has the replaced file's permission bits without
// setuid, setgid and sticky (else 0666 minus the umask). Errors as for
// ReadFile; when only closing the file fails, the message is empty.
using WriteFile = std::function<Expected<Ok, Diagnostic>(const std::string& path, std::string_view text)>;

// What a path names (symbolic links followed); Other also when it cannot be
// told (a loop of links, no permission).
enum class FileKind : std::uint8_t { Missing, Regular, Directory, Other };
using FileKindOf = std::function<FileKind(const std::string& path)>;

// The entries of a directory, each as the directory's path joined with its
// name, in no particular order. Errors as for ReadFile.
using ListDirectory = std::function<Expected<std::vector<std::string>, Diagnostic>(const std::string& path)>;

// The absolute path with every symbolic link resolved (the part of it that
// exists; the rest is normalised lexically). Errors as for ReadFile (a loop
// of links).
using RealPath = std::function<Expected<std::string, Diagnostic>(const std::string& path)>;

// How many bytes reads may return: per file, and all files of the process
// together. Checked while reading, so that an endless stream stops at the
// limit. Shared by the functions of a FileSystem; the front end sets the
// limits from --max-input-size and --max-total-input-size before reading.
struct ReadBudget {
  std::size_t per_file = limits::kInputBytes;
  std::size_t total = limits::kTotalInputBytes;
  std::atomic<std::size_t> used{0};
};

// Everything the core asks of a file system.
struct FileSystem {
  ReadFile read;  // any file: regular, FIFO, character device, "-" (standard input)
  // Only a regular file (symbolic links followed): for what a repository's
  // configuration names, which must not block on a FIFO or read a device.
  ReadFile read_regular;
  WriteFile write;
  FileKindOf kind;
  ListDirectory list;
  RealPath real_path;
  std::shared_ptr<ReadBudget> budget;  // what read and read_regular may return
};

// The process's file system and standard input.
FileSystem real_filesystem();

// How messages name a file given on the command line: "-" is "<stdin>", an
// empty name is "''" (never an empty location).
inline constexpr std::string_view kStdinName = "<stdin>";
std::string display_path(std::string_view path);

// A failed read as its caller reports it: "DOING: REASON" located at `file`
// ("cannot read file: No such file or directory"), or a read past the budget
// (kInputTooLarge) as the reader located it.
Diagnostic read_error(Diagnostic d, FileName file, std::string_view doing);

// "64 MiB", "1 KiB", "100 bytes": a byte count as the limits are written.
std::string byte_count(std::size_t bytes);

}  // namespace dt
