// The real file system behind FileSystem (io.hpp), and the input policy
// ("The input policy" in io.hpp). Every function may run on several threads
// at once: error texts come from std::generic_category (strerror_r
// underneath), not from strerror.
#include "base/io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__) && __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#include <sys/syscall.h>
#define DT_HAVE_OPENAT2 1
#endif

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <system_error>

#include "base/text.hpp"

namespace dt {

namespace {

Diagnostic io_error(const std::string& path, int err) {
  return make_error(Location{display_path(path), 0, 0},
                    err == 0 ? std::string() : std::generic_category().message(err));
}

// The error for a file that goes on past `limit`, located at its first byte past it.
Diagnostic too_large(const std::string& path, std::string_view text, std::size_t limit, const ReadBudget& b) {
  const bool per_file = limit == b.per_file;
  Diagnostic d = make_error(
      location_at(text, limit, display_path(path)),
      per_file ? fmt::format("the file is larger than the input size limit of {} (limit: {} bytes per file; "
                             "--max-input-size BYTES raises it)",
                             byte_count(b.per_file), b.per_file)
               : fmt::format("the input files together are larger than the limit of {} (limit: {} bytes in all; "
                             "--max-input-size BYTES raises it, and the total with it: four times that)",
                             byte_count(b.total), b.total));
  d.code = std::string(kInputTooLarge);
  return d;
}

// Reads `fd` to its end or until it has given more than the budget allows.
Expected<std::string, Diagnostic> read_fd(int fd, const std::string& path, std::size_t size_hint, ReadBudget& b) {
  const std::size_t used = b.used.load();
  const std::size_t limit = std::min({b.per_file, b.total > used ? b.total - used : 0, SIZE_MAX - 1});
  std::string s;
  s.reserve(std::min(size_hint, limit) + 1);
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  for (;;) {
    // Into the room reserved (a regular file's size: read at once, and its
    // end found without growing the buffer), else a chunk more.
    const std::size_t room = s.capacity() - s.size();
    const std::size_t want = std::min(room > 0 ? room : kChunk, limit + 1 - s.size());
    const std::size_t have = s.size();
    s.resize(have + want);
    const ssize_t n = ::read(fd, s.data() + have, want);
    if (n < 0 && errno == EINTR) {
      s.resize(have);
      continue;
    }
    if (n < 0) return unexpected(io_error(path, errno));
    s.resize(have + static_cast<std::size_t>(n));
    if (n == 0) break;
    if (s.size() > limit) return unexpected(too_large(path, s, limit, b));
  }
  b.used += s.size();
  return s;
}

Diagnostic refusal(const std::string& path, std::string_view code, std::string message) {
  Diagnostic d = io_error(path, EINVAL);
  d.code = std::string(code);
  d.message = std::move(message);
  return d;
}

Diagnostic not_regular(const std::string& path) {
  return refusal(path, kNotRegular, "not a regular file (a FIFO, socket or device)");
}

// "the current directory", "'exp'", "'a' or 'b'": the roots as a message names them.
std::string roots_text(const Roots& roots) {
  std::string out;
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (i > 0) out += i + 1 == roots.size() ? " or " : ", ";
    out += roots[i] == "." || roots[i].empty() ? std::string("the current directory")
                                               : fmt::format("'{}'", printable(roots[i]));
  }
  return out.empty() ? std::string("every allowed directory") : out;
}

Diagnostic outside(const std::string& path, const Roots& roots) {
  // Where it leads is not said: an error must not confirm what exists outside.
  return refusal(path, kOutsideRoots,
                 fmt::format("the path leads outside {} (symbolic links followed)", roots_text(roots)));
}

// The absolute path with every link resolved (the file must exist), or errno.
Expected<std::string, int> resolve(const std::string& path) {
  char* r = ::realpath(path.c_str(), nullptr);
  if (r == nullptr) return unexpected(errno);
  std::string out(r);
  std::free(r);  // NOLINT(cppcoreguidelines-no-malloc): realpath's buffer
  return out;
}

// The resolved path opened for reading without following any link on the
// way (openat2, where the kernel has it: a link swapped in since it was
// resolved is refused), never blocking.
int open_resolved(const std::string& resolved) {
  constexpr int kFlags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW;
#if defined(DT_HAVE_OPENAT2) && defined(SYS_openat2)
  open_how how{};
  how.flags = static_cast<std::uint64_t>(kFlags);
  how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  const long fd = ::syscall(SYS_openat2, AT_FDCWD, resolved.c_str(), &how, sizeof how);
  if (fd >= 0 || (errno != ENOSYS && errno != EPERM && errno != E2BIG)) return static_cast<int>(fd);
#endif
  return ::open(resolved.c_str(), kFlags);
}

// Whether the resolved `path` lies below one of `roots` (resolved here).
bool below_roots(const std::string& path, const Roots& roots) {
  Roots real_roots;
  for (const auto& root : roots)
    if (auto r = resolve(root.empty() ? std::string(".") : root)) real_roots.push_back(std::move(*r));
  return lies_below(path, real_roots);
}

// A path a file or directory names (io.hpp, "The input policy"); below
// `roots`, and below `scope` too when it has roots (--inside).
Expected<std::string, Diagnostic> read_inside_real(const std::string& path, const Roots& roots, const Roots& scope,
                                                   ReadBudget& b) {
  auto resolved = resolve(path);
  if (!resolved) {
    // A link to a pipe or socket (/proc/self/fd/2 as a pipe: "pipe:[N]") leads to no path at all.
    struct stat st {};
    if (resolved.error() == ENOENT && ::stat(path.c_str(), &st) == 0) return unexpected(outside(path, roots));
    return unexpected(io_error(path, resolved.error()));
  }
  if (!below_roots(*resolved, roots)) return unexpected(outside(path, roots));
  if (!scope.empty() && !below_roots(*resolved, scope)) return unexpected(outside(path, scope));
  const int fd = open_resolved(*resolved);
  if (fd < 0) return unexpected(io_error(path, errno));
  struct stat st {};
  const bool stated = ::fstat(fd, &st) == 0;
  const int err = errno;
  if (!stated || !S_ISREG(st.st_mode)) {
    ::close(fd);
    if (!stated) return unexpected(io_error(path, err));
    return unexpected(S_ISDIR(st.st_mode) ? io_error(path, EISDIR) : not_regular(path));
  }
  auto text = read_fd(fd, path, static_cast<std::size_t>(st.st_size), b);
  ::close(fd);
  return text;
}

// "/dev/stdin", "/dev/fd/N", "/proc/self/fd/N": how a shell names a
// descriptor (bash's <(...) is /dev/fd/N).
bool descriptor_name(std::string_view path) {
  if (path == "/dev/stdin") return true;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"})
    if (path.starts_with(prefix) && path.size() > prefix.size() &&
        std::all_of(path.begin() + static_cast<std::ptrdiff_t>(prefix.size()), path.end(),
                    [](char c) { return c >= '0' && c <= '9'; }))
      return true;
  return false;
}

// Whether `path` reaches its file through a symbolic link: its resolved form
// is not its lexical one.
bool through_link(const std::string& path) {
  auto resolved = resolve(path);
  if (!resolved) return true;  // a link to a pipe ("pipe:[N]") resolves to no path
  std::error_code ec;
  const auto lexical = std::filesystem::absolute(path, ec).lexically_normal();
  return ec || lexical.string() != *resolved;
}

// Whether `st` is this process's own standard output or error.
bool own_output(const struct stat& st) {
  for (const int fd : {STDOUT_FILENO, STDERR_FILENO}) {
    struct stat o {};
    if (::fstat(fd, &o) == 0 && o.st_dev == st.st_dev && o.st_ino == st.st_ino) return true;
  }
  return false;
}

// A path the command line names (io.hpp, "The input policy").
Expected<std::string, Diagnostic> read_named(const std::string& path, ReadBudget& b) {
  if (path == "-") return read_fd(STDIN_FILENO, path, 0, b);
  struct stat st {};
  const bool special = ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
  if (special) {
    if (!descriptor_name(path) && through_link(path))
      return unexpected(refusal(path, kNotRegular,
                                "a FIFO, socket or device reached through a symbolic link is not read (name it "
                                "directly, or give it as standard input: -)"));
    if (own_output(st))
      return unexpected(
          refusal(path, kNotRegular, "it is this process's own standard output or error; reading it would never end"));
  }
  // A FIFO or device the command line names opens as it always did (a FIFO
  // waits for its writer, as <(...) needs); a regular file never waits.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | (special ? 0 : O_NONBLOCK));
  if (fd < 0) return unexpected(io_error(path, errno));
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return unexpected(io_error(path, err));
  }
  if (S_ISDIR(st.st_mode) || (!special && !S_ISREG(st.st_mode))) {  // a directory, or a file swapped since stat
    ::close(fd);
    return unexpected(S_ISDIR(st.st_mode) ? io_error(path, EISDIR) : not_regular(path));
  }
  auto text = read_fd(fd, path, S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 0, b);
  ::close(fd);
  return text;
}

// ---- writing ------------------------------------------------------------------

// The directory `target` goes in, opened from the current directory (or /)
// one component at a time without following a link. -1 with errno on
// failure; with `link` set (and ELOOP) where a component is a symbolic link.
int open_parent(const std::filesystem::path& target, std::string& link) {
  const std::filesystem::path parent = target.parent_path();
  int dir = ::open(parent.is_absolute() ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  std::filesystem::path walked = parent.root_path();
  for (const auto& part : parent.relative_path()) {
    if (dir < 0) break;
    walked /= part;
    if (part.empty() || part == ".") continue;
    struct stat st {};
    if (::fstatat(dir, part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
      ::close(dir);
      link = walked.string();
      errno = ELOOP;
      return -1;
    }
    const int next = ::openat(dir, part.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    const int err = errno;
    ::close(dir);
    dir = next;
    errno = err;
  }
  return dir;
}

// A name for the temporary file, fresh enough that O_EXCL rarely refuses it.
std::string temporary_name() {
  static std::atomic<std::uint64_t> counter{0};
  std::random_device rd;
  const std::uint64_t r = ((std::uint64_t{rd()} << 32) ^ rd()) + (counter++ << 40);
  return fmt::format(".dispatchtool-write-{:016x}", r);
}

// The mode a new file gets: what an existing regular file has, less setuid,
// setgid and sticky; else 0666 minus the umask.
mode_t mode_for(const struct stat* existing) {
  if (existing != nullptr) return existing->st_mode & 0777;
  const mode_t mask = ::umask(0);  // the only way to read it; the front end writes from one thread
  ::umask(mask);
  return 0666 & ~mask;
}

Expected<Ok, Diagnostic> write_file(const std::string& path, std::string_view text) {
  const std::filesystem::path target(path);
  const std::string name = target.filename().string();
  if (name.empty() || name == "." || name == "..") {  // a directory
    Diagnostic d = io_error(path, EINVAL);
    d.message = "not a regular file; refusing to replace it";
    return unexpected(std::move(d));
  }
  std::string link;
  const int dir = open_parent(target, link);
  if (dir < 0) {
    Diagnostic d = io_error(path, errno);
    if (!link.empty())
      d.message = fmt::format("its directory '{}' is a symbolic link; refusing to write through it", printable(link));
    return unexpected(std::move(d));
  }
  struct stat st {};
  const bool exists = ::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    ::close(dir);
    Diagnostic d = io_error(path, EINVAL);
    d.message = S_ISLNK(st.st_mode) ? "it is a symbolic link; refusing to write through it"
                                    : "not a regular file; refusing to replace it";
    return unexpected(std::move(d));
  }
  // A new file beside the target, renamed over it once complete.
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    tmp = temporary_name();
    fd = ::openat(dir, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    const int err = errno;
    ::close(dir);
    return unexpected(io_error(path, err));
  }
  int err = 0;
  for (std::string_view rest = text; err == 0 && !rest.empty();) {
    const ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n >= 0)
      rest.remove_prefix(static_cast<std::size_t>(n));
    else if (errno != EINTR)
      err = errno;
  }
  if (err == 0 && ::fchmod(fd, mode_for(exists ? &st : nullptr)) != 0) err = errno;
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  const bool closed = ::close(fd) == 0;
  if (err == 0 && closed && ::renameat(dir, tmp.c_str(), dir, name.c_str()) != 0) err = errno;
  if (err != 0 || !closed) ::unlinkat(dir, tmp.c_str(), 0);
  ::close(dir);
  if (err != 0 || !closed) return unexpected(io_error(path, err));  // only closing failed: no reason
  return Ok{};
}

// ---- what a path is ---------------------------------------------------------------

FileKind kind_of(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found) return FileKind::Missing;
  if (ec) return FileKind::Other;
  if (std::filesystem::is_regular_file(status)) return FileKind::Regular;
  if (std::filesystem::is_directory(status)) return FileKind::Directory;
  return FileKind::Other;
}

Expected<std::vector<std::string>, Diagnostic> list_directory(const std::string& path) {
  std::error_code ec;
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) out.push_back(entry.path().string());
  if (ec) return unexpected(make_error(Location{path, 0, 0}, ec.message()));
  return out;
}

Expected<std::string, Diagnostic> real_path(const std::string& path) {
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(path, ec);
  if (ec) return unexpected(make_error(Location{display_path(path), 0, 0}, ec.message()));
  auto real = std::filesystem::weakly_canonical(absolute, ec);
  if (ec) return unexpected(make_error(Location{display_path(path), 0, 0}, ec.message()));
  return real.string();
}

}  // namespace

FileSystem real_filesystem() {
  auto budget = std::make_shared<ReadBudget>();
  auto scope = std::make_shared<ReadScope>();
  FileSystem fs;
  fs.read = [budget, scope](const std::string& path) {
    if (!scope->inside.empty() && path != "-") return read_inside_real(path, scope->inside, {}, *budget);
    return read_named(path, *budget);
  };
  fs.read_inside = [budget, scope](const std::string& path, const Roots& roots) {
    return read_inside_real(path, roots, scope->inside, *budget);
  };
  fs.write = write_file;
  fs.kind = kind_of;
  fs.list = list_directory;
  fs.real_path = real_path;
  fs.budget = std::move(budget);
  fs.scope = std::move(scope);
  return fs;
}

ReadFile reader_inside(const FileSystem& fs, Roots roots) {
  return [read = fs.read_inside, roots = std::move(roots)](const std::string& path) { return read(path, roots); };
}

bool lies_below(std::string_view path, const Roots& roots) {
  return std::any_of(roots.begin(), roots.end(), [&](const std::string& root) {
    std::string_view r = root;
    while (r.size() > 1 && r.ends_with('/')) r.remove_suffix(1);
    if (r == "/") return path.size() > 1 && path.starts_with('/');
    return path.size() > r.size() + 1 && path.starts_with(r) && path[r.size()] == '/';
  });
}

ReadInside read_inside_over(RealPath real_path, FileKindOf kind, ReadFile read) {
  return [real_path = std::move(real_path), kind = std::move(kind), read = std::move(read)](
             const std::string& path, const Roots& roots) -> Expected<std::string, Diagnostic> {
    DT_TRY(resolved, real_path(path));
    Roots real_roots;
    for (const auto& root : roots)
      if (auto r = real_path(root.empty() ? std::string(".") : root)) real_roots.push_back(std::move(*r));
    if (!lies_below(resolved, real_roots)) return unexpected(outside(path, roots));
    switch (kind(path)) {
      case FileKind::Regular:
        return read(path);
      case FileKind::Missing:
        return unexpected(io_error(path, ENOENT));
      case FileKind::Directory:
        return unexpected(io_error(path, EISDIR));
      case FileKind::Other:
        break;
    }
    return unexpected(not_regular(path));
  };
}

std::string display_path(std::string_view path) {
  if (path == "-") return std::string(kStdinName);
  if (path.empty()) return "''";
  return std::string(path);
}

Diagnostic read_error(Diagnostic d, FileName file, std::string_view doing) {
  if (d.code == kInputTooLarge) return d;
  d.where = Location{file, 0, 0};
  d.message = d.message.empty() ? std::string(doing) : fmt::format("{}: {}", doing, d.message);
  return d;
}

std::string byte_count(std::size_t bytes) {
  constexpr std::size_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
  if (bytes != 0 && bytes % kGiB == 0) return fmt::format("{} GiB", bytes / kGiB);
  if (bytes != 0 && bytes % kMiB == 0) return fmt::format("{} MiB", bytes / kMiB);
  if (bytes != 0 && bytes % kKiB == 0) return fmt::format("{} KiB", bytes / kKiB);
  return fmt::format("{} byte{}", bytes, bytes == 1 ? "" : "s");
}

}  // namespace dt
