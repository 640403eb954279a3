// The real file system behind FileSystem (base/io.hpp), on a scratch directory.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
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
  CHECK(format(third.error()) == dir / "a.toml:1:6: error: the input files together are larger than the limit of "
                                       "25 bytes (limit: 25 bytes in all; --max-total-input-size BYTES raises it)\n");
}

TEST_CASE("real_filesystem: read_regular refuses FIFOs and devices without blocking") {
  const ScratchDir dir;
  const FileSystem fs = real_filesystem();
  REQUIRE(::mkfifo((dir / "fifo.toml").c_str(), 0600) == 0);
  auto fifo = fs.read_regular(dir / "fifo.toml");  // no writer: read would block
  REQUIRE_FALSE(fifo.has_value());
  CHECK(fifo.error().message == "not a regular file (a FIFO, socket or device)");
  CHECK(fs.read_regular("/dev/zero").error().message == "not a regular file (a FIFO, socket or device)");
  CHECK(fs.read_regular(dir.str()).error().message == "Is a directory");
  REQUIRE(fs.write(dir / "a.toml", "x = 1\n").has_value());
  CHECK(fs.read_regular(dir / "a.toml").value() == "x = 1\n");
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
