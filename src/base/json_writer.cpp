#include "base/json_writer.hpp"

#include "base/text.hpp"

namespace dt {

void JsonWriter::key(std::string_view k) {
  separate();
  out_ += json_quote(k);
  out_ += layout_ == Layout::Pretty ? ": " : ":";
  after_key_ = true;
}

void JsonWriter::str(std::string_view s) {
  separate();
  out_ += json_quote(s);
}

void JsonWriter::num(std::uint64_t n) {
  separate();
  out_ += std::to_string(n);
}

void JsonWriter::boolean(bool b) {
  separate();
  out_ += b ? "true" : "false";
}

void JsonWriter::null() {
  separate();
  out_ += "null";
}

void JsonWriter::raw_value(std::string_view json) {
  separate();
  out_ += json;
}

void JsonWriter::text_member(std::string_view k, std::string_view text) {
  key(k);
  begin_object();
  member("text", text);
  end_object();
}

void begin_envelope(JsonWriter& w, std::string_view tool_version, std::string_view profile) {
  w.begin_object();
  w.member("version", std::uint64_t{1});
  w.key("tool");
  w.begin_object();
  w.member("name", "dispatchtool");
  w.member("version", tool_version);
  w.end_object();
  w.member("profile", profile);
}

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  if (!stack_.back().empty) out_ += ',';
  stack_.back().empty = false;
  newline();
}

void JsonWriter::open(char c) {
  separate();
  out_ += c;
  stack_.push_back({});
}

void JsonWriter::close(char c) {
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  out_ += c;
  if (stack_.empty() && layout_ == Layout::Pretty) out_ += '\n';
}

void JsonWriter::newline() {
  if (layout_ == Layout::Compact) return;
  out_ += '\n';
  out_.append(2 * stack_.size(), ' ');
}

}  // namespace dt
