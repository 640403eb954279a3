// dispatchtool public API: a computed dispatch table and its entries, as
// c10's computeDispatchTableEntryWithDebug makes them, with the exact texts
// torch._C._dispatch_dump_table and _dispatch_dump print.
#pragma once

#include <string>
#include <vector>

#include <dispatchtool/diagnostic.hpp>

namespace dispatchtool {

// One step of the resolution (the command line's `explain`).
struct Step {
  std::string step;      // "1", "2.1", "2.2", "2.3a", "2.3b", "2.4", "2.5", "3"
  std::string question;  // "a kernel registered on CPU itself?"
  std::string answer;    // "no", "yes: myadd_cpu  (FILE:LINE:COL)", ...
  std::string note;      // why a kernel found is not used; empty: none
  bool taken = false;    // this step decided the entry
};

// What one runtime key of an operator resolves to.
struct Entry {
  std::string key;         // the runtime key (a renamed PrivateUse1 by its new name)
  bool valid = false;      // false: missing (a call raises NotImplementedError)
  std::string kernel;      // the kernel as the raw table prints it ("myadd_cpu", "fallthrough kernel", ...)
  std::string provenance;  // "kernel", "default backend kernel", "math kernel", ..., "missing"
  std::string source_key;  // the key the kernel (or backend fallback) is registered on; empty when missing
  bool fallthrough = false;
  Location where;          // where that kernel was registered (unknown for PyTorch's own fallbacks)
  // The row is stale at run time: registrations update only the rows they
  // name (OperatorEntry::updateDispatchTable_), so a call on the key runs what
  // an earlier registration left there, not `kernel` (what the dumps print).
  bool stale = false;
  std::string runtime_kernel;  // stale only: the kernel a call runs; empty when it finds none (it raises)
  std::vector<Step> steps; // Session::explain only
  std::string meaning;     // Session::explain only: what a call does with this entry
};

struct Table {
  std::string op;              // "ns::name.overload"
  std::string schema;          // the printed schema; empty for an operator with kernels only
  std::vector<Entry> entries;  // valid entries, in table order
  std::string raw;             // torch._C._dispatch_dump_table(op), byte for byte
  std::string registrations;   // torch._C._dispatch_dump(op), byte for byte
};

}  // namespace dispatchtool
