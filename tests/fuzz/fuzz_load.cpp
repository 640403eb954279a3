// libFuzzer harness: the input loader, the resolver, every renderer (table,
// registrations, explain as text, raw and JSON; coverage, html, trace, diff)
// and lint.
//
// Input: up to 4 registration files separated by "\n#---\n". The first byte
// picks the profile (torch-main / torch-1.13), whether refusals stop loading
// (table) or are recorded (lint), the readable view's style and the key
// explained; the last byte whether documents and traces are rendered, and
// trace's tensor. Both bytes are also part of the files.
#include <fmt/format.h>

#include <algorithm>

#include "base/limits.hpp"
#include "fuzz_common.hpp"
#include "lint/baseline.hpp"
#include "lint/config.hpp"
#include "lint/lint.hpp"
#include "lint/output.hpp"
#include "registry/loader.hpp"
#include "render/coverage.hpp"
#include "render/diff.hpp"
#include "render/explain.hpp"
#include "render/html.hpp"
#include "render/json.hpp"
#include "render/python_dispatcher_view.hpp"
#include "render/raw.hpp"
#include "render/readable.hpp"
#include "render/trace.hpp"
#include "resolve/call.hpp"
#include "resolve/coverage.hpp"
#include "resolve/diff.hpp"
#include "resolve/resolver.hpp"
#include "resolve/runtime_table.hpp"

using namespace dt;

namespace {

// What scripts and pages read: JSON of table, registrations, keys and
// explain; coverage of CPU; the html page (no text of the input may close
// its script element); diff of every other operator against all of them.
void render_documents(const Resolver& resolver, const std::vector<const Operator*>& ops, KeyId key,
                      const HumanStyle& style, std::string& out) {
  const Registry& reg = resolver.registry();
  const std::string_view profile = reg.profile().name();
  const KeyFilter all;
  const JsonDocument doc{"fuzz", profile, {}, {}};
  out.clear();
  render_table_json(resolver, ops, all, doc, out);
  render_registrations_json(reg, ops, all, doc, out);
  render_keys_json(reg, doc, out);
  for (const Operator* op : ops) render_explain_json(resolver, *op, {key}, doc, out);

  if (auto keys = coverage_keys(reg, "CPU")) {
    const auto rows = compute_coverage(resolver, ops, *keys);
    const CoverageView view{&reg, *keys, ops.size(), style.color};
    render_coverage_summary(rows, view, out);
    render_coverage_rows(rows, view, out);
    render_coverage_json(rows, view, out);
  }

  std::string data, page;
  render_html_data(resolver, ops, all, HtmlDocument{"fuzz", profile, "fuzz"}, data);
  render_html_page(html_template(), data, page);
  const auto closings = [](std::string_view text) {
    std::size_t n = 0;
    for (auto at = text.find("</"); at != std::string_view::npos; at = text.find("</", at + 2)) ++n;
    return n;
  };
  if (closings(page) != closings(html_template())) fuzz::fail();

  DiffSide old_side{&resolver, {}};
  for (std::size_t i = 0; i < ops.size(); i += 2) old_side.ops.push_back(ops[i]);
  const TableDiff d = diff_tables(old_side, DiffSide{&resolver, ops});
  if (count(d).added != ops.size() / 2 || count(d).changed != 0) fuzz::fail();
  const DiffSideLabel label{std::string(profile), {"f.toml"}};
  DiffView view{&d, label, label, style.color, style.expand};
  render_diff_human(view, out);
  render_diff_json(view, out);
}

// trace: each operator called with one tensor (the device the input picks)
// for every dispatch argument, under the default thread-local state.
void render_traces(const Resolver& resolver, const std::vector<const Operator*>& ops, unsigned pick,
                   const HumanStyle& style, std::string& out) {
  const Registry& reg = resolver.registry();
  const KeysetAlgebra ks(reg.profile());
  const auto words = device_words(reg.profile(), reg.privateuse1_name);
  if (words.empty()) fuzz::fail();
  std::string word = words[pick % words.size()];
  if ((pick & 0x80) != 0) word += ",requires_grad";
  const auto tls = make_tls(ks, reg.privateuse1_name, TlsOptions{});
  if (!tls) fuzz::fail();
  for (const Operator* op : ops) {
    const Schema* schema = op->def ? &op->def->schema : nullptr;
    std::size_t n = 1;
    if (schema != nullptr) {
      n = 0;
      for (const auto& a : schema->arguments) n += dispatch_arg_kind(a.type).has_value() ? 1 : 0;
    }
    auto call = bind_arguments(ks, reg.privateuse1_name, schema, std::vector<std::string>(n, word), true);
    if (!call) continue;  // e.g. a layout this device has no key for
    const RuntimeTable table(resolver, ks, *op);
    const CallTrace trace = trace_call(table, ks, CallInput{call->args, KeySet{}, *tls});
    const TraceView view{&table, &ks, &*call, KeySet{}, *tls, &trace, reg.profile().name(), style.color, {}};
    out.clear();
    render_trace_human(view, out);
    render_trace_json(view, out);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > fuzz::kMaxInput) return -1;  // -1: not added to the corpus
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const unsigned mode = data[0];
  const Profile& profile = fuzz::builtin_profile(mode & 1);
  const bool record = (mode & 2) != 0;

  auto parts = fuzz::split_files(text);
  auto files = std::make_shared<std::map<std::string, std::string>>();
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    paths.push_back(fmt::format("f{}.toml", i));
    (*files)[paths.back()] = std::move(parts[i]);
  }
  LoadOptions lo;
  lo.on_refusal = record ? OnRefusal::Record : OnRefusal::Fail;
  lo.threads = 1;  // deterministic, and no thread pool per execution
  auto loaded = load(profile, paths, fuzz::memory_reader(files), lo);
  if (!loaded) {
    // Every error names one of the files (but the last of a run that reached
    // the limit, which says so), and is one line (and its notes').
    const Diagnostic& first = loaded.error();
    if (first.more.size() > limits::kErrors) fuzz::fail();
    const auto check = [&](const Diagnostic& d, bool last) {
      if (last && first.more.size() == limits::kErrors) {
        if (d.where.known() || d.code != kTooManyErrors) fuzz::fail();
      } else if (d.where.file.view().empty() || !files->contains(std::string(d.where.file.view()))) {
        fuzz::fail();
      }
      const std::string shown = format(d);
      // One line, and one per note ("note: the original definition is here").
      if (static_cast<std::size_t>(std::count(shown.begin(), shown.end(), '\n')) != 1 + d.notes.size() &&
          !d.multi_line)
        fuzz::fail();
    };
    Diagnostic alone = first;  // its own lines only
    alone.more.clear();
    check(alone, false);
    for (std::size_t i = 0; i < first.more.size(); ++i) check(first.more[i], i + 1 == first.more.size());
    return 0;
  }
  for (const auto& w : loaded->registry.warnings()) (void)format(w);

  const Resolver resolver(loaded->registry);
  // explain on every runtime key would be slow: one key the input picks.
  const KeyId explained = profile.runtime_keys()[(mode >> 5) % profile.runtime_keys().size()];
  std::string out, raw;
  const KeyFilter all;
  const HumanStyle style{(mode & 4) != 0, (mode & 8) != 0, (mode & 16) != 0};
  for (const Operator* op : loaded->registry.sorted_operators()) {
    out.clear();
    raw.clear();
    render_table_raw(resolver, *op, all, raw);
    render_table_python_dispatcher(profile, raw, out);
    raw.clear();
    render_registrations_raw(loaded->registry, *op, all, raw);
    render_registrations_python_dispatcher(profile, raw, out);
    render_table_human(resolver, *op, all, style, out);
    render_registrations_human(loaded->registry, *op, all, style, out);
    render_explain(resolver, *op, explained, HumanStyle{}, out);
  }
  // The documents and traces of at most 4 operators, for one input in two:
  // they cost more than everything above, and the other half keeps the
  // fuzzer fast on the loader and the tables.
  if ((data[size - 1] & 0x40) != 0) {
    auto ops = loaded->registry.sorted_operators();
    ops.resize(std::min<std::size_t>(ops.size(), 4));
    render_documents(resolver, ops, explained, style, out);
    render_traces(resolver, ops, data[size - 1], style, out);
  }

  if (record) {
    auto findings = lint::run(*loaded);
    const lint::Summary summary = lint::summarize(findings);
    const lint::OutputInfo info{"fuzz", profile.name(), "/work"};
    for (auto name : {"text", "json", "sarif", "github"}) {
      out.clear();
      lint::render(*lint::parse_format(name), findings, info, summary, out);
      // GitHub workflow commands: one line per finding, no NUL.
      if (std::string_view(name) == "github" &&
          (static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n')) != findings.size() ||
           out.find('\0') != std::string::npos))
        fuzz::fail();
    }
    for (const auto& f : findings)  // a bounded number of related locations
      if (f.notes.size() > limits::kNotesPerFinding + 1) fuzz::fail();
    // A baseline written from the findings accepts all of them.
    const std::string b = lint::write_baseline(lint::make_baseline(findings));
    auto parsed = lint::parse_baseline(b, "baseline.toml");
    if (!parsed) fuzz::fail();
    auto copy = findings;
    lint::apply_baseline(*parsed, copy, lint::Config{});
    if (!copy.empty()) fuzz::fail();
  }
  return 0;
}
