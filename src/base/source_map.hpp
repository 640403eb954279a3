// Where the lines of a generated text come from. The readers of C++, Python
// and yaml registrations (src/readers/) translate their input into the TOML
// contract (docs/input-format.md); the loader compiles that TOML and moves
// every location it reports back to the original file, line and column
// through the translation's SourceMap.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"

namespace dt {

class SourceMap {
 public:
  // Generated line `line` (1-based, in order: call once per line, or leave
  // gaps, which map to nothing) comes from `from`; the generated column
  // `anchor` is where `from`'s column is (columns after it keep their offset,
  // the first `span` of them when not 0; one further maps to `from` itself).
  void add(std::uint32_t line, Location from, std::uint32_t anchor = 1, std::uint32_t span = 0);
  // The original location of a generated one; a location on a line with no
  // origin, or in another file, is returned as it is.
  [[nodiscard]] Location remap(const Location& generated) const;
  // `text` with every "FILE:LINE" of the generated file (`generated` is its
  // name) replaced by the original "FILE:LINE" (debug strings such as
  // "registered at FILE:LINE" and PyTorch's messages that quote them).
  [[nodiscard]] std::string remap_text(std::string_view text, FileName generated) const;
  [[nodiscard]] bool empty() const { return lines_.empty(); }

 private:
  struct Line {
    Location from;
    std::uint32_t anchor = 1;
    std::uint32_t span = 0;
    bool set = false;
  };
  std::vector<Line> lines_;  // index: generated line - 1
};

// The name the TOML translated from `source` is compiled under: not the
// source's own, so that "FILE:LINE" in debug strings a reader took from the
// source (a Library's "registered at ops.py:12") is not mistaken for a line
// of the translation and remapped (remap and remap_text only touch this name).
inline FileName translated_name(FileName source) { return FileName(source.str() + " (as TOML)"); }

}  // namespace dt
