// Which profile a --profile value (or a configuration's `profile`) names:
// load_profile resolves a built-in's name, a profile file or a profile
// directory (what dispatchtool-export writes), and says what was meant when
// it names none of them. Building a profile from its TOML: profile_builder.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "base/text.hpp"
#include "keys/profile.hpp"

namespace dt {

namespace {

// The profile file of a profile directory, and its C++ prelude (optional).
constexpr std::string_view kProfileFileInDir = "profile.toml";
constexpr std::string_view kPreludeFileInDir = "cpp_prelude.h";

// An error about the profile argument itself, not a file: no location (the
// front end names its parameter: --profile, SessionOptions::profile).
Diagnostic profile_arg_error(std::string message) {
  Diagnostic d;
  d.message = std::move(message);
  return d;
}

// A profile directory (dispatchtool-export's OUTDIR): its profile.toml, a
// regular file inside it.
Expected<Profile, Diagnostic> load_profile_dir(const std::string& dir, const FileSystem& fs) {
  const std::string file = (std::filesystem::path(dir) / kProfileFileInDir).lexically_normal().string();
  const FileKind k = fs.kind(file);
  if (k != FileKind::Regular)
    return unexpected(profile_arg_error(
        fmt::format("profile directory '{}' holds no {} ({}; dispatchtool-export writes a profile directory)", dir,
                    kProfileFileInDir, k == FileKind::Missing ? "no such file" : "not a regular file")));
  auto text = fs.read_inside(file, {dir});
  if (!text) return unexpected(read_error(std::move(text.error()), file, "cannot open profile file"));
  return Profile::parse(*text, file);
}

// The directory's cpp_prelude.h, if it has one (a regular file inside it).
Expected<std::string, Diagnostic> read_prelude(const std::string& dir, const FileSystem& fs) {
  const std::string file = (std::filesystem::path(dir) / kPreludeFileInDir).lexically_normal().string();
  switch (fs.kind(file)) {
    case FileKind::Missing:
      return std::string();
    case FileKind::Regular:
      break;
    default:
      return unexpected(profile_arg_error(
          fmt::format("profile directory '{}': {} is not a regular file", dir, kPreludeFileInDir)));
  }
  auto text = fs.read_inside(file, {dir});
  if (!text) return unexpected(read_error(std::move(text.error()), file, "cannot open the profile's C++ prelude"));
  return std::move(*text);
}

}  // namespace

Expected<Profile, Diagnostic> load_profile(std::string_view spec, const ReadFile& read, const FileSystem* dirs) {
  for (const auto& e : embedded_profiles())
    if (spec == e.name) {
      auto p = Profile::parse(e.text, e.path);
      if (p) p->builtin_ = true;
      return p;
    }
  const std::string path(spec);
  if (path.size() > 5 && path.ends_with(".toml")) {
    auto text = read(path);
    if (!text) return unexpected(read_error(std::move(text.error()), path, "cannot open profile file"));
    return Profile::parse(*text, path);
  }
  if (dirs != nullptr && !path.empty()) {
    switch (dirs->kind(path)) {
      case FileKind::Directory: {
        auto p = load_profile_dir(path, *dirs);
        if (!p) return p;
        DT_TRY(prelude, read_prelude(path, *dirs));
        p->cpp_prelude_ = std::move(prelude);
        return p;
      }
      case FileKind::Regular:
        return unexpected(profile_arg_error(
            fmt::format("profile '{}' is neither a built-in profile, a file ending in .toml nor a directory", spec)));
      case FileKind::Missing:
        if (path.find('/') != std::string::npos)
          return unexpected(profile_arg_error(fmt::format(
              "no profile directory '{}' (no such file or directory; a profile is a built-in name, a file ending in "
              ".toml or a directory holding {})",
              spec, kProfileFileInDir)));
        break;
      case FileKind::Other:  // a FIFO, a device, or a name the system refuses (too long): not a profile
        break;
    }
  }
  std::vector<std::string_view> names;
  std::vector<std::string> listed;
  for (const auto& e : embedded_profiles()) {
    names.emplace_back(e.name);
    listed.emplace_back(e.name);
  }
  // "torch-2.1" names a release with no built-in profile: pointing at
  // another release ("did you mean 'torch-1.13'?") would mislead. Digits
  // swapped ("torch-1.31") are a typo of a built-in and get the suggestion.
  const auto sorted = [](std::string_view v) {
    std::string s(v);
    std::sort(s.begin(), s.end());
    return s;
  };
  const bool names_a_release =
      spec.starts_with("torch-") && spec.size() > 6 &&
      std::all_of(spec.begin() + 6, spec.end(), [](char c) { return c == '.' || (c >= '0' && c <= '9'); }) &&
      std::none_of(names.begin(), names.end(), [&](std::string_view n) { return sorted(n) == sorted(spec); });
  Diagnostic d;
  d.message = names_a_release
                  ? fmt::format(
                        "unknown profile '{}': no built-in profile describes that release; built-in profiles: {} (for "
                        "another release, export yours with dispatchtool-export and give its directory, or give a "
                        "profile file ending in .toml)",
                        spec, join(listed, ", "))
                  : fmt::format(
                        "unknown profile '{}'{}; built-in profiles: {} (or give a path ending in .toml, or a "
                        "directory holding {})",
                        spec, did_you_mean(spec, names), join(listed, ", "), kProfileFileInDir);
  return unexpected(std::move(d));
}

}  // namespace dt
