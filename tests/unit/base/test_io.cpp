// The real file system behind FileSystem (base/io.hpp), on a scratch directory.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
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

TEST_CASE("display_path: standard input is <stdin>") {
  CHECK(display_path("-") == "<stdin>");
  CHECK(display_path("ops/a.toml") == "ops/a.toml");
  CHECK(display_path("--") == "--");
}

}  // namespace dt::test
