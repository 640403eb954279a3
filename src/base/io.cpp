// The real file system behind FileSystem (io.hpp). Every function may run on
// several threads at once: error texts come from std::generic_category
// (strerror_r underneath), not from strerror.
#include "base/io.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <system_error>

namespace dt {

namespace {

Diagnostic io_error(const std::string& path, int err) {
  return make_error(Location{path, 0, 0}, err == 0 ? std::string() : std::generic_category().message(err));
}

Expected<std::string, Diagnostic> read_file(const std::string& path) {
  if (path == "-") {
    std::string s((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    return s;
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return unexpected(io_error(path, errno));
  // One allocation of the file's size (regular files), then read to EOF.
  std::string s;
  struct stat st {};
  if (fstat(fileno(f), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      std::fclose(f);
      return unexpected(io_error(path, EISDIR));
    }
    if (S_ISREG(st.st_mode)) s.resize(static_cast<std::size_t>(st.st_size));
  }
  std::size_t have = std::fread(s.data(), 1, s.size(), f);
  s.resize(have);
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
  const int err = std::ferror(f) != 0 ? errno : 0;
  std::fclose(f);
  if (err != 0) return unexpected(io_error(path, err));
  return s;
}

Expected<Ok, Diagnostic> write_file(const std::string& path, std::string_view text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return unexpected(io_error(path, errno));
  if (std::fwrite(text.data(), 1, text.size(), f) != text.size()) {
    const int err = errno;
    std::fclose(f);
    return unexpected(io_error(path, err));
  }
  if (std::fclose(f) != 0) return unexpected(io_error(path, 0));
  return Ok{};
}

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

}  // namespace

FileSystem real_filesystem() { return FileSystem{read_file, write_file, kind_of, list_directory}; }

std::string display_path(std::string_view path) { return path == "-" ? std::string(kStdinName) : std::string(path); }

}  // namespace dt
