// render_toml (toml_writer.hpp): TomlBlocks as TOML text with a SourceMap.
#include "readers/toml_writer.hpp"

#include <fmt/format.h>

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

std::string toml_quote(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
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
        if (c < 0x20 || c == 0x7f)
          out += fmt::format("\\u{:04X}", c);
        else
          out += ch;
    }
  }
  out += '"';
  return out;
}

namespace {

// A comment's text on one line (a source's text may hold newlines).
std::string one_line(std::string_view s) {
  std::string out;
  for (const char c : s) out += (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

class Writer {
 public:
  void line(std::string text, const Location* from = nullptr, std::uint32_t anchor = 1) {
    ++n_;
    out_.text += text;
    out_.text += '\n';
    if (from != nullptr && from->known()) out_.map.add(n_, *from, anchor);
  }
  void field(std::string_view prefix, const TomlField& f) {
    std::string text = fmt::format("{}{} = ", prefix, f.key);
    // The value's first character (after an opening quote) is where the
    // original value starts: columns inside a string keep their offset.
    const auto anchor = static_cast<std::uint32_t>(text.size() + 2);
    if (const auto* s = std::get_if<std::string>(&f.value)) {
      text += toml_quote(*s);
    } else if (const auto* b = std::get_if<bool>(&f.value)) {
      text += *b ? "true" : "false";
    } else {
      const auto& list = std::get<std::vector<std::string>>(f.value);
      text += '[';
      for (std::size_t i = 0; i < list.size(); ++i) text += (i != 0 ? ", " : "") + toml_quote(list[i]);
      text += ']';
    }
    line(std::move(text), &f.at, anchor);
  }
  RenderedToml take() { return std::move(out_); }

 private:
  RenderedToml out_;
  std::uint32_t n_ = 0;
};

std::string where(const Location& at) { return at.known() ? to_string(at) : std::string("(generated)"); }

}  // namespace

RenderedToml render_toml(const std::vector<TomlBlock>& blocks, std::string_view title) {
  Writer w;
  w.line(fmt::format("# {}", one_line(title)));
  const bool several = blocks.size() != 1;
  for (const auto& b : blocks) {
    w.line("");
    w.line(fmt::format("# {}{}{}", where(b.at), b.note.empty() ? "" : ": ", one_line(b.note)));
    if (several) w.line("[[block]]", &b.at);
    for (const auto& f : b.header) w.field("", f);
    for (const auto& e : b.entries) {
      w.line("");
      w.line(fmt::format("# {}{}{}", where(e.at), e.note.empty() ? "" : ": ", one_line(e.note)));
      w.line(fmt::format("[[{}{}]]", several ? "block." : "", e.kind), &e.at);
      for (const auto& f : e.fields) w.field("", f);
    }
  }
  return w.take();
}

}  // namespace dt
