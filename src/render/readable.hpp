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
};
void render_table_human(const Resolver& r, const Operator& op, const KeyFilter& f, const HumanStyle& s,
                        std::string& out);
void render_registrations_human(const Registry& reg, const Operator& op, const KeyFilter& f, const HumanStyle& s,
                                std::string& out);

}  // namespace dt
