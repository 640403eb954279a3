// dispatchtool::Session (include/dispatchtool/session.hpp): a facade over the
// core's loader, resolver and renderers, as the command line uses them.
#include <algorithm>
#include <dispatchtool/session.hpp>
#include <map>
#include <optional>

#include "api/engine.hpp"
#include "api/session_impl.hpp"
#include "base/io.hpp"
#include "registry/library.hpp"
#include "registry/select.hpp"
#include "render/build_note.hpp"
#include "render/explain.hpp"
#include "render/json.hpp"
#include "render/raw.hpp"
#include "resolve/key_call.hpp"

namespace dispatchtool {

std::string_view default_profile() { return dt::kDefaultProfile; }

std::vector<std::string> builtin_profiles() {
  std::vector<std::string> names;
  for (const auto& p : dt::embedded_profiles()) names.emplace_back(p.name);
  std::sort(names.begin(), names.end());
  return names;
}

Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

Expected<Session, Diagnostic> Session::open(SessionOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->profile_label = options.profile;
  impl->build = options.build;
  impl->build_source = options.build_source;
  dt::FileSystem fs = dt::real_filesystem();
  // Inputs given as text are read from memory under their names.
  auto texts = std::make_shared<std::map<std::string, std::string, std::less<>>>();
  for (auto& in : options.inputs) {
    impl->input_paths.push_back(in.path);
    if (in.text) (*texts)[in.path] = std::move(*in.text);
  }
  const dt::ReadFile read = [texts, disk = fs.read](const std::string& path) -> Expected<std::string, Diagnostic> {
    if (auto it = texts->find(path); it != texts->end()) return it->second;
    return disk(path);
  };
  auto profile = dt::load_profile(options.profile, read);
  if (!profile) {
    // An error of the argument itself (no file) names the parameter.
    if (profile.error().where.file.empty()) return unexpected(dt::about("profile", std::move(profile.error())));
    return unexpected(std::move(profile.error()));
  }
  impl->profile = std::make_unique<dt::Profile>(std::move(*profile));
  dt::engine::Request request;
  request.files = impl->input_paths;
  request.register_calls = options.register_calls;
  request.load.on_refusal = options.record_refusals ? dt::OnRefusal::Record : dt::OnRefusal::Fail;
  const auto fail = [](const dt::engine::Error& e) { return unexpected(dt::engine::worded(e, dt::engine::Front::Api)); };
  if (request.register_calls.empty()) {
    auto lib =
        dt::engine::open_library(*impl->profile, options.library,
                                 dt::engine::Build{options.build, options.build_source}, fs, dt::embedded_libraries());
    if (!lib) return fail(lib.error());
    request.load.library = std::move(*lib);
  }
  auto loaded = dt::engine::load(*impl->profile, request, read);
  if (!loaded) return fail(loaded.error());
  impl->loaded = std::make_unique<dt::LoadResult>(std::move(*loaded));
  if (!impl->input_paths.empty() || !request.register_calls.empty()) {
    DT_TRY(ops, dt::select_ops(impl->loaded->registry, {}));
    for (const dt::Operator* op : ops) impl->input_ops.push_back(op->name);
  }
  return Session(std::move(impl));
}

const std::string& Session::profile() const { return impl_->profile_label; }
std::string Session::torch_version() const { return impl_->profile->torch_version(); }

std::vector<std::string> Session::runtime_keys() const {
  std::vector<std::string> keys;
  const dt::Registry& reg = impl_->loaded->registry;
  for (dt::KeyId k : impl_->profile->runtime_keys()) keys.push_back(reg.profile().display_name(k, reg.privateuse1_name));
  return keys;
}

std::vector<std::string> Session::operators() const { return impl_->input_ops; }

std::vector<std::string> Session::all_operators() const {
  dt::Registry& reg = impl_->loaded->registry;
  reg.materialize_all();
  std::vector<std::string> names;
  for (const dt::Operator* op : reg.sorted_operators()) names.push_back(op->name);
  return names;
}

std::vector<Diagnostic> Session::warnings() const {
  std::vector<Diagnostic> out = impl_->loaded->source_warnings;
  const auto& overrides = impl_->loaded->registry.warnings();
  out.insert(out.end(), overrides.begin(), overrides.end());
  return out;
}
std::vector<Diagnostic> Session::refusals() const { return impl_->loaded->refusals; }

Expected<std::vector<const dt::Operator*>, Diagnostic> select(const SessionAccess::Impl& s,
                                                               const std::vector<std::string>& names) {
  std::vector<const dt::Operator*> ops;
  for (const auto& name : names) {  // one each, in the order given
    DT_TRY(one, dt::select_ops(s.loaded->registry, {name}));
    ops.push_back(one.front());
  }
  return ops;
}

Entry to_entry(const dt::Registry& reg, dt::KeyId key, const dt::Entry& e) {
  Entry out;
  const dt::Profile& p = reg.profile();
  out.key = p.display_name(key, reg.privateuse1_name);
  out.valid = e.valid();
  out.provenance = dt::to_string(e.why);
  if (!e.valid()) return out;
  out.kernel = std::string(e.debug());
  out.source_key = p.display_name(e.source, reg.privateuse1_name);
  out.fallthrough = e.fallthrough();
  if (e.kernel != nullptr) out.where = e.kernel->where;
  if (e.fallback != nullptr && !e.fallback->core) out.where = e.fallback->where;
  return out;
}

void set_runtime(Entry& out, const dt::KeyAnswer& a) {
  out.stale = a.stale;
  if (a.stale && a.entry.valid()) out.runtime_kernel = std::string(a.entry.debug());
}

Expected<Table, Diagnostic> Session::table(std::string_view op, std::string_view keys) const {
  DT_TRY(ops, select(*impl_, {std::string(op)}));
  const dt::Registry& reg = impl_->loaded->registry;
  dt::KeySelection filter;
  if (!keys.empty()) {
    DT_TRY(parsed, dt::parse_key_filter(reg, keys));
    filter = std::move(parsed);
  }
  const dt::Operator& o = *ops.front();
  const dt::Resolver r(reg);
  std::optional<dt::RuntimeTables> runtime;  // what calls run, where rows may be stale
  if (dt::may_be_stale(reg, o)) runtime.emplace(r);
  Table t;
  t.op = o.name;
  if (o.def) t.schema = o.def->printed;
  dt::render_table_raw(r, o, filter.table, t.raw);
  dt::render_registrations_raw(reg, o, filter.registrations, t.registrations);
  const std::vector<dt::KeyId>& order = filter.table.empty() ? impl_->profile->runtime_keys() : filter.table.keys;
  for (dt::KeyId k : order) {
    const dt::Entry e = r.compute(o, k);
    if (!e.valid()) continue;
    t.entries.push_back(to_entry(reg, k, e));
    if (runtime) set_runtime(t.entries.back(), runtime->answer(o, k));
  }
  return t;
}

Expected<Entry, Diagnostic> Session::explain(std::string_view op, std::string_view key) const {
  DT_TRY(ops, select(*impl_, {std::string(op)}));
  const dt::Registry& reg = impl_->loaded->registry;
  DT_TRY(parsed, dt::parse_key_filter(reg, key));
  if (parsed.table.keys.size() != 1)
    return unexpected(dt::make_error("explain needs one runtime key; '" + std::string(key) + "' stands for " +
                                     std::to_string(parsed.table.keys.size())));
  const dt::Resolver r(reg);
  const dt::Explainer x(r, *ops.front());
  const dt::Explanation ex = x.explain(parsed.table.keys.front());
  Entry out = to_entry(reg, ex.key, ex.result);
  set_runtime(out, ex.runtime);
  for (const dt::ExplainStep& s : ex.steps)
    out.steps.push_back(Step{std::string(s.step), x.question(ex, s), x.answer(s, false), x.note_line(s), s.taken});
  out.meaning = x.meaning(ex);
  return out;
}

Expected<std::string, Diagnostic> Session::table_json(const std::vector<std::string>& names) const {
  DT_TRY(ops, select(*impl_, names.empty() ? impl_->input_ops : names));
  const dt::Resolver r(impl_->loaded->registry);
  std::string out;
  const std::string note = dt::build_library_note(impl_->loaded->registry, ops, {impl_->build, impl_->build_source});
  dt::render_table_json(r, ops, dt::KeyFilter{}, dt::JsonDocument{DT_VERSION, impl_->profile_label, [] {}, note}, out);
  return out;
}

}  // namespace dispatchtool
