// What a command's FILE arguments name: a file; a directory, read as a tree
// (every file below it that a reader takes by its name: C++ sources and
// headers, .py, *native_functions.yaml; hidden entries and --exclude
// patterns left out); or @LIST, a file naming one input a line (blank lines
// and lines starting with # skipped; names relative to the current
// directory, as a compiler's response file). The files of a directory come
// sorted by path, so that a run never depends on the order the file system
// lists them in.
//
// A tree is read as a repository's: only regular files, and only those
// whose real path (links followed) stays inside the directory given; a link
// out of it, a FIFO or a device is skipped and said so.
#pragma once

#include <string>
#include <vector>

#include <memory>
#include <unordered_map>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/io.hpp"
#include "readers/cpp_options.hpp"

namespace dt {

struct ExpandedInputs {
  std::vector<std::string> paths;
  std::vector<Diagnostic> warnings;  // entries of a tree left out (links out of it, special files)
};

// Whether a file found in a tree is one the readers take, by its name.
bool is_registration_source(std::string_view path);

// `exclude`: shell patterns (base/text.hpp glob_match), each matched against
// an entry's path relative to the directory given and against its name; a
// matching directory is not entered. Errors: a @LIST that cannot be read, a
// directory that cannot be listed.
Expected<ExpandedInputs, Diagnostic> expand_inputs(const FileSystem& fs, const std::vector<std::string>& args,
                                                   const std::vector<std::string>& exclude);

// How a command finds its sources and compiles its C++ ones (its options).
struct SourceOptions {
  std::vector<std::string> defines;       // -D NAME[=VALUE]
  std::vector<std::string> undefines;     // -U NAME
  std::vector<std::string> include_dirs;  // -I DIR
  std::string build_dir;                  // -p DIR: DIR/compile_commands.json
  std::string compile_commands;           // --compile-commands FILE
  std::vector<std::string> exclude;       // --exclude PATTERN
};

// The inputs, expanded, and how each C++ one is compiled: its entry in the
// compilation database, if one is given and has it, else no flags; the
// command line's -D, -U and -I after either. Includes are read through `fs`.
struct Sources {
  std::vector<std::string> paths;
  std::vector<Diagnostic> warnings;
  CppOptions cpp;  // a C++ file the database does not name
  std::shared_ptr<std::unordered_map<std::string, CppOptions>> by_path;  // by the path as given
};

// Errors: those of expand_inputs; a compilation database that cannot be read
// or is not one; -D/-U/-I values that are not a name (a directory).
Expected<Sources, Diagnostic> prepare_sources(const FileSystem& fs, const std::vector<std::string>& args,
                                              const SourceOptions& options);

}  // namespace dt
