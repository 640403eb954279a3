// libFuzzer harness: the input loader, the resolver, every renderer and lint.
//
// Input: up to 4 registration files separated by "\n#---\n". The first byte
// picks the profile (torch-main / torch-1.13), whether refusals stop loading
// (table) or are recorded (lint) and the readable view's style; it is also
// part of the first file.
#include <fmt/format.h>

#include <algorithm>

#include "fuzz_common.hpp"
#include "lint/baseline.hpp"
#include "lint/config.hpp"
#include "lint/lint.hpp"
#include "lint/output.hpp"
#include "registry/loader.hpp"
#include "render/explain.hpp"
#include "render/python_dispatcher_view.hpp"
#include "render/raw.hpp"
#include "render/readable.hpp"
#include "resolve/resolver.hpp"

using namespace dt;

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
    // Every error names one of the files, and is one line.
    const auto& d = loaded.error();
    if (d.where.file.view().empty() || !files->contains(std::string(d.where.file.view()))) fuzz::fail();
    const std::string shown = format(d);
    if (std::count(shown.begin(), shown.end(), '\n') != 1 && !d.multi_line) fuzz::fail();
    return 0;
  }
  for (const auto& w : loaded->registry.warnings()) (void)format(w);

  const Resolver resolver(loaded->registry);
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
    // explain on every runtime key would be slow: one key the input picks.
    const auto& rt = profile.runtime_keys();
    render_explain(resolver, *op, rt[(mode >> 5) % rt.size()], HumanStyle{}, out);
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
