// What each dispatch key means, one line each, for `keys --meanings`: fixed
// prose keyed by key name (after the comments of c10/core/DispatchKey.h), and
// the facts from the profile: the backend of a per-backend key, the autograd
// key its tensors carry (getAutogradKeyFromBackend) and the autocast key
// (the profile's autocast_keys), what an alias key covers.
#pragma once

#include <string>

#include "registry/model.hpp"

namespace dt {

// One line per runtime key (table order), then per alias key.
void render_key_meanings(const Registry& reg, std::string& out);

// The prose for one key name (no profile facts); empty when there is none.
std::string key_meaning_prose(std::string_view name);

}  // namespace dt
