// dispatchtool public API: where an error is (Location: FILE:LINE:COL) and
// what it says (Diagnostic), the error type of every Expected the API
// returns. format() writes a diagnostic as the command-line tool prints it.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <dispatchtool/export.hpp>

namespace dispatchtool {

// A file name, interned: every located TOML value carries one, so copying it
// must not allocate. Interned names live until the process ends (there are
// as many as files named on a command line).
class DISPATCHTOOL_API FileName {
 public:
  FileName() = default;
  FileName(std::string_view name);                                         // NOLINT: interns
  FileName(const std::string& name) : FileName(std::string_view(name)) {}  // NOLINT
  FileName(const char* name) : FileName(std::string_view(name)) {}         // NOLINT

  [[nodiscard]] std::string_view view() const { return name_; }
  operator std::string_view() const { return name_; }  // NOLINT(google-explicit-constructor)
  [[nodiscard]] std::string str() const { return std::string(name_); }
  [[nodiscard]] bool empty() const { return name_.empty(); }

  friend bool operator==(const FileName& a, const FileName& b) { return a.name_ == b.name_; }
  friend bool operator==(const FileName& a, std::string_view b) { return a.name_ == b; }
  friend bool operator==(const FileName& a, const char* b) { return a.name_ == b; }
  // Through compare(): the libc++ of emscripten 3.1.6 (the playground's) has no <=> for string_view.
  friend std::strong_ordering operator<=>(const FileName& a, const FileName& b) {
    return a.name_.compare(b.name_) <=> 0;
  }

 private:
  std::string_view name_;
};

struct Location {
  FileName file;           // as given on the command line ("<stdin>" for -)
  std::uint32_t line = 0;  // 1-based; 0 = unknown
  std::uint32_t column = 0;

  [[nodiscard]] bool known() const { return line != 0; }
  friend bool operator==(const Location&, const Location&) = default;
  friend std::strong_ordering operator<=>(const Location&, const Location&) = default;
};

// Where byte `offset` of a file's `text` is: its line and its column in code
// points, as the TOML parser counts them (a UTF-8 byte order mark at the
// start is not counted). An offset past the end is the end.
DISPATCHTOOL_API Location location_at(std::string_view text, std::size_t offset, FileName file);

// "FILE:LINE:COL" (or "FILE" when the position is unknown); control
// characters in the file name (a newline, ESC) escaped as \xNN.
DISPATCHTOOL_API std::string to_string(const Location& loc);

enum class Severity : std::uint8_t { Info, Warning, Error };
DISPATCHTOOL_API const char* to_string(Severity s);

struct Note {
  Location where;
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  Location where;
  std::string message;
  std::vector<Note> notes;  // the other locations involved
  // What kind of problem: "" for input errors; for registrations PyTorch
  // refuses or warns about, the lint rule id ("duplicate-def",
  // "duplicate-fallback", "library-kind", "schema-mismatch",
  // "duplicate-registration").
  std::string code;
  // For registration diagnostics, what they concern (lint baselines key on
  // these): the operator (or the namespace, for library-level problems) and
  // the dispatch key, each empty when not applicable.
  std::string op, key;
  // The message's line breaks are its own (PyTorch's multi-line texts, whose
  // continuation lines are indented, with every input value in them escaped
  // by their maker). Otherwise format() escapes every line break in it, so
  // that a value from the input cannot start a line of its own.
  bool multi_line = false;
  // The run's further errors, in input order, when it had several (the
  // loader reports every input error of every file, as a compiler does, up
  // to a limit): format() prints them after this one. Empty in each of them.
  std::vector<Diagnostic> more;
};

// The code of the error that ends a run's errors when it had too many.
inline constexpr std::string_view kTooManyErrors = "too-many-errors";

// Adds `d` (and what it carries in `more`) to the errors of a run: the
// first becomes `all`, the others go to all->more. At most `limit` are kept:
// when the run reaches it, they are followed by "too many errors (LIMIT): the
// rest of the input is not read" (code kTooManyErrors) and add_error returns
// false: the caller stops reading. A `d` that ends so (a file that had too
// many) fills the run.
bool add_error(std::optional<Diagnostic>& all, Diagnostic d,
               std::size_t limit = std::numeric_limits<std::size_t>::max());

// The core's one error shape is Expected<T, Diagnostic>. An error no file
// position belongs to (a command-line value, an argument) has an unknown
// location: an empty file name. The front end prints those as
// "dispatchtool: error: MESSAGE" (located ones as format() does).
inline Diagnostic make_error(Location where, std::string message, std::vector<Note> notes = {}) {
  Diagnostic d;
  d.where = std::move(where);
  d.message = std::move(message);
  d.notes = std::move(notes);
  return d;
}
inline Diagnostic make_error(std::string message) { return make_error(Location{}, std::move(message)); }

// "FILE:LINE:COL: error: MESSAGE" plus "FILE:LINE:COL: note: ..." lines,
// then each of d.more the same way;
// "dispatchtool: error: MESSAGE" for an unknown location. Control
// characters are escaped (\xNN), line breaks too unless d.multi_line.
DISPATCHTOOL_API std::string format(const Diagnostic& d);

}  // namespace dispatchtool
