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
      if (auto* v = std::get_if<std::vector<std::string>>(&f.value)) {
        std::string out;
        for (const auto& x : *v) out += (out.empty() ? "" : ",") + x;
        return out;
      }
      return std::get<bool>(f.value) ? "true" : "false";
    }
  return "<none>";
}

}  // namespace dt::test
