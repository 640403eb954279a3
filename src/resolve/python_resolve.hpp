// The Python dispatcher's choice of kernel (torch._C._EnablePythonDispatcher):
// the PythonDispatcher fallback hands the call to Python, which takes the
// highest key, looks it up by name on the OpOverload (an AttributeError for a
// name Python cannot parse) and runs resolve_key, a Python copy of
// computeDispatchTableEntry over the operator's *current* registrations
// (torch/_ops.py resolve_key, 1.13: lines 57-106) -- not the runtime table.
#pragma once

#include <cstdint>

#include "registry/model.hpp"

namespace dt {

enum class PyResolveError : std::uint8_t {
  None,
  AttributeError,  // the key's name cannot be parsed in Python
  NoKernel,        // RuntimeError("could not find kernel")
  Ambiguous,       // RuntimeError("ambiguous autogradother kernel")
};

struct PyResolved {
  PyResolveError error = PyResolveError::None;
  KeyId key = kUndefined;              // the key resolve_key returns (a registered key, alias or not, or k)
  const Kernel* kernel = nullptr;      // the operator's kernel on `key`, if it has one
  const Fallback* fallback = nullptr;  // else the backend fallback of `key`
};

// resolve_key(op, k) and what callBoxedForDispatchKey(key) then runs.
PyResolved python_resolve_key(const Registry& reg, const Operator& op, KeyId k);

}  // namespace dt
