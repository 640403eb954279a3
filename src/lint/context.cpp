// dispatchtool lint --context (context.hpp).
#include "lint/context.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace dt::lint {

Expected<ContextFiles, Diagnostic> context_files(const FileSystem& fs, const std::vector<std::string>& paths) {
  ContextFiles out;
  for (const auto& path : paths) {
    if (fs.kind(path) != FileKind::Directory) {
      out.paths.push_back(path);
      continue;
    }
    auto entries = fs.list(path);
    if (!entries) return unexpected(make_error(fmt::format("cannot list '{}': {}", path, entries.error().message)));
    std::vector<std::string> found;
    for (auto& entry : *entries)
      if (std::filesystem::path(entry).extension() == ".toml") found.push_back(std::move(entry));
    if (found.empty()) return unexpected(make_error(fmt::format("no .toml files in '{}'", path)));
    std::sort(found.begin(), found.end());
    for (const auto& f : found) out.listed.emplace(f, path);
    out.paths.insert(out.paths.end(), found.begin(), found.end());
  }
  return out;
}

ReadFile context_reader(const FileSystem& fs, const ContextFiles& context) {
  return [read = fs.read, read_inside = fs.read_inside, listed = context.listed](const std::string& path) {
    const auto it = listed.find(path);
    return it == listed.end() ? read(path) : read_inside(path, {it->second});
  };
}

void keep_linted(std::vector<Finding>& findings, const std::vector<std::string>& linted, const OpLibrary* library) {
  std::set<std::string, std::less<>> files;
  for (const auto& f : linted) files.insert(display_path(f));
  const auto is_linted = [&](const Location& l) { return files.count(l.file.view()) != 0; };
  std::erase_if(findings, [&](Finding& f) {
    if (is_linted(f.where)) return false;
    const auto note = std::find_if(f.notes.begin(), f.notes.end(), [&](const Note& n) { return is_linted(n.where); });
    if (note == f.notes.end()) return true;
    const Location context_side = f.where;
    f.where = note->where;
    *note = Note{context_side, library != nullptr && library->contains(context_side)
                                   ? "the other side of this finding, in PyTorch's own registrations (the "
                                     "profile's operator library)"
                                   : "the other side of this finding, in a --context file"};
    return false;
  });
  sort_findings(findings);
}

}  // namespace dt::lint
