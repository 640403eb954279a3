// build_source_registrations (release_sources.hpp).
#include "readers/release_sources.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <variant>

#include "base/text.hpp"
#include "readers/cpp_options.hpp"
#include "readers/inputs.hpp"
#include "readers/release_yaml.hpp"

namespace dt {

const std::vector<std::pair<std::string_view, std::string_view>>& build_source_defines(std::string_view build) {
  // CMake's definitions for the release wheels (cmake/Dependencies.cmake,
  // the generated ATen/cuda/CUDAConfig.h): CUDA 12.8 with cuDNN, cuSPARSELt,
  // MAGMA, NCCL and NVSHMEM; MPS on macOS; XPU with oneAPI.
  static const std::vector<std::pair<std::string_view, std::string_view>> cuda = {
      {"USE_CUDA", "1"},           {"USE_CUDNN", "1"},
      {"AT_CUDNN_ENABLED()", "1"}, {"AT_CUSPARSELT_ENABLED()", "1"},
      {"AT_MAGMA_ENABLED()", "1"}, {"USE_NCCL", "1"},
      {"USE_C10D_NCCL", "1"},      {"USE_NVSHMEM", "1"},
      {"CUDART_VERSION", "12080"}, {"CUDA_VERSION", "12080"},
      {"USE_DISTRIBUTED", "1"},    {"USE_C10D", "1"}};
  static const std::vector<std::pair<std::string_view, std::string_view>> mps = {
      {"USE_MPS", "1"}, {"__APPLE__", "1"}, {"__OBJC__", "1"}};
  static const std::vector<std::pair<std::string_view, std::string_view>> xpu = {{"USE_XPU", "1"},
                                                                                 {"USE_C10D_XCCL", "1"}};
  static const std::vector<std::pair<std::string_view, std::string_view>> none;
  if (build == "cuda") return cuda;
  if (build == "mps") return mps;
  if (build == "xpu") return xpu;
  return none;
}

namespace {

const std::string* string_field(const std::vector<TomlField>& fields, std::string_view key) {
  for (const TomlField& f : fields)
    if (f.key == key) return std::get_if<std::string>(&f.value);
  return nullptr;
}

void set_string_field(std::vector<TomlField>& fields, std::string_view key, std::string value) {
  for (TomlField& f : fields)
    if (f.key == key) f.value = std::move(value);
}

// Whether `text` names one of `keys` as a whole word, and a library macro or Library.
bool names_a_key(std::string_view text, const std::vector<std::string_view>& keys) {
  if (text.find("TORCH_LIBRARY") == std::string_view::npos) return false;
  const auto word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  for (std::string_view k : keys)
    for (std::size_t at = text.find(k); at != std::string_view::npos; at = text.find(k, at + 1))
      if ((at == 0 || !word(text[at - 1])) && (at + k.size() == text.size() || !word(text[at + k.size()]))) return true;
  return false;
}

std::string prefix_of(const std::string& dir) { return dir.ends_with('/') ? dir : dir + "/"; }

// "2.6" of "2.6.0a0", "2.14.1+debian".
std::string_view minor_release(std::string_view version) {
  const std::size_t first = version.find('.');
  if (first == std::string_view::npos) return version;
  const std::size_t second = version.find_first_not_of("0123456789", first + 1);
  return version.substr(0, second);
}

bool is_compiled_source(std::string_view path) {
  const std::string_view name = path.substr(path.rfind('/') + 1);
  for (std::string_view ext : {".cpp", ".cc", ".cxx", ".cu", ".mm"})
    if (name.ends_with(ext)) return true;
  return false;
}

// The registrations of `block` a `build` adds to its CPU library: on the
// build's keys and not in the library (a DEF block becomes a FRAGMENT: the
// library has the namespace's TORCH_LIBRARY).
bool keep_for_build(TomlBlock& block, const std::vector<std::string_view>& keys, const InLibrary& in_library) {
  const std::string* kind = string_field(block.header, "kind");
  const std::string* ns = string_field(block.header, "namespace");
  const std::string* block_key = string_field(block.header, "dispatch_key");
  const auto on_build = [&](const std::string* key) {
    return key != nullptr && std::find(keys.begin(), keys.end(), *key) != keys.end();
  };
  const auto qualified = [&](const std::string& op) {
    return op.find("::") != std::string::npos || ns == nullptr || *ns == "_" ? op : *ns + "::" + op;
  };
  std::erase_if(block.entries, [&](const TomlEntry& e) {
    const std::string* op = string_field(e.fields, "op");
    const std::string* entry_key = string_field(e.fields, "key");
    const std::string* key = entry_key != nullptr ? entry_key : block_key;
    if (e.kind == "impl") return op == nullptr || !on_build(key) || in_library(qualified(*op), *key);
    if (e.kind == "fallback") return !on_build(key);
    if (e.kind == "def") {
      const std::string* name_field = string_field(e.fields, "name");
      const std::string* schema = string_field(e.fields, "schema");
      const std::string name = name_field != nullptr ? *name_field : schema != nullptr ? *schema : std::string();
      return in_library(qualified(name.substr(0, name.find('('))), {});
    }
    return true;
  });
  if (block.entries.empty()) return false;
  if (kind != nullptr && *kind == "DEF") set_string_field(block.header, "kind", "FRAGMENT");
  return true;
}

}  // namespace

Expected<BuildSourceRead, Diagnostic> build_source_registrations(const Profile& profile, std::string_view build,
                                                                 const std::string& dir, const FileSystem& fs,
                                                                 const InLibrary& in_library) {
  const std::vector<std::string_view>* keys = nullptr;
  for (const auto& [name, k] : build_backends())
    if (name == build) keys = &k;
  if (keys == nullptr || keys->empty())
    return unexpected(make_error(
        fmt::format("the release's sources add what a GPU build registers (a build of cuda, mps, xpu or mtia), and "
                    "the build is '{}'",
                    build.empty() ? "cpu" : build)));
  std::vector<std::string> roots;
  for (const char* sub : {"aten/src/ATen", "torch/csrc"})
    if (const std::string root = prefix_of(dir) + sub; fs.kind && fs.kind(root) == FileKind::Directory)
      roots.push_back(root);
  if (roots.empty())
    return unexpected(make_error(Location{display_path(dir), 0, 0},
                                 "not a PyTorch source tree: it has neither aten/src/ATen nor torch/csrc"));
  // A checkout's version.txt ("2.6.0a0") names its release: a tree of
  // another release would answer for it.
  if (const std::string vfile = prefix_of(dir) + "version.txt"; fs.kind && fs.kind(vfile) == FileKind::Regular) {
    auto v = fs.read(vfile);
    if (!v) return unexpected(read_error(std::move(v.error()), display_path(vfile), "cannot read file"));
    const std::string_view tree = trim(std::string_view(*v), " \t\r\n");
    if (!profile.torch_version().empty() && minor_release(tree) != minor_release(profile.torch_version()))
      return unexpected(make_error(
          Location{display_path(vfile), 1, 1},
          fmt::format("this tree is torch {}, and profile {} is torch {}: its hand-written registrations would be "
                      "another release's (give a checkout of the profile's release)",
                      printable(tree), profile.name(), profile.torch_version())));
  }
  DT_TRY(inputs, expand_inputs(fs, roots, {"test", "tests", "*_test.*", "test_*"}));
  CppOptions cpp;
  for (const auto& [name, value] : build_source_defines(build)) cpp.defines.emplace_back(name, std::string(value));
  BuildSourceRead out;
  const std::string prefix = prefix_of(dir);
  for (const std::string& path : inputs.paths) {
    if (!is_compiled_source(path)) continue;
    auto text = fs.read(path);
    if (!text) return unexpected(read_error(std::move(text.error()), display_path(path), "cannot read file"));
    if (!names_a_key(*text, *keys)) continue;
    ++out.files_read;
    // Located as the build names its sources: relative to the tree's top.
    const FileName shown(path.starts_with(prefix) ? path.substr(prefix.size()) : path);
    DT_TRY(read, read_blocks(profile, SourceKind::Cpp, shown, *text, cpp));
    out.warnings += read.warnings.size();
    for (TomlBlock& b : read.blocks)
      if (keep_for_build(b, *keys, in_library)) out.blocks.blocks.push_back(std::move(b));
  }
  return out;
}

}  // namespace dt
