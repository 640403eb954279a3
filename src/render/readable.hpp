// The readable views for people: an operator's dispatch table, with
// consecutive equal rows collapsed into runs, and its registrations.
// Renderers append to a string; callers flush it as they go.
#pragma once

#include <string>

#include "registry/model.hpp"
#include "registry/select.hpp"
#include "resolve/resolver.hpp"

namespace dt {

struct HumanStyle {
  bool color = false;
  bool show_core_fallbacks = false;
  bool expand = false;  // one line per key instead of runs of equal rows
  bool all_keys = false;  // every table row: also those served by PyTorch's fallbacks and the missing ones
};
// A run of adjacent keys as the readable views label it: "CPU",
// "CPU, CUDA, HIP" or "CPU \u2026 Meta (14 keys)" (table, diff).
std::string key_run_label(const std::vector<std::string>& keys);

class RuntimeTables;
// `runtime`: the registry's runtime tables (key_call.hpp), shared by the
// operators of one run (null: made for this operator, which costs a pass over
// the files' backend fallbacks).
void render_table_human(const Resolver& r, const Operator& op, const KeyFilter& f, const HumanStyle& s,
                        std::string& out, const RuntimeTables* runtime = nullptr);
void render_registrations_human(const Registry& reg, const Operator& op, const KeyFilter& f, const HumanStyle& s,
                                std::string& out);

// The backend fallbacks the files register (PyTorch's own are in `keys`),
// those `f` allows, as `registrations` lists them after the operators: key,
// kernel, location. Nothing when there are none.
void render_fallbacks_human(const Registry& reg, const KeyFilter& f, const HumanStyle& s, std::string& out);
// The same counted, as `table` ends: "backend fallbacks registered by the
// files: 1 (PrivateUse1: npu::cpu_fallback); ...". Nothing when there are none.
void render_fallback_count(const Registry& reg, const KeyFilter& f, const HumanStyle& s, std::string& out);
// What a readable view says when no operator is selected.
void render_no_operators(const Registry& reg, std::string& out);

}  // namespace dt
