// Internal: the byte format of serialized operator libraries (library.cpp).
// Unsigned integers are LEB128 varints; strings are indices into a table of
// unique strings written first, so repeated texts (signatures, file names)
// are stored once.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dt::blob {

inline constexpr std::string_view kMagic = "dispatchtool-library 1\n";

class Writer {
 public:
  void u8(std::uint8_t v) { out_ += static_cast<char>(v); }
  void uint(std::uint64_t v) {
    do {
      auto byte = static_cast<std::uint8_t>(v & 0x7f);
      v >>= 7;
      if (v != 0) byte |= 0x80;
      out_ += static_cast<char>(byte);
    } while (v != 0);
  }
  // A string, by its index in the string table.
  void str(std::string_view s) { uint(intern(s)); }
  // 0 for none, else the string's index + 1.
  void opt_str(const std::string* s) { uint(s == nullptr ? 0 : intern(*s) + 1); }

  std::uint32_t intern(std::string_view s) {
    auto [it, inserted] = index_.try_emplace(std::string(s), static_cast<std::uint32_t>(table_.size()));
    if (inserted) table_.push_back(&it->first);
    return it->second;
  }
  [[nodiscard]] std::string& bytes() { return out_; }
  [[nodiscard]] std::size_t size() const { return out_.size(); }

  // The string table, as a reader expects it before anything that refers to it.
  [[nodiscard]] std::string table() const {
    Writer w;
    w.uint(table_.size());
    for (const std::string* s : table_) {
      w.uint(s->size());
      w.out_ += *s;
    }
    return std::move(w.out_);
  }

 private:
  std::string out_;
  std::map<std::string, std::uint32_t> index_;
  std::vector<const std::string*> table_;  // in index order (map nodes do not move)
};

// Reads what Writer wrote. Reading past the end sets failed() and returns zeros
// (open() checks the structure; records of a checked blob are trusted).
class Reader {
 public:
  explicit Reader(std::string_view data, std::size_t at = 0) : data_(data), at_(at) {}

  std::uint8_t u8() {
    if (at_ >= data_.size()) return fail(), 0;
    return static_cast<std::uint8_t>(data_[at_++]);
  }
  std::uint64_t uint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const std::uint8_t byte = u8();
      v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return v;
    }
    return fail(), 0;
  }
  std::uint32_t u32() {
    const std::uint64_t v = uint();
    if (v > UINT32_MAX) return fail(), 0;
    return static_cast<std::uint32_t>(v);
  }
  std::string_view bytes(std::size_t n) {
    if (n > data_.size() - at_) return fail(), std::string_view{};
    const std::string_view s = data_.substr(at_, n);
    at_ += n;
    return s;
  }
  [[nodiscard]] bool failed() const { return failed_; }
  [[nodiscard]] std::size_t at() const { return at_; }
  void fail() {
    failed_ = true;
    at_ = data_.size();
  }

 private:
  std::string_view data_;
  std::size_t at_;
  bool failed_ = false;
};

}  // namespace dt::blob
