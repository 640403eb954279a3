// The playground's entry points (docs/playground.md): the command-line front
// end itself, compiled to WebAssembly by tools/build-playground, run on one
// in-memory file. The page (src/web/playground.html) calls dt_run with the
// arguments of a `dispatchtool` command and the text of its textarea; what
// it shows is what `dispatchtool` prints for the same arguments and file,
// byte for byte -- the same parser, loader, resolver and renderers, and the
// same error texts (`playground.toml:LINE:COL: error: ...`).
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "base/text.hpp"
#include "cli/cli.hpp"
#include "resolve/call.hpp"

namespace {

// The one file the page's commands read, the textarea's text, named as its
// language is (playground.toml, playground.py, playground.cpp): the tool
// reads a file by its name, so the page names it as the user would.
bool page_file(std::string_view name) {
  return name == "playground.toml" || name == "playground.py" || name == "playground.cpp";
}

dt::FileSystem memory_filesystem(const std::string& kFileName, const std::string& text) {
  dt::FileSystem fs;
  auto missing = [](const std::string& path) {
    return dt::make_error(dt::Location{dt::display_path(path), 0, 0}, "No such file or directory");
  };
  fs.read = [kFileName, text, missing](const std::string& path) -> dt::Expected<std::string, dt::Diagnostic> {
    if (path == kFileName) return text;
    return dt::unexpected(missing(path));
  };
  fs.write = [](const std::string& path, std::string_view) -> dt::Expected<dt::Ok, dt::Diagnostic> {
    return dt::unexpected(dt::make_error(dt::Location{dt::display_path(path), 0, 0}, "Read-only file system"));
  };
  fs.kind = [kFileName](const std::string& path) {
    return path == kFileName ? dt::FileKind::Regular : dt::FileKind::Missing;
  };
  fs.list = [missing](const std::string& path) -> dt::Expected<std::vector<std::string>, dt::Diagnostic> {
    return dt::unexpected(missing(path));
  };
  fs.real_path = [](const std::string& path) -> dt::Expected<std::string, dt::Diagnostic> {
    return path.starts_with("/") ? path : "/" + path;
  };
  fs.read_inside = dt::read_inside_over(fs.real_path, fs.kind, fs.read);
  fs.budget = std::make_shared<dt::ReadBudget>();
  fs.scope = std::make_shared<dt::ReadScope>();
  return fs;
}

// What a memory stream holds; closes it.
std::string drain(std::FILE* f, char*& buf, std::size_t& size) {
  std::fflush(f);
  std::fclose(f);
  std::string text = buf != nullptr ? std::string(buf, size) : std::string();
  std::free(buf);
  return text;
}

std::string g_result;  // dt_run's answer, valid until the next call

}  // namespace

extern "C" {

// Runs `dispatchtool ARGS...` (`args`: one argument per line) with `text` as
// the file `name` (playground.toml, .py or .cpp). Returns {"status": N,
// "out": "...", "err": "..."}: the exit status and what the command wrote to
// standard output and error.
const char* dt_run(const char* args, const char* name, const char* text) {
  std::vector<std::string> argv_text{"dispatchtool"};
  for (std::string_view a : dt::split(args, "\n")) argv_text.emplace_back(a);
  std::vector<const char*> argv;
  for (const auto& a : argv_text) argv.push_back(a.c_str());

  char* out_buf = nullptr;
  char* err_buf = nullptr;
  std::size_t out_size = 0, err_size = 0;
  dt::cli::Io io;
  io.out = open_memstream(&out_buf, &out_size);
  io.err = open_memstream(&err_buf, &err_size);
  io.fs = memory_filesystem(page_file(name) ? name : "playground.toml", text);
  io.libraries = dt::embedded_libraries();
  int status = dt::cli::kExitError;
  try {
    status = dt::cli::run(static_cast<int>(argv.size()), argv.data(), io);
  } catch (const std::bad_alloc&) {
    std::fputs("dispatchtool: error: out of memory\n", io.err);
  }
  const std::string out = drain(io.out, out_buf, out_size);
  const std::string err = drain(io.err, err_buf, err_size);
  g_result = "{\"status\": " + std::to_string(status) + ", \"out\": " + dt::json_quote(out) +
             ", \"err\": " + dt::json_quote(err) + "}";
  return g_result.c_str();
}

// The keys PythonDispatcher offers in a built-in profile (its supported_keys),
// as a JSON list; [] for an unknown profile.
const char* dt_python_dispatcher_keys(const char* profile) {
  g_result = "[";
  if (auto p = dt::load_profile(profile, dt::ReadFile{})) {
    const auto keys = p->python_dispatcher_keys();
    for (std::size_t i = 0; i < keys.size(); ++i) g_result += (i ? ", " : "") + dt::json_quote(keys[i]);
  }
  g_result += "]";
  return g_result.c_str();
}

// The words `trace --arg` takes in a built-in profile, as JSON: {"devices":
// [...], "layouts": [...], "modifiers": [...]} (a tensor is
// [LAYOUT_]DEVICE[,MODIFIER...]); empty lists for an unknown profile.
const char* dt_tensor_words(const char* profile) {
  const auto list = [](const auto& words) {
    std::string out = "[";
    for (std::size_t i = 0; i < words.size(); ++i) out += (i ? ", " : "") + dt::json_quote(std::string(words[i]));
    return out + "]";
  };
  // Only the words this release takes (2.x has no Named key: no `named`), each
  // tried as trace tries it: a device alone, a layout on cpu, a modifier on cpu.
  std::vector<std::string> devices, layouts, modifiers;
  if (auto p = dt::load_profile(profile, dt::ReadFile{})) {
    const dt::KeysetAlgebra ks(*p);
    const auto takes = [&](const std::string& w) {
      auto t = dt::parse_tensor_words(*p, {}, w);
      return t && dt::tensor_keyset(ks, *t).has_value();
    };
    for (const std::string& d : dt::device_words(*p, {}))
      if (takes(d)) devices.push_back(d);
    for (std::string_view l : dt::kLayoutWords)
      if (takes(std::string(l) + "_cpu")) layouts.emplace_back(l);
    for (std::string_view m : dt::kModifierWords)
      if (takes("cpu," + std::string(m))) modifiers.emplace_back(m);
  }
  g_result = "{\"devices\": " + list(devices) + ", \"layouts\": " + list(layouts) + ", \"modifiers\": " +
             list(modifiers) + "}";
  return g_result.c_str();
}

}  // extern "C"
