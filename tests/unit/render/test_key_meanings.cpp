// keys --meanings: a line for every key of every built-in profile, with the
// profile's facts (autograd and autocast keys of a backend).
#include <algorithm>

#include "helpers.hpp"
#include "registry/python_dispatcher.hpp"
#include "render/key_meanings.hpp"

namespace dt::test {

namespace {

std::string line_of(const std::string& text, const std::string& key) {
  const auto at = text.find("\n  " + key + " ");
  REQUIRE_MESSAGE(at != std::string::npos, key);
  return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

}  // namespace

TEST_CASE("key meanings: every runtime and alias key of every built-in profile has one") {
  for (const char* prof : {"torch-1.13", "torch-2.6", "torch-2.14", "torch-main"}) {
    const Registry reg = python_dispatcher_registry(profile(prof));
    std::string out;
    render_key_meanings(reg, out);
    INFO(prof);
    CHECK(out.find("(no description)") == std::string::npos);
    const std::size_t lines = static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n'));
    CHECK(lines == 2 + reg.profile().runtime_keys().size() + reg.profile().alias_keys().size());
  }
}

TEST_CASE("key meanings: a backend's autograd and autocast keys come from the profile") {
  std::string out;
  render_key_meanings(python_dispatcher_registry(profile("torch-2.14")), out);
  CHECK(line_of(out, "CPU").find("ordinary (strided) tensors on CPU; autograd key: AutogradCPU; autocast key: "
                                 "AutocastCPU") != std::string::npos);
  CHECK(line_of(out, "SparseCPU").find("autograd key: AutogradCPU") != std::string::npos);
  CHECK(line_of(out, "CompositeImplicitAutograd").find("formerly Math") != std::string::npos);
  std::string old;
  render_key_meanings(python_dispatcher_registry(profile("torch-1.13")), old);
  // 1.13: SparseCsrCPU is a key of its own, not per-backend: its tensors carry AutogradOther.
  CHECK(line_of(old, "SparseCsrCPU").find("autograd key: AutogradOther") != std::string::npos);
  // 1.13: XLA tensors carry AutocastCUDA (getAutocastRelatedKeySetFromBackend), as its profile measured.
  CHECK(line_of(old, "XLA").find("autograd key: AutogradXLA; autocast key: AutocastCUDA") != std::string::npos);
}

}  // namespace dt::test
