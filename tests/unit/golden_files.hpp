// The input files the golden cases write (tests/cli/cases and
// tests/realworld/cases: their "--- file: NAME" sections), for unit tests
// that hold a reader to every input the goldens use. run_golden.py is the
// format's reader for the goldens themselves.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace dt::test {

struct GoldenFile {
  std::string name;  // "tests/cli/cases/X.test: NAME"
  std::string text;
};

// The sections whose file name ends with `extension` (".yaml", ".toml").
inline std::vector<GoldenFile> golden_files(std::string_view extension) {
  std::vector<GoldenFile> out;
  for (const char* dir : {"/tests/cli/cases", "/tests/realworld/cases"})
    for (const auto& e : std::filesystem::directory_iterator(std::string(DT_SOURCE_DIR) + dir)) {
      std::ifstream in(e.path());
      std::string line;
      GoldenFile* cur = nullptr;
      while (std::getline(in, line)) {
        if (line.starts_with("--- ")) {
          cur = nullptr;
          if (line.starts_with("--- file: ") && line.ends_with(extension))
            cur = &out.emplace_back(
                GoldenFile{std::string(dir + 1) + "/" + e.path().filename().string() + ": " + line.substr(10), {}});
          continue;
        }
        if (cur != nullptr) cur->text += line + "\n";
      }
    }
  return out;
}

}  // namespace dt::test
