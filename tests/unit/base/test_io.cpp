// The real file system behind FileSystem (base/io.hpp), on a scratch directory.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/io.hpp"

namespace dt::test {
namespace {

// A fresh directory, removed with everything in it at the end of the test.
class ScratchDir {
 public:
  ScratchDir() {
    static std::atomic<int> count{0};
    path_ = std::filesystem::temp_directory_path() /
            ("dispatchtool-test-io-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
    std::filesystem::create_directories(path_);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  [[nodiscard]] std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  [[nodiscard]] std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace

TEST_CASE("real_filesystem: files written are read back, whatever their size") {
  const ScratchDir dir;
  const FileSystem fs = real_filesystem();
  REQUIRE(fs.write(dir / "a.toml", "x = 1\n").has_value());
  CHECK(fs.read(dir / "a.toml").value() == "x = 1\n");
  std::string big(300000, 'x');  // more than one read buffer
  big.back() = '\n';
  REQUIRE(fs.write(dir / "big.toml", big).has_value());
  CHECK(fs.read(dir / "big.toml").value() == big);
  REQUIRE(fs.write(dir / "a.toml", "").has_value());  // replaced
  CHECK(fs.read(dir / "a.toml").value().empty());
}

TEST_CASE("real_filesystem: what a path names, and the entries of a directory") {
  const ScratchDir dir;
  const FileSystem fs = real_filesystem();
  REQUIRE(fs.write(dir / "a.toml", "").has_value());
  REQUIRE(fs.write(dir / "notes.txt", "").has_value());
  CHECK(fs.kind(dir / "a.toml") == FileKind::Regular);
  CHECK(fs.kind(dir.str()) == FileKind::Directory);
  CHECK(fs.kind(dir / "missing") == FileKind::Missing);
  auto entries = fs.list(dir.str());
  REQUIRE(entries.has_value());
  std::sort(entries->begin(), entries->end());
  CHECK(*entries == std::vector<std::string>{dir / "a.toml", dir / "notes.txt"});
}

TEST_CASE("real_filesystem: errors are located at the file, with the system's reason") {
  const ScratchDir dir;
  const FileSystem fs = real_filesystem();
  auto missing = fs.read(dir / "missing.toml");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().where == Location{dir / "missing.toml", 0, 0});
  CHECK(missing.error().message == "No such file or directory");
  CHECK(fs.read(dir.str()).error().message == "Is a directory");
  auto unwritable = fs.write(dir / "no/such/dir.toml", "x");
  REQUIRE_FALSE(unwritable.has_value());
  CHECK(unwritable.error().where == Location{dir / "no/such/dir.toml", 0, 0});
  CHECK(unwritable.error().message == "No such file or directory");
  CHECK(fs.list(dir / "missing").error().message == "No such file or directory");
}

TEST_CASE("real_filesystem: reads stop at the budget, with an error at the first byte past it (issue 11)") {
  const ScratchDir dir;
  FileSystem fs = real_filesystem();
  fs.budget->per_file = 10;
  REQUIRE(fs.write(dir / "ten.toml", "x = 12345\n").has_value());
  CHECK(fs.read(dir / "ten.toml").value() == "x = 12345\n");
  REQUIRE(fs.write(dir / "big.toml", "x = 1\n\xc3\xa9 = 12345\n").has_value());
  auto big = fs.read(dir / "big.toml");
  REQUIRE_FALSE(big.has_value());
  CHECK(big.error().code == kInputTooLarge);
  CHECK(format(big.error()) == dir / "big.toml:2:4: error: the file is larger than the input size limit of 10 "
                                     "bytes (limit: 10 bytes per file; --max-input-size BYTES raises it)\n");
  // An endless character device stops there too, and so does a FIFO.
  fs.budget->per_file = std::size_t{1} << 20;
  auto zero = fs.read("/dev/zero");
  REQUIRE_FALSE(zero.has_value());
  CHECK(zero.error().where == Location{"/dev/zero", 1, (std::uint32_t{1} << 20) + 1});
  CHECK(zero.error().message.find("input size limit of 1 MiB") != std::string::npos);
}

TEST_CASE("real_filesystem: the total budget counts every file read") {
  const ScratchDir dir;
  FileSystem fs = real_filesystem();
  fs.budget->total = 25;
  REQUIRE(fs.write(dir / "a.toml", "x = 12345\n").has_value());
  CHECK(fs.read(dir / "a.toml").has_value());
  CHECK(fs.read(dir / "a.toml").has_value());
  auto third = fs.read(dir / "a.toml");
  REQUIRE_FALSE(third.has_value());
  // The option it names exists (issue 32: it named --max-total-input-size, which does not).
  CHECK(format(third.error()) == dir /
                                     "a.toml:1:6: error: the input files together are larger than the limit of "
                                     "25 bytes (limit: 25 bytes in all; --max-input-size BYTES raises it, and the "
                                     "total with it: four times that)\n");
}

TEST_CASE("real_filesystem: read_inside refuses FIFOs and devices without blocking") {
  const ScratchDir dir;
  const FileSystem fs = real_filesystem();
  const Roots roots{dir.str()};
  REQUIRE(::mkfifo((dir / "fifo.toml").c_str(), 0600) == 0);
  auto fifo = fs.read_inside(dir / "fifo.toml", roots);  // no writer: read would block
  REQUIRE_FALSE(fifo.has_value());
  CHECK(fifo.error().code == kNotRegular);
  CHECK(fifo.error().message == "not a regular file (a FIFO, socket or device)");
  CHECK(fs.read_inside("/dev/zero", {"/dev"}).error().message == "not a regular file (a FIFO, socket or device)");
  REQUIRE(std::filesystem::create_directories(dir / "sub"));
  CHECK(fs.read_inside(dir / "sub", roots).error().message == "Is a directory");
  REQUIRE(fs.write(dir / "a.toml", "x = 1\n").has_value());
  CHECK(fs.read_inside(dir / "a.toml", roots).value() == "x = 1\n");
  CHECK(fs.read_inside(dir / "missing.toml", roots).error().message == "No such file or directory");
}

TEST_CASE("real_filesystem: read_inside keeps to its roots, symbolic links followed (issue 32)") {
  const ScratchDir dir;
  const FileSystem fs = real_filesystem();
  std::filesystem::create_directories(dir / "repo/ops");
  REQUIRE(fs.write(dir / "secret.toml", "SECRET-CONTENT\n").has_value());
  REQUIRE(fs.write(dir / "repo/ops/a.toml", "a = 1\n").has_value());
  const Roots repo{dir / "repo"};
  // Inside: directly, and through a link that stays inside.
  CHECK(fs.read_inside(dir / "repo/ops/a.toml", repo).value() == "a = 1\n");
  std::filesystem::create_symlink("ops/a.toml", dir / "repo/inside.toml");
  CHECK(fs.read_inside(dir / "repo/inside.toml", repo).value() == "a = 1\n");
  // Outside: through a link (relative or absolute), '..', an absolute path, a
  // directory link; the message never says where the path led.
  std::filesystem::create_symlink("../../secret.toml", dir / "repo/ops/rel.toml");
  std::filesystem::create_symlink(dir / "secret.toml", dir / "repo/ops/abs.toml");
  std::filesystem::create_symlink("/etc/passwd", dir / "repo/ops/passwd.toml");
  std::filesystem::create_symlink(dir.str(), dir / "repo/up");
  std::filesystem::create_symlink("/proc/self/fd/2", dir / "repo/ops/stderr.toml");
  for (const std::string& path : {dir / "repo/ops/rel.toml", dir / "repo/ops/abs.toml", dir / "repo/ops/passwd.toml",
                                  dir / "repo/up/secret.toml", dir / "repo/ops/../../secret.toml", dir / "secret.toml",
                                  std::string("/etc/passwd"), dir / "repo/ops/stderr.toml"}) {
    CAPTURE(path);
    auto r = fs.read_inside(path, repo);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code == kOutsideRoots);
    CHECK(r.error().where == Location{path, 0, 0});
    CHECK(r.error().message == "the path leads outside '" + (dir / "repo") + "' (symbolic links followed)");
    CHECK(r.error().message.find("secret") == std::string::npos);
    CHECK(r.error().message.find("/etc") == std::string::npos);
  }
  // The root itself is no file below it; more roots, any of them.
  CHECK(fs.read_inside(dir / "repo", repo).error().code == kOutsideRoots);
  CHECK(fs.read_inside(dir / "secret.toml", {dir / "repo", dir.str()}).value() == "SECRET-CONTENT\n");
  // Relative roots and paths are relative to the current directory.
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir / "repo");
  CHECK(fs.read_inside("ops/a.toml", {"."}).value() == "a = 1\n");
  auto rel = fs.read_inside("ops/rel.toml", {"."});
  std::filesystem::current_path(cwd);
  REQUIRE_FALSE(rel.has_value());
  CHECK(rel.error().message == "the path leads outside the current directory (symbolic links followed)");
  // The budget counts these reads too.
  FileSystem small = real_filesystem();
  small.budget->per_file = 3;
  CHECK(small.read_inside(dir / "repo/ops/a.toml", repo).error().code == kInputTooLarge);
  // reader_inside: the same, as a ReadFile.
  CHECK(reader_inside(fs, repo)(dir / "repo/ops/a.toml").value() == "a = 1\n");
  CHECK(reader_inside(fs, repo)(dir / "repo/ops/abs.toml").error().code == kOutsideRoots);
}

TEST_CASE("real_filesystem: --inside makes every read but standard input a read inside (issue 32)") {
  const ScratchDir dir;
  const FileSystem fs = real_filesystem();
  std::filesystem::create_directories(dir / "repo");
  REQUIRE(fs.write(dir / "secret.toml", "SECRET\n").has_value());
  REQUIRE(fs.write(dir / "repo/a.toml", "a = 1\n").has_value());
  std::filesystem::create_symlink(dir / "secret.toml", dir / "repo/link.toml");
  CHECK(fs.read(dir / "repo/link.toml").value() == "SECRET\n");  // the command line's: any file
  fs.scope->inside = {dir / "repo"};
  CHECK(fs.read(dir / "repo/a.toml").value() == "a = 1\n");
  CHECK(fs.read(dir / "repo/link.toml").error().code == kOutsideRoots);
  CHECK(fs.read(dir / "secret.toml").error().code == kOutsideRoots);
  // read_inside wants both its own roots and the scope.
  CHECK(fs.read_inside(dir / "secret.toml", {dir.str()}).error().code == kOutsideRoots);
  CHECK(fs.read_inside(dir / "repo/a.toml", {dir.str()}).value() == "a = 1\n");
}

TEST_CASE(
    "real_filesystem: a FIFO or device the command line names is never one reached through a link, nor "
    "this process's own output (issue 32)") {
  const ScratchDir dir;
  const FileSystem fs = real_filesystem();
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
  std::filesystem::create_symlink(dir / "fifo", dir / "linked.toml");
  auto linked = fs.read(dir / "linked.toml");  // no writer: an open would block
  REQUIRE_FALSE(linked.has_value());
  CHECK(linked.error().code == kNotRegular);
  CHECK(linked.error().message.starts_with("a FIFO, socket or device reached through a symbolic link is not read"));
  std::filesystem::create_symlink("/dev/zero", dir / "zero.toml");
  CHECK(fs.read(dir / "zero.toml").error().code == kNotRegular);
  // A regular file through a link is the command line's to name.
  REQUIRE(fs.write(dir / "a.toml", "a = 1\n").has_value());
  std::filesystem::create_symlink(dir / "a.toml", dir / "b.toml");
  CHECK(fs.read(dir / "b.toml").value() == "a = 1\n");
  // A descriptor name (what <(...) gives) is read, whatever it is.
  int data[2];
  REQUIRE(::pipe(data) == 0);
  REQUIRE(::write(data[1], "x = 2\n", 6) == 6);
  ::close(data[1]);
  CHECK(fs.read("/dev/fd/" + std::to_string(data[0])).value() == "x = 2\n");
  ::close(data[0]);
  // Standard error a pipe (as under CI): reading it would wait forever.
  int err_pipe[2];
  REQUIRE(::pipe(err_pipe) == 0);
  const int saved = ::dup(STDERR_FILENO);
  REQUIRE(::dup2(err_pipe[1], STDERR_FILENO) == STDERR_FILENO);
  auto own = fs.read("/proc/self/fd/2");
  std::filesystem::create_symlink("/proc/self/fd/2", dir / "stderr.toml");
  auto own_linked = fs.read(dir / "stderr.toml");
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  ::close(err_pipe[0]);
  ::close(err_pipe[1]);
  REQUIRE_FALSE(own.has_value());
  CHECK(own.error().message == "it is this process's own standard output or error; reading it would never end");
  REQUIRE_FALSE(own_linked.has_value());
  CHECK(own_linked.error().code == kNotRegular);
}

TEST_CASE("read_inside_over: the policy over a file system without descriptors (the tests', the playground's)") {
  std::map<std::string, std::string> files{{"repo/a.toml", "a"}, {"other/b.toml", "b"}, {"repo/sub/c.toml", "c"}};
  FileSystem fs;
  fs.read = [&](const std::string& path) -> Expected<std::string, Diagnostic> { return files.at(path); };
  fs.kind = [&](const std::string& path) {
    if (files.count(path) != 0) return FileKind::Regular;
    return path == "repo/sub" ? FileKind::Directory : path == "repo/fifo" ? FileKind::Other : FileKind::Missing;
  };
  fs.real_path = [](const std::string& path) -> Expected<std::string, Diagnostic> {
    return (std::filesystem::path("/cwd") / path).lexically_normal().string();
  };
  const ReadInside read = read_inside_over(fs.real_path, fs.kind, fs.read);
  CHECK(read("repo/a.toml", {"repo"}).value() == "a");
  CHECK(read("repo/../other/b.toml", {"repo"}).error().code == kOutsideRoots);
  CHECK(read("other/b.toml", {"repo", "other"}).value() == "b");
  CHECK(read("repo/sub", {"repo"}).error().message == "Is a directory");
  CHECK(read("repo/fifo", {"repo"}).error().code == kNotRegular);
  CHECK(read("repo/none", {"repo"}).error().message == "No such file or directory");
}

TEST_CASE("lies_below: strictly below a root, by whole path components") {
  CHECK(lies_below("/repo/a.toml", {"/repo"}));
  CHECK(lies_below("/repo/a.toml", {"/repo/"}));
  CHECK(lies_below("/repo/a/b.toml", {"/other", "/repo"}));
  CHECK_FALSE(lies_below("/repo", {"/repo"}));
  CHECK_FALSE(lies_below("/repository/a.toml", {"/repo"}));
  CHECK_FALSE(lies_below("/etc/passwd", {"/repo"}));
  CHECK_FALSE(lies_below("/repo/a.toml", {}));
  CHECK(lies_below("/etc/passwd", {"/"}));
}

TEST_CASE("real_filesystem: write never follows a symbolic link and never replaces a special file (issue 11)") {
  const ScratchDir dir;
  const FileSystem fs = real_filesystem();
  REQUIRE(fs.write(dir / "victim.txt", "precious\n").has_value());
  std::filesystem::create_symlink(dir / "victim.txt", dir / "baseline.toml");
  auto through_link = fs.write(dir / "baseline.toml", "version = 1\n");
  REQUIRE_FALSE(through_link.has_value());
  CHECK(through_link.error().message == "it is a symbolic link; refusing to write through it");
  CHECK(fs.read(dir / "victim.txt").value() == "precious\n");
  REQUIRE(::mkfifo((dir / "fifo.toml").c_str(), 0600) == 0);
  CHECK(fs.write(dir / "fifo.toml", "x").error().message == "not a regular file; refusing to replace it");
  CHECK(fs.write(dir.str(), "x").error().message == "not a regular file; refusing to replace it");
  // A regular file is replaced whole, keeping its mode; nothing else is left in the directory.
  REQUIRE(fs.write(dir / "a.toml", "old\n").has_value());
  std::filesystem::permissions(dir / "a.toml", std::filesystem::perms(0640));
  REQUIRE(fs.write(dir / "a.toml", "new\n").has_value());
  CHECK(fs.read(dir / "a.toml").value() == "new\n");
  CHECK(std::filesystem::status(dir / "a.toml").permissions() == std::filesystem::perms(0640));
  auto entries = fs.list(dir.str());
  REQUIRE(entries.has_value());
  CHECK(entries->size() == 4);  // victim.txt, baseline.toml, fifo.toml, a.toml: no temporary file
}

TEST_CASE("real_filesystem: write never goes through a directory link, and drops setuid and setgid (issue 32)") {
  const ScratchDir dir;
  const FileSystem fs = real_filesystem();
  std::filesystem::create_directories(dir / "repo");
  std::filesystem::create_directories(dir / "elsewhere");
  std::filesystem::create_symlink(dir / "elsewhere", dir / "repo/reports");
  auto through = fs.write(dir / "repo/reports/m.html", "x");
  REQUIRE_FALSE(through.has_value());
  CHECK(through.error().where == Location{dir / "repo/reports/m.html", 0, 0});
  CHECK(through.error().message ==
        "its directory '" + (dir / "repo/reports") + "' is a symbolic link; refusing to write through it");
  CHECK_FALSE(std::filesystem::exists(dir / "elsewhere/m.html"));
  // Relative to the current directory, and through '..' after a link.
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir / "repo");
  auto relative = fs.write("reports/m.html", "x");
  auto dotdot = fs.write("reports/../m.html", "x");
  auto plain = fs.write("./m2.html", "y");
  std::filesystem::current_path(cwd);
  CHECK(relative.error().message == "its directory 'reports' is a symbolic link; refusing to write through it");
  CHECK(dotdot.error().message == "its directory 'reports' is a symbolic link; refusing to write through it");
  CHECK(plain.has_value());
  CHECK(fs.read(dir / "repo/m2.html").value() == "y");
  CHECK(std::filesystem::is_empty(dir / "elsewhere"));
  // The mode of the file replaced, without setuid, setgid or sticky.
  REQUIRE(fs.write(dir / "tool", "old").has_value());
  REQUIRE(::chmod((dir / "tool").c_str(), 06755) == 0);
  REQUIRE(fs.write(dir / "tool", "new").has_value());
  struct stat st {};
  REQUIRE(::stat((dir / "tool").c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0755);
}

TEST_CASE("real_filesystem: real_path resolves symbolic links") {
  const ScratchDir dir;
  const FileSystem fs = real_filesystem();
  std::filesystem::create_directories(dir / "sub");
  std::filesystem::create_symlink(dir / "sub", dir / "link");
  const std::string sub = std::filesystem::canonical(dir / "sub").string();
  CHECK(fs.real_path(dir / "link/x.toml").value() == sub + "/x.toml");
  std::filesystem::create_symlink(dir / "loop", dir / "loop");
  CHECK_FALSE(fs.real_path(dir / "loop").has_value());
}

TEST_CASE("display_path: standard input is <stdin>") {
  CHECK(display_path("-") == "<stdin>");
  CHECK(display_path("") == "''");
  CHECK(display_path("ops/a.toml") == "ops/a.toml");
  CHECK(display_path("--") == "--");
}

TEST_CASE("byte_count: as the limits are written") {
  CHECK(byte_count(std::size_t{64} << 20) == "64 MiB");
  CHECK(byte_count(2048) == "2 KiB");
  CHECK(byte_count(std::size_t{1} << 30) == "1 GiB");
  CHECK(byte_count(1) == "1 byte");
  CHECK(byte_count(1000) == "1000 bytes");
}

}  // namespace dt::test
