// expand_inputs (inputs.hpp).
#include "readers/inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "base/text.hpp"
#include "readers/compile_commands.hpp"
#include "readers/readers.hpp"

namespace dt {

bool is_registration_source(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (name.ends_with("native_functions.yaml") || name.ends_with("native_functions.yml")) return true;
  const SourceKind k = detect_source(path, {});
  return k == SourceKind::Cpp || k == SourceKind::Python;
}

namespace {

std::string_view base_name(std::string_view p) {
  const std::size_t slash = p.rfind('/');
  return slash == std::string_view::npos ? p : p.substr(slash + 1);
}

bool excluded(const std::vector<std::string>& exclude, std::string_view relative) {
  for (const std::string& pattern : exclude)
    if (glob_match(pattern, relative) || glob_match(pattern, base_name(relative))) return true;
  return false;
}

bool inside(std::string_view root, std::string_view path) {
  return path == root || (path.starts_with(root) && (root.ends_with('/') || path[root.size()] == '/'));
}

class Walker {
 public:
  Walker(const FileSystem& fs, const std::vector<std::string>& exclude, ExpandedInputs& out)
      : fs_(fs), exclude_(exclude), out_(out) {}

  Expected<bool, Diagnostic> tree(const std::string& dir) {
    std::string root = dir;
    if (fs_.real_path) {
      auto real = fs_.real_path(dir);
      if (real) root = *real;
    }
    std::vector<std::string> found;
    if (auto r = walk(dir, root, "", found, 0); !r) return r;
    if (found.empty())
      return unexpected(make_error(
          Location{display_path(dir), 0, 0},
          fmt::format("a directory with no file the readers take by its name (C++: {}; Python: .py; "
                      "*native_functions.yaml); a TOML file is read when named, not found in a tree",
                      cpp_extension_list())));
    std::sort(found.begin(), found.end());
    for (auto& f : found) out_.paths.push_back(std::move(f));
    return true;
  }

 private:
  void skip(const std::string& path, std::string_view why) {
    Diagnostic d = make_error(Location{display_path(path), 0, 0}, fmt::format("not read: {}", why));
    d.severity = Severity::Warning;
    out_.warnings.push_back(std::move(d));
  }

  Expected<bool, Diagnostic> walk(const std::string& dir, const std::string& root, const std::string& rel,
                                  std::vector<std::string>& found, int depth) {
    if (depth > 256) return true;
    if (fs_.real_path) {
      auto real = fs_.real_path(dir);
      if (real && !seen_.insert(*real).second) return true;  // a directory reached twice (a link loop)
    }
    auto entries = fs_.list(dir);
    if (!entries) return unexpected(read_error(std::move(entries.error()), display_path(dir), "cannot list directory"));
    for (const std::string& path : *entries) {
      const std::string_view name = base_name(path);
      if (name.empty() || name.starts_with('.')) continue;  // .git, .venv, ...
      const std::string here = rel.empty() ? std::string(name) : rel + "/" + std::string(name);
      if (excluded(exclude_, here)) continue;
      const FileKind kind = fs_.kind(path);
      if (kind == FileKind::Directory) {
        if (auto r = walk(path, root, here, found, depth + 1); !r) return r;
        continue;
      }
      if (!is_registration_source(path)) continue;
      if (kind != FileKind::Regular) {
        skip(path, "not a regular file (a FIFO, a device, or a broken or looping link)");
        continue;
      }
      if (fs_.real_path) {
        auto real = fs_.real_path(path);
        if (!real || !inside(root, *real)) {
          skip(path, "a link to a file outside the directory given");
          continue;
        }
      }
      found.push_back(path);
    }
    return true;
  }

  const FileSystem& fs_;
  const std::vector<std::string>& exclude_;
  ExpandedInputs& out_;
  std::unordered_set<std::string> seen_;
};

}  // namespace

Expected<ExpandedInputs, Diagnostic> expand_inputs(const FileSystem& fs, const std::vector<std::string>& args,
                                                   const std::vector<std::string>& exclude) {
  ExpandedInputs out;
  Walker walker(fs, exclude, out);
  for (const std::string& a : args) {
    if (a.size() > 1 && a[0] == '@') {
      const std::string list = a.substr(1);
      auto text = fs.read(list);
      if (!text) return unexpected(read_error(std::move(text.error()), display_path(list), "cannot read the input list"));
      for (std::string_view line : split(*text, "\n")) {
        line = trim(line, " \t\r");
        if (line.empty() || line.starts_with('#')) continue;
        out.paths.emplace_back(line);
      }
      continue;
    }
    if (a != "-" && fs.kind && fs.kind(a) == FileKind::Directory) {
      DT_TRY_VOID(walker.tree(a));
      continue;
    }
    out.paths.push_back(a);
  }
  return out;
}

namespace {

// -D/-U/-I of the command line, after what `base` (a database entry) says.
CppOptions with_command_line(CppOptions base, const SourceOptions& o, const FileSystem& fs) {
  for (const std::string& d : o.defines) {
    const std::size_t eq = d.find('=');
    if (eq == std::string::npos) base.defines.emplace_back(d, "1");
    else base.defines.emplace_back(d.substr(0, eq), d.substr(eq + 1));
  }
  for (const std::string& u : o.undefines) base.defines.emplace_back(u, std::nullopt);
  for (const std::string& i : o.include_dirs) base.include_dirs.push_back(i);
  base.fs = &fs;
  return base;
}

bool is_plain_macro_name(std::string_view n) {
  if (n.empty() || (n[0] >= '0' && n[0] <= '9')) return false;
  for (char c : n)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// NAME, or NAME(PARAMS) as a compiler's -D takes a function-like macro
// (-D'AT_CUDNN_ENABLED()=1'): identifiers separated by commas, the last may be `...`.
bool is_macro_name(std::string_view n) {
  const std::size_t open = n.find('(');
  if (open == std::string_view::npos) return is_plain_macro_name(n);
  if (!is_plain_macro_name(n.substr(0, open)) || !n.ends_with(")")) return false;
  std::string_view params = n.substr(open + 1, n.size() - open - 2);
  if (trim(params).empty()) return true;
  while (true) {
    const std::size_t comma = params.find(',');
    const std::string_view p = trim(params.substr(0, comma));
    if (comma == std::string_view::npos) return is_plain_macro_name(p) || p == "...";
    if (!is_plain_macro_name(p)) return false;
    params.remove_prefix(comma + 1);
  }
}

}  // namespace

Expected<Sources, Diagnostic> prepare_sources(const FileSystem& fs, const std::vector<std::string>& args,
                                              const SourceOptions& o) {
  for (const std::string& d : o.defines)
    if (!is_macro_name(d.substr(0, d.find('='))))
      return unexpected(
          make_error(fmt::format("-D {}: not a macro name (NAME, NAME=VALUE or NAME(PARAMS)=VALUE)", printable(d))));
  for (const std::string& u : o.undefines)
    if (!is_plain_macro_name(u)) return unexpected(make_error(fmt::format("-U {}: not a macro name", printable(u))));
  DT_TRY(expanded, expand_inputs(fs, args, o.exclude));
  Sources out;
  out.paths = std::move(expanded.paths);
  out.warnings = std::move(expanded.warnings);
  out.cpp = with_command_line(CppOptions{}, o, fs);
  std::string db_path = o.compile_commands;
  if (db_path.empty() && !o.build_dir.empty()) db_path = o.build_dir + "/compile_commands.json";
  if (db_path.empty()) return out;
  auto text = fs.read(db_path);  // named on the command line
  if (!text) return unexpected(read_error(std::move(text.error()), display_path(db_path), "cannot read the compilation database"));
  DT_TRY(db, parse_compile_commands(*text, display_path(db_path)));
  out.by_path = std::make_shared<std::unordered_map<std::string, CppOptions>>();
  for (const std::string& p : out.paths) {
    if (p == "-" || detect_source(p, {}) != SourceKind::Cpp) continue;
    std::string absolute = p;
    if (fs.real_path) {
      auto real = fs.real_path(p);
      if (real) absolute = *real;
    }
    if (const CppOptions* flags = db.find(normal_path("", absolute)))
      out.by_path->try_emplace(p, with_command_line(*flags, o, fs));
  }
  return out;
}

}  // namespace dt
