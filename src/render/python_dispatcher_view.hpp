// torch._python_dispatcher.PythonDispatcher: the strings dispatchTable() and
// registrations() return, computed as Python does from the raw dumps
// (raw.hpp) and the profile's key subset.
#pragma once

#include <string>

#include "keys/profile.hpp"

namespace dt {

void render_table_python_dispatcher(const Profile& p, const std::string& raw_table, std::string& out);
void render_registrations_python_dispatcher(const Profile& p, const std::string& raw_registrations, std::string& out);

}  // namespace dt
