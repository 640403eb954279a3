// TomlFile (toml_file.hpp): a parsed TOML file's blocks, as readers' blocks.
#include "readers/toml_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <sstream>
#include <tuple>

#include "base/toml_reader.hpp"
#include "readers/readers.hpp"

namespace dt {

namespace {

// The entry kinds, as the keys of their arrays of tables.
constexpr std::array<std::string_view, 4> kEntryKinds = {"def", "impl", "fallback", "custom_op"};

// A scalar the loader never reads, with its text as toml++ writes it.
template <class T>
TomlScalar scalar(TomlScalar::Type type, const toml::value<T>& v) {
  std::ostringstream os;
  os << v;
  return TomlScalar{type, os.str()};
}

// `s` into a field's value, reusing the string it holds.
void assign_string(TomlField& f, const std::string& s) {
  if (auto* held = std::get_if<std::string>(&f.value))
    held->assign(s);
  else
    f.value = s;
}

template <class T>
T& hold(TomlField& f) {
  if (auto* held = std::get_if<T>(&f.value)) return *held;
  return f.value.template emplace<T>();
}

void assign(TomlField& f, std::string_view key, const toml::source_region* key_at, const toml::node& node,
            FileName file);

// A table's fields into `fields`, in its order (by key), their storage reused.
void assign_fields(std::vector<TomlField>& fields, const toml::table& t, FileName file) {
  fields.resize(t.size());
  std::size_t i = 0;
  for (auto&& [k, v] : t) assign(fields[i++], k.str(), &k.source(), v, file);
}

// One node as `f` (`key` empty for an array's element), its storage reused.
void assign(TomlField& f, std::string_view key, const toml::source_region* key_at, const toml::node& node,
            FileName file) {
  f.key.assign(key);
  f.at = location_of(node.source(), file);
  f.span = 0;
  f.key_line = key_at != nullptr ? key_at->begin.line : 0;
  f.key_column = key_at != nullptr ? key_at->begin.column : 0;
  f.in_toml_text = false;
  switch (node.type()) {
    case toml::node_type::string:
      assign_string(f, node.as_string()->get());
      f.in_toml_text = true;
      return;
    case toml::node_type::boolean:
      f.value = node.as_boolean()->get();
      return;
    case toml::node_type::array: {
      auto& items = hold<TomlArray>(f).items;
      const toml::array& a = *node.as_array();
      items.resize(a.size());
      for (std::size_t i = 0; i < a.size(); ++i) assign(items[i], {}, nullptr, a[i], file);
      return;
    }
    case toml::node_type::table:
      assign_fields(hold<TomlTable>(f).fields, *node.as_table(), file);
      return;
    case toml::node_type::integer:
      f.value = scalar(TomlScalar::Type::Integer, *node.as_integer());
      return;
    case toml::node_type::floating_point:
      f.value = scalar(TomlScalar::Type::Float, *node.as_floating_point());
      return;
    case toml::node_type::date:
      f.value = scalar(TomlScalar::Type::Date, *node.as_date());
      return;
    case toml::node_type::time:
      f.value = scalar(TomlScalar::Type::Time, *node.as_time());
      return;
    case toml::node_type::date_time:
      f.value = scalar(TomlScalar::Type::DateTime, *node.as_date_time());
      return;
    case toml::node_type::none:  // not in a parsed document
      return;
  }
}

// The entry kind an array of tables holds, or nullptr.
const std::string_view* entry_kind(std::string_view key, const toml::node& v) {
  const auto it = std::find(kEntryKinds.begin(), kEntryKinds.end(), key);
  if (it == kEntryKinds.end()) return nullptr;
  const toml::array* arr = v.as_array();
  if (arr == nullptr || !std::all_of(arr->begin(), arr->end(), [](const toml::node& e) { return e.is_table(); }))
    return nullptr;
  return &*it;
}

}  // namespace

void TomlFileBlock::entry(std::size_t i, TomlEntry& out) const {
  const Ref& ref = entries_[i];
  out.kind.assign(ref.kind);
  out.at = location_of(ref.table->source(), file_);
  out.note.clear();
  assign_fields(out.fields, *ref.table, file_);
}

Expected<std::shared_ptr<const TomlFile>, Diagnostic> TomlFile::parse(std::string text, FileName file,
                                                                      std::string_view path) {
  auto out = std::make_shared<TomlFile>();
  out->text_ = std::move(text);
  auto root = parse_toml(out->text_, file);
  if (!root) {
    if (!path.ends_with(".toml"))
      root.error().message +=
          fmt::format(" (read as TOML: only files named {}, .py, .yaml or .yml are read as C++, Python or yaml)",
                      cpp_extension_list());
    return unexpected(std::move(root.error()));
  }
  out->root_ = std::move(*root);
  // The tables that are library blocks, each with where it starts.
  std::vector<std::pair<const toml::table*, Location>> tables;
  if (const toml::node* blocks = out->root_.get("block"); blocks == nullptr) {
    tables.emplace_back(&out->root_, Location{file, 1, 1});
  } else {
    const toml::array* arr = blocks->as_array();
    if (arr == nullptr || !arr->is_array_of_tables())
      return unexpected(make_error(location_of(blocks->source(), file),
                                   "'block' must be an array of tables ([[block]]), one per library block"));
    for (const auto& [key, value] : out->root_)
      if (key.str() != "block")
        return unexpected(make_error(location_of(value.source(), file),
                                     fmt::format("a file of [[block]] tables has nothing else at its top level; "
                                                 "move '{}' into a [[block]]",
                                                 key.str())));
    for (const toml::node& e : *arr) tables.emplace_back(e.as_table(), location_of(e.source(), file));
  }
  out->blocks_.reserve(tables.size());
  for (const auto& [table, at] : tables) {
    TomlFileBlock& b = out->blocks_.emplace_back();
    b.file_ = file;
    b.header.at = at;
    for (auto&& [k, v] : *table) {
      if (const std::string_view* kind = entry_kind(k.str(), v)) {
        for (const toml::node& e : *v.as_array()) b.entries_.push_back(TomlFileBlock::Ref{*kind, e.as_table()});
        continue;
      }
      assign(b.header.header.emplace_back(), k.str(), &k.source(), v, file);
    }
    // Each kind's entries are in order; [[def]] and [[impl]] may interleave.
    const auto start = [](const TomlFileBlock::Ref& r) {
      const toml::source_position& p = r.table->source().begin;
      return std::tie(p.line, p.column);
    };
    if (!std::is_sorted(b.entries_.begin(), b.entries_.end(),
                        [&](const auto& x, const auto& y) { return start(x) < start(y); }))
      std::sort(b.entries_.begin(), b.entries_.end(),
                [&](const auto& x, const auto& y) { return start(x) < start(y); });
  }
  return std::shared_ptr<const TomlFile>(std::move(out));
}

}  // namespace dt
