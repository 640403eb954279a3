// render_toml (toml_writer.hpp): TomlBlocks as TOML text.
#include "readers/toml_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <iterator>

#include "base/text.hpp"

namespace dt {

namespace {

// A field built where it is stored: no temporary to move and destroy (a
// native_functions.yaml adds some 30,000).
TomlField& add_field(std::vector<TomlField>& fields, std::string_view key, Location where, std::uint32_t span = 0) {
  TomlField& f = fields.emplace_back();
  f.key.assign(key);
  f.at = where;
  f.span = span;
  return f;
}

}  // namespace

TomlEntry& TomlEntry::add(std::string_view key, std::string value, Location where, std::uint32_t span) {
  add_field(fields, key, where, span).value = std::move(value);
  return *this;
}
TomlEntry& TomlEntry::add(std::string_view key, bool value, Location where) {
  add_field(fields, key, where).value = value;
  return *this;
}
TomlEntry& TomlEntry::add(std::string_view key, std::vector<std::string> value, Location where) {
  add_field(fields, key, where).value = string_array(std::move(value), where);
  return *this;
}
TomlBlock& TomlBlock::add(std::string_view key, std::string value, Location where) {
  add_field(header, key, where).value = std::move(value);
  return *this;
}

namespace {

// Appends `s` as a TOML basic string: runs without escapes are appended whole.
// Whether any of the eight bytes of `w` must be escaped in a basic string:
// below 0x20, 0x7f, '"' or '\\' (bytes of 0x80 and up are UTF-8, kept).
bool needs_escape(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  const auto zero_byte = [](std::uint64_t x) { return (x - kOnes) & ~x & kHigh; };
  const std::uint64_t ascii = ~w & kHigh;  // the bytes below 0x80
  const std::uint64_t below_space = (w - 0x20 * kOnes) & ascii;
  return (below_space | zero_byte(w ^ (0x7f * kOnes)) | zero_byte(w ^ ('"' * kOnes)) |
          zero_byte(w ^ ('\\' * kOnes))) != 0;
}

void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    // Eight plain bytes at a time (every kernel name and schema is written here).
    for (std::uint64_t w = 0; i + 8 <= s.size() && (std::memcpy(&w, s.data() + i, 8), !needs_escape(w));) i += 8;
    if (i == s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != 0x7f && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        fmt::format_to(std::back_inserter(out), "\\u{:04X}", c);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

void append_number(std::string& out, std::uint32_t n) {
  char buf[16];
  const auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, r.ptr);
}

// A comment's text on one line, as a TOML comment may hold it: a line break
// (a source's text may hold them) as a space, other control characters and
// bytes that are not UTF-8 (from the source's string literals) as \xNN.
void append_one_line(std::string& out, std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto u = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_sequence_length(s, i);
    if (u == '\n' || u == '\r') {
      out += ' ';
    } else if (n == 0 || (u < 0x20 && u != '\t') || u == 0x7f) {
      fmt::format_to(std::back_inserter(out), "\\x{:02x}", u);
    } else {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    ++i;
  }
}

// The text, appended line by line into one buffer.
class Writer {
 public:
  explicit Writer(std::size_t reserve) { out_.reserve(reserve); }
  // The current line's text so far (end() closes it).
  std::string& text() { return out_; }
  void end() { out_ += '\n'; }
  void field(const TomlField& f) {
    // A reader's keys are the contract's names, bare; a TOML file's may need quotes.
    const bool bare = !f.key.empty() && std::all_of(f.key.begin(), f.key.end(), toml_bare_key_char);
    if (bare)
      out_ += f.key;
    else
      append_quoted(out_, f.key);
    out_ += " = ";
    value(f);
    end();
  }
  // A value as TOML writes it inline.
  void value(const TomlField& f) {
    std::string& t = out_;
    if (const auto* s = std::get_if<std::string>(&f.value)) {
      append_quoted(t, *s);
    } else if (const auto* b = std::get_if<bool>(&f.value)) {
      t += *b ? "true" : "false";
    } else if (const auto* a = std::get_if<TomlArray>(&f.value)) {
      t += '[';
      for (std::size_t i = 0; i < a->items.size(); ++i) {
        if (i != 0) t += ", ";
        value(a->items[i]);
      }
      t += ']';
    } else if (const auto* tb = std::get_if<TomlTable>(&f.value)) {
      t += '{';
      for (std::size_t i = 0; i < tb->fields.size(); ++i) {
        t += i != 0 ? ", " : " ";
        append_quoted(t, tb->fields[i].key);
        t += " = ";
        value(tb->fields[i]);
      }
      t += tb->fields.empty() ? "}" : " }";
    } else {
      t += std::get<TomlScalar>(f.value).text;
    }
  }
  // "# FILE:LINE:COL[: note]" (the file's printable name is kept for the next one).
  void comment(const Location& at, std::string_view note) {
    std::string& t = out_;
    t += "# ";
    if (at.known()) {
      if (at.file != file_ || !have_file_) file_ = at.file, have_file_ = true, printable_ = printable(at.file.view());
      t += printable_;
      t += ':';
      append_number(t, at.line);
      t += ':';
      append_number(t, at.column);
    } else {
      t += "(generated)";
    }
    if (!note.empty()) {
      t += ": ";
      append_one_line(t, note);
    }
    end();
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
  FileName file_;
  bool have_file_ = false;
  std::string printable_;
};

}  // namespace

std::string toml_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  append_quoted(out, s);
  return out;
}

std::string render_toml(const std::vector<TomlBlock>& blocks, std::string_view title) {
  std::size_t entries = 0;
  for (const auto& b : blocks) entries += b.entries.size();
  Writer w(256 + entries * 160);  // about the size of an [[impl]] of three fields with its comment
  w.text() += "# ";
  append_one_line(w.text(), title);
  w.end();
  const bool several = blocks.size() != 1;
  for (const auto& b : blocks) {
    w.end();
    w.comment(b.at, b.note);
    if (several) {
      w.text() += "[[block]]";
      w.end();
    }
    for (const auto& f : b.header) w.field(f);
    for (const auto& e : b.entries) {
      w.end();
      w.comment(e.at, e.note);
      w.text() += several ? "[[block." : "[[";
      w.text() += e.kind;
      w.text() += "]]";
      w.end();
      for (const auto& f : e.fields) w.field(f);
    }
  }
  return w.take();
}

}  // namespace dt
