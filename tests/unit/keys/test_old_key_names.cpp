// C++'s old dispatch key spellings: refused (no release's parseDispatchKey
// reads them), with the key to write. tests/docs/check_cxx_aliases.py compares
// the list with each release's c10/core/DispatchKey.h.
#include "helpers.hpp"
#include "keys/old_key_names.hpp"

namespace dt::test {

TEST_CASE("old key names: each names a key every built-in profile has, and is no key itself") {
  for (const char* prof : {"torch-1.13", "torch-2.6", "torch-2.14", "torch-main"}) {
    const Profile& p = profile(prof);
    for (const auto& entry : old_key_names()) {
      // Named copies, not structured bindings: INFO captures them in a lambda (clang 14 refuses bindings there).
      const auto old = entry.first;
      const auto key = entry.second;
      INFO(prof << " " << old);
      CHECK_FALSE(p.find(old).has_value());
      CHECK(p.find(key).has_value());
      const std::string hint = unknown_key_hint(p, old, p.key_names());
      if (old == "CatchAll")
        CHECK(hint.find("an [[impl]] without key") != std::string::npos);
      else
        CHECK(hint.find("write '" + std::string(key) + "'") != std::string::npos);
    }
  }
}

TEST_CASE("old key names: Autocast and DefaultBackend say where the alias lives, others get did-you-mean") {
  const Profile& p = profile("torch-2.14");
  CHECK(unknown_key_hint(p, "Autocast", p.key_names()) ==
        " (Autocast is C++'s old spelling of AutocastCUDA: c10/core/DispatchKey.h keeps the enum alias "
        "'Autocast = AutocastCUDA' for backwards compatibility, so TORCH_LIBRARY_IMPL(ns, Autocast, m) compiles, "
        "but parseDispatchKey does not read it; write 'AutocastCUDA')");
  CHECK(unknown_key_hint(p, "Math", p.key_names()).find("old name of CompositeImplicitAutograd") != std::string::npos);
  CHECK(unknown_key_hint(p, "AutogradCPUU", p.key_names()) == " (did you mean 'AutogradCPU'?)");
}

// torch 1.13, 2.6 and 2.14 all refuse a name that is no key with these words
// (_dispatch_library("IMPL", "aten", "invalid_key"), Library.impl(..., "invalid_key"),
// _dispatch_key_parse): the tool's help follows them.
TEST_CASE("unknown key: torch's words first, the hint after them") {
  CHECK(unknown_key_message("invalid_key", "") == "could not parse dispatch key: invalid_key");
  const Profile& p = profile("torch-2.14");
  CHECK(unknown_key_message("AutogradCPUU", unknown_key_hint(p, "AutogradCPUU", p.key_names())) ==
        "could not parse dispatch key: AutogradCPUU (did you mean 'AutogradCPU'?)");
}

}  // namespace dt::test
