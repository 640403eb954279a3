// A located YAML document, read with libyaml (the YAML 1.1 parser PyYAML's
// CSafeLoader wraps, which torchgen loads native_functions.yaml with): an
// event parser whose events this file turns into a small tree of nodes, each
// with the line and column of its first character. The block YAML that
// native_functions.yaml is written in is read by a reader of that subset
// (yaml_subset.cpp) to the same tree, several times faster; anything outside
// it goes to libyaml. Hostile input is bounded:
// nesting depth, node count and the size aliases expand to (anchors and
// aliases are shared, never copied; a document whose expansion would exceed
// the node limit — a "billion laughs" — is refused with a located error).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"

namespace dt {

struct YamlNode {
  enum class Kind : std::uint8_t { Scalar, Sequence, Mapping };
  Kind kind = Kind::Scalar;
  bool plain = false;    // a plain (unquoted) scalar: subject to YAML 1.1 resolution (True, null, 3)
  std::uint32_t line = 0;  // 1-based
  std::uint32_t column = 0;
  std::string_view value;                  // Scalar (its text lives in the YamlDoc)
  std::span<const std::uint32_t> items;    // Sequence: children; Mapping: key, value, key, value, ...
};

// Where a YamlDoc keeps its scalars' text and its collections' children:
// chunks that never move (a node's views stay valid when the document is
// moved), one allocation per 64 KiB instead of one per node.
class YamlArena {
 public:
  // A copy of `s` in the arena.
  std::string_view copy(std::string_view s);
  // A copy of `items` in the arena.
  std::span<const std::uint32_t> copy(std::span<const std::uint32_t> items);

 private:
  void* take(std::size_t bytes, std::size_t align);
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  std::byte* next_ = nullptr;
  std::size_t left_ = 0;
};

struct YamlLimits {
  std::size_t depth = 64;           // collections nested in each other
  std::size_t nodes = 4'000'000;    // nodes, aliases expanded (counted, not copied)
};

class YamlSubsetReader;

class YamlDoc {
 public:
  // The document's root (a null scalar for an empty document).
  [[nodiscard]] const YamlNode& root() const { return nodes_[root_]; }
  [[nodiscard]] const YamlNode& at(std::uint32_t i) const { return nodes_[i]; }
  [[nodiscard]] Location where(const YamlNode& n) const { return Location{file_, n.line, n.column}; }
  [[nodiscard]] FileName file() const { return file_; }
  // Mapping lookup: the value of key `k`, or null.
  [[nodiscard]] const YamlNode* get(const YamlNode& map, std::string_view k) const;
  // A plain scalar YAML 1.1 reads as null ("", "~", "null", "Null", "NULL").
  [[nodiscard]] static bool is_null(const YamlNode& n);
  // A plain scalar YAML 1.1 reads as a boolean (true/True/yes/on/...).
  [[nodiscard]] static std::optional<bool> as_bool(const YamlNode& n);

 private:
  friend Expected<YamlDoc, Diagnostic> parse_yaml_libyaml(FileName file, std::string_view text, YamlLimits limits);
  friend std::optional<YamlDoc> parse_yaml_subset(FileName file, std::string_view text, YamlLimits limits);
  friend class YamlSubsetReader;
  FileName file_;
  std::vector<YamlNode> nodes_;
  YamlArena arena_;
  std::uint32_t root_ = 0;
};

// The first document of `text`. Errors: libyaml's own message, located
// ("FILE:LINE:COL: error: yaml: ..."), or the limit exceeded.
Expected<YamlDoc, Diagnostic> parse_yaml(FileName file, std::string_view text, YamlLimits limits = {});

// The two ways parse_yaml reads (for its tests and fuzzer, which hold them
// equal): libyaml, any YAML; and the subset reader, which gives the tree
// libyaml gives or nullopt (outside its subset: a tab, a multi-line scalar,
// an anchor, anything in error...), never a different tree.
Expected<YamlDoc, Diagnostic> parse_yaml_libyaml(FileName file, std::string_view text, YamlLimits limits = {});
std::optional<YamlDoc> parse_yaml_subset(FileName file, std::string_view text, YamlLimits limits = {});

// Where two documents' trees first differ (kind, style, line, column, text,
// children), described; "" when they are the same tree.
std::string yaml_difference(const YamlDoc& a, const YamlDoc& b);

// The yaml readers' error at `at`: `return fail(at, "...");` from a function
// returning Expected<T, Diagnostic>.
inline auto fail(Location at, std::string msg) { return unexpected(make_error(std::move(at), std::move(msg))); }

}  // namespace dt
