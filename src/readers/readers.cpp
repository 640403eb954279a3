// detect_source and read_blocks (readers.hpp): the dispatch to each reader.
#include "readers/readers.hpp"

#include "readers/cpp_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>

#include "base/text.hpp"
#include "readers/backend_yaml.hpp"
#include "readers/native_yaml.hpp"
#include "readers/python_reader.hpp"

namespace dt {

const char* to_string(SourceKind k) {
  switch (k) {
    case SourceKind::Toml:
      return "TOML";
    case SourceKind::Cpp:
      return "C++";
    case SourceKind::Python:
      return "Python";
    case SourceKind::NativeYaml:
      return "native_functions.yaml";
    case SourceKind::BackendYaml:
      return "backend yaml";
  }
  return "?";
}

namespace {

std::string_view extension(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = base.find_last_of('.');
  return dot == std::string_view::npos || dot == 0 ? std::string_view{} : base.substr(dot);
}

// Whether yaml text has `backend:` as a top-level key (gen_backend_stubs).
bool has_top_level_backend(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    if (text.substr(pos, end - pos).starts_with("backend:")) return true;
    pos = end + 1;
  }
  return false;
}

}  // namespace

std::string cpp_extension_list() { return fmt::format("{}", fmt::join(kCppExtensions, " ")); }

SourceKind detect_source(std::string_view path, std::string_view text) {
  const std::string_view ext = extension(path);
  for (std::string_view e : kCppExtensions)
    if (ext == e) return SourceKind::Cpp;
  if (ext == ".py") return SourceKind::Python;
  if (ext == ".yaml" || ext == ".yml")
    return has_top_level_backend(text) ? SourceKind::BackendYaml : SourceKind::NativeYaml;
  return SourceKind::Toml;
}

Expected<Blocks, Diagnostic> read_blocks(const Profile& profile, SourceKind kind, FileName file, std::string_view text,
                                         const CppOptions& cpp, PyProject* python, const InLibrary& in_library) {
  switch (kind) {
    case SourceKind::Cpp:
      return read_cpp(profile, file, text, cpp);
    case SourceKind::NativeYaml: {
      NativeYamlOptions options;
      options.in_library = in_library;
      return read_native_yaml(profile, file, text, options);
    }
    case SourceKind::BackendYaml:
      return read_backend_yaml(profile, file, text);
    case SourceKind::Python:
      return read_python(profile, file, text, python);
    default:
      break;
  }
  return unexpected(make_error(Location{file, 1, 1},
                               fmt::format("this build of dispatchtool has no reader for {} files", to_string(kind))));
}

std::unordered_set<std::string_view> unread_operators(const std::vector<Diagnostic>& warnings) {
  std::unordered_set<std::string_view> out;
  for (const Diagnostic& d : warnings)
    for (std::string_view n : split(d.op, ","))
      if (!n.empty()) out.insert(n);
  return out;
}

}  // namespace dt
