// "Why does this key get that kernel?": the steps of
// computeDispatchTableEntryWithDebug for one operator and key, replayed once
// (Explainer::explain) and shown in words (render_explain), as JSON
// (render/json.hpp) or in the HTML matrix's popup (render/html.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "render/readable.hpp"
#include "resolve/key_call.hpp"
#include "resolve/resolver.hpp"

namespace dt {

// One step as explain shows it.
struct ExplainStep {
  std::string_view step;               // "1", "2.1", "2.2", "2.3a", "2.3b", "2.4", "2.5", "3"
  KeyId subject = kUndefined;          // steps 1 and 3: the key itself; steps 2.x: the alias key asked about
  bool about_alias = false;            // steps 2.x
  bool applies = false;                // 1: true; 2.x: the alias covers the key; 3: a fallback is registered
  const Kernel* kernel = nullptr;      // the kernel the step found (steps 1 and 2.x)
  const Fallback* fallback = nullptr;  // the backend fallback step 3 found
  bool taken = false;                  // this step decided the result
  std::string note;                    // why a found kernel is not used, or "PyTorch's own"; empty: none
};

struct Explanation {
  KeyId key = kUndefined;
  std::vector<ExplainStep> steps;  // in order, up to the one taken (all of them when missing)
  Entry result;                    // what the dumps show
  KeyAnswer runtime;               // what a call on the key does (key_call.hpp): the runtime entry
};

// Explains the keys of one operator. Keys are named as the files name them
// (a renamed PrivateUse1 as its new name, everywhere in one answer); kernel
// texts as people read them (readable_debug).
class Explainer {
 public:
  // `runtime` (may be null: the explainer makes its own) answers what calls do.
  Explainer(const Resolver& r, const Operator& op, const RuntimeTables* runtime = nullptr);

  [[nodiscard]] const Operator& op() const { return *view_.op; }
  [[nodiscard]] const Registry& registry() const { return *reg_; }
  // `key` must be a runtime key (one with a table row).
  [[nodiscard]] Explanation explain(KeyId key) const;

  [[nodiscard]] std::string key_name(KeyId k) const;
  // "a kernel registered on CPU itself?", "does Autograd cover AutogradCPU?", ...
  [[nodiscard]] std::string question(const Explanation& e, const ExplainStep& s) const;
  // The same with other text for the key explained (the HTML page fills in "{key}").
  [[nodiscard]] std::string question(const ExplainStep& s, std::string_view key) const;
  // The answer column: "no", "yes: KERNEL  (FILE:LINE:COL)", ...; with `color` the location is dim.
  [[nodiscard]] std::string answer(const ExplainStep& s, bool color) const;
  // The line explain prints under a step, without its indentation ("but it is not used: ..."); empty: none.
  [[nodiscard]] std::string note_line(const ExplainStep& s) const;
  // What the result means when the operator is called (explain's closing text).
  [[nodiscard]] std::string meaning(const Explanation& e) const;
  // The stale-entry sentence (stale_note) when the runtime entry differs from the dumps; "" otherwise.
  [[nodiscard]] std::string runtime_note(const Explanation& e) const;
  // The same with other text for the operator's name, for the list of keys
  // that have an entry and for the key explained (the HTML page fills in
  // "{op}", "{available}" and "{key}").
  [[nodiscard]] std::string meaning(const Explanation& e, std::string_view op_name, std::string_view available,
                                    std::string_view key) const;
  // The keys with an entry, in table order: "CPU, CUDA, ..." (computed once).
  [[nodiscard]] const std::string& available() const;

 private:
  [[nodiscard]] std::string kernel_text(const Kernel& k, bool color) const;

  const Resolver* r_;
  const Registry* reg_;
  Resolver::OpView view_;
  std::unique_ptr<RuntimeTables> own_runtime_;
  const RuntimeTables* runtime_;
  mutable std::optional<std::string> available_;
};

void render_explain(const Resolver& r, const Operator& op, KeyId key, const HumanStyle& style, std::string& out);
// The same with an explainer of the operator, shared by its keys (one replay of its registrations).
void render_explain(const Explainer& x, KeyId key, const HumanStyle& style, std::string& out);
void render_explain(const Explainer& x, const Explanation& e, const HumanStyle& style, std::string& out);

}  // namespace dt
