// Renderers: the exact texts PyTorch prints (_dispatch_dump_table,
// _dispatch_dump, PythonDispatcher) and a readable view for people.
// All append to a string; callers flush it as they go.
#pragma once

#include <string>
#include <vector>

#include "registry/model.hpp"
#include "registry/select.hpp"
#include "resolve/resolver.hpp"

namespace dt {

// torch._C._dispatch_dump_table(name)
void render_table_raw(const Resolver& r, const Operator& op, const KeyFilter& f, std::string& out);
// torch._C._dispatch_dump(name)
void render_registrations_raw(const Registry& reg, const Operator& op, const KeyFilter& f, std::string& out);

// torch._python_dispatcher.PythonDispatcher: the strings dispatchTable() /
// registrations() return, from the raw dumps and the profile's key subset.
void render_table_python_dispatcher(const Profile& p, const std::string& raw_table, std::string& out);
void render_registrations_python_dispatcher(const Profile& p, const std::string& raw_registrations, std::string& out);

// re.sub(r"registered at .*FallbackKernel\.cpp.*(\[)", "[", line)
std::string mask_fallback_paths(std::string_view line);

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
