// dispatchtool html (html.hpp).
#include "render/html.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "base/json_writer.hpp"
#include "render/explain.hpp"
#include "resolve/coverage.hpp"

namespace dt {

namespace {

// Strings and cells written once each, in the order first seen (so the
// output does not depend on the hash map's order).
class Interner {
 public:
  std::uint64_t index(const std::string& s) {
    const auto [it, added] = index_.try_emplace(s, items_.size());
    if (added) items_.push_back(s);
    return it->second;
  }
  [[nodiscard]] const std::vector<std::string>& items() const { return items_; }

 private:
  std::unordered_map<std::string, std::uint64_t> index_;
  std::vector<std::string> items_;
};

// The column header's kind (docs/html/README.md): per-backend or functionality.
std::string_view column_kind(const Profile& p, KeyId k) {
  return p.key(k).kind == KeyKind::PerBackend ? "per-backend" : "functionality";
}

// One cell as compact JSON (members in the schema's order), strings as indices.
std::string cell_json(const Explainer& x, const Explanation& e, Interner& strings) {
  std::string out;
  JsonWriter w(out, JsonWriter::Layout::Compact);
  const Entry& r = e.result;
  w.begin_object();
  w.member("status", to_string(coverage_status(r)));
  if (r.valid()) {
    w.member("kernel", strings.index(std::string(r.debug())));
    w.member("provenance", to_string(r.why));
    w.member("source_key", x.key_name(r.source));
  } else {
    w.null_member("kernel");
    w.null_member("provenance");
    w.null_member("source_key");
  }
  w.key("steps");
  w.begin_array();
  for (const ExplainStep& s : e.steps) {
    std::string answer = x.answer(s, false);
    if (const std::string note = x.note_line(s); !note.empty()) {
      answer += '\n';
      answer += note;
    }
    w.begin_array();
    w.str(s.step);
    w.num(strings.index(x.question(s, "{key}")));
    w.num(strings.index(answer));
    w.end_array();
  }
  w.end_array();
  w.member("meaning", strings.index(x.meaning(e, "{op}", "{available}", "{key}")));
  w.end_object();
  return out;
}

// What a cell's texts are made of (cell_json), as bytes: equal keys make
// equal cells, so a cell seen before is not written again (most cells of a
// large registry repeat: missing rows, fallbacks, the same alias kernels).
// Empty for a row that is stale at run time (its sentence is not memoized).
void append_id(std::string& key, const void* p) {
  const auto v = reinterpret_cast<std::uintptr_t>(p);
  key.append(reinterpret_cast<const char*>(&v), sizeof v);
}
void append_text(std::string& key, std::string_view text) {
  const std::size_t n = text.size();
  key.append(reinterpret_cast<const char*>(&n), sizeof n);
  key += text;
}
void append_kernel(std::string& key, const Kernel* k) {
  key += k == nullptr ? '0' : k->fallthrough ? 'f' : 'k';
  if (k == nullptr) return;
  append_text(key, k->debug);
  append_text(key, k->where.file.view());
  key.append(reinterpret_cast<const char*>(&k->where.line), sizeof k->where.line);
  key.append(reinterpret_cast<const char*>(&k->where.column), sizeof k->where.column);
}
bool cell_key(std::size_t column, const Explanation& e, std::string& key) {
  key.clear();
  if (e.runtime.stale) return false;
  key.append(reinterpret_cast<const char*>(&column), sizeof column);
  key += static_cast<char>(e.runtime.call);
  const Entry& r = e.result;
  key += static_cast<char>(r.why);
  key.append(reinterpret_cast<const char*>(&r.source), sizeof r.source);
  append_kernel(key, r.kernel);
  append_id(key, r.fallback);  // fallbacks are the registry's, one object each
  for (const ExplainStep& s : e.steps) {
    append_text(key, s.step);
    key.append(reinterpret_cast<const char*>(&s.subject), sizeof s.subject);
    key += static_cast<char>((s.about_alias ? 1 : 0) | (s.applies ? 2 : 0) | (s.taken ? 4 : 0));
    append_kernel(key, s.kernel);
    append_id(key, s.fallback);
    append_text(key, s.note);
  }
  return true;
}

}  // namespace

HtmlStats render_html_data(const Resolver& r, const std::vector<const Operator*>& ops, const KeyFilter& f,
                           const HtmlDocument& doc, std::string& out) {
  const Registry& reg = r.registry();
  const Profile& p = r.profile();
  std::vector<KeyId> columns;
  for (KeyId k : p.runtime_keys())
    if (k != kUndefined && f.allows(k)) columns.push_back(k);
  const auto name = [&](KeyId k) { return p.display_name(k, reg.privateuse1_name); };

  JsonWriter w(out, JsonWriter::Layout::Compact);
  begin_envelope(w, doc.tool_version, doc.profile);
  w.member("title", doc.title);
  w.key("keys");
  w.begin_array();
  for (KeyId k : columns) {
    w.begin_object();
    w.member("name", name(k));
    w.member("kind", column_kind(p, k));
    w.end_object();
  }
  w.end_array();
  w.key("aliases");
  w.begin_array();
  for (KeyId a : p.alias_keys()) {
    w.begin_object();
    w.member("name", name(a));
    w.key("covers");
    w.begin_array();
    const std::vector<KeyId> members = p.alias_members(a);  // table order, as the columns
    for (std::size_t j = 0; j < columns.size(); ++j)
      if (std::find(members.begin(), members.end(), columns[j]) != members.end()) w.num(j);
    w.end_array();
    w.end_object();
  }
  w.end_array();

  const RuntimeTables runtime(r);  // what calls do (stale rows), shared by the operators' explainers
  Interner strings, cells;
  std::unordered_map<std::string, std::uint64_t> seen;  // cell_key -> cell index
  std::string key;
  w.key("operators");
  w.begin_array();
  for (const Operator* op : ops) {
    const Explainer x(r, *op, &runtime);
    w.begin_object();
    w.member("namespace", op->name.substr(0, op->name.find("::")));
    w.member("name", op->name);
    w.optional_member("schema", op->def ? std::optional<std::string_view>(op->def->printed) : std::nullopt);
    w.member("available", strings.index(x.available()));
    w.key("cells");
    w.begin_array();
    for (std::size_t j = 0; j < columns.size(); ++j) {
      const Explanation e = x.explain(columns[j]);
      if (!cell_key(j, e, key)) {
        w.num(cells.index(cell_json(x, e, strings)));
        continue;
      }
      const auto it = seen.find(key);
      if (it != seen.end()) {
        w.num(it->second);
        continue;
      }
      const std::uint64_t cell = cells.index(cell_json(x, e, strings));
      seen.emplace(key, cell);
      w.num(cell);
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("cells");
  w.begin_array();
  for (const std::string& c : cells.items()) w.raw_value(c);
  w.end_array();
  w.key("strings");
  w.begin_array();
  for (const std::string& s : strings.items()) w.str(s);
  w.end_array();
  w.end_object();
  return {ops.size(), columns.size(), cells.items().size(), strings.items().size()};
}

// '<' occurs only inside JSON strings: \u003c there means the same, and no
// "</script>" or "<!--" can end the script element early.
constexpr std::string_view kEscapedLess = "\\u003c";

void render_html_page(std::string_view page_template, std::string_view data, std::string& out) {
  const std::size_t at = page_template.find(kHtmlPlaceholder);
  if (at == std::string_view::npos) {  // the build checks the template (cmake/embed_html.cmake)
    out += page_template;
    return;
  }
  out.reserve(out.size() + page_template.size() + data.size() + data.size() / 16);
  out += page_template.substr(0, at);
  for (std::size_t from = 0; from < data.size();) {
    const std::size_t less = std::min(data.find('<', from), data.size());
    out += data.substr(from, less - from);
    if (less < data.size()) out += kEscapedLess;
    from = less + 1;
  }
  out += page_template.substr(at + kHtmlPlaceholder.size());
}

void render_html_page_in_place(std::string_view page_template, std::string& data) {
  const std::size_t at = page_template.find(kHtmlPlaceholder);
  if (at == std::string_view::npos) {
    data.assign(page_template);
    return;
  }
  const std::string_view before = page_template.substr(0, at);
  const std::string_view after = page_template.substr(at + kHtmlPlaceholder.size());
  const auto less = static_cast<std::size_t>(std::count(data.begin(), data.end(), '<'));
  const std::size_t n = data.size();
  data.resize(before.size() + n + less * (kEscapedLess.size() - 1) + after.size());
  // From the back: every byte moves right (by the template's head and the
  // escapes before it), so nothing is overwritten before it is read.
  std::size_t to = data.size() - after.size();
  std::copy(after.begin(), after.end(), data.begin() + static_cast<std::ptrdiff_t>(to));
  for (std::size_t i = n; i-- > 0;) {
    if (data[i] == '<') {
      to -= kEscapedLess.size();
      std::copy(kEscapedLess.begin(), kEscapedLess.end(), data.begin() + static_cast<std::ptrdiff_t>(to));
    } else {
      data[--to] = data[i];
    }
  }
  std::copy(before.begin(), before.end(), data.begin());
}

}  // namespace dt
