// Test helpers: in-memory files and file systems, loading them through the
// real loader, and the raw dumps of what was loaded.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/io.hpp"
#include "registry/loader.hpp"
#include "render/raw.hpp"
#include "resolve/resolver.hpp"

namespace dt::test {

inline const Profile& profile(const std::string& name) {
  static std::map<std::string, Profile> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    auto p = load_profile(name, real_filesystem().read);
    REQUIRE_MESSAGE(p.has_value(), (p ? "" : format(p.error())));
    it = cache.emplace(name, std::move(*p)).first;
  }
  return it->second;
}

using Files = std::vector<std::pair<std::string, std::string>>;  // name, text

inline ReadFile memory_reader(const Files& files) {
  return [files](const std::string& path) -> Expected<std::string, Diagnostic> {
    for (const auto& [n, t] : files)
      if (n == path) return t;
    return unexpected(make_error(Location{path, 0, 0}, "No such file or directory"));
  };
}

// An in-memory FileSystem over `files` (path -> text), which it reads and
// writes: a directory is a path some file lies below. Reads are not
// budgeted (the real file system's budget is tested on real files).
inline FileSystem memory_filesystem(std::map<std::string, std::string>& files) {
  FileSystem fs;
  fs.read = [&files](const std::string& path) -> Expected<std::string, Diagnostic> {
    const auto it = files.find(path);
    if (it == files.end()) return unexpected(make_error(Location{path, 0, 0}, "No such file or directory"));
    return it->second;
  };
  fs.write = [&files](const std::string& path, std::string_view text) -> Expected<Ok, Diagnostic> {
    files[path] = std::string(text);
    return Ok{};
  };
  fs.kind = [&files](const std::string& path) {
    if (files.count(path) != 0) return FileKind::Regular;
    for (const auto& entry : files)
      if (entry.first.rfind(path + "/", 0) == 0) return FileKind::Directory;
    return FileKind::Missing;
  };
  fs.list = [&files](const std::string& dir) -> Expected<std::vector<std::string>, Diagnostic> {
    std::vector<std::string> out;
    for (const auto& entry : files)
      if (entry.first.rfind(dir + "/", 0) == 0 && entry.first.find('/', dir.size() + 1) == std::string::npos)
        out.push_back(entry.first);
    return out;
  };
  // Relative paths are below the current directory, "/cwd"; no symbolic links.
  fs.real_path = [](const std::string& path) -> Expected<std::string, Diagnostic> {
    return (std::filesystem::path("/cwd") / path).lexically_normal().string();
  };
  fs.read_inside = read_inside_over(fs.real_path, fs.kind, fs.read);
  return fs;
}

// memory_filesystem as a tree: a directory lists its files and its
// subdirectories (expand_inputs walks it); no real paths.
inline FileSystem tree_filesystem(std::map<std::string, std::string>& files) {
  FileSystem fs = memory_filesystem(files);
  fs.list = [&files](const std::string& dir) -> Expected<std::vector<std::string>, Diagnostic> {
    std::vector<std::string> out;
    for (const auto& [path, text] : files) {
      if (path.rfind(dir + "/", 0) != 0) continue;
      const std::string rest = path.substr(dir.size() + 1);
      const std::string entry = dir + "/" + rest.substr(0, rest.find('/'));
      if (out.empty() || out.back() != entry) out.push_back(entry);
    }
    return out;
  };
  fs.real_path = nullptr;
  return fs;
}

inline Expected<LoadResult, Diagnostic> load_files(const std::string& prof, const Files& files,
                                                   OnRefusal on_refusal = OnRefusal::Fail, unsigned threads = 0) {
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.first);
  LoadOptions o;
  o.on_refusal = on_refusal;
  o.threads = threads;
  return load(profile(prof), paths, memory_reader(files), o);
}

// The error loading `files` must give, formatted.
inline std::string error_of(const Files& files, const std::string& prof = "torch-main") {
  auto r = load_files(prof, files);
  REQUIRE_MESSAGE(!r.has_value(), "expected an error");
  return format(r.error());
}

// A small profile universe: two backends, Dense and AutogradFunctionality per backend.
inline const std::string kTiny =
    "name = \"tiny\"\n"
    "backends = [\"CPU\", \"CUDA\"]\n"
    "functionality = [\"Dense\", \"FPGA\", \"NestedTensor\", \"AutogradOther\", \"AutogradFunctionality\", "
    "\"AutogradNestedTensor\"]\n"
    "per_backend = [{ key = \"Dense\", prefix = \"\" }, { key = \"AutogradFunctionality\", prefix = \"Autograd\" }]\n"
    "aliases = [\"Autograd\", \"CompositeImplicitAutograd\", \"CompositeExplicitAutograd\"]\n";

// The error building a profile from `text` (as file p.toml) must give, formatted.
inline std::string profile_error(const std::string& text) {
  auto p = Profile::parse(text, "p.toml");
  REQUIRE_MESSAGE(!p.has_value(), "expected an error");
  return format(p.error());
}

// A FRAGMENT file of namespace t defining foo.
inline const std::string kDef = "namespace = \"t\"\n[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n";

// A FRAGMENT file of namespace "co" with one [[custom_op]] `name` of `schema`
// and the entry's `extra` fields ("register_fake = true\n", ...).
inline std::string custom_op_file(const std::string& name, const std::string& schema, const std::string& extra = "") {
  return "namespace = \"co\"\nkind = \"FRAGMENT\"\n\n[[custom_op]]\nname = \"" + name + "\"\nschema = \"" + schema +
         "\"\n" + extra;
}

inline LoadResult must_load(const std::string& prof, const Files& files) {
  auto r = load_files(prof, files);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : format(r.error())));
  return std::move(*r);
}

// The raw table (_dispatch_dump_table) of one operator.
inline std::string raw_table(const LoadResult& l, const std::string& op) {
  const Operator* o = l.registry.find(op);
  REQUIRE(o != nullptr);
  std::string out;
  render_table_raw(Resolver(l.registry), *o, KeyFilter{}, out);
  return out;
}

inline std::string raw_registrations(const LoadResult& l, const std::string& op) {
  const Operator* o = l.registry.find(op);
  REQUIRE(o != nullptr);
  std::string out;
  render_registrations_raw(l.registry, *o, KeyFilter{}, out);
  return out;
}

// Only the lines of `text` whose key (text before ':') is in `keys`.
inline std::string rows(const std::string& text, const std::vector<std::string>& keys) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();  // a last line without '\n'
    const std::string line = text.substr(start, end - start);
    const std::string key = line.substr(0, line.find(':'));
    for (const auto& k : keys)
      if (k == key) out += line + "\n";
    start = end + 1;
  }
  return out;
}

inline std::string read_text(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE_MESSAGE(f != nullptr, "cannot open " << path);
  std::string s;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
  std::fclose(f);
  return s;
}

}  // namespace dt::test
