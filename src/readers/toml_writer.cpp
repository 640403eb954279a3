// render_toml (toml_writer.hpp): TomlBlocks as TOML text with a SourceMap.
#include "readers/toml_writer.hpp"

#include <fmt/format.h>

#include <charconv>
#include <iterator>

#include "base/text.hpp"

namespace dt {

TomlEntry& TomlEntry::add(std::string key, std::string value, Location where) {
  fields.push_back(TomlField{std::move(key), std::move(value), where});
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

// A comment's text on one line (a source's text may hold newlines).
void append_one_line(std::string& out, std::string_view s) {
  for (const char c : s) out += (c == '\n' || c == '\r') ? ' ' : c;
}

// The text and its SourceMap, appended line by line into one buffer.
class Writer {
 public:
  Writer(std::size_t reserve, bool with_map) : with_map_(with_map) { out_.text.reserve(reserve); }
  // The current line's text so far (end() closes it).
  std::string& text() { return out_.text; }
  void end(const Location* from = nullptr, std::uint32_t anchor = 1) {
    ++n_;
    out_.text += '\n';
    if (with_map_ && from != nullptr && from->known()) out_.map.add(n_, *from, anchor);
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
    end(&f.at, anchor);
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
