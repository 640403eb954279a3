// Internal to the profile builder: the [torch_library] table
// (docs/profile-format.md), read into TorchLibraryInfo.
#pragma once

#include <toml++/toml.h>

#include <optional>

#include "base/diagnostic.hpp"
#include "keys/profile.hpp"

namespace dt {

// False after an error, which is stored in *error (the first one counts).
bool read_torch_library(const toml::table& t, FileName file, std::optional<Diagnostic>* error, TorchLibraryInfo& out);

}  // namespace dt
