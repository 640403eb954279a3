// libFuzzer harness: the Python reader (lexer, parser, infer_schema,
// torch.library forms). Properties: a located error or blocks, never a
// crash; every location points into the input (line within its line count);
// reading is deterministic; what loads prints as TOML that loads (import's
// promise).
#include "fuzz_common.hpp"
#include "readers/python_reader.hpp"
#include "readers/readers.hpp"

using namespace dt;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > fuzz::kMaxInput) return -1;
  // First byte: which built-in profile (releases differ in debug strings and infer_schema).
  const Profile& profile = fuzz::builtin_profile(data[0]);
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::uint32_t lines = 1;
  for (char c : text) lines += c == '\n' ? 1U : 0U;
  auto check = [&](const Location& at) {
    if (at.file != "fuzz.py" || at.line == 0 || at.line > lines + 1) fuzz::fail();
  };
  auto t = read_python(profile, "fuzz.py", text);
  if (!t) {
    check(t.error().where);
    return 0;
  }
  for (const auto& w : t->warnings) check(w.where);
  auto b = read_python(profile, "fuzz.py", text);
  if (!b || b->blocks.size() != t->blocks.size() || b->warnings.size() != t->warnings.size())
    fuzz::fail();  // deterministic
  for (const auto& blk : b->blocks) {
    for (const auto& f : blk.header) check(f.at);
    for (const auto& e : blk.entries)
      for (const auto& f : e.fields) check(f.at);
  }
  fuzz::check_import_loads(profile, *b, "fuzz.py");
  return 0;
}
