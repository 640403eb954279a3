// parse_yaml_subset (yaml_tree.hpp): the block YAML that native_functions.yaml
// and backend yaml are written in, read without libyaml — the same located
// tree, several times faster. It declines (nullopt) at the first thing
// outside its subset, and parse_yaml then reads the whole text with libyaml,
// so what it accepts is exactly what libyaml accepts, node for node, line
// for line (checked by test_yaml_subset against libyaml on every yaml the
// project reads, and by fuzz_native_yaml on any input).
//
// The subset, line by line:
//   - printable ASCII and "\n" only (no tab, no "\r", no byte >= 0x80: libyaml
//     counts columns in characters, and these are where its rules get subtle);
//   - no directive, document marker, anchor, alias, tag or block scalar;
//   - block sequences ("- " items) and block mappings (plain keys on one
//     line), compact ("- func: x") and indentless ("key:\n- item") forms;
//   - scalars on one line: plain, single-quoted, or double-quoted without
//     escapes; flow sequences of such scalars and "{}" on one line;
//   - comments on their own lines or after a value.
// Anything else (a multi-line scalar, a value on the line below its key, an
// empty item, "[a,]", a key over 1,000 characters...) declines.
#include <algorithm>
#include <cstring>

#include "readers/yaml_tree.hpp"

namespace dt {

class YamlSubsetReader {
 public:
  YamlSubsetReader(std::string_view text, YamlLimits limits, YamlDoc& doc) : text_(text), limits_(limits), doc_(doc) {}

  // Reads the document; false: outside the subset.
  bool run() {
    if (!printable(text_)) return false;
    next_line();
    if (eof_) return false;  // an empty document: libyaml's null root and its location
    std::uint32_t root = 0;
    if (!block(0, root)) return false;
    doc_.root_ = root;
    return eof_;  // a line after the root's end: an error, libyaml's to locate
  }

 private:
  std::vector<std::uint32_t> pending;  // the children of the open collections

  // The current content line: [begin, end), its content from `content`.
  const char* begin_ = nullptr;
  const char* content_ = nullptr;
  const char* end_ = nullptr;
  std::uint32_t line_ = 0;  // 1-based
  bool eof_ = false;
  std::size_t pos_ = 0;  // where the line after the current one starts
  std::uint32_t next_no_ = 1;

  std::string_view text_;
  YamlLimits limits_;
  YamlDoc& doc_;

  [[nodiscard]] std::uint32_t indent() const { return static_cast<std::uint32_t>(content_ - begin_); }
  [[nodiscard]] std::uint32_t column(const char* p) const { return static_cast<std::uint32_t>(p - begin_) + 1; }

  // Moves to the next line with content (not blank, not only a comment).
  void next_line() {
    for (;;) {
      if (pos_ >= text_.size()) {
        eof_ = true;
        return;
      }
      const char* b = text_.data() + pos_;
      const void* nl = std::memchr(b, '\n', text_.size() - pos_);
      const char* e = nl != nullptr ? static_cast<const char*>(nl) : text_.data() + text_.size();
      pos_ = static_cast<std::size_t>(e - text_.data()) + 1;
      const std::uint32_t no = next_no_++;
      const char* c = b;
      while (c < e && *c == ' ') ++c;
      if (c == e || *c == '#') continue;
      begin_ = b, content_ = c, end_ = e, line_ = no;
      return;
    }
  }

  // A dash that starts a block sequence item at p.
  [[nodiscard]] bool dash(const char* p) const { return *p == '-' && (p + 1 == end_ || p[1] == ' '); }

  bool add(YamlNode::Kind kind, bool plain, const char* at, std::string_view value, std::uint32_t& index) {
    if (doc_.nodes_.size() >= limits_.nodes) return false;
    index = static_cast<std::uint32_t>(doc_.nodes_.size());
    doc_.nodes_.push_back(YamlNode{kind, plain, line_, column(at), doc_.arena_.copy(value), {}});
    return true;
  }
  void close(std::uint32_t node, std::size_t first) {
    doc_.nodes_[node].items = doc_.arena_.copy(std::span<const std::uint32_t>(pending).subspan(first));
    pending.resize(first);
  }

  // Printable ASCII and "\n" only: eight bytes at a time while no byte is
  // below 0x20 or above 0x7e.
  static bool printable(std::string_view t) {
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
    std::size_t i = 0;
    for (; i + 8 <= t.size(); i += 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, t.data() + i, 8);
      // A byte < 0x20, or >= 0x7f (0x7f + 1 and every byte >= 0x80 set the high bit).
      if ((((w - kOnes * 0x20) | (w + kOnes)) & ~w & kHigh) == 0 && (w & kHigh) == 0) continue;
      for (std::size_t j = i; j < i + 8; ++j)
        if (!printable(t[j])) return false;
    }
    for (; i < t.size(); ++i)
      if (!printable(t[i])) return false;
    return true;
  }
  static bool printable(char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return (c >= 0x20 && c < 0x7f) || c == '\n';
  }

  // Whether a plain scalar may start with c (in block context: not an indicator).
  [[nodiscard]] static bool plain_start(char c) {
    return std::string_view("-?:,[]{}#&*!|>'\"%@`").find(c) == std::string_view::npos;
  }

  // A plain scalar in block context from p: where its text ends (trailing
  // spaces trimmed) and whether a ": " (or ":" at the line's end) stopped it.
  struct Plain {
    const char* end;
    bool colon;
    const char* stop;
  };
  [[nodiscard]] Plain plain_block(const char* p) const {
    const char* q = p;
    for (; q < end_; ++q) {
      if (*q == ':' && (q + 1 == end_ || q[1] == ' ')) break;
      if (*q == '#' && q[-1] == ' ') break;
    }
    const char* e = q;
    while (e > p && e[-1] == ' ') --e;
    return {e, q < end_ && *q == ':', q};
  }

  // Nothing but spaces and a comment from p to the line's end.
  [[nodiscard]] bool rest_empty(const char* p) const {
    const char* q = p;
    while (q < end_ && *q == ' ') ++q;
    return q == end_ || (*q == '#' && q > p);
  }

  // A quoted scalar at p, on this line; `after` is past its closing quote.
  bool quoted(const char* p, std::uint32_t& out, const char*& after) {
    const char quote = *p;
    std::string value;
    const char* q = p + 1;
    for (;; ++q) {
      if (q == end_) return false;
      if (quote == '"' && *q == '\\') return false;
      if (*q == quote) {
        if (quote == '\'' && q + 1 < end_ && q[1] == '\'') {
          value += '\'', ++q;
          continue;
        }
        break;
      }
      value += *q;
    }
    after = q + 1;
    return add(YamlNode::Kind::Scalar, false, p, value, out);
  }

  // A flow sequence of scalars on this line, or "{}".
  bool flow(const char* p, std::size_t depth, std::uint32_t& out, const char*& after) {
    if (depth >= limits_.depth) return false;
    if (*p == '{') {
      if (p + 1 == end_ || p[1] != '}') return false;
      after = p + 2;
      return add(YamlNode::Kind::Mapping, false, p, {}, out);
    }
    if (!add(YamlNode::Kind::Sequence, false, p, {}, out)) return false;
    const std::size_t first = pending.size();
    const char* q = p + 1;
    for (bool item = false;; item = true) {
      while (q < end_ && *q == ' ') ++q;
      if (q == end_) return false;
      if (*q == ']' && !item) break;
      std::uint32_t child = 0;
      if (*q == '\'' || *q == '"') {
        if (!quoted(q, child, q)) return false;
      } else {
        if (!plain_start(*q)) return false;
        const char* s = q;
        while (q < end_ && std::strchr(",[]{}#:?", *q) == nullptr) ++q;
        const char* e = q;
        while (e > s && e[-1] == ' ') --e;
        if (!add(YamlNode::Kind::Scalar, true, s, {s, static_cast<std::size_t>(e - s)}, child)) return false;
      }
      pending.push_back(child);
      while (q < end_ && *q == ' ') ++q;
      if (q == end_) return false;
      if (*q == ']') break;
      if (*q != ',') return false;
      ++q;
    }
    close(out, first);
    after = q + 1;
    return true;
  }

  // A value on the line of its key or dash, at p: a scalar or a flow
  // collection, then nothing but a comment. Moves to the next line.
  bool inline_value(const char* p, std::size_t depth, std::uint32_t& out) {
    const char* after = nullptr;
    if (*p == '[' || *p == '{') {
      if (!flow(p, depth, out, after)) return false;
    } else if (*p == '\'' || *p == '"') {
      if (!quoted(p, out, after)) return false;
    } else {
      if (!plain_start(*p)) return false;
      const Plain s = plain_block(p);
      if (s.colon) return false;
      if (!add(YamlNode::Kind::Scalar, true, p, {p, static_cast<std::size_t>(s.end - p)}, out)) return false;
      after = s.end;
    }
    if (!rest_empty(after)) return false;
    next_line();
    return true;
  }

  // A block collection that starts at the current line's content.
  bool block(std::size_t depth, std::uint32_t& out) {
    if (dash(content_)) return sequence(depth, false, out);
    return mapping(content_, depth, out);
  }

  // A block sequence whose dashes are at the current line's indentation;
  // `indentless`: a mapping value at its key's indentation.
  bool sequence(std::size_t depth, bool indentless, std::uint32_t& out) {
    if (depth >= limits_.depth) return false;
    const std::uint32_t col = indent();
    if (!add(YamlNode::Kind::Sequence, false, content_, {}, out)) return false;
    const std::size_t first = pending.size();
    for (;;) {
      const char* q = content_ + 1;
      while (q < end_ && *q == ' ') ++q;
      if (q == end_ || *q == '#' || dash(q)) return false;  // an empty item, or one below, or "- - x"
      std::uint32_t item = 0;
      if (plain_start(*q) && plain_block(q).colon) {
        if (!mapping(q, depth + 1, item)) return false;
      } else if (!inline_value(q, depth + 1, item)) {
        return false;
      }
      pending.push_back(item);
      if (eof_ || indent() < col) break;
      if (indent() > col) return false;
      if (!dash(content_)) {
        if (indentless) break;
        return false;
      }
    }
    close(out, first);
    return true;
  }

  // A block mapping whose first key is at `key` on the current line.
  bool mapping(const char* key, std::size_t depth, std::uint32_t& out) {
    if (depth >= limits_.depth) return false;
    const std::uint32_t col = column(key) - 1;
    if (!add(YamlNode::Kind::Mapping, false, key, {}, out)) return false;
    const std::size_t first = pending.size();
    for (;;) {
      if (!plain_start(*key)) return false;
      const Plain k = plain_block(key);
      if (!k.colon || k.end - key > 1000) return false;
      std::uint32_t kn = 0;
      if (!add(YamlNode::Kind::Scalar, true, key, {key, static_cast<std::size_t>(k.end - key)}, kn)) return false;
      pending.push_back(kn);
      const char* q = k.stop + 1;
      while (q < end_ && *q == ' ') ++q;
      std::uint32_t value = 0;
      if (q < end_ && *q != '#') {
        if (dash(q) || !inline_value(q, depth + 1, value)) return false;
      } else {
        // Nothing after the colon: the value is below, or empty (null, where
        // libyaml puts it: just past the colon).
        const std::uint32_t key_line = line_;
        const std::uint32_t past_colon = column(k.stop) + 1;
        next_line();
        if (!eof_ && indent() > col) {
          if (!block(depth + 1, value)) return false;
        } else if (!eof_ && indent() == col && dash(content_)) {
          if (!sequence(depth + 1, true, value)) return false;
        } else {
          if (doc_.nodes_.size() >= limits_.nodes) return false;
          value = static_cast<std::uint32_t>(doc_.nodes_.size());
          doc_.nodes_.push_back(YamlNode{YamlNode::Kind::Scalar, true, key_line, past_colon, {}, {}});
        }
      }
      pending.push_back(value);
      if (eof_ || indent() < col) break;
      if (indent() > col || dash(content_)) return false;
      key = content_;
    }
    close(out, first);
    return true;
  }
};

std::optional<YamlDoc> parse_yaml_subset(FileName file, std::string_view text, YamlLimits limits) {
  YamlDoc doc;
  doc.file_ = file;
  doc.nodes_.reserve(std::min({text.size() / 16 + 1, std::size_t{1} << 18, limits.nodes + 1}));
  YamlSubsetReader s(text, limits, doc);
  if (!s.run()) return std::nullopt;
  return doc;
}

}  // namespace dt
