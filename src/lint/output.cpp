// dispatchtool lint: output formats (output.hpp): the format switch, the
// summary, text, GitHub workflow commands and the rule list. JSON and SARIF
// are in output_json.cpp.
#include "lint/output.hpp"

#include <fmt/format.h>

#include "base/text.hpp"

namespace dt::lint {

namespace {

const char* github_command(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Info:
      return "notice";
  }
  return "warning";
}

std::string plural(std::size_t n, std::string_view word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

// ---- text -------------------------------------------------------------------------------

// Indents: a message's further lines, and notes and the fix hint (whose own
// further lines go deeper). Only notes and hints start at kNoteIndent, so
// text from the input (a kernel name with a line break) cannot pass for one.
constexpr int kMessageIndent = 6, kNoteIndent = 4, kNoteLineIndent = 8;

// "FILE:LINE:COL: severity: first line of the message [rule-id]", then the
// message's further lines (PyTorch's multi-line texts), indented.
// gcc's colours: errors bold red, warnings bold magenta, infos and notes bold cyan.
std::string_view severity_sgr(Severity s) {
  switch (s) {
    case Severity::Error:
      return "1;31";
    case Severity::Warning:
      return "1;35";
    case Severity::Info:
      break;
  }
  return "1;36";
}

void text_headline(const Finding& f, std::string& out, bool color) {
  const std::string_view msg = f.message;
  const auto nl = msg.find('\n');
  out += fmt::format("{}: {}: ", to_string(f.where), paint(to_string(f.severity), severity_sgr(f.severity), color));
  append_printable(msg.substr(0, nl), out, kMessageIndent);
  out += fmt::format(" [{}]\n", paint(f.rule, "1", color));
  if (nl == std::string_view::npos) return;
  out.append(kMessageIndent, ' ');
  append_printable(msg.substr(nl + 1), out, kMessageIndent);
  out += '\n';
}

}  // namespace

std::optional<Format> parse_format(std::string_view text) {
  if (text == "text") return Format::Text;
  if (text == "json") return Format::Json;
  if (text == "sarif") return Format::Sarif;
  if (text == "github") return Format::Github;
  return std::nullopt;
}

Summary summarize(const std::vector<Finding>& findings, const BaselineUse& baseline) {
  Summary s;
  s.baselined = baseline.accepted;
  s.stale = baseline.unmatched;
  for (const auto& f : findings) {
    switch (f.severity) {
      case Severity::Error:
        ++s.errors;
        break;
      case Severity::Warning:
        ++s.warnings;
        break;
      case Severity::Info:
        ++s.infos;
        break;
    }
  }
  return s;
}

std::string summary_line(const Summary& s) {
  const std::size_t total = s.errors + s.warnings + s.infos;
  std::string out = total == 0 ? std::string("no findings")
                               : fmt::format("{} ({}, {}, {} info)", plural(total, "finding"),
                                             plural(s.errors, "error"), plural(s.warnings, "warning"), s.infos);
  if (s.baselined != 0) out += fmt::format("; {} accepted by the baseline", s.baselined);
  if (s.stale != 0)
    out += fmt::format("; {} the baseline accepts no longer {} (fixed? refresh it with --write-baseline)",
                       plural(s.stale, "finding"), s.stale == 1 ? "occurs" : "occur");
  return out;
}

void render_text(const std::vector<Finding>& findings, std::string& out, bool color) {
  for (const auto& f : findings) {
    text_headline(f, out, color);
    for (const auto& n : f.notes) {
      out.append(kNoteIndent, ' ');
      out += fmt::format("{}: {} ", to_string(n.where), paint("note:", severity_sgr(Severity::Info), color));
      append_printable(n.message, out, kNoteLineIndent);
      out += '\n';
    }
    if (!f.fix.empty()) {
      out.append(kNoteIndent, ' ');
      out += paint("help:", "1;32", color);
      out += ' ';
      append_printable(f.fix, out, kNoteLineIndent);
      out += '\n';
    }
  }
}

std::string github_escape_data(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string github_escape_property(std::string_view s) {
  std::string out;
  for (char c : github_escape_data(s)) {
    switch (c) {
      case ':':
        out += "%3A";
        break;
      case ',':
        out += "%2C";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void render_github(const std::vector<Finding>& findings, std::string& out) {
  for (const auto& f : findings) {
    std::string props = "file=" + github_escape_property(f.where.file);
    if (f.where.known()) props += fmt::format(",line={},col={}", f.where.line, f.where.column);
    props += ",title=" + github_escape_property(f.rule);
    std::string msg = f.message;
    for (const auto& n : f.notes) msg += fmt::format("\n{}: note: {}", to_string(n.where), n.message);
    if (!f.fix.empty()) msg += "\nhelp: " + f.fix;
    out += fmt::format("::{} {}::{}\n", github_command(f.severity), props, github_escape_data(msg));
  }
}

void render(Format format, const std::vector<Finding>& findings, const OutputInfo& info, const Summary& summary,
            std::string& out, bool color) {
  switch (format) {
    case Format::Text:
      render_text(findings, out, color);
      break;
    case Format::Json:
      render_json(findings, info, summary, out);
      break;
    case Format::Sarif:
      render_sarif(findings, info, out);
      break;
    case Format::Github:
      render_github(findings, out);
      break;
  }
}

void render_rule_list(std::string& out) {
  for (const auto& r : rules()) out += fmt::format("{:<24} {:<8} {}\n", r.id, to_string(r.severity), r.summary);
}

}  // namespace dt::lint
