// The dispatch-key universe of a profile, as `dispatchtool keys` prints it.
#pragma once

#include <string>

#include "keys/profile.hpp"
#include "registry/model.hpp"

namespace dt {

// Every name a registration may use, one per line (--names, for scripts and
// shell completion).
void render_key_names(const Profile& p, std::string& out);

// The runtime keys in table order (row, kind, whether Python can parse the
// name, the backend fallback: PyTorch's own, or one the files register), the
// building blocks, and the alias keys with the runtime keys each covers. Keys
// are named as the registry's files name them (a renamed PrivateUse1).
void render_keys(const Registry& reg, std::string& out);

}  // namespace dt
