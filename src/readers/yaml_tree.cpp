// parse_yaml (yaml_tree.hpp): libyaml's events into a located node tree.
#include "readers/yaml_tree.hpp"

#include <fmt/format.h>
#ifndef DT_NO_LIBYAML
#include <yaml.h>
#endif

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>

namespace dt {

namespace {

bool one_of(std::string_view s, std::initializer_list<std::string_view> options) {
  for (std::string_view o : options)
    if (s == o) return true;
  return false;
}

}  // namespace

#ifndef DT_NO_LIBYAML
namespace {

struct ParserGuard {
  yaml_parser_t p{};
  ParserGuard() { yaml_parser_initialize(&p); }
  ~ParserGuard() { yaml_parser_delete(&p); }
  ParserGuard(const ParserGuard&) = delete;
  ParserGuard& operator=(const ParserGuard&) = delete;
};

struct EventGuard {
  yaml_event_t e{};
  ~EventGuard() { yaml_event_delete(&e); }
};


}  // namespace
#endif

void* YamlArena::take(std::size_t bytes, std::size_t align) {
  const std::size_t pad = (align - reinterpret_cast<std::uintptr_t>(next_) % align) % align;
  if (next_ == nullptr || pad + bytes > left_) {
    constexpr std::size_t kChunk = std::size_t{64} << 10;
    const std::size_t size = std::max(kChunk, bytes + align);
    chunks_.push_back(std::unique_ptr<std::byte[]>(new std::byte[size]));
    next_ = chunks_.back().get(), left_ = size;
    return take(bytes, align);
  }
  void* p = next_ + pad;
  next_ += pad + bytes, left_ -= pad + bytes;
  return p;
}

std::string_view YamlArena::copy(std::string_view s) {
  if (s.empty()) return {};
  auto* p = static_cast<char*>(take(s.size(), 1));
  std::memcpy(p, s.data(), s.size());
  return {p, s.size()};
}

std::span<const std::uint32_t> YamlArena::copy(std::span<const std::uint32_t> items) {
  if (items.empty()) return {};
  auto* p = static_cast<std::uint32_t*>(take(items.size_bytes(), alignof(std::uint32_t)));
  std::memcpy(p, items.data(), items.size_bytes());
  return {p, items.size()};
}

const YamlNode* YamlDoc::get(const YamlNode& map, std::string_view k) const {
  if (map.kind != YamlNode::Kind::Mapping) return nullptr;
  for (std::size_t i = 0; i + 1 < map.items.size(); i += 2) {
    const YamlNode& key = nodes_[map.items[i]];
    if (key.kind == YamlNode::Kind::Scalar && key.value == k) return &nodes_[map.items[i + 1]];
  }
  return nullptr;
}

bool YamlDoc::is_null(const YamlNode& n) {
  return n.kind == YamlNode::Kind::Scalar && n.plain && one_of(n.value, {"", "~", "null", "Null", "NULL"});
}

std::optional<bool> YamlDoc::as_bool(const YamlNode& n) {
  if (n.kind != YamlNode::Kind::Scalar || !n.plain) return std::nullopt;
  // YAML 1.1's bool (PyYAML's resolver): y/n are not booleans there.
  if (one_of(n.value, {"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})) return true;
  if (one_of(n.value, {"no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})) return false;
  return std::nullopt;
}

namespace {

std::string difference(const YamlDoc& a, const YamlNode& x, const YamlDoc& b, const YamlNode& y,
                       const std::string& path) {
  auto show = [](const YamlNode& n) {
    return fmt::format("kind {} plain {} at {}:{} '{}' ({} items)", static_cast<int>(n.kind), n.plain, n.line, n.column,
                       n.value, n.items.size());
  };
  if (x.kind != y.kind || x.plain != y.plain || x.line != y.line || x.column != y.column || x.value != y.value ||
      x.items.size() != y.items.size())
    return fmt::format("{}: {} / {}", path.empty() ? "/" : path, show(x), show(y));
  for (std::size_t i = 0; i < x.items.size(); ++i) {
    std::string d = difference(a, a.at(x.items[i]), b, b.at(y.items[i]), fmt::format("{}/{}", path, i));
    if (!d.empty()) return d;
  }
  return "";
}

}  // namespace

std::string yaml_difference(const YamlDoc& a, const YamlDoc& b) { return difference(a, a.root(), b, b.root(), ""); }

Expected<YamlDoc, Diagnostic> parse_yaml(FileName file, std::string_view text, YamlLimits limits) {
#ifndef DT_NO_LIBYAML  // the playground refuses every yaml alike, not the subset's only
  if (auto doc = parse_yaml_subset(file, text, limits)) return std::move(*doc);
#endif
  return parse_yaml_libyaml(file, text, limits);
}

#ifdef DT_NO_LIBYAML
// The playground (src/web): libyaml has no WebAssembly build; the page reads TOML only.
Expected<YamlDoc, Diagnostic> parse_yaml_libyaml(FileName file, std::string_view /*text*/, YamlLimits /*limits*/) {
  return unexpected(make_error(Location{file, 1, 1},
                               "yaml files are not read in the playground (the command-line tool reads them)"));
}
#else
Expected<YamlDoc, Diagnostic> parse_yaml_libyaml(FileName file, std::string_view text, YamlLimits limits) {
  YamlDoc doc;
  doc.file_ = file;
  ParserGuard parser;
  yaml_parser_set_input_string(&parser.p, reinterpret_cast<const unsigned char*>(text.data()), text.size());

  // Per node: how many nodes it stands for, aliases expanded (saturating).
  std::vector<std::uint64_t> weight;
  std::map<std::string, std::uint32_t, std::less<>> anchors;
  struct Open {
    std::uint32_t node;
    std::size_t first;  // its first child in `pending`
    std::string anchor;
  };
  std::vector<Open> stack;
  // The children of the open collections, innermost last; a collection's
  // children move to the arena when it ends.
  std::vector<std::uint32_t> pending;
  doc.nodes_.reserve(std::min({text.size() / 16 + 1, std::size_t{1} << 18, limits.nodes + 1}));
  bool have_root = false;
  std::uint64_t total = 0;

  // libyaml (and PyYAML) place what is at the end of an input without a
  // final line break (an error, the empty document of "---") on the line
  // after the last: the end of the text instead. Lines as YAML counts them
  // ("\n", "\r\n", a lone "\r"); not by libyaml's index, which counts
  // characters, not bytes (a BOM, UTF-8 text: found by fuzz_native_yaml).
  std::size_t breaks = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    breaks += text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) ? 1U : 0U;
  const bool ends_with_break = !text.empty() && (text.back() == '\n' || text.back() == '\r');
  auto past_end = [&](const yaml_mark_t& m) {
    return m.line > breaks || (m.line == breaks && ends_with_break && m.column > 0);
  };
  auto err = [&](const yaml_mark_t& m, std::string msg) {
    Location at{file, static_cast<std::uint32_t>(m.line + 1), static_cast<std::uint32_t>(m.column + 1)};
    if (past_end(m)) at = location_at(text, text.size(), file);
    return unexpected(make_error(std::move(at), std::move(msg)));
  };
  // Attaches node `i` to the open collection (or makes it the root).
  auto attach = [&](std::uint32_t i) {
    if (stack.empty()) {
      if (!have_root) doc.root_ = i, have_root = true;
      return;
    }
    pending.push_back(i);
    weight[stack.back().node] += weight[i];
  };
  auto add_node = [&](YamlNode n, const yaml_char_t* anchor, std::uint32_t& index) {
    index = static_cast<std::uint32_t>(doc.nodes_.size());
    doc.nodes_.push_back(std::move(n));
    weight.push_back(1);
    if (anchor != nullptr) anchors[reinterpret_cast<const char*>(anchor)] = index;
  };

  for (;;) {
    EventGuard ev;
    if (yaml_parser_parse(&parser.p, &ev.e) == 0) {
      const yaml_mark_t& m = parser.p.problem_mark;
      std::string msg = fmt::format("yaml: {}", parser.p.problem != nullptr ? parser.p.problem : "invalid yaml");
      if (parser.p.context != nullptr) msg += fmt::format(" ({})", parser.p.context);
      return err(m, std::move(msg));
    }
    const yaml_mark_t& at = ev.e.start_mark;
    YamlNode n;
    n.line = static_cast<std::uint32_t>(at.line + 1);
    n.column = static_cast<std::uint32_t>(at.column + 1);
    if (past_end(at)) {
      const Location end = location_at(text, text.size(), file);
      n.line = end.line;
      n.column = end.column;
    }
    std::uint32_t index = 0;
    switch (ev.e.type) {
      case YAML_STREAM_END_EVENT:
      case YAML_DOCUMENT_END_EVENT:
        if (!have_root) {
          add_node(YamlNode{YamlNode::Kind::Scalar, true, 1, 1, {}, {}}, nullptr, index);
          doc.root_ = index;
        }
        return doc;  // the first document only
      case YAML_SCALAR_EVENT: {
        n.kind = YamlNode::Kind::Scalar;
        n.value = doc.arena_.copy(
            std::string_view(reinterpret_cast<const char*>(ev.e.data.scalar.value), ev.e.data.scalar.length));
        n.plain = ev.e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        add_node(std::move(n), ev.e.data.scalar.anchor, index);
        attach(index);
        ++total;
        break;
      }
      case YAML_ALIAS_EVENT: {
        const auto* name = reinterpret_cast<const char*>(ev.e.data.alias.anchor);
        auto it = anchors.find(name);
        if (it == anchors.end()) return err(at, fmt::format("yaml: found undefined alias '{}'", name));
        // Shared, not copied: the alias's node counts as its whole subtree.
        index = it->second;
        if (!stack.empty()) {
          pending.push_back(index);
          weight[stack.back().node] += weight[index];
        } else if (!have_root) {
          doc.root_ = index, have_root = true;
        }
        total += weight[index];
        break;
      }
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT: {
        if (stack.size() >= limits.depth)
          return err(at, fmt::format("yaml nested too deeply (limit: {} levels)", limits.depth));
        const bool seq = ev.e.type == YAML_SEQUENCE_START_EVENT;
        n.kind = seq ? YamlNode::Kind::Sequence : YamlNode::Kind::Mapping;
        const yaml_char_t* anchor = seq ? ev.e.data.sequence_start.anchor : ev.e.data.mapping_start.anchor;
        add_node(std::move(n), nullptr, index);
        stack.push_back(Open{index, pending.size(), anchor != nullptr ? reinterpret_cast<const char*>(anchor) : ""});
        ++total;
        break;
      }
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT: {
        const Open open = std::move(stack.back());
        stack.pop_back();
        doc.nodes_[open.node].items =
            doc.arena_.copy(std::span<const std::uint32_t>(pending).subspan(open.first));
        pending.resize(open.first);
        // An anchor names the collection once it is complete (an alias inside
        // itself is undefined, as in PyYAML's composer: recursion refused).
        if (!open.anchor.empty()) anchors[open.anchor] = open.node;
        attach(open.node);
        break;
      }
      default:
        break;
    }
    if (total > limits.nodes)
      return err(at, fmt::format("yaml has too many nodes, aliases expanded (limit: {})", limits.nodes));
  }
}

#endif  // DT_NO_LIBYAML

}  // namespace dt
