// The dispatch-key universe of a profile, as `dispatchtool keys` prints it.
#pragma once

#include <string>

#include "keys/profile.hpp"

namespace dt {

// Every name a registration may use, one per line (--names, for scripts and
// shell completion).
void render_key_names(const Profile& p, std::string& out);

// The runtime keys in table order (row, kind, whether Python can parse the
// name, PyTorch's own backend fallback), the building blocks, and the alias
// keys with the runtime keys each covers.
void render_keys(const Profile& p, std::string& out);

}  // namespace dt
