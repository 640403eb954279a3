// The analyses of include/dispatchtool/analysis.hpp: trace, lint, coverage
// and diff over Sessions, as the command line's subcommands compute them.
#include <dispatchtool/analysis.hpp>

#include <algorithm>

#include "api/engine.hpp"
#include "api/session_impl.hpp"
#include "lint/lint.hpp"
#include "lint/output.hpp"
#include "registry/select.hpp"
#include "render/coverage.hpp"
#include "render/diff.hpp"
#include "render/trace.hpp"
#include "resolve/coverage.hpp"

namespace dispatchtool {

Expected<TraceResult, Diagnostic> trace(const Session& s, const TraceRequest& request) {
  const SessionAccess::Impl& impl = SessionAccess::impl(s);
  DT_TRY(ops, select(impl, {request.op}));
  const dt::Registry& reg = impl.loaded->registry;
  auto t = dt::engine::trace(reg, *ops.front(),
                             dt::engine::Call{request.args, request.keyset,
                                              dt::TlsOptions{request.no_grad, request.inference_mode, request.autocast,
                                                             request.python_mode, request.include, request.exclude}});
  if (!t) return unexpected(dt::engine::worded(t.error(), dt::engine::Front::Api));
  const dt::CallTrace& steps = (*t)->steps();
  const dt::TraceView view = (*t)->view(
      impl.profile_label, false, dt::trace_library_note(reg, *impl.profile, steps, {impl.build, impl.build_source}));
  TraceResult out;
  for (const dt::CallStep& step : steps.steps)
    if (step.entry.valid()) out.kernels.emplace_back(step.entry.debug());
  out.raises = steps.result.how == dt::Next::Error;
  if (out.raises) out.error = dt::call_error_message(view);
  dt::render_trace_human(view, out.text);
  dt::render_trace_json(view, out.json);
  return out;
}

LintReport lint(const Session& s) {
  const SessionAccess::Impl& impl = SessionAccess::impl(s);
  const std::vector<dt::lint::Finding> findings = dt::lint::run(*impl.loaded);
  LintReport out;
  for (const auto& f : findings)
    out.findings.push_back(LintFinding{f.rule, f.severity, f.message, f.where, f.notes, f.fix, f.op, f.key});
  dt::lint::render_text(findings, out.text);
  const dt::lint::OutputInfo info{DT_VERSION, impl.profile->name(), ""};
  dt::lint::render_json(findings, info, dt::lint::summarize(findings), out.json);
  return out;
}

Expected<Coverage, Diagnostic> coverage(const Session& s, std::string_view backend) {
  const SessionAccess::Impl& impl = SessionAccess::impl(s);
  dt::Registry& reg = impl.loaded->registry;
  auto keys = dt::coverage_keys(reg, backend);
  if (!keys) return unexpected(dt::about("backend", std::move(keys.error())));
  reg.materialize_all();
  const dt::Resolver resolver(reg);
  const std::vector<const dt::Operator*> ops = reg.sorted_operators();
  const std::vector<dt::CoverageRow> rows = dt::compute_coverage(resolver, ops, *keys);
  Coverage out;
  for (const dt::CoverageRow& row : rows) {
    const Entry e = to_entry(reg, row.key, row.entry);
    out.rows.push_back(CoverageRow{row.op->name, e.key, std::string(dt::to_string(row.status)), e.kernel});
  }
  dt::render_coverage_json(rows, dt::CoverageView{&reg, *keys, ops.size(), false}, out.json);
  return out;
}

Difference diff(const Session& old_side, const Session& new_side) {
  const SessionAccess::Impl& a = SessionAccess::impl(old_side);
  const SessionAccess::Impl& b = SessionAccess::impl(new_side);
  // The inputs' operators were found when the sessions were opened: selecting them again cannot fail.
  auto side_ops = [](const SessionAccess::Impl& impl) {
    auto ops = select(impl, impl.input_ops);
    return ops ? std::move(*ops) : std::vector<const dt::Operator*>{};
  };
  const dt::Resolver old_resolver(a.loaded->registry), new_resolver(b.loaded->registry);
  const dt::TableDiff d =
      dt::diff_tables(dt::DiffSide{&old_resolver, side_ops(a)}, dt::DiffSide{&new_resolver, side_ops(b)});
  Difference out;
  out.compared = d.compared;
  for (const dt::OpDiff& op : d.ops)
    if (op.differs())  // an operator whose entries only moved is no change
      (op.kind == dt::OpChangeKind::Added     ? out.added
       : op.kind == dt::OpChangeKind::Removed ? out.removed
                                              : out.changed)
          .push_back(op.name);
  out.summary = dt::diff_summary(d);
  const dt::DiffView view{&d, {a.profile_label, a.input_paths}, {b.profile_label, b.input_paths}, false, false};
  dt::render_diff_human(view, out.text);
  dt::render_diff_json(view, out.json);
  return out;
}

}  // namespace dispatchtool
