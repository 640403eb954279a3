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

// ---- The input policy (docs/security.md, "What it reads") -----------------
//
// Two kinds of path reach the core, and each has one way in:
//
// * A path the COMMAND LINE names (FILE operands, --profile, --config,
//   --baseline, --context FILE) is the CI author's: FileSystem::read takes
//   any kind of file -- "-" (standard input), a FIFO from <(...) (/dev/fd/N),
//   /dev/stdin, a named FIFO, a device, a regular file through any link --
//   with two refusals that keep a repository's committed symbolic links from
//   hanging the run: a FIFO, socket or device is read only when the path names
//   it without a symbolic link of its own (or is a descriptor name: /dev/fd/N,
//   /proc/self/fd/N, /dev/stdin), and never when it is this process's own
//   standard output or error (a pipe it would wait on forever). `--inside DIR`
//   (the front end) turns every such path but "-" into the second kind, with
//   DIR as root.
//
// * A path that a FILE or a DIRECTORY names -- a profile directory's
//   profile.toml, a profile's [operator_library] paths, the lint
//   configuration found in the current directory and the baseline and profile
//   it names, the entries of --context DIR, the files the C++ reader's
//   #include following opens -- is the repository's, and is read with
//   FileSystem::read_inside(path, roots), which
//     1. resolves every symbolic link of `path` (and of each root),
//     2. refuses a result that is not strictly below one of `roots`
//        (code kOutsideRoots; the message never says where the path led),
//     3. opens the resolved path with O_NONBLOCK | O_NOFOLLOW (and, where the
//        kernel has openat2, no symbolic link on the way: a link swapped in
//        since step 1 is refused): a FIFO or device never blocks the open,
//     4. refuses anything but a regular file (code kNotRegular),
//     5. reads it against the same ReadBudget as `read` (kInputTooLarge).
//   A missing file is the system's reason ("No such file or directory").
//   Errors are located at `path` (display_path); callers say what they were
//   reading with read_error(), as for `read`.
//
// How a caller with its own notion of roots uses it, e.g. a reader that
// follows `#include "x.h"` from `dir/a.cpp` inside the repository `.`:
//
//     auto text = fs.read_inside("dir/x.h", {"."});
//     if (!text) return unexpected(read_error(std::move(text.error()), "dir/x.h", "cannot read included file"));
//
// or, where a ReadFile is wanted, `reader_inside(fs, {"."})`. Roots are
// directories, relative to the current directory or absolute; "." is the
// current directory. Safe to call from several threads at once.
using Roots = std::vector<std::string>;
using ReadInside = std::function<Expected<std::string, Diagnostic>(const std::string& path, const Roots& roots)>;

// Diagnostic::code of read_inside's refusals.
inline constexpr std::string_view kOutsideRoots = "outside-roots";
inline constexpr std::string_view kNotRegular = "not-regular";

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
// limits from --max-input-size (the total is four times it) before reading.
struct ReadBudget {
  std::size_t per_file = limits::kInputBytes;
  std::size_t total = limits::kTotalInputBytes;
  std::atomic<std::size_t> used{0};
};

// Where reads may lead: with roots (--inside DIR), `read` reads every path
// but "-" as read_inside(path, inside), and read_inside(path, roots) wants
// the path below `inside` too. Shared like the budget; the front end sets it
// before reading.
struct ReadScope {
  Roots inside;
};

// Everything the core asks of a file system.
struct FileSystem {
  ReadFile read;           // a path the command line names (above)
  ReadInside read_inside;  // a path a file or directory names (above)
  WriteFile write;
  FileKindOf kind;
  ListDirectory list;
  RealPath real_path;
  std::shared_ptr<ReadBudget> budget;  // what read and read_inside may return
  std::shared_ptr<ReadScope> scope;    // where read may lead (null: anywhere)
};

// A ReadFile that reads every path with fs.read_inside(path, roots).
ReadFile reader_inside(const FileSystem& fs, Roots roots);

// read_inside's steps 1, 2 and 4 over a FileSystem's real_path, kind and
// read, for file systems that have no descriptors (the tests' in-memory one,
// the playground's): resolve, refuse outside the roots, refuse what is not a
// regular file, read.
ReadInside read_inside_over(RealPath real_path, FileKindOf kind, ReadFile read);

// Whether the resolved `path` lies strictly below one of the resolved
// `roots` (absolute paths, as real_path gives them).
bool lies_below(std::string_view path, const Roots& roots);

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
