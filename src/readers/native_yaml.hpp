// native_functions.yaml (PyTorch's operator list, read by torchgen) into the
// TOML contract: the registrations torchgen's gen.py generates for it — the
// m.impl lines of every Register<KEY>.cpp and of RegisterBackendSelect.cpp —
// with torchgen's rules (torchgen/model.py NativeFunction.from_yaml,
// native_function_generation.py, dest/register_dispatch_key.py).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "readers/native_yaml_schema.hpp"
#include "readers/readers.hpp"

namespace dt {

struct NativeYamlOptions {
  // Only registrations on these keys (empty: every key torchgen generates).
  std::vector<std::string> keys;
  // [[def]] entries for the operators of namespace aten too (the profile's
  // library defines those: false there; true for a file read on its own).
  bool define_aten = false;
  // The profile's library (define_aten false): an aten function it does not
  // define (a new operator: a fork's, a pull request's) gets its [[def]],
  // as RegisterSchema.cpp would give it. Empty: no library, no aten [[def]].
  InLibrary in_library;
  // The debug string's file: "registered at FILE:LINE" (default: the file read).
  std::string debug_file;
};

// The dispatch keys torchgen generates a Register<KEY>.cpp for with every
// backend enabled (torchgen/model.py dispatch_keys), in its order, then
// BackendSelect.
const std::vector<std::string_view>& torchgen_dispatch_keys();

// The functions of a native_functions.yaml as gen_backend_stubs.py sees them
// (parse_native_yaml's, those autogen adds included): name, kind, group
// signature, manual_kernel_registration. An autogen'd function's schema is
// not derived: it takes its base function's signature, and the kind its
// overload name says (".out", "*_out": out=; else functional).
struct NativeFunctionInfo {
  NativeSchema s;
  bool manual = false;
  bool cia = false;  // CompositeImplicitAutograd: named in its dispatch, or no dispatch and not structured
};
Expected<std::vector<NativeFunctionInfo>, Diagnostic> read_native_functions(const Profile& profile, FileName file,
                                                                             std::string_view text);

Expected<Blocks, Diagnostic> read_native_yaml(const Profile& profile, FileName file, std::string_view text,
                                              const NativeYamlOptions& options = {});

}  // namespace dt
