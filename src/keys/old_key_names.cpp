// C++'s old dispatch key spellings (old_key_names.hpp).
#include "keys/old_key_names.hpp"

#include <fmt/format.h>

#include "base/suggest.hpp"

namespace dt {

namespace {

// c10/core/DispatchKey.h's "aliases [that] exist for backwards compatibility
// reasons" (the same seven in torch 1.13, 2.6 and 2.14; tests/oracle/old_key_names_oracle.py
// compares them with each release's header), its CatchAll = Undefined, and
// Math, the name CompositeImplicitAutograd had before PyTorch renamed it.
struct OldSpelling {
  std::string_view name, key;
};
constexpr OldSpelling kOldSpellings[] = {
    {"Math", "CompositeImplicitAutograd"},
    {"CatchAll", "Undefined"},
    {"DefaultBackend", "CompositeExplicitAutograd"},
    {"Autocast", "AutocastCUDA"},
    {"CPUTensorId", "CPU"},
    {"CUDATensorId", "CUDA"},
    {"PrivateUse1_PreAutograd", "AutogradPrivateUse1"},
    {"PrivateUse2_PreAutograd", "AutogradPrivateUse2"},
    {"PrivateUse3_PreAutograd", "AutogradPrivateUse3"},
};

}  // namespace

std::string unknown_key_message(std::string_view name, std::string_view hint) {
  return fmt::format("could not parse dispatch key: {}{}", name, hint);
}

std::string unknown_key_hint(const Profile& p, std::string_view name, const std::vector<std::string_view>& candidates) {
  for (const OldSpelling& o : kOldSpellings) {
    if (o.name != name || !p.find(o.key)) continue;
    if (o.name == "CatchAll")
      return " (CatchAll is C++'s alias of Undefined in c10/core/DispatchKey.h, for catch-all kernels; "
             "parseDispatchKey does not read it: write an [[impl]] without key, a catch-all kernel, which PyTorch "
             "stores as CompositeImplicitAutograd)";
    if (o.name == "Math")
      return " (Math is the old name of CompositeImplicitAutograd, which c10/core/DispatchKey.h no longer has; "
             "write 'CompositeImplicitAutograd')";
    return fmt::format(
        " ({} is C++'s old spelling of {}: c10/core/DispatchKey.h keeps the enum alias '{} = {}' for backwards "
        "compatibility, so TORCH_LIBRARY_IMPL(ns, {}, m) compiles, but parseDispatchKey does not read it; write '{}')",
        o.name, o.key, o.name, o.key, o.name, o.key);
  }
  return did_you_mean(name, candidates);
}

const std::vector<std::pair<std::string_view, std::string_view>>& old_key_names() {
  static const std::vector<std::pair<std::string_view, std::string_view>> all = [] {
    std::vector<std::pair<std::string_view, std::string_view>> out;
    for (const OldSpelling& o : kOldSpellings) out.emplace_back(o.name, o.key);
    return out;
  }();
  return all;
}

}  // namespace dt
