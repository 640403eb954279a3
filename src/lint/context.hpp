// dispatchtool lint --context: lint files against other registrations (for
// an out-of-tree backend, PyTorch's own, exported by tools/export_corpus.py)
// whose own findings are not reported.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/io.hpp"
#include "lint/lint.hpp"
#include "registry/library.hpp"

namespace dt::lint {

// The files the --context paths name: a file itself, a directory every
// *.toml in it (sorted by name).
struct ContextFiles {
  std::vector<std::string> paths;             // in the order given
  std::map<std::string, std::string> listed;  // a directory's entry -> that directory
};
// Errors have no location: "cannot list 'DIR': REASON", "no .toml files in 'DIR'".
Expected<ContextFiles, Diagnostic> context_files(const FileSystem& fs, const std::vector<std::string>& paths);

// How lint reads the context files and the linted ones: a directory's entry
// is the directory's (a committed symbolic link among them must not lead
// out of it or block): fs.read_inside(entry, {directory}); every other path
// is the command line's: fs.read.
ReadFile context_reader(const FileSystem& fs, const ContextFiles& context);

// Keeps the findings that involve a linted file (`linted`: paths as given on
// the command line, "-" for standard input), anchored there: a finding in a
// context file or in PyTorch's own registrations (`library`, may be null)
// with a note in a linted file moves to that note, and the other side becomes
// the note "the other side of this finding, in a --context file" (or "in
// PyTorch's own registrations (the profile's operator library)"). Findings
// that lie entirely in context files or the library are dropped. Sorts the
// findings again.
void keep_linted(std::vector<Finding>& findings, const std::vector<std::string>& linted,
                 const OpLibrary* library = nullptr);

}  // namespace dt::lint
