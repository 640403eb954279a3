// The --build estimate's notes (build_note.hpp).
#include "render/build_note.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "readers/release_yaml.hpp"
#include "registry/library.hpp"

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

std::string build_estimate_sentence(std::string_view subject, BuildAsked build, std::string_view origin) {
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
      "run time are not in it; a profile exported from a {} build (dispatchtool-export) is exact.{}",
      subject, build.name, first, build.source, build.name, build.name,
      origin.empty() ? std::string() : fmt::format(" The library: {}.", origin));
}

std::string cpu_library_sentence(std::string_view subject, std::string_view build, std::string_view origin,
                                 const Profile& p) {
  const std::vector<std::string_view>* keys = keys_of(build);
  const std::string first = keys != nullptr ? std::string(keys->front()) : std::string(build);
  const bool can_build = std::any_of(embedded_yaml().begin(), embedded_yaml().end(),
                                     [&](const EmbeddedYaml& y) { return y.profile == p.name(); });
  const std::string estimate =
      can_build ? fmt::format("--build {} (the release's native_functions.yaml registrations, an estimate), or ", build)
                : std::string();
  return fmt::format(
      "{} what PyTorch's library of this profile has, and it is a build without {} kernels ({}): a {} build "
      "registers its own {} kernels, which this library lacks. For them: {}--profile DIR exported from a {} build "
      "with dispatchtool-export (exact).",
      subject, first, origin, build, first, estimate, build);
}

bool library_has_backend(const Registry& reg, std::string_view key) {
  return reg.library() != nullptr && reg.library()->has("aten::add.Tensor", key, reg.profile());
}

std::string build_library_note(const Registry& reg, const std::vector<const Operator*>& ops, BuildAsked build,
                               const std::vector<KeyId>* asked) {
  const Profile& p = reg.profile();
  const auto in_asked = [&](KeyId id) {
    return asked == nullptr || std::find(asked->begin(), asked->end(), id) != asked->end();
  };
  if (const std::vector<std::string_view>* keys = keys_of(build.name)) {
    std::vector<std::string> shown;
    for (std::string_view k : *keys) {
      const auto id = p.find(k);
      if (!id || !in_asked(*id)) continue;
      if (std::any_of(ops.begin(), ops.end(), [&](const Operator* op) { return op->get(*id) != nullptr; }))
        shown.emplace_back(k);
    }
    if (shown.empty()) return {};
    return build_estimate_sentence(fmt::format("the {} kernels", and_list(shown)), build,
                                   reg.library() != nullptr ? reg.library()->origin() : std::string_view());
  }
  if (asked == nullptr || reg.library() == nullptr) return {};
  // A row that is PyTorch's (its library's kernel) or none, on one of its operators:
  // not one the files registered, nor served by a fallback of theirs.
  const auto pytorch_row = [&](KeyId id) {
    for (const Fallback& f : reg.user_fallbacks())
      if (f.key == id) return false;
    return std::any_of(ops.begin(), ops.end(), [&](const Operator* op) {
      const Kernel* k = op->get(id);
      return op->library && (k == nullptr || reg.library()->contains(k->where));
    });
  };
  for (const auto& [name, keys] : build_backends()) {
    std::vector<std::string> shown;
    for (std::string_view k : keys)
      if (const auto id = p.find(k); id && in_asked(*id) && pytorch_row(*id)) shown.emplace_back(k);
    if (shown.empty() || library_has_backend(reg, keys.front())) continue;
    return cpu_library_sentence(fmt::format("the {} rows are", and_list(shown)), name, reg.library()->origin(), p);
  }
  return {};
}

}  // namespace dt
