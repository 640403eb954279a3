#include "render/ops.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/json_writer.hpp"
#include "base/operator_name.hpp"
#include "base/text.hpp"

namespace dt {

namespace {

const std::vector<std::string>& tags_of(const Operator& op) {
  static const std::vector<std::string> kNone;
  return op.def ? op.def->tags : kNone;
}

// The keys with kernels, in enum order, PrivateUse1 renamed.
std::vector<std::string> kernel_keys(const OpsView& v, const Operator& op) {
  std::vector<std::string> out;
  for (const auto& kk : op.kernels)
    if (!kk.kernels.empty()) out.push_back(v.registry->profile().display_name(kk.key, v.registry->privateuse1_name));
  return out;
}

void envelope(JsonWriter& w, const OpsView& v) {
  w.member("version", std::uint64_t{1});
  w.key("tool");
  w.begin_object();
  w.member("name", "dispatchtool");
  w.member("version", v.tool_version);
  w.end_object();
  w.member("profile", v.registry->profile().name());
}

void string_array(JsonWriter& w, std::string_view key, const std::vector<std::string>& items) {
  w.key(key);
  w.begin_array();
  for (const auto& i : items) w.str(i);
  w.end_array();
}

struct Counts {
  std::map<std::string_view, std::size_t> namespaces;
  std::vector<std::pair<std::string, std::size_t>> tags;  // the profile's order, then unknown ones by name
  std::size_t untagged = 0;
};

Counts count(const std::vector<const Operator*>& ops, const OpsView& v) {
  Counts c;
  std::map<std::string, std::size_t> by_tag;
  for (const Operator* op : ops) {
    ++c.namespaces[OperatorName::namespace_of(op->name)];
    if (tags_of(*op).empty()) ++c.untagged;
    for (const auto& t : tags_of(*op)) ++by_tag[t];
  }
  for (const auto& t : v.registry->profile().tags()) {
    auto it = by_tag.find(t.name);
    c.tags.emplace_back(t.name, it == by_tag.end() ? 0 : it->second);
    if (it != by_tag.end()) by_tag.erase(it);
  }
  for (auto& [t, n] : by_tag) c.tags.emplace_back(t, n);
  return c;
}

}  // namespace

void render_ops_text(const std::vector<const Operator*>& ops, const OpsView& v, std::string& out) {
  for (const Operator* op : ops) {
    append_printable(op->def ? op->def->printed : op->name + " (no schema)", out);
    const auto& tags = tags_of(*op);
    const auto keys = kernel_keys(v, *op);
    out += "  tags: ";
    append_printable(tags.empty() ? "-" : join(tags, ","), out);
    out += "  kernels: ";
    append_printable(keys.empty() ? "-" : join(keys, ","), out);
    out += '\n';
  }
}

void render_ops_json(const std::vector<const Operator*>& ops, const OpsView& v, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  envelope(w, v);
  w.key("operators");
  w.begin_array();
  for (const Operator* op : ops) {
    w.begin_object();
    w.member("name", op->name);
    w.member("namespace", OperatorName::namespace_of(op->name));
    w.key("schema");
    if (op->def)
      w.str(op->def->printed);
    else
      w.null();
    string_array(w, "tags", tags_of(*op));
    string_array(w, "kernels", kernel_keys(v, *op));
    w.key("pytorch");
    w.boolean(op->library);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void render_ops_count_text(const std::vector<const Operator*>& ops, const OpsView& v, std::string& out) {
  const Counts c = count(ops, v);
  std::size_t width = 10;
  for (const auto& [ns, n] : c.namespaces) width = std::max(width, ns.size());
  for (const auto& [t, n] : c.tags) width = std::max(width, t.size());
  out += fmt::format("{} {} (profile {})\n\nby namespace:\n", ops.size(), ops.size() == 1 ? "operator" : "operators",
                     v.registry->profile().name());
  for (const auto& [ns, n] : c.namespaces) out += fmt::format("  {:<{}}  {:>5}\n", printable(ns), width, n);
  out += "\nby tag:\n";
  for (const auto& [t, n] : c.tags) out += fmt::format("  {:<{}}  {:>5}\n", printable(t), width, n);
  out += fmt::format("  {:<{}}  {:>5}\n", "(no tag)", width, c.untagged);
}

void render_ops_count_json(const std::vector<const Operator*>& ops, const OpsView& v, std::string& out) {
  const Counts c = count(ops, v);
  JsonWriter w(out);
  w.begin_object();
  envelope(w, v);
  w.member("operators", std::uint64_t{ops.size()});
  w.key("namespaces");
  w.begin_array();
  for (const auto& [ns, n] : c.namespaces) {
    w.begin_object();
    w.member("namespace", ns);
    w.member("operators", std::uint64_t{n});
    w.end_object();
  }
  w.end_array();
  w.key("tags");
  w.begin_array();
  for (const auto& [t, n] : c.tags) {
    w.begin_object();
    w.member("tag", t);
    w.member("operators", std::uint64_t{n});
    w.end_object();
  }
  w.end_array();
  w.member("untagged", std::uint64_t{c.untagged});
  w.end_object();
}

}  // namespace dt
