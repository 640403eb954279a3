// libFuzzer harness: the yaml readers — libyaml's events as a located tree
// (yaml_tree) and the subset reader's tree, which must be the same or none
// (yaml_subset), native_functions.yaml with torchgen's rules (native_yaml) and
// gen_backend_stubs backend yaml (backend_yaml, over a small fixed
// native_functions.yaml so that each run stays fast), and their rendering as
// TOML. Properties: an error is located inside the text (line within the
// input's lines); every registration's location is too; what loads prints
// as TOML that loads (import's promise).
#include <algorithm>

#include "fuzz_common.hpp"
#include "readers/backend_yaml.hpp"
#include "readers/native_yaml.hpp"
#include "readers/toml_writer.hpp"
#include "readers/yaml_tree.hpp"

using namespace dt;

namespace {

constexpr std::string_view kNative =
    "- func: abs(Tensor self) -> Tensor\n  structured_delegate: abs.out\n"
    "- func: abs_(Tensor(a!) self) -> Tensor(a!)\n  structured_delegate: abs.out\n"
    "- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  structured: True\n  dispatch:\n    CPU: abs_out\n"
    "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    CPU: relu\n  autogen: relu.out\n"
    "- func: relu_(Tensor(a!) self) -> Tensor(a!)\n  dispatch:\n    CPU: relu_\n";

void check_location(const Location& at, std::size_t lines) {
  if (at.known() && at.line > lines + 1) fuzz::fail();
}

void check(const Profile& profile, const Expected<Blocks, Diagnostic>& r, std::size_t lines) {
  if (!r) {
    check_location(r.error().where, lines);
    return;
  }
  for (const TomlBlock& b : r->blocks)
    for (const TomlEntry& e : b.entries) check_location(e.at, lines);
  fuzz::check_import_loads(profile, *r, "f.yaml");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > fuzz::kMaxInput) return -1;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Line breaks as YAML counts them (libyaml, like PyYAML): "\r\n", "\n" and a
  // lone "\r" (an input of old Mac line ends: found by this fuzzer).
  std::size_t lines = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    lines += text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) ? 1 : 0;
  static const Profile& profile = []() -> const Profile& {
    for (std::size_t i = 0; i < 8; ++i)
      if (fuzz::builtin_profile(i).name() == "torch-2.14") return fuzz::builtin_profile(i);
    fuzz::fail();
  }();
  // The subset reader gives libyaml's tree or declines, never another tree.
  if (auto fast = parse_yaml_subset("f.yaml", text, YamlLimits{})) {
    auto slow = parse_yaml_libyaml("f.yaml", text, YamlLimits{});
    if (!slow || !yaml_difference(*fast, *slow).empty()) fuzz::fail();
  }
  auto doc = parse_yaml("f.yaml", text, YamlLimits{});
  if (!doc) {
    check_location(doc.error().where, lines);
    return 0;
  }
  check(profile, read_native_yaml(profile, "f.yaml", text), lines);
  NativeYamlOptions o;
  o.keys = {"CUDA", "Meta"};
  o.define_aten = true;
  check(profile, read_native_yaml(profile, "f.yaml", text, o), lines);
  check(profile, read_backend_yaml(profile, "f.yaml", text, kNative), lines);
  return 0;
}
