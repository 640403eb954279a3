// The --build estimate's notes (build_note.hpp).
#include "render/build_note.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "readers/release_yaml.hpp"

namespace dt {

namespace {

const std::vector<std::string_view>* keys_of(std::string_view build) {
  for (const auto& [name, keys] : build_backends())
    if (name == build && !keys.empty()) return &keys;
  return nullptr;
}

std::string and_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

}  // namespace

std::string build_estimate_sentence(std::string_view subject, BuildAsked build) {
  const std::vector<std::string_view>* keys = keys_of(build.name);
  const std::string first = keys != nullptr ? std::string(keys->front()) : std::string(build.name);
  if (build.source.empty())
    return fmt::format(
        "{} are --build {}'s: what the release's native_functions.yaml registers on {}'s keys, on top of the CPU "
        "package's library. PyTorch's hand-written {} registrations are not in it (--build-source DIR reads them "
        "from the release's sources); a profile exported from a {} build (dispatchtool-export) is exact.",
        subject, build.name, first, first, build.name);
  return fmt::format(
      "{} are --build {}'s: what the release's native_functions.yaml registers on {}'s keys, and the hand-written "
      "registrations on them read from {}, on top of the CPU package's library. Registrations a {} build makes at "
      "run time are not in it; a profile exported from a {} build (dispatchtool-export) is exact.",
      subject, build.name, first, build.source, build.name, build.name);
}

std::string build_library_note(const Profile& p, const std::vector<const Operator*>& ops, BuildAsked build,
                               const std::vector<KeyId>* only) {
  const std::vector<std::string_view>* keys = keys_of(build.name);
  if (keys == nullptr) return {};
  std::vector<std::string> shown;
  for (std::string_view k : *keys) {
    const auto id = p.find(k);
    if (!id || (only != nullptr && std::find(only->begin(), only->end(), *id) == only->end())) continue;
    if (std::any_of(ops.begin(), ops.end(), [&](const Operator* op) { return op->get(*id) != nullptr; }))
      shown.emplace_back(k);
  }
  if (shown.empty()) return {};
  return build_estimate_sentence(fmt::format("the {} kernels", and_list(shown)), build);
}

}  // namespace dt
