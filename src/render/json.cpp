// --format json (json.hpp).
#include "render/json.hpp"

#include <memory>

#include "base/json_writer.hpp"
#include "render/explain.hpp"
#include "resolve/coverage.hpp"
#include "resolve/key_call.hpp"

namespace dt {

namespace {

std::string key_name(const Registry& reg, KeyId k) { return reg.profile().display_name(k, reg.privateuse1_name); }

// {"file", "line", "column"}, or null for a registration without a place in
// a file (the demo operator's "<PythonDispatcher>" and its register() calls').
void json_location(JsonWriter& w, std::string_view member, const Location& where) {
  w.key(member);
  if (!where.known()) {
    w.null();
    return;
  }
  w.begin_object();
  w.member("file", where.file.view());
  w.member("line", std::uint64_t{where.line});
  w.member("column", std::uint64_t{where.column});
  w.end_object();
}

// A table entry's members (common.schema.json#/$defs/entry, or missing_entry).
void json_entry_members(JsonWriter& w, const Registry& reg, KeyId key, const Entry& e) {
  w.member("key", key_name(reg, key));
  if (e.valid()) {
    w.member("kernel", e.debug());
    w.member("provenance", to_string(e.why));
  } else {
    w.null_member("kernel");
    w.null_member("provenance");
  }
  w.member("status", to_string(coverage_status(e)));
  w.bool_member("fallthrough", e.valid() && e.fallthrough());
  if (e.valid())
    w.member("source_key", key_name(reg, e.source));
  else
    w.null_member("source_key");
}

void json_entry(JsonWriter& w, const Registry& reg, KeyId key, const Entry& e) {
  w.begin_object();
  json_entry_members(w, reg, key, e);
  w.end_object();
}

// "runtime": what a call on the row's key runs where the runtime dispatch
// table is stale (key_call.hpp: the dumps, and `entry`, say otherwise), else
// null.
void json_runtime(JsonWriter& w, const Registry& reg, const KeyAnswer& a) {
  if (!a.stale) {
    w.null_member("runtime");
    return;
  }
  w.key("runtime");
  json_entry(w, reg, a.key, a.entry);
}

void begin_document(JsonWriter& w, const JsonDocument& doc) { begin_envelope(w, doc.tool_version, doc.profile); }

// After the envelope of table, registrations and explain.
void library_note_member(JsonWriter& w, const JsonDocument& doc) {
  w.nonempty_member("library_note", doc.library_note);
}

void flush(const JsonDocument& doc) {
  if (doc.flush) doc.flush();
}

void json_definition(JsonWriter& w, const Operator& op) {
  const Definition* d = op.def ? &*op.def : nullptr;
  w.optional_member("schema", d ? std::optional<std::string_view>(d->printed) : std::nullopt);
  w.optional_member("debug", d ? std::optional<std::string_view>(d->debug) : std::nullopt);
  w.optional_member("alias_analysis", d ? std::optional<std::string_view>(to_string(d->alias)) : std::nullopt);
  w.key("tags");
  w.begin_array();
  if (d)
    for (const auto& t : d->tags) w.str(t);
  w.end_array();
  if (d)
    json_location(w, "location", d->where);
  else
    w.null_member("location");
}

void json_kernels(JsonWriter& w, const Registry& reg, const Operator& op, const KeyFilter& f) {
  const Profile& p = reg.profile();
  w.key("kernels");
  w.begin_array();
  for (const auto& kk : op.kernels) {  // enum order, newest kernel first
    if (!f.allows(kk.key)) continue;
    for (std::size_t i = 0; i < kk.kernels.size(); ++i) {
      const Kernel& k = kk.kernels[i];
      w.begin_object();
      w.member("key", key_name(reg, kk.key));
      w.bool_member("alias", p.is_alias(kk.key));
      w.bool_member("active", i == 0);
      w.member("kernel", k.debug);
      w.optional_member("signature", k.signature ? std::optional<std::string_view>(*k.signature) : std::nullopt);
      w.bool_member("fallthrough", k.fallthrough);
      w.bool_member("boxed_only", k.boxed_only);
      json_location(w, "location", k.where);
      w.end_object();
    }
  }
  w.end_array();
}

// Every backend fallback: those on runtime keys in table order, then the
// files' fallbacks on building blocks (accepted, but no table row).
void json_fallbacks(JsonWriter& w, const Registry& reg, const KeyFilter& f) {
  const Profile& p = reg.profile();
  const auto write = [&](const Fallback& fb) {
    w.begin_object();
    w.member("key", key_name(reg, fb.key));
    w.member("kernel", fb.debug);
    w.bool_member("fallthrough", fb.fallthrough);
    w.bool_member("pytorch", fb.core);
    if (fb.core)
      w.null_member("location");
    else
      json_location(w, "location", fb.where);
    w.end_object();
  };
  w.key("fallbacks");
  w.begin_array();
  for (KeyId k : p.runtime_keys())
    if (const Fallback* fb = reg.fallback_for(k); fb != nullptr && f.allows(k)) write(*fb);
  for (const Fallback& fb : reg.user_fallbacks())
    if (!p.is_runtime(fb.key) && f.allows(fb.key)) write(fb);
  w.end_array();
}

const char* kind_name(KeyKind k) {
  switch (k) {
    case KeyKind::Undefined:
      return "undefined";
    case KeyKind::PerBackend:
      return "per-backend";
    default:
      return "functionality";
  }
}

void json_step(JsonWriter& w, const Explainer& x, const Explanation& e, const ExplainStep& s) {
  w.begin_object();
  w.member("step", s.step);
  w.member("question", x.question(e, s));
  w.member(s.about_alias ? "alias" : "key", x.key_name(s.subject));
  w.bool_member("applies", s.applies);
  if (s.kernel != nullptr)
    w.member("kernel", s.kernel->debug);
  else if (s.fallback != nullptr)
    w.member("kernel", s.fallback->debug);
  else
    w.null_member("kernel");
  w.bool_member("taken", s.taken);
  w.optional_member("note", s.note.empty() ? std::nullopt : std::optional<std::string_view>(s.note));
  w.end_object();
}

}  // namespace

void render_table_json(const Resolver& r, const std::vector<const Operator*>& ops, const KeyFilter& f,
                       const JsonDocument& doc, std::string& out) {
  const Registry& reg = r.registry();
  const auto& keys = r.profile().runtime_keys();
  JsonWriter w(out);
  begin_document(w, doc);
  library_note_member(w, doc);
  w.key("operators");
  w.begin_array();
  Resolver::OpView view;
  std::unique_ptr<RuntimeTables> runtime;  // built for the first operator whose rows may be stale
  for (const Operator* op : ops) {
    r.prepare(*op, view);
    const bool may_stale = may_be_stale(reg, *op);
    if (may_stale && runtime == nullptr) runtime = std::make_unique<RuntimeTables>(r);
    w.begin_object();
    w.member("name", op->name);
    w.optional_member("schema", op->def ? std::optional<std::string_view>(op->def->printed) : std::nullopt);
    w.key("entries");
    w.begin_array();
    for (std::size_t slot = 0; slot < keys.size(); ++slot) {
      if (!f.allows(keys[slot])) continue;
      const Entry e = r.compute(view, slot);
      if (!e.valid()) continue;
      w.begin_object();
      json_entry_members(w, reg, keys[slot], e);
      json_runtime(w, reg, may_stale ? answer_key(runtime->of(*op), slot) : KeyAnswer{});
      w.end_object();
    }
    w.end_array();
    w.end_object();
    flush(doc);
  }
  w.end_array();
  w.end_object();
}

void render_registrations_json(const Registry& reg, const std::vector<const Operator*>& ops, const KeyFilter& f,
                               const JsonDocument& doc, std::string& out) {
  JsonWriter w(out);
  begin_document(w, doc);
  library_note_member(w, doc);
  w.key("operators");
  w.begin_array();
  for (const Operator* op : ops) {
    w.begin_object();
    w.member("name", op->name);
    json_definition(w, *op);
    json_kernels(w, reg, *op, f);
    w.end_object();
    flush(doc);
  }
  w.end_array();
  json_fallbacks(w, reg, f);
  w.end_object();
}

void render_keys_json(const Registry& reg, const JsonDocument& doc, std::string& out) {
  const Profile& p = reg.profile();
  JsonWriter w(out);
  begin_document(w, doc);
  w.optional_member("privateuse1_backend", reg.privateuse1_name.empty()
                                               ? std::nullopt
                                               : std::optional<std::string_view>(reg.privateuse1_name));
  w.key("runtime_keys");
  w.begin_array();
  for (KeyId k : p.runtime_keys()) {
    const KeyInfo& info = p.key(k);
    w.begin_object();
    w.member("name", key_name(reg, k));
    w.member("row", static_cast<std::uint64_t>(info.slot));
    w.member("value", std::uint64_t{k});
    w.member("kind", kind_name(info.kind));
    w.bool_member("parseable", info.parseable);
    w.key("fallback");
    if (const Fallback* fb = reg.fallback_for(k)) {
      w.begin_object();
      w.member("kernel", fb->debug);
      w.bool_member("fallthrough", fb->fallthrough);
      w.bool_member("pytorch", fb->core);
      w.end_object();
    } else {
      w.null();
    }
    w.end_object();
  }
  w.end_array();
  w.key("building_blocks");
  w.begin_array();
  for (std::size_t i = 0; i < p.keys().size(); ++i)  // size_t: KeyId is 16 bits
    if (const auto k = static_cast<KeyId>(i); p.key(k).kind == KeyKind::BuildingBlock) {
      w.begin_object();
      w.member("name", key_name(reg, k));
      w.member("value", std::uint64_t{k});
      w.end_object();
    }
  w.end_array();
  w.key("aliases");
  w.begin_array();
  for (KeyId a : p.alias_keys()) {
    w.begin_object();
    w.member("name", key_name(reg, a));
    w.member("value", std::uint64_t{a});
    w.key("covers");
    w.begin_array();
    for (KeyId m : p.alias_members(a)) w.str(key_name(reg, m));
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void render_explain_json(const Resolver& r, const Operator& op, const std::vector<KeyId>& keys, const JsonDocument& doc,
                         std::string& out) {
  const Registry& reg = r.registry();
  const Explainer x(r, op);
  JsonWriter w(out);
  begin_document(w, doc);
  library_note_member(w, doc);
  w.member("operator", op.name);
  w.key("explanations");
  w.begin_array();
  for (KeyId k : keys) {
    if (r.profile().key(k).slot < 0) continue;  // callers pass runtime keys (--keys expands aliases)
    const Explanation e = x.explain(k);
    w.begin_object();
    w.member("key", x.key_name(k));
    w.key("steps");
    w.begin_array();
    for (const ExplainStep& s : e.steps) json_step(w, x, e, s);
    w.end_array();
    w.key("result");
    json_entry(w, reg, k, e.result);
    json_runtime(w, reg, e.runtime);
    w.member("meaning", x.meaning(e));
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace dt
