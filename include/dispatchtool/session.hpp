// dispatchtool public API: a Session is PyTorch's dispatcher state for one
// release: a profile (the release's dispatch keys), its operator library
// (PyTorch's own operators and kernels, built into the library) and your
// registrations loaded on top, as your extension's registrations load on top
// of PyTorch's. Everything else asks a session: tables and their entries, why
// a key gets its kernel, a simulated call, lint, coverage, diff (analysis.hpp).
//
// Values in, values out: inputs are strings and paths, results are plain
// structs (table.hpp, analysis.hpp), errors are Diagnostics in an Expected.
// Nothing prints, nothing exits. A Session is movable, not copyable, and not
// to be used from two threads at once. See docs/api.md.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <dispatchtool/diagnostic.hpp>
#include <dispatchtool/expected.hpp>
#include <dispatchtool/export.hpp>
#include <dispatchtool/table.hpp>

namespace dispatchtool {

// The profile a session uses unless told otherwise: the command line's
// --profile default ("torch-2.14").
DISPATCHTOOL_API std::string_view default_profile();
// The built-in profiles ("torch-1.13", ...), sorted: their keys and operator
// libraries are compiled into the library, so no file is read for them.
DISPATCHTOOL_API std::vector<std::string> builtin_profiles();

// One registration file (docs/input-format): read from `path`, or, when
// `text` is set, that text under the name `path` (what diagnostics show).
struct Input {
  std::string path;
  std::optional<std::string> text;

  static Input file(std::string path) { return Input{std::move(path), std::nullopt}; }
  static Input source(std::string name, std::string text) { return Input{std::move(name), std::move(text)}; }
};

struct SessionOptions {
  // A built-in profile's name, or the path of a profile file ("....toml").
  std::string profile = std::string(default_profile());
  // Loaded in order, on top of the profile's operator library.
  std::vector<Input> inputs;
  // false: without PyTorch's own operators (the command line's --no-library).
  bool library = true;
  // The build whose operator library the inputs load on (the command line's
  // --build): "" or "cpu", the profile's own; "cuda", "mps", "xpu", "mtia":
  // it plus what the release's native_functions.yaml registers on that
  // backend's keys. Needs `library`.
  std::string build;
  // The release's own source tree (a PyTorch checkout of it; the command
  // line's --build-source): the build's hand-written C++ registrations on its
  // keys are read from it and added (docs/library.md). Needs a GPU build.
  std::string build_source;
  // PythonDispatcher's demo operator instead of inputs (the command line's
  // --register; torch._python_dispatcher): one register() call each, its
  // keys comma-separated ("CPU, AutogradCPU"). Takes no inputs and no library.
  std::vector<std::string> register_calls;
  // What happens to a registration PyTorch refuses (defining an operator
  // twice, two fallbacks for a key, ...): false: open() fails with it, as
  // PyTorch raises; true: it is skipped and kept in refusals(), which is what
  // lint() reports.
  bool record_refusals = false;
};

class DISPATCHTOOL_API Session {
 public:
  // Loads the profile, its library and the inputs. Errors: an unknown
  // profile, an unreadable or malformed file (FILE:LINE:COL), a registration
  // PyTorch refuses (unless record_refusals), a build or register_calls that
  // cannot be had (their messages start "build: ", "register_calls: ").
  static Expected<Session, Diagnostic> open(SessionOptions options);

  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

  // The profile as given in the options, and the PyTorch version it describes ("2.14.1").
  [[nodiscard]] const std::string& profile() const;
  [[nodiscard]] std::string torch_version() const;
  // Every runtime dispatch key of the release, in table order (Undefined first).
  [[nodiscard]] std::vector<std::string> runtime_keys() const;

  // The operators the inputs define or register kernels for, by qualified
  // name ("ns::name.overload") in byte order.
  [[nodiscard]] std::vector<std::string> operators() const;
  // Those and every operator of the profile's library.
  [[nodiscard]] std::vector<std::string> all_operators() const;
  // The override warnings PyTorch prints while loading (severity Warning).
  [[nodiscard]] std::vector<Diagnostic> warnings() const;
  // The registrations PyTorch refused (only with record_refusals).
  [[nodiscard]] std::vector<Diagnostic> refusals() const;

  // The computed dispatch table of one operator (`op`: "ns::name.overload",
  // or unqualified when one namespace has it), every runtime key in table
  // order, or only `keys` ("CPU,Autograd": alias keys expand). Errors: an
  // unknown or ambiguous operator, an unknown key (no location).
  [[nodiscard]] Expected<Table, Diagnostic> table(std::string_view op, std::string_view keys = {}) const;
  // One entry with the steps that decided it (the command line's `explain`);
  // `key` is a runtime key.
  [[nodiscard]] Expected<Entry, Diagnostic> explain(std::string_view op, std::string_view key) const;
  // The tables of several operators as one JSON document (`table --format
  // json`, docs/json.md); no operators: those of operators().
  [[nodiscard]] Expected<std::string, Diagnostic> table_json(const std::vector<std::string>& ops = {}) const;

 private:
  struct Impl;
  explicit Session(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend struct SessionAccess;  // the analyses (src/api)
};

}  // namespace dispatchtool
