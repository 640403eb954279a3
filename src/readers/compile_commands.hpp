// A build's compile_commands.json (the JSON compilation database that CMake,
// Bear, Ninja and PyTorch's cpp_extension builds write): each source's
// preprocessor flags, so that the C++ reader sees a file as its compiler
// does. Read: -D, -U, -I, -iquote, -isystem, -idirafter, -include (also as
// one argument, -DNAME=V, and nvcc's --define-macro, --include-path,
// --pre-include, and host flags passed with -Xcompiler); relative paths are
// taken from the entry's "directory". Everything else is ignored.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "readers/cpp_options.hpp"

namespace dt {

class CompileCommands {
 public:
  // The flags of a source, by its absolute path as the database names it
  // (directory + file, normalised: no "." or ".." parts); nullptr if the
  // database has none. A file compiled several times takes its first entry.
  [[nodiscard]] const CppOptions* find(const std::string& absolute_path) const;
  [[nodiscard]] std::size_t size() const { return by_file_.size(); }

  std::unordered_map<std::string, CppOptions> by_file_;
};

// Errors (located in the file): not JSON, not an array of objects with
// "directory", "file" and "arguments" or "command" strings.
Expected<CompileCommands, Diagnostic> parse_compile_commands(std::string_view text, FileName file);

// A command line split as POSIX sh splits words ('...', "...", backslashes).
std::vector<std::string> shell_words(std::string_view command);

// `path` absolute (against `dir` when relative) with "." and ".." parts
// resolved lexically, as the database's paths are compared.
std::string normal_path(std::string_view dir, std::string_view path);

// The preprocessor flags of a compiler's arguments (the first is the
// compiler itself), relative paths taken from `dir`.
CppOptions flags_of(const std::vector<std::string>& args, const std::string& dir);

}  // namespace dt
