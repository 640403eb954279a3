// render_toml (toml_writer.hpp): TomlBlocks as TOML text with a SourceMap.
#include "readers/toml_writer.hpp"

#include <fmt/format.h>

#include <charconv>
#include <iterator>

#include "base/text.hpp"

namespace dt {

TomlEntry& TomlEntry::add(std::string key, std::string value, Location where, std::uint32_t span) {
  fields.push_back(TomlField{std::move(key), std::move(value), where, span});
  return *this;
}
TomlEntry& TomlEntry::add(std::string key, bool value, Location where) {
  fields.push_back(TomlField{std::move(key), value, where});
  return *this;
}
TomlEntry& TomlEntry::add(std::string key, std::vector<std::string> value, Location where) {
  fields.push_back(TomlField{std::move(key), std::move(value), where});
  return *this;
}
TomlBlock& TomlBlock::add(std::string key, std::string value, Location where) {
  header.push_back(TomlField{std::move(key), std::move(value), where});
  return *this;
}

namespace {

// Appends `s` as a TOML basic string: runs without escapes are appended whole.
void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
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

// The length of the well-formed UTF-8 sequence at s[i] (Unicode's table 3-7), 0 if none.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0U; };
  const unsigned c = b(0);
  const auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return b(k) >= lo && b(k) <= hi; };
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (c >= 0xE1 && c <= 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

// A comment's text on one line, as a TOML comment may hold it: a line break
// (a source's text may hold them) as a space, other control characters and
// bytes that are not UTF-8 (from the source's string literals) as \xNN.
void append_one_line(std::string& out, std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto u = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_length(s, i);
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

// The text and its SourceMap, appended line by line into one buffer.
class Writer {
 public:
  Writer(std::size_t reserve, bool with_map) : with_map_(with_map) { out_.text.reserve(reserve); }
  // The current line's text so far (end() closes it).
  std::string& text() { return out_.text; }
  void end(const Location* from = nullptr, std::uint32_t anchor = 1, std::uint32_t span = 0) {
    ++n_;
    out_.text += '\n';
    if (with_map_ && from != nullptr && from->known()) out_.map.add(n_, *from, anchor, span);
  }
  void field(const TomlField& f) {
    std::string& t = out_.text;
    const std::size_t start = t.size();
    t += f.key;
    t += " = ";
    // The value's first character (after an opening quote) is where the
    // original value starts: columns inside a string keep their offset.
    const auto anchor = static_cast<std::uint32_t>(t.size() - start + 2);
    if (const auto* s = std::get_if<std::string>(&f.value)) {
      append_quoted(t, *s);
    } else if (const auto* b = std::get_if<bool>(&f.value)) {
      t += *b ? "true" : "false";
    } else {
      const auto& list = std::get<std::vector<std::string>>(f.value);
      t += '[';
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (i != 0) t += ", ";
        append_quoted(t, list[i]);
      }
      t += ']';
    }
    // An array (or a boolean) is not the source's text character for
    // character (C++'s {at::Tag::a, ...}, Python's ("cpu",)): a column inside
    // it maps to where it starts (an error in a tag's bytes past the line's
    // end otherwise: found by fuzz_cpp_reader).
    end(&f.at, anchor, f.span != 0 || std::holds_alternative<std::string>(f.value) ? f.span : 1);
  }
  // "# FILE:LINE:COL[: note]" (the file's printable name is kept for the next one).
  void comment(const Location& at, std::string_view note) {
    std::string& t = out_.text;
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
  RenderedToml take() { return std::move(out_); }

 private:
  RenderedToml out_;
  bool with_map_;
  std::uint32_t n_ = 0;
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

RenderedToml render_toml(const std::vector<TomlBlock>& blocks, std::string_view title, bool with_map) {
  std::size_t entries = 0;
  for (const auto& b : blocks) entries += b.entries.size();
  Writer w(256 + entries * 160, with_map);  // about the size of an [[impl]] of three fields with its comment
  w.text() += "# ";
  append_one_line(w.text(), title);
  w.end();
  const bool several = blocks.size() != 1;
  for (const auto& b : blocks) {
    w.end();
    w.comment(b.at, b.note);
    if (several) {
      w.text() += "[[block]]";
      w.end(&b.at);
    }
    for (const auto& f : b.header) w.field(f);
    for (const auto& e : b.entries) {
      w.end();
      w.comment(e.at, e.note);
      w.text() += several ? "[[block." : "[[";
      w.text() += e.kind;
      w.text() += "]]";
      w.end(&e.at);
      for (const auto& f : e.fields) w.field(f);
    }
  }
  return w.take();
}

}  // namespace dt
