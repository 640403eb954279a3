// Not public (no include/dispatchtool/ header): the one engine behind the public dispatchtool::Session
// (include/dispatchtool/session.hpp) and the command line (src/cli): the
// operator library a request asks for (the profile's, a build's, or none),
// the registrations loaded on top of it (files, or PythonDispatcher's demo
// operator), the operators and keys selected, and a simulated call. Both
// front ends call these and only render what they return.
//
// Errors name the parameter they are about (Param) and never an option's
// spelling: each front end words the parameter its own way (the command
// line's "--build", the API's "build"; param_label).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/io.hpp"
#include "registry/library.hpp"
#include "registry/loader.hpp"
#include "registry/select.hpp"
#include "render/trace.hpp"
#include "resolve/call.hpp"
#include "resolve/resolver.hpp"
#include "resolve/runtime_table.hpp"

namespace dt::engine {

// The parameter an error is about (None: the input itself, or a message that
// says what it is about).
enum class Param : std::uint8_t {
  // clang-format off
  None, Build, BuildSource, Register, Keys, Keyset, Arg, Autocast, Include, Exclude,
  Tags, ExcludeTags, Namespaces, Pattern,  // an OpFilter's fields
  // clang-format on
};

struct Error {
  Param param = Param::None;
  // A value the caller gave is wrong (a usage error), not an input file:
  // the command line prints it as "dispatchtool: error: ...".
  bool usage = false;
  Diagnostic diagnostic;  // its message does not name the parameter
};

// "--build" (command line) or "build" (API) for `param`, as the front end calls it.
enum class Front : std::uint8_t { CommandLine, Api };
std::string_view param_label(Param param, Front front);
// The error's diagnostic with its parameter's label in front of the message.
Diagnostic worded(const Error& e, Front front);

// A build of the release: "", "cpu" (the package's), "cuda", "mps", "xpu",
// "mtia"; `source`: the release's own source tree, whose hand-written
// registrations on the build's keys are added (readers/release_sources.hpp).
struct Build {
  std::string_view name;
  std::string_view source;
};

// The operator library the registrations load on top of: none when
// `with_library` is false, else the profile's own (nullptr when it has none),
// and for a build "cuda", "mps", "xpu" or "mtia" that library plus what the
// release's native_functions.yaml registers on the backend's keys (and, with
// a source tree, its hand-written registrations there); "" and "cpu": the
// profile's. Errors name Param::Build or Param::BuildSource.
Expected<std::shared_ptr<const OpLibrary>, Error> open_library(const Profile& profile, bool with_library, Build build,
                                                               const FileSystem& fs,
                                                               std::span<const EmbeddedLibrary> libraries);

// What to load: files (in order), or PythonDispatcher's demo operator with
// `register_calls` (each "K1, K2": one register() call), which takes no files.
struct Request {
  std::vector<std::string> files;
  std::vector<std::string> register_calls;
  LoadOptions load;  // how (refusals, C++ flags) and on which library (open_library's)
  // Who asks: the demo kernels are placed at the parameter's name as that
  // front end spells it (param_label: "--register", "register_calls").
  Front front = Front::Api;
};
Expected<LoadResult, Error> load(const Profile& profile, const Request& request, const ReadFile& read);

// The operators `ops` names (all of them when empty), those `filter` keeps,
// and the keys `keys` selects ("CPU,Autograd"; std::nullopt: every key).
struct Selection {
  std::vector<const Operator*> ops;
  KeyFilter table;          // runtime keys
  KeyFilter registrations;  // registered keys
};
// The filter checked against the registry (registry/select.hpp), its error
// naming the field (Param::Tags...).
Expected<Ok, Error> check_filter(const Registry& reg, const OpFilter& filter);
Expected<Selection, Error> select(Registry& reg, const std::vector<std::string>& ops, const OpFilter& filter,
                                  const std::optional<std::string>& keys);

// A simulated call of one operator: its arguments' words, extra keys, the
// thread-local state.
struct Call {
  std::vector<std::string> args;
  std::string keyset;
  TlsOptions tls;
};

// A call's trace and everything its view points into (not movable: the
// view holds pointers to the members).
class Trace {
 public:
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;
  ~Trace();

  [[nodiscard]] const CallTrace& steps() const { return steps_; }
  // The view the renderers take (render/trace.hpp); `label`: the profile as
  // given; `library_note`: see TraceView.
  [[nodiscard]] TraceView view(std::string label, bool color, std::string library_note) const;

 private:
  explicit Trace(const Registry& reg);
  friend Expected<std::unique_ptr<Trace>, Error> trace(const Registry& reg, const Operator& op, const Call& call);

  KeysetAlgebra ks_;
  Resolver resolver_;
  // Replays the operator's registrations: made once the call's words are
  // known to be valid (a usage error costs no replay).
  std::optional<RuntimeTable> table_;
  BoundCall call_;
  KeySet extra_;
  ThreadLocalState tls_;
  CallTrace steps_;
};

// Errors: the keyset (Param::Keyset), an argument word (Param::Arg), the
// thread-local options; all usage errors.
Expected<std::unique_ptr<Trace>, Error> trace(const Registry& reg, const Operator& op, const Call& call);

}  // namespace dt::engine
