// Helpers for the Python reader's tests (test_python_reader.cpp,
// test_python_torch_library.cpp): a module read under a profile, and an
// entry's field as text.
#pragma once

#include "helpers.hpp"
#include "readers/python_reader.hpp"

namespace dt::test {

inline Blocks read_py(std::string_view text, const char* prof = "torch-2.14") {
  auto b = read_python(profile(prof), "/src/ops.py", text);
  REQUIRE_MESSAGE(b.has_value(), (b ? "" : format(b.error())));
  return *b;
}

// A field's value: a string, a list joined with ",", a bool; "<none>" if absent.
inline std::string str(const TomlEntry& e, std::string_view key) {
  for (const auto& f : e.fields)
    if (f.key == key) {
      if (auto* s = std::get_if<std::string>(&f.value)) return *s;
      if (auto* v = std::get_if<TomlArray>(&f.value)) {
        std::string out;
        for (const auto& x : v->items) out += (out.empty() ? "" : ",") + std::get<std::string>(x.value);
        return out;
      }
      return std::get<bool>(f.value) ? "true" : "false";
    }
  return "<none>";
}

// The blocks' entries in order as names: a def's operator (its schema up to
// '('), and unless `defs_only`, an impl's op@key.
inline std::vector<std::string> entry_names(const Blocks& b, bool defs_only = false) {
  std::vector<std::string> out;
  for (const auto& blk : b.blocks)
    for (const auto& e : blk.entries) {
      if (e.kind == "def") out.push_back(str(e, "schema").substr(0, str(e, "schema").find('(')));
      if (e.kind == "impl" && !defs_only) out.push_back(str(e, "op") + "@" + str(e, "key"));
    }
  return out;
}

}  // namespace dt::test
