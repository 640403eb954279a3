// The backend yaml of torchgen's gen_backend_stubs.py (out-of-tree backends:
// XLA, torch-xpu-ops, PrivateUse1 backends) into the TOML contract: the
// registrations the TORCH_LIBRARY_IMPL(aten, BACKEND, m) and
// TORCH_LIBRARY_IMPL(aten, Autograd<BACKEND>, m) blocks it generates hold
// (gen_backend_stubs.py parse_backend_yaml, gen_dispatcher_registrations;
// dest/register_dispatch_key.py). The operators are the release's own: its
// native_functions.yaml (configs/yaml/<profile>/) says which exist and how
// they group (functional, in-place, out=).
#pragma once

#include <string_view>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "readers/readers.hpp"

namespace dt {

// `native`: the release's native_functions.yaml (empty: the profile's
// embedded one, readers/release_yaml.hpp).
Expected<Blocks, Diagnostic> read_backend_yaml(const Profile& profile, FileName file, std::string_view text,
                                               std::string_view native = {});

}  // namespace dt
