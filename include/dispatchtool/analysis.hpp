// dispatchtool public API: what is computed over a Session beyond its
// tables: a simulated call (trace), lint, backend coverage, and the
// difference between two sessions. Each result carries its values and its
// JSON document (docs/json.md); the readable text where the command line
// prints one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <dispatchtool/diagnostic.hpp>
#include <dispatchtool/expected.hpp>
#include <dispatchtool/export.hpp>
#include <dispatchtool/session.hpp>

namespace dispatchtool {

// A call of one operator (the command line's `trace`).
struct TraceRequest {
  std::string op;
  // One word per tensor argument, in schema order: "cpu", "cuda,requires_grad", "sparse_cpu", "none", ...
  std::vector<std::string> args;
  std::string keyset;  // keys added to the arguments' key set ("" : none)
  bool no_grad = false, inference_mode = false, python_mode = false;
  std::vector<std::string> autocast;          // device words
  std::vector<std::string> include, exclude;  // thread-local included / excluded keys
};

struct TraceResult {
  std::vector<std::string> kernels;  // the kernels run, in order
  bool raises = false;               // the call ends in an error
  std::string error;                 // its text, as PyTorch words it
  std::string text;                  // the readable trace
  std::string json;                  // docs/json.md "trace"
};

struct LintFinding {
  std::string rule;  // "duplicate-registration", ... (docs/lint.md)
  Severity severity = Severity::Warning;
  std::string message;
  Location where;
  std::vector<Note> notes;
  std::string fix;
  std::string op, key;
};

struct LintReport {
  std::vector<LintFinding> findings;  // sorted by file, line, column, rule
  std::string text;                   // as `dispatchtool lint` prints them
  std::string json;                   // docs/json.md "lint"
};

struct CoverageRow {
  std::string op;
  std::string key;     // the backend key, then its autograd key
  std::string status;  // "kernel", "composite-explicit", ..., "missing"
  std::string kernel;  // the entry's kernel; empty when missing
};

struct Coverage {
  std::vector<CoverageRow> rows;  // every operator (PyTorch's own and the inputs'), backend key first
  std::string json;               // `coverage --format json`
};

struct Difference {
  std::size_t compared = 0;         // operators on either side
  std::vector<std::string> added;   // operators only the new side has
  std::vector<std::string> removed; // only the old side
  std::vector<std::string> changed; // on both sides, with other entries or schema
  std::string summary;              // "no differences (3 operators compared)", ...
  std::string text;                 // as `dispatchtool diff` prints it
  std::string json;                 // docs/json.md "diff"
};

// The kernels a call runs. Errors: unknown operator, bad argument words or keys (no location).
DISPATCHTOOL_API Expected<TraceResult, Diagnostic> trace(const Session& s, const TraceRequest& request);
// Every lint rule over the session's registrations (open it with
// record_refusals to see the registrations PyTorch refuses as findings).
DISPATCHTOOL_API LintReport lint(const Session& s);
// What `backend` ("XLA", "PrivateUse1", ...) and its autograd key resolve to, for every operator.
DISPATCHTOOL_API Expected<Coverage, Diagnostic> coverage(const Session& s, std::string_view backend);
// What changes from `old_side` to `new_side` in the tables of the operators of either.
DISPATCHTOOL_API Difference diff(const Session& old_side, const Session& new_side);

}  // namespace dispatchtool
