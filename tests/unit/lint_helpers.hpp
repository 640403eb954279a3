// Helpers of the lint tests: lint in-memory files, pick findings, read their locations.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "helpers.hpp"
#include "lint/lint.hpp"
#include "registry/library.hpp"

namespace dt::test {

using lint::Finding;

inline std::vector<Finding> lint_files(const Files& files, const std::string& prof = "torch-main") {
  auto r = load_files(prof, files, OnRefusal::Record);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : format(r.error())));
  return lint::run(*r);
}

// Linted on top of the profile's own operators (its operator library), as the CLI does.
inline std::vector<Finding> lint_with_library(const Files& files, std::string_view rule, const std::string& prof) {
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.first);
  auto lib = open_library(profile(prof), real_filesystem(), embedded_libraries());
  REQUIRE_MESSAGE(lib.has_value(), (lib ? "" : format(lib.error())));
  LoadOptions o;
  o.library = *lib;
  o.on_refusal = OnRefusal::Record;
  auto r = load(profile(prof), paths, memory_reader(files), o);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : format(r.error())));
  std::vector<Finding> out;
  for (auto& f : lint::run(*r))
    if (f.rule == rule) out.push_back(std::move(f));
  return out;
}

inline std::vector<Finding> of_rule(const std::vector<Finding>& all, std::string_view rule) {
  std::vector<Finding> out;
  for (const auto& f : all)
    if (f.rule == rule) out.push_back(f);
  return out;
}

inline std::vector<Finding> lint_rule(const Files& files, std::string_view rule,
                                      const std::string& prof = "torch-main") {
  return of_rule(lint_files(files, prof), rule);
}

// The primary location, then every note's location.
inline std::vector<std::string> locations(const Finding& f) {
  std::vector<std::string> out{to_string(f.where)};
  for (const auto& n : f.notes) out.push_back(to_string(n.where));
  return out;
}

using Locs = std::vector<std::string>;

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// An [[impl]] of t::foo (the key value sits at column 7 of the key line).
inline std::string impl(const std::string& key, const std::string& kernel, const std::string& extra = "") {
  return "[[impl]]\nop = \"foo\"\nkey = \"" + key + "\"\nkernel = \"" + kernel + "\"\n" + extra;
}

}  // namespace dt::test
