// PyTorch's own operators ("the operator library" of a profile): every
// operator definition and kernel registration PyTorch itself makes, kept as a
// compact serialized registry that is decoded one operator at a time.
//
// The built-in profiles' libraries are serialized at build time
// (src/gen/embed_libraries.cpp, from configs/library/<profile>/*.toml) and
// embedded into the binary, so no TOML is parsed at run time; a profile file
// may name a library of its own (TOML files exported by
// tools/export_corpus.py), which is loaded and serialized the same way.
//
// A Registry with a library materializes an operator from it the first time
// the operator is registered to, looked up for a view, or asked for by
// materialize_all(): PyTorch's registrations come first, as they do at
// start-up, and the inputs' registrations go on top.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "base/io.hpp"
#include "keys/profile.hpp"
#include "readers/readers.hpp"

namespace dt {

struct Library;
struct Operator;
class Registry;

// A library compiled into the binary: the profile it belongs to and its blob.
struct EmbeddedLibrary {
  std::string_view profile;  // "torch-1.13"
  std::string_view blob;     // OpLibrary::serialize() output
};

class OpLibrary {
 public:
  // Serializes every operator of `reg` with its definition, kernels (every
  // kernel of a key, in order) and the library blocks they came from;
  // `origin` says where the registrations came from ("configs/library/torch-1.13").
  static std::string serialize(const Registry& reg, std::string_view origin);

  // Opens a blob made by serialize() for the same key universe. `blob` must
  // outlive the library unless `owned` holds it. Errors: a blob that is not
  // one (or of another format version), a key `profile` does not have.
  static Expected<OpLibrary, Diagnostic> open(std::string_view blob, const Profile& profile,
                                              std::shared_ptr<const std::string> owned = nullptr);

  // Operators, sorted by qualified name (byte order).
  [[nodiscard]] std::size_t size() const { return ops_.size(); }
  [[nodiscard]] std::string_view name(std::size_t i) const { return ops_[i].name; }
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const;
  // Whether operator i has a definition (a dangling impl has none).
  [[nodiscard]] bool defined(std::size_t i) const { return ops_[i].defined; }
  // The serialized form (what serialize() returned).
  [[nodiscard]] std::string_view blob() const { return blob_; }
  // Where the registrations came from (serialize's `origin`).
  [[nodiscard]] std::string_view origin() const { return origin_; }
  // The files the registrations were read from (every library location is in one).
  [[nodiscard]] const std::vector<FileName>& files() const { return files_; }
  [[nodiscard]] bool contains(const Location& where) const;

  // The library blocks, in order; kernels and definitions refer to them by index.
  [[nodiscard]] std::vector<Library> libraries() const;
  // Registrations in the library: kernels get sequence numbers 0 .. kernel_count()-1.
  [[nodiscard]] std::uint32_t kernel_count() const { return kernel_count_; }

  // Fills `op` (a fresh Operator) with operator i as PyTorch registers it.
  // Its library indices refer to libraries(), which a Registry puts first.
  void materialize(std::size_t i, Operator& op) const;
  // Whether operator `op` has a kernel on `key` (`key` empty: whether it is defined).
  [[nodiscard]] bool has(std::string_view op, std::string_view key, const Profile& profile) const;

 private:
  struct OpRef {
    std::string_view name;
    std::uint32_t offset = 0;  // of its record in the blob
    bool defined = false;
  };
  OpLibrary() = default;

  std::string_view blob_;
  std::shared_ptr<const std::string> owned_;
  const Profile* profile_ = nullptr;
  std::string_view origin_;
  std::vector<std::string_view> strings_;
  std::vector<FileName> files_;
  std::vector<KeyId> keys_;  // key table of the blob -> this profile's KeyIds
  std::vector<OpRef> ops_;
  std::uint32_t libraries_offset_ = 0;
  std::uint32_t kernel_count_ = 0;
};

}  // namespace dt

namespace dt {

// The libraries compiled into the tool (src/gen/embed_libraries.cpp writes
// their source). Defined by that generated source, which the tool and the
// tests link and the core does not.
std::span<const EmbeddedLibrary> embedded_libraries();

// `lib`'s has() as the readers ask it (readers/readers.hpp InLibrary), or
// no predicate for no library (nullptr); `lib` and `profile` outlive it.
InLibrary in_library(const OpLibrary* lib, const Profile& profile);

// The TOML files of the library `profile` names, in load order: each named
// file, and the *.toml files of each named directory sorted by name; names
// are relative to the profile file's directory. Each must lie below one of
// `roots` (library_roots: the profile file's directory), symbolic links
// followed: a profile is a repository's file, and its paths are read with
// FileSystem::read_inside. Errors are located at the profile's
// operator_library field.
Expected<std::vector<std::string>, Diagnostic> library_files(const Profile& profile, const FileSystem& fs,
                                                             const Roots& roots);
Expected<std::vector<std::string>, Diagnostic> library_files(const Profile& profile, const FileSystem& fs);

// Where a profile's operator library must lie: the profile file's directory.
Roots library_roots(const Profile& profile);

// The operator library of `profile`: the one embedded for a built-in profile
// (from `embedded`), else its operator_library files (library_files, inside
// `roots`; none given: library_roots(profile)) loaded and serialized.
// nullptr when the profile names none.
Expected<std::shared_ptr<const OpLibrary>, Diagnostic> open_library(const Profile& profile, const FileSystem& fs,
                                                                    std::span<const EmbeddedLibrary> embedded,
                                                                    const Roots& roots = {});

}  // namespace dt
