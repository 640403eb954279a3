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

namespace dt::lint {

// The files the --context paths name: a file itself, a directory every
// *.toml in it (sorted by name). Errors have no location: "cannot list 'DIR':
// REASON", "no .toml files in 'DIR'".
Expected<std::vector<std::string>, Diagnostic> context_files(const FileSystem& fs,
                                                             const std::vector<std::string>& paths);

// Keeps the findings that involve a linted file (`linted`: paths as given on
// the command line, "-" for standard input), anchored there: a finding in a
// context file with a note in a linted file moves to that note, and the
// context side becomes the note "the other side of this finding, in a
// --context file". Sorts the findings again.
void keep_linted(std::vector<Finding>& findings, const std::vector<std::string>& linted);

}  // namespace dt::lint
