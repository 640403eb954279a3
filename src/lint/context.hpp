// dispatchtool lint --context: lint files against other registrations (for
// an out-of-tree backend, PyTorch's own, exported by tools/export_corpus.py)
// whose own findings are not reported.
#pragma once

#include <string>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/io.hpp"
#include "lint/lint.hpp"
#include "registry/library.hpp"

namespace dt::lint {

// The files the --context paths name: a file itself, a directory every
// *.toml in it (sorted by name). Errors have no location: "cannot list 'DIR':
// REASON", "no .toml files in 'DIR'".
Expected<std::vector<std::string>, Diagnostic> context_files(const FileSystem& fs,
                                                             const std::vector<std::string>& paths);

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
