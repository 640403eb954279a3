// The C++ reader's throughput (bench/cpp_tree.py): reads every file named
// on the command line into memory, then runs read_cpp (scanner + reader)
// over all of them RUNS times and prints, as one JSON object, the bytes, the
// best wall and CPU (user + system) times, and what it found: library blocks, entries, warnings, and the
// files it refused (with their first error).
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "keys/profile.hpp"
#include "readers/cpp_reader.hpp"
#include "registry/loader.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: dispatchtool_cpp_scan RUNS FILE...\n");
    return 2;
  }
  const int runs = std::stoi(argv[1]);
  std::vector<std::pair<std::string, std::string>> files;
  std::size_t bytes = 0;
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    files.emplace_back(argv[i], s.str());
    bytes += files.back().second.size();
  }
  const dt::ReadFile none = [](const std::string& path) -> dt::Expected<std::string, dt::Diagnostic> {
    return dt::unexpected(dt::make_error(dt::Location{path, 0, 0}, "no files"));
  };
  auto profile = dt::load_profile("torch-2.14", none);
  if (!profile) return 1;
  double best = 1e30, best_cpu = 1e30;
  auto cpu_now = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  std::size_t blocks = 0, entries = 0, warnings = 0, errors = 0, with_blocks = 0;
  std::string first_error;
  for (int r = 0; r < runs; ++r) {
    blocks = entries = warnings = errors = with_blocks = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_now();
    for (const auto& [name, text] : files) {
      auto b = dt::read_cpp(*profile, dt::FileName(name), text);
      if (!b) {
        ++errors;
        if (first_error.empty()) first_error = dt::format(b.error());
        continue;
      }
      blocks += b->blocks.size();
      with_blocks += b->blocks.empty() ? 0 : 1;
      for (const auto& blk : b->blocks) entries += blk.entries.size();
      warnings += b->warnings.size();
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, secs);
    best_cpu = std::min(best_cpu, cpu_now() - c0);
  }
  std::string err;
  for (const char c : first_error)
    if (c == '"' || c == '\\') err += '\\', err += c;
    else if (c == '\n') err += "\\n";
    else if (static_cast<unsigned char>(c) >= 0x20) err += c;
  std::printf(
      "{\"files\": %zu, \"bytes\": %zu, \"seconds\": %.6f, \"cpu_seconds\": %.6f, \"files_with_blocks\": %zu, \"blocks\": %zu, "
      "\"entries\": %zu, \"warnings\": %zu, \"errors\": %zu, \"first_error\": \"%s\"}\n",
      files.size(), bytes, best, best_cpu, with_blocks, blocks, entries, warnings, errors, err.c_str());
  return 0;
}
