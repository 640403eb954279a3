// Helpers the libFuzzer harnesses share (docs/testing.md, "Fuzzing").
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/io.hpp"
#include "base/text.hpp"
#include "keys/profile.hpp"
#include "readers/toml_writer.hpp"
#include "registry/loader.hpp"

namespace dt::fuzz {

// Inputs larger than this are not interesting for the logic and only slow the
// fuzzer down (the size limits themselves are tested by tests/hostile).
inline constexpr std::size_t kMaxInput = std::size_t{64} << 10;

// A failed property: says which (the harness's file and line, for a CI log
// that only shows the fuzzer's output) and aborts, so that libFuzzer keeps
// the input.
[[noreturn]] inline void fail(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  std::fprintf(stderr, "ERROR: fuzz property failed at %s:%d\n", file, line);
  std::fflush(stderr);
  __builtin_trap();
}

// Splits a fuzz input into up to `max_files` files at "\n#---\n" separators,
// so that one input exercises cross-file rules and file order.
inline std::vector<std::string> split_files(std::string_view data, std::size_t max_files = 4) {
  std::vector<std::string> out;
  constexpr std::string_view kSep = "\n#---\n";
  while (out.size() + 1 < max_files) {
    const auto p = data.find(kSep);
    if (p == std::string_view::npos) break;
    out.emplace_back(data.substr(0, p));
    data.remove_prefix(p + kSep.size());
  }
  out.emplace_back(data);
  return out;
}

// An in-memory ReadFile over `files`; anything else is missing.
inline ReadFile memory_reader(std::shared_ptr<const std::map<std::string, std::string>> files) {
  return [files](const std::string& path) -> Expected<std::string, Diagnostic> {
    auto it = files->find(path);
    if (it == files->end()) return unexpected(make_error(Location{path, 0, 0}, "No such file or directory"));
    return it->second;
  };
}

// import's promise (cmd_import.cpp checks the blocks it read, then prints
// them): blocks that load print as TOML that loads, to as many operators,
// whenever that text is UTF-8 (import refuses the rest).
inline void check_import_loads(const Profile& p, const Blocks& read, const std::string& source) {
  LoadOptions o;
  o.on_refusal = OnRefusal::Record;
  o.threads = 1;
  auto direct = load_blocks(p, read, source, o);
  if (!direct) return;
  auto files = std::make_shared<std::map<std::string, std::string>>();
  std::string& text = (*files)["f.toml"];
  text = render_toml(read.blocks, source);
  if (!is_utf8(text)) return;
  auto again = load(p, {"f.toml"}, memory_reader(files), o);
  if (!again || again->registry.operators().size() != direct->registry.operators().size()) fail();
}

// The built-in profiles, loaded once per process.
inline const Profile& builtin_profile(std::size_t which) {
  static const std::vector<std::unique_ptr<Profile>> profiles = [] {
    std::vector<std::unique_ptr<Profile>> v;
    const ReadFile none = [](const std::string& path) -> Expected<std::string, Diagnostic> {
      return unexpected(make_error(Location{path, 0, 0}, "no files"));
    };
    for (const auto& e : embedded_profiles()) {
      auto p = load_profile(e.name, none);
      if (!p) fail();  // the embedded profiles are valid
      v.push_back(std::make_unique<Profile>(std::move(*p)));
    }
    return v;
  }();
  return *profiles[which % profiles.size()];
}

}  // namespace dt::fuzz
