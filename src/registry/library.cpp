#include "registry/library.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "base/text.hpp"
#include "registry/blob.hpp"
#include "registry/loader.hpp"
#include "registry/model.hpp"

namespace dt {

// ---- the format -------------------------------------------------------------
//
//   magic, string table (blob.hpp)
//   origin, files, keys (names), kernel count, libraries, operator index
//   (name, record offset, has a def)
//   operator records
//
// A location is (file index + 1 or 0, line, column). An operator record:
//   first_seen, has_def [schema, printed, debug, alias, tags, where, library],
//   keys with kernels [key, kernels newest first [debug, signature, flags,
//   where, library, seq]], cpp_signature?, sym_cpp_signature?

namespace {

enum KernelFlag : std::uint8_t { kFallthrough = 1, kBoxedOnly = 2, kCatchAll = 4 };

class Serializer {
 public:
  explicit Serializer(const Registry& reg) : reg_(reg), p_(reg.profile()) {}

  std::string run(std::string_view origin) {
    std::vector<const Operator*> ops = reg_.sorted_operators();
    // Operator records first: the index needs their offsets.
    std::vector<std::uint32_t> offsets;
    for (const Operator* op : ops) {
      offsets.push_back(static_cast<std::uint32_t>(w_.size()));
      op_record(*op);
    }
    std::string records = std::move(w_.bytes());
    w_.bytes().clear();

    w_.str(origin);
    w_.uint(files_.size());
    // Files and keys are collected while writing the records; their tables go here.
    for (const std::string& f : files_) w_.str(f);
    w_.uint(keys_.size());
    for (KeyId k : keys_) w_.str(p_.name_of(k));
    std::uint32_t kernels = 0;
    for (const Operator* op : ops)
      for (const auto& kk : op->kernels) kernels += static_cast<std::uint32_t>(kk.kernels.size());
    w_.uint(kernels);
    w_.uint(reg_.libraries().size());
    for (const Library& lib : reg_.libraries()) {
      w_.str(lib.ns);
      w_.u8(static_cast<std::uint8_t>(lib.kind));
      w_.u8(lib.kind_explicit ? 1 : 0);
      w_.uint(lib.key ? key_index(*lib.key) + 1 : 0);
      location(lib.where);
    }
    w_.uint(ops.size());
    for (std::size_t i = 0; i < ops.size(); ++i) {
      w_.str(ops[i]->name);
      w_.uint(offsets[i]);
      w_.u8(ops[i]->def ? 1 : 0);
    }
    w_.uint(records.size());
    std::string out(blob::kMagic);
    out += w_.table();
    out += w_.bytes();
    out += records;
    return out;
  }

 private:
  void op_record(const Operator& op) {
    location(op.first_seen);
    w_.u8(op.def ? 1 : 0);
    if (op.def) {
      const Definition& d = *op.def;
      w_.str(print_schema(d.schema));
      w_.str(d.printed);
      w_.str(d.debug);
      w_.u8(static_cast<std::uint8_t>(d.alias));
      w_.uint(d.tags.size());
      for (const auto& t : d.tags) w_.str(t);
      location(d.where);
      w_.uint(d.library);
    }
    w_.uint(op.kernels.size());
    for (const auto& kk : op.kernels) {
      w_.uint(key_index(kk.key));
      w_.uint(kk.kernels.size());
      for (const Kernel& k : kk.kernels) {
        w_.str(k.debug);
        w_.opt_str(k.signature.get());
        w_.u8(static_cast<std::uint8_t>((k.fallthrough ? kFallthrough : 0) | (k.boxed_only ? kBoxedOnly : 0) |
                                        (k.catch_all ? kCatchAll : 0)));
        location(k.where);
        w_.uint(k.library);
        w_.uint(k.seq);
      }
    }
    for (const auto* rec : {&op.cpp_signature, &op.sym_cpp_signature}) {
      w_.u8(rec->has_value() ? 1 : 0);
      if (!rec->has_value()) continue;
      const CppSignatureRecord& r = **rec;
      w_.str(r.debug);
      w_.opt_str(r.signature.get());
      w_.uint(key_index(r.key));
      w_.u8(r.catch_all ? 1 : 0);
      location(r.where);
    }
  }

  void location(const Location& loc) {
    if (loc.file.empty()) {
      w_.uint(0);
    } else {
      auto it = std::find(files_.begin(), files_.end(), loc.file.view());
      if (it == files_.end()) it = files_.insert(files_.end(), loc.file.str());
      w_.uint(static_cast<std::size_t>(it - files_.begin()) + 1);
    }
    w_.uint(loc.line);
    w_.uint(loc.column);
  }

  std::size_t key_index(KeyId k) {
    auto it = std::find(keys_.begin(), keys_.end(), k);
    if (it == keys_.end()) it = keys_.insert(keys_.end(), k);
    return static_cast<std::size_t>(it - keys_.begin());
  }

  const Registry& reg_;
  const Profile& p_;
  blob::Writer w_;
  std::vector<std::string> files_;
  std::vector<KeyId> keys_;
};

}  // namespace

std::string OpLibrary::serialize(const Registry& reg, std::string_view origin) { return Serializer(reg).run(origin); }

Expected<OpLibrary, Diagnostic> OpLibrary::open(std::string_view blob, const Profile& profile,
                                                std::shared_ptr<const std::string> owned) {
  OpLibrary lib;
  lib.blob_ = blob;
  lib.owned_ = std::move(owned);
  lib.profile_ = &profile;
  auto bad = [&](std::string what) {
    Diagnostic d;
    d.message = fmt::format("operator library of profile {}: {}", profile.name(), what);
    return unexpected(std::move(d));
  };
  if (!blob.starts_with(blob::kMagic)) return bad("not a serialized library of this version of dispatchtool");
  blob::Reader r(blob, blob::kMagic.size());
  const std::uint32_t nstrings = r.u32();
  for (std::uint32_t i = 0; i < nstrings && !r.failed(); ++i) lib.strings_.push_back(r.bytes(r.u32()));
  auto str = [&]() -> std::string_view {
    const std::uint32_t i = r.u32();
    if (i < lib.strings_.size()) return lib.strings_[i];
    r.fail();
    return {};
  };
  lib.origin_ = str();
  const std::uint32_t nfiles = r.u32();
  for (std::uint32_t i = 0; i < nfiles && !r.failed(); ++i) lib.files_.emplace_back(str());
  const std::uint32_t nkeys = r.u32();
  for (std::uint32_t i = 0; i < nkeys && !r.failed(); ++i) {
    const std::string_view name = str();
    auto k = profile.find(name);
    if (!k)
      return bad(fmt::format("its registrations use the dispatch key '{}', which the profile does not have", name));
    lib.keys_.push_back(*k);
  }
  lib.kernel_count_ = r.u32();
  lib.libraries_offset_ = static_cast<std::uint32_t>(r.at());  // decoded by libraries()
  const std::uint32_t nlibs = r.u32();
  for (std::uint32_t i = 0; i < nlibs && !r.failed(); ++i) {
    str();
    r.u8();
    r.u8();
    r.u32();
    r.u32(), r.u32(), r.u32();
  }
  const std::uint32_t nops = r.u32();
  for (std::uint32_t i = 0; i < nops && !r.failed(); ++i) {
    const std::string_view name = str();
    const std::uint32_t offset = r.u32();
    lib.ops_.push_back(OpRef{name, offset, r.u8() != 0});
  }
  const std::uint32_t records = r.u32();
  if (r.failed() || records != blob.size() - r.at()) return bad("the serialized library is truncated");
  for (auto& op : lib.ops_) op.offset += static_cast<std::uint32_t>(r.at());
  if (!std::is_sorted(lib.ops_.begin(), lib.ops_.end(), [](const OpRef& a, const OpRef& b) { return a.name < b.name; }))
    return bad("its operator index is not sorted");
  return lib;
}

std::optional<std::size_t> OpLibrary::find(std::string_view name) const {
  auto it =
      std::lower_bound(ops_.begin(), ops_.end(), name, [](const OpRef& a, std::string_view n) { return a.name < n; });
  if (it == ops_.end() || it->name != name) return std::nullopt;
  return static_cast<std::size_t>(it - ops_.begin());
}

bool OpLibrary::contains(const Location& where) const {
  return std::find(files_.begin(), files_.end(), where.file) != files_.end();
}

namespace {

// Decodes records of a blob that open() has checked.
struct RecordReader {
  blob::Reader r;
  const std::vector<std::string_view>& strings;
  const std::vector<FileName>& files;
  const std::vector<KeyId>& keys;

  std::string_view str() { return strings[r.u32()]; }
  std::optional<std::string_view> opt_str() {
    const std::uint32_t i = r.u32();
    if (i == 0) return std::nullopt;
    return strings[i - 1];
  }
  KeyId key() { return keys[r.u32()]; }
  Location location() {
    Location loc;
    const std::uint32_t f = r.u32();
    if (f != 0) loc.file = files[f - 1];
    loc.line = r.u32();
    loc.column = r.u32();
    return loc;
  }
};

}  // namespace

std::vector<Library> OpLibrary::libraries() const {
  RecordReader in{blob::Reader(blob_, libraries_offset_), strings_, files_, keys_};
  std::vector<Library> out(in.r.u32());
  for (Library& lib : out) {
    lib.ns = std::string(in.str());
    lib.kind = static_cast<LibraryKind>(in.r.u8());
    lib.kind_explicit = in.r.u8() != 0;
    if (const std::uint32_t k = in.r.u32(); k != 0) lib.key = keys_[k - 1];
    lib.where = in.location();
  }
  return out;
}

bool OpLibrary::has(std::string_view op, std::string_view key, const Profile& profile) const {
  const auto i = find(op);
  if (!i) return false;
  if (key.empty()) return defined(*i);
  const auto k = profile.find(key);
  if (!k) return false;
  Operator o;
  materialize(*i, o);
  return o.get(*k) != nullptr;
}

InLibrary in_library(const OpLibrary* lib, const Profile& profile) {
  if (lib == nullptr) return {};
  return [lib, &profile](std::string_view op, std::string_view key) { return lib->has(op, key, profile); };
}

void OpLibrary::materialize(std::size_t i, Operator& op) const {
  RecordReader in{blob::Reader(blob_, ops_[i].offset), strings_, files_, keys_};
  // Kernels of an operator share a few signature texts: one shared string each.
  std::vector<std::pair<std::string_view, std::shared_ptr<const std::string>>> signatures;
  auto signature = [&](std::optional<std::string_view> text) -> std::shared_ptr<const std::string> {
    if (!text) return nullptr;
    for (const auto& [t, s] : signatures)
      if (t.data() == text->data()) return s;
    signatures.emplace_back(*text, std::make_shared<const std::string>(*text));
    return signatures.back().second;
  };
  op.name = std::string(ops_[i].name);
  op.library = true;
  op.first_seen = in.location();
  if (in.r.u8() != 0) {
    Definition d;
    SchemaParseOptions printed;
    printed.printed = true;
    d.schema = std::move(*parse_schema(in.str(), printed));  // serialized from a parsed schema
    d.printed = std::string(in.str());
    d.debug = std::string(in.str());
    d.alias = static_cast<AliasAnalysis>(in.r.u8());
    d.tags.resize(in.r.u32());
    for (auto& t : d.tags) t = std::string(in.str());
    d.where = in.location();
    d.library = in.r.u32();
    op.def = std::move(d);
  }
  op.kernels.resize(in.r.u32());
  for (KeyKernels& kk : op.kernels) {
    kk.key = in.key();
    // Serialized newest first, as a KernelStack reads; pushed oldest first.
    std::vector<Kernel> newest_first(in.r.u32());
    for (Kernel& k : newest_first) {
      k.debug = std::string(in.str());
      k.signature = signature(in.opt_str());
      const std::uint8_t flags = in.r.u8();
      k.fallthrough = (flags & kFallthrough) != 0;
      k.boxed_only = (flags & kBoxedOnly) != 0;
      k.catch_all = (flags & kCatchAll) != 0;
      k.where = in.location();
      k.library = in.r.u32();
      k.seq = in.r.u32();
    }
    for (auto it = newest_first.rbegin(); it != newest_first.rend(); ++it) kk.kernels.push_newest(std::move(*it));
  }
  for (auto* rec : {&op.cpp_signature, &op.sym_cpp_signature}) {
    if (in.r.u8() == 0) continue;
    CppSignatureRecord r;
    r.debug = std::string(in.str());
    r.signature = signature(in.opt_str());
    r.key = in.key();
    r.catch_all = in.r.u8() != 0;
    r.where = in.location();
    *rec = std::move(r);
  }
}

// ---- where a profile's library comes from ---------------------------------------

Roots library_roots(const Profile& profile) {
  const std::string dir = std::filesystem::path(profile.source()).parent_path().string();
  return {dir.empty() ? std::string(".") : dir};
}

Expected<std::vector<std::string>, Diagnostic> library_files(const Profile& profile, const FileSystem& fs) {
  return library_files(profile, fs, library_roots(profile));
}

Expected<std::vector<std::string>, Diagnostic> library_files(const Profile& profile, const FileSystem& fs,
                                                             const Roots& roots) {
  // Lexical path operations only; the file system is the injected one.
  const std::filesystem::path base = std::filesystem::path(profile.source()).parent_path();
  Roots real_roots;
  for (const auto& root : roots)
    if (auto r = fs.real_path(root)) real_roots.push_back(std::move(*r));
  std::vector<std::string> out;
  for (const std::string& entry : profile.operator_library()) {
    const std::string path = (base / entry).lexically_normal().string();
    // A profile is a repository's file: its library stays inside the
    // profile's directory (the path is not echoed resolved: where it leads
    // outside is not said).
    if (auto real = fs.real_path(path); !real || !lies_below(*real, real_roots))
      return unexpected(make_error(
          profile.operator_library_where(),
          fmt::format("operator library '{}' lies outside the profile's directory (symbolic links followed): a "
                      "profile's operator library must be inside the directory of its profile file",
                      printable(entry))));
    switch (fs.kind(path)) {
      case FileKind::Regular:
        out.push_back(path);
        continue;
      case FileKind::Directory:
        break;
      case FileKind::Missing:
      case FileKind::Other:
        return unexpected(make_error(profile.operator_library_where(),
                                     fmt::format("operator library '{}' is not a file or directory", path)));
    }
    auto listed = fs.list(path);
    if (!listed)
      return unexpected(make_error(profile.operator_library_where(),
                                   fmt::format("cannot read operator library '{}': {}", path, listed.error().message)));
    std::vector<std::string> files;
    for (auto& f : *listed)
      if (f.ends_with(".toml") && fs.kind(f) == FileKind::Regular)
        files.push_back(std::filesystem::path(f).lexically_normal().string());
    if (files.empty())
      return unexpected(make_error(profile.operator_library_where(),
                                   fmt::format("operator library '{}' holds no .toml files", path)));
    std::sort(files.begin(), files.end());
    out.insert(out.end(), files.begin(), files.end());
  }
  return out;
}

Expected<std::shared_ptr<const OpLibrary>, Diagnostic> open_library(const Profile& profile, const FileSystem& fs,
                                                                    std::span<const EmbeddedLibrary> embedded,
                                                                    const Roots& roots) {
  using Result = std::shared_ptr<const OpLibrary>;
  if (profile.operator_library().empty()) return Result();
  if (profile.builtin())
    for (const auto& e : embedded)
      if (e.profile == profile.name()) {
        DT_TRY(lib, OpLibrary::open(e.blob, profile));
        return Result(std::make_shared<const OpLibrary>(std::move(lib)));
      }
  const Roots inside = roots.empty() ? library_roots(profile) : roots;
  DT_TRY(files, library_files(profile, fs, inside));
  DT_TRY(loaded, load(profile, files, reader_inside(fs, inside)));
  const std::string origin =
      (std::filesystem::path(profile.source()).parent_path() / profile.operator_library().front())
          .lexically_normal()
          .string();
  auto blob = std::make_shared<const std::string>(OpLibrary::serialize(loaded.registry, origin));
  DT_TRY(lib, OpLibrary::open(*blob, profile, blob));
  return Result(std::make_shared<const OpLibrary>(std::move(lib)));
}

}  // namespace dt
