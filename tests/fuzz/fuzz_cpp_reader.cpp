// libFuzzer harness: the C++ reader (readers/cpp_scanner + cpp_reader) and
// the loader behind it. Properties: an error or a warning is located inside
// the text (line and column of an existing character, or just past the
// last); the loader compiles what was read, or says why at a place of the
// C++ source (bytes that are not UTF-8 in a string literal); what loads
// also loads as `dispatchtool import` prints it (TOML); reading is
// deterministic.
#include <vector>

#include "base/limits.hpp"
#include "base/toml_reader.hpp"
#include "fuzz_common.hpp"
#include "readers/cpp_reader.hpp"
#include "readers/readers.hpp"
#include "registry/loader.hpp"

using namespace dt;

namespace {

// Where each line starts (computed once per input: a scan per location made
// the harness quadratic in the input's size).
std::vector<std::size_t> line_starts(std::string_view text) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts.push_back(i + 1);
  return starts;
}

// Line and column of an existing character, or just past the line's last.
bool located_in(const Location& at, std::string_view text, const std::vector<std::size_t>& starts) {
  if (at.line == 0 || at.line > starts.size() || at.column == 0) return false;
  const std::size_t start = starts[at.line - 1];
  const std::size_t end = at.line < starts.size() ? starts[at.line] - 1 : text.size();
  return start + at.column - 1 <= end;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > fuzz::kMaxInput) return -1;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::size_t> starts = line_starts(text);
  auto inside = [&](const Location& at) { return located_in(at, text, starts); };
  const Profile& p = fuzz::builtin_profile(size);
  auto read = read_cpp(p, "f.cpp", text);
  if (!read) {
    if (!inside(read.error().where)) fuzz::fail();
    return 0;
  }
  for (const auto& w : read->warnings)
    if (!inside(w.where)) fuzz::fail();
  for (const auto& b : read->blocks)
    for (const auto& e : b.entries)
      for (const auto& f : e.fields)
        if (!inside(f.at)) fuzz::fail();
  // Reading is deterministic: the same blocks and warnings again.
  auto again = read_cpp(p, "f.cpp", text);
  if (!again || again->blocks.size() != read->blocks.size() || again->warnings.size() != read->warnings.size())
    fuzz::fail();
  // Through the loader: a refusal or an input error is fine, a crash is not;
  // an error is located in the C++ source.
  auto files = std::make_shared<std::map<std::string, std::string>>();
  (*files)["f.cpp"] = text;
  LoadOptions o;
  o.on_refusal = OnRefusal::Record;
  o.threads = 1;
  auto loaded = load(p, {"f.cpp"}, fuzz::memory_reader(files), o);
  if (!loaded) {
    const Diagnostic& first = loaded.error();
    if (first.where.file != "f.cpp" || !inside(first.where)) fuzz::fail();
    for (std::size_t i = 0; i < first.more.size(); ++i) {
      const Diagnostic& d = first.more[i];
      if (i + 1 == limits::kErrors && !d.where.known() && d.code == kTooManyErrors) continue;
      if (d.where.file != "f.cpp" || !inside(d.where)) fuzz::fail();
    }
  }
  // What loads is TOML as import prints it, and it loads again.
  if (loaded) {
    (*files)["f.toml"] = render_toml(read->blocks, "f.cpp");
    if (!load(p, {"f.toml"}, fuzz::memory_reader(files), o)) fuzz::fail();
  }
  return 0;
}
