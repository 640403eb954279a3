// dispatchtool lint: registration conflicts and dispatcher pitfalls, found in
// loaded registrations (what c10 refuses or resolves surprisingly).
//
// The rules are data: one table row per rule (id, default severity, texts,
// PyTorch's own message where one exists, and the check; rules.cpp, the
// checks in checks_*.cpp). run() applies every rule; a Config narrows and
// re-grades the findings (config.hpp); a Baseline accepts known findings
// (baseline.hpp); --context files are linted against but not reported
// (context.hpp); the formats render them (output.hpp). Nothing here prints.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "registry/loader.hpp"

namespace dt::lint {

// One problem found. Every location involved is either `where` or a note.
struct Finding {
  std::string rule;  // rule id, e.g. "duplicate-registration"
  Severity severity = Severity::Warning;
  std::string message;
  Location where;           // primary location
  std::vector<Note> notes;  // every other location involved
  std::string fix;          // how to fix it (one or two sentences)
  // What the finding is about, for baselines and fingerprints (never line
  // numbers): the operator ("ns::name.overload"), or the namespace for
  // library-level findings; and the dispatch key(s), comma-separated. Either
  // may be empty.
  std::string op;
  std::string key;
};

struct CheckContext;  // check.hpp: the registry, resolver and refusals a check reads
using Check = void (*)(const CheckContext&, std::vector<Finding>&);

// One row of the rule table.
struct Rule {
  std::string_view id;       // stable, kebab-case
  std::string_view name;     // PascalCase (SARIF reportingDescriptor.name)
  Severity severity;         // default severity
  std::string_view summary;  // one line: what it catches
  std::string_view help;     // why it matters and how to fix it
  std::string_view pytorch;  // PyTorch's own message ("" if PyTorch is silent)
  std::string_view source;   // where PyTorch implements what the rule checks (functions, files)
  Check check;
};

// Every rule, in documentation order.
std::span<const Rule> rules();
const Rule* find_rule(std::string_view id);
// Index of a rule in rules() (SARIF ruleIndex); rules().size() if unknown.
std::size_t rule_index(std::string_view id);
// The rule, or the error "unknown lint rule 'x' (did you mean 'y'?)" (no location).
Expected<const Rule*, Diagnostic> rule_by_id(std::string_view id);

// Runs every rule over registrations loaded with LoadOptions{OnRefusal::Record}.
// Findings carry their rule's default severity and are sorted.
std::vector<Finding> run(const LoadResult& loaded);

// By file, line, column, rule, then message, operator and key.
void sort_findings(std::vector<Finding>& findings);

}  // namespace dt::lint
