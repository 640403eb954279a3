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
    for (KeyId k : columns) w.num(cells.index(cell_json(x, x.explain(k), strings)));
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

void render_html_page(std::string_view page_template, std::string_view data, std::string& out) {
  const std::size_t at = page_template.find(kHtmlPlaceholder);
  if (at == std::string_view::npos) {  // the build checks the template (cmake/embed_html.cmake)
    out += page_template;
    return;
  }
  out.reserve(out.size() + page_template.size() + data.size() + data.size() / 16);
  out += page_template.substr(0, at);
  // '<' occurs only inside JSON strings: \u003c there means the same, and no
  // "</script>" or "<!--" can end the script element early.
  for (char c : data) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  out += page_template.substr(at + kHtmlPlaceholder.size());
}

}  // namespace dt
