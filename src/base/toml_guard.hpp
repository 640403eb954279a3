// Internal to base (toml_reader.cpp runs it): a linear pre-scan of TOML text
// before toml++ parses it. It enforces the nesting limits (limits.hpp:
// dotted-key parts, arrays and inline tables) and refuses what reaches
// toml++ 3.3.0's defects (docs/toml++-3.3.0.md): deep recursion, code points
// its whitespace test does not handle (undefined behaviour), and the two
// assertions input can violate. Every refusal is located: FILE:LINE:COL.
//
// It follows toml++'s reading of the text closely enough that it never stops
// where toml++ goes on: it stops scanning only where toml++ reports an error
// itself (and leaves the message to toml++), and checks every character it
// passes outside strings and comments.
#pragma once

#include <optional>
#include <string_view>

#include "base/diagnostic.hpp"

namespace dt {

std::optional<Diagnostic> check_toml_input(std::string_view text, FileName file);

}  // namespace dt
