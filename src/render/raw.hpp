// The exact texts PyTorch prints for one operator: _dispatch_dump_table and
// _dispatch_dump. Renderers append to a string; callers flush it as they go.
#pragma once

#include <string>

#include "registry/model.hpp"
#include "registry/select.hpp"
#include "resolve/resolver.hpp"

namespace dt {

// torch._C._dispatch_dump_table(name)
void render_table_raw(const Resolver& r, const Operator& op, const KeyFilter& f, std::string& out);
// torch._C._dispatch_dump(name)
void render_registrations_raw(const Registry& reg, const Operator& op, const KeyFilter& f, std::string& out);

}  // namespace dt
