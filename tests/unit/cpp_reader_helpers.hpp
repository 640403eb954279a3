// Helpers for the C++ reader's tests (test_cpp_reader.cpp, test_cpp_legacy.cpp,
// test_cpp_static_init.cpp): a source read as ops.cpp under a profile.
#pragma once

#include "helpers.hpp"
#include "readers/cpp_reader.hpp"

namespace dt::test {

inline Blocks read_cpp_ok(std::string_view text, const char* prof = "torch-2.14") {
  auto b = read_cpp(profile(prof), "ops.cpp", text);
  REQUIRE_MESSAGE(b.has_value(), (b ? "" : format(b.error())));
  return std::move(*b);
}

}  // namespace dt::test
