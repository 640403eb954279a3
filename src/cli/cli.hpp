// The command-line front end: parses arguments, calls the core, prints, and
// chooses exit codes. Nothing below src/cli is linked into the tests.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "api/engine.hpp"
#include "base/text.hpp"
#include "keys/profile.hpp"
#include "readers/inputs.hpp"
#include "registry/library.hpp"
#include "registry/loader.hpp"
#include "registry/select.hpp"
#include "render/json.hpp"
#include "resolve/resolver.hpp"

namespace dt::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitError = 2;

// Injected I/O (tests and main provide it).
struct Io {
  std::FILE* out = stdout;
  std::FILE* err = stderr;
  FileSystem fs;
  std::span<const EmbeddedLibrary> libraries;  // the built-in profiles' operator libraries
  bool out_is_tty = false;
  bool no_color_env = false;  // NO_COLOR is set
  // The process ends with this one command (main): a session's registry and
  // library are left to the operating system to free, as clang's
  // -disable-free does (about 36,000 frees for a native_functions.yaml). The
  // tests and the playground run many commands in one process and free them.
  bool one_shot = false;
};

// What a writer writes: bytes as rendered (--raw, PyTorch's own strings;
// JSON, SARIF, TOML, HTML: formats whose quoting already makes them inert), or
// text for people and CI logs, which goes through append_inert (base/text.hpp:
// nothing a terminal or a CI runner acts on) -- with the text's own colour
// codes kept when it is coloured.
enum class Output : std::uint8_t { Exact, Text, ColorText };
inline Output text_output(bool color) { return color ? Output::ColorText : Output::Text; }

// Buffered writer: appends to a string, writes it out in large chunks. The
// buffer has room for a chunk plus one operator's output, so it is allocated
// (and its pages touched) once. Text is made inert a whole line at a time:
// what follows the last newline waits for the next flush.
class Writer {
 public:
  explicit Writer(std::FILE* f, Output kind = Output::Exact) : f_(f), kind_(kind) { buf_.reserve(2 * kChunk); }
  ~Writer() { flush(); }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  std::string& buf() { return buf_; }
  void maybe_flush() {
    if (buf_.size() >= kChunk) flush(false);
  }
  // Writes everything (`all`), or, for text, every complete line.
  void flush(bool all = true) {
    if (kind_ == Output::Exact || buf_.empty()) {
      if (!buf_.empty()) std::fwrite(buf_.data(), 1, buf_.size(), f_);
      buf_.clear();
      return;
    }
    const std::size_t end = all ? buf_.size() : buf_.rfind('\n') + 1;  // npos + 1 == 0: no line yet
    std::string text;
    text.reserve(end + end / 8);
    append_inert(std::string_view(buf_).substr(0, end), text, kind_ == Output::ColorText);
    std::fwrite(text.data(), 1, text.size(), f_);
    buf_.erase(0, end);
  }

 private:
  static constexpr std::size_t kChunk = 256 << 10;
  std::FILE* f_;
  Output kind_;
  std::string buf_;
};

// Writes `text` to `f` whole, as `kind` says (Writer).
void write_out(std::FILE* f, std::string_view text, Output kind);

// How the subcommands that read files read them: --max-input-size BYTES (K,
// M, G suffixes: KiB, MiB, GiB; each file read at most BYTES, all of them
// together at most 4 * BYTES) and --inside DIR (repeatable: every path read
// but -, and every path those files name, must lie inside one of them,
// symbolic links followed, and be a regular file: FileSystem::read_inside).
struct ReadOptions {
  std::string max_input_size;
  std::vector<std::string> inside;
};

// Options shared by the subcommands that read registration files.
struct InputOptions {
  std::vector<std::string> files;
  std::string profile = std::string(kDefaultProfile);
  std::vector<std::string> ops;
  std::string keys;
  bool keys_given = false;  // --keys appeared, even with an empty list (a usage error)
  std::string color = "auto";
  std::vector<std::string> register_calls;  // --register K1,K2 (PythonDispatcher demo)
  bool all = false;                         // --all: every operator of the library too
  bool no_library = false;                  // --no-library: only the files' registrations
  OpFilter filter;                          // --tag, --exclude-tag
  ReadOptions read;                         // --max-input-size, --inside
  std::string build;                        // --build cuda|mps|xpu|mtia: that build's library
  std::string build_source;                 // --build-source DIR: the release's sources, for --build
  SourceOptions sources;                    // -D -U -I -p --compile-commands --exclude
};
// -D, -U, -I, -p, --compile-commands and --exclude: how a command finds its
// sources (directories, @lists) and compiles its C++ ones.
void add_source_options(CLI::App& sub, SourceOptions& o);
// Expands `files` (directories, @LIST) in place and sets how C++ files are
// compiled (lo.cpp, lo.cpp_by_path); prints the warnings; false after an error.
bool prepare_sources(const Io& io, const SourceOptions& o, std::vector<std::string>& files, LoadOptions& lo);
void add_profile_option(CLI::App& sub, std::string& profile);
// --all, --no-library: which of PyTorch's own operators (the profile's library) are shown.
void add_library_options(CLI::App& sub, bool& all, bool& no_library);
// The profile's operator library unless `no_library` (nullptr if it has none);
// false after printing an error.
// With `build` ("cuda", ...; --build): the library of that build of the
// release, the CPU library plus what its native_functions.yaml registers on
// the build's keys (readers/release_yaml.hpp).
bool open_library_for(const Io& io, const Profile& profile, bool no_library, std::shared_ptr<const OpLibrary>& library,
                      engine::Build build = {});
// --build BACKEND and --build-source DIR (a command's input options).
void add_build_option(CLI::App& sub, std::string& build, std::string& build_source);
// The files over the profile's library (none with `no_library`), for a
// command that works on the library when no file is given; `verb` says what
// it does with operators ("list", "cover") in the usage error when there is
// nothing to work on. Prints errors and the registry's warnings; nullptr
// after an error.
std::unique_ptr<LoadResult> load_files_or_library(const Io& io, const Profile& profile, std::vector<std::string> files,
                                                  bool no_library, std::string_view verb, engine::Build build,
                                                  const SourceOptions& sources);
// What to say when no input file is given.
std::string no_input_message(bool has_library);
// The help of a command's file arguments: `what` ("registration files"),
// then the kinds of file the readers take (by extension) and what - reads.
std::string files_help(std::string_view what);
void add_read_options(CLI::App& sub, ReadOptions& o);
// Sets the read budget and scope of io.fs from the options (empty: the
// defaults); false after a usage error.
bool apply_read_options(const Io& io, const ReadOptions& o);
void add_input_options(CLI::App& sub, InputOptions& o);

// A check that the value is one of `values`; otherwise CLI11 reports
// "--OPTION: unknown value 'X' (did you mean 'Y'?); expected A, B or C"
// (run() prints it in the tool's error style). Help shows "{A,B,C}".
CLI::Validator one_of(std::vector<std::string> values);

// --format text|json (docs/json.md). Json reports whether json was chosen.
void add_format_option(CLI::App& sub, std::string& format);
inline bool is_json(const std::string& format) { return format == "json"; }
// The envelope of a JSON document written through `w` (flushed after each operator).
JsonDocument json_document(const std::string& profile, Writer& w);

// --style for table/registrations.
enum class Style { Human, Raw, PythonDispatcher };
void add_style_options(CLI::App& sub, std::string& style, bool& raw);
Style style_of(const std::string& style, bool raw);

// Allocator settings for a short-lived process that keeps what it allocates
// (src/cli/heap.cpp); main calls it first.
void tune_heap();

// Prints a diagnostic to stderr.
void report(const Io& io, const Diagnostic& d);
// The readers' warnings (source_warnings), then PyTorch's override warnings.
void report_warnings(const Io& io, const LoadResult& loaded);
// "dispatchtool: error: MESSAGE" for problems that have no file location.
int usage_error(const Io& io, const std::string& message);
// An error of the engine (api/engine.hpp), its parameter worded as the
// option: a usage error, or the located diagnostic. Returns kExitError.
int engine_error(const Io& io, const engine::Error& e);

// Loaded inputs plus what the view needs.
struct Session {
  std::unique_ptr<Profile> profile;
  std::unique_ptr<LoadResult> loaded;
  std::vector<const Operator*> ops;  // selected, sorted by name
  KeyFilter table_filter;            // runtime keys
  KeyFilter registration_filter;     // registered keys
  bool color = false;
  // What the rows of a GPU build's estimate are (render/build_note.hpp), for
  // the selected operators; empty when the library is no such estimate.
  std::string library_note;
  bool free_at_end = true;  // false: Io::one_shot

  Session() = default;
  Session(Session&&) = default;
  Session& operator=(Session&&) = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();
};
// A one-shot process (Io::one_shot) keeps `loaded` until it exits instead of
// freeing it now, as a session does; otherwise `loaded` is left as it is.
void keep_until_exit(const Io& io, LoadResult&& loaded);
// "note: ..." after a readable output (nothing when `note` is empty).
void append_library_note(std::string& out, const std::string& note, bool color);

// Prints every selected operator in `style`: the raw text after a
// '### ns::name.overload' line, PythonDispatcher's view of that raw text
// ('###' lines only for several operators), or the readable view.
using RenderOp = std::function<void(const Operator&, std::string&)>;
// PythonDispatcher's view of an operator's raw dump.
using RenderText = std::function<void(const std::string& raw, std::string&)>;
// --raw and python-dispatcher are PyTorch's bytes, written as they are; the
// human view is text (Output), coloured when `color`.
void print_operators(const Io& io, const std::vector<const Operator*>& ops, Style style, bool color,
                     const RenderOp& raw, const RenderText& python_dispatcher, const RenderOp& human);

// Loads the profile and the files, applies --op/--keys. Prints errors and
// warnings; returns std::nullopt after an error (exit status 2).
std::optional<Session> open_session(const Io& io, const InputOptions& o, OnRefusal on_refusal = OnRefusal::Fail);
// `given_at`: where a configuration file names the profile; errors that have
// no position of their own (unknown name, unreadable file) are reported there.
// `roots`: for a profile file a configuration names, the directories it must
// lie in (FileSystem::read_inside); none: the command line's (FileSystem::read).
// `option`: the option that gave `spec` (--profile, --against), named by an
// error of the value itself (an unknown profile name).
std::optional<std::unique_ptr<Profile>> open_profile(const Io& io, const std::string& spec,
                                                     const std::optional<Location>& given_at = std::nullopt,
                                                     const Roots& roots = {}, std::string_view option = "--profile");
bool use_color(const Io& io, const std::string& mode);

// Subcommands: each registers itself and returns the action to run after parsing.
struct Command {
  CLI::App* sub;
  std::function<int()> run;
};
Command add_table_command(CLI::App& app, const Io& io);
Command add_registrations_command(CLI::App& app, const Io& io);
Command add_explain_command(CLI::App& app, const Io& io);
Command add_keys_command(CLI::App& app, const Io& io);
Command add_lint_command(CLI::App& app, const Io& io);
Command add_coverage_command(CLI::App& app, const Io& io);
Command add_ops_command(CLI::App& app, const Io& io);
Command add_html_command(CLI::App& app, const Io& io);
// --tag / --exclude-tag (ops, table, coverage).
void add_op_filter_options(CLI::App& sub, OpFilter& f);
Command add_trace_command(CLI::App& app, const Io& io);
Command add_diff_command(CLI::App& app, const Io& io);
Command add_import_command(CLI::App& app, const Io& io);
// `diff OLD... -- NEW...`: the arguments after "--" become --new=ARG (CLI11
// would merge them with the positional old files); other commands unchanged.
// After "--" a word is an option only if it names one of `options` (diff's
// long options, "--format" or "--format=json"): a file named "-x.toml" or
// "--write-baseline=b.toml" is a new file, never an option.
std::vector<std::string> rewrite_diff_separator(int argc, const char* const* argv,
                                                const std::vector<std::string>& options);

int run(int argc, const char* const* argv, const Io& io);

}  // namespace dt::cli
