// The schema parser's default values (schema_parser.hpp): constants, lists,
// strings and devices, and how PyTorch prints them; after
// function_schema_parser.cpp (parseDefaultValue), parse_string_literal.h,
// c10/core/Device.cpp, c10/util/StringUtil.h (printQuotedString) and
// ivalue.cpp (IValue's operator<<).
#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>

#include "base/limits.hpp"
#include "registry/schema_parser.hpp"

namespace dt::schema_detail {

namespace {

// All of `number` (the lexer's number: digits, '.', an exponent; without its
// "0x" when `hex`) as a double;
// false when it is out of range. std::from_chars where the standard library
// has it for double (libstdc++); std::strtod elsewhere -- the libc++ of
// emscripten 3.1.6, which builds the playground (docs/playground.md), has no
// floating-point from_chars. Both round correctly, and both refuse overflow
// and underflow (strtod with ERANGE); the tool never changes the "C" locale.
bool read_double(std::string_view number, double& d, bool hex) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), d,
                                         hex ? std::chars_format::hex : std::chars_format::general);
  return ec == std::errc{} && ptr == number.data() + number.size();
#else
  const std::string text = (hex ? "0x" : "") + std::string(number);
  char* end = nullptr;
  errno = 0;
  d = std::strtod(text.c_str(), &end);
  return errno != ERANGE && end == text.c_str() + text.size() && std::isfinite(d);
#endif
}

// c10::printQuotedString, including its octal escapes of bytes outside
// printable ASCII (computed on a signed char, as PyTorch does).
void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "\\'";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      default:
        if (c > 0x1f && c < 0x7f) {
          out += c;
        } else {
          int v = static_cast<signed char>(c);  // NOLINT(bugprone-signed-char-misuse): as PyTorch does
          std::array<char, 3> digits{};
          digits[2] = static_cast<char>('0' + v % 8);
          v /= 8;
          digits[1] = static_cast<char>('0' + v % 8);
          v /= 8;
          digits[0] = static_cast<char>('0' + v);
          out += '\\';
          out.append(digits.data(), digits.size());
        }
    }
  }
  out += '"';
}

// std::stod on a number token's text: the number strtod reads at its start
// (decimal, or hexadecimal after "0x"); nullopt: "stod" (none, or out of
// range: std::stod refuses what strtod flags with ERANGE, overflow and
// underflow).
std::optional<double> stod_prefix(std::string_view text) {
  const bool negative = text.starts_with('-');
  std::size_t n = negative ? 1 : 0;
  const bool hex = text.size() > n + 2 && text[n] == '0' && (text[n + 1] == 'x' || text[n + 1] == 'X') &&
                   (is_hex_digit(text[n + 2]) || text[n + 2] == '.');
  if (hex) n += 2;
  const std::size_t from = n;
  const auto digit = [&](char c) { return hex ? is_hex_digit(c) : is_digit(c); };
  std::size_t digits = 0;
  while (n < text.size() && digit(text[n])) ++n, ++digits;
  if (n < text.size() && text[n] == '.') {
    ++n;
    while (n < text.size() && digit(text[n])) ++n, ++digits;
  }
  if (digits == 0) return hex ? std::optional<double>(0.0) : std::nullopt;  // "0x" alone is 0
  const char exponent = hex ? 'p' : 'e';
  const char upper = hex ? 'P' : 'E';
  if (n < text.size() && (text[n] == exponent || text[n] == upper)) {
    std::size_t p = n + 1;
    if (p < text.size() && (text[p] == '+' || text[p] == '-')) ++p;
    if (p < text.size() && is_digit(text[p])) {
      n = p;
      while (n < text.size() && is_digit(text[n])) ++n;
    }
  }
  double d = 0;
  if (!read_double(text.substr(from, n - from), d, hex) ||
      (d != 0 && std::fabs(d) < std::numeric_limits<double>::min()))
    return std::nullopt;
  return negative ? -d : d;
}

void append_value(std::string& out, const Value& v, bool quote_strings) {
  switch (v.tag) {
    case Value::Tag::None:
      out += "None";
      break;
    case Value::Tag::Bool:
      out += v.b ? "True" : "False";
      break;
    case Value::Tag::Int:
      fmt::format_to(std::back_inserter(out), "{}", v.i);
      break;
    case Value::Tag::Double:
      append_double(out, v.d);
      break;
    case Value::Tag::Complex:  // printComplex: the real part (always 0 here), the sign, |imag|, "j"
      out += "0.";
      out += v.d >= 0 ? '+' : '-';
      append_double(out, std::fabs(v.d));
      out += 'j';
      break;
    case Value::Tag::String:
      if (quote_strings) {
        append_quoted(out, v.s);
      } else {
        out += v.s;
      }
      break;
  }
}

}  // namespace

std::optional<std::int64_t> stoll_prefix(std::string_view text) {
  const bool negative = text.starts_with('-');
  if (negative) text.remove_prefix(1);
  std::size_t n = 0;
  while (n < text.size() && is_digit(text[n])) ++n;
  if (n == 0) return std::nullopt;
  std::uint64_t magnitude = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + n, magnitude);
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (ec != std::errc{} || magnitude > kMax + (negative ? 1 : 0)) return std::nullopt;
  return negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
}

// IValue's operator<< for doubles: integral values as "1.", the rest with 17
// significant digits ("0.10000000000000001", "1e+20").
void append_double(std::string& out, double d) {
  constexpr double kTwo63 = 9223372036854775808.0;
  if (std::isfinite(d) && d == std::trunc(d) && d >= -kTwo63 && d < kTwo63) {
    fmt::format_to(std::back_inserter(out), "{}.", static_cast<std::int64_t>(d));
  } else {
    fmt::format_to(std::back_inserter(out), "{:.17g}", d);
  }
}

namespace {

// parseSingleConstant's words when the grammar has none measured (every
// release has these: at::kFloat, kComplexFloat, kLong, kStrided,
// Reduction::Mean, MemoryFormat::Contiguous).
constexpr std::array<std::pair<std::string_view, std::int64_t>, 6> kDefaultWords = {
    {{"float", 6}, {"complex", 9}, {"long", 4}, {"strided", 0}, {"Mean", 1}, {"contiguous_format", 0}}};

// c10::Device's device types when the grammar has none measured (1.13's).
constexpr std::array<std::string_view, 19> kDeviceTypes = {
    "cpu",  "cuda", "ipu", "xpu",  "mkldnn", "opengl", "opencl", "ideep", "hip",          "ve",
    "fpga", "ort",  "xla", "lazy", "vulkan", "mps",    "meta",   "hpu",   "privateuseone"};

template <class Pairs>
std::optional<std::int64_t> find_word(const Pairs& pairs, std::string_view word) {
  for (const auto& [name, value] : pairs)
    if (name == word) return value;
  return std::nullopt;
}

// The tag IValue's internal asserts name.
std::string_view tag_name(Value::Tag t) {
  switch (t) {
    case Value::Tag::None:
      return "None";
    case Value::Tag::Bool:
      return "Bool";
    case Value::Tag::Int:
      return "Int";
    case Value::Tag::Double:
      return "Double";
    case Value::Tag::Complex:
      return "ComplexDouble";
    case Value::Tag::String:
      return "String";
  }
  return "?";
}

}  // namespace

bool Parser::parse_default(const TypeShape& shape, std::optional<std::int64_t> size, std::string& out) {
  switch (shape.kind) {
    case Kind::Tensor:
    case Kind::Generator:
    case Kind::Quantizer:
      if (!is_word("None")) return fail_expected("None");
      advance();
      out = "None";
      return true;
    case Kind::String:
    case Kind::Optional:
    case Kind::Number:
    case Kind::Int:
    case Kind::Bool:
    case Kind::Float:
    case Kind::Complex: {
      Value v;
      if (!parse_constant(shape, v)) return false;
      // Argument's operator<< quotes a string default of a str or str? argument.
      const bool quote = shape.kind == Kind::String || (shape.kind == Kind::Optional && shape.inner == Kind::String);
      append_value(out, v, quote);
      return true;
    }
    case Kind::Device: {
      if (opt_.printed && cur().kind == Tok::Ident) {  // printed unquoted: cpu, cuda:0
        out = text(cur());
        advance();
        if (accept(':')) {
          if (cur().kind != Tok::Number) return fail_expected("number");
          fmt::format_to(std::back_inserter(out), ":{}", text(cur()));
          advance();
        }
        return true;
      }
      if (cur().kind != Tok::String) return fail_expected("string_literal");
      const std::size_t at = cur().begin;
      std::string device;
      if (!decode_string(cur(), device)) return false;
      advance();
      return parse_device(device, at, out);
    }
    case Kind::List:
      return parse_default_list(shape, size, out);
    default:
      return fail("unexpected type, file a bug report");
  }
}

bool Parser::parse_default_list(const TypeShape& shape, std::optional<std::int64_t> size, std::string& out) {
  // A name (never None, a keyword) is taken for a Tensor's default: only None would do.
  if (cur().kind == Tok::Ident && !is_keyword(text(cur()))) return fail_expected("None");
  const TypeShape elem{shape.inner, Kind::Any, shape.inner_real_int, false, shape.inner_scalar_type, false};
  std::vector<Value> values;
  std::size_t at = cur().begin;
  if (size && !is_punct('[')) {
    if (!parse_constant(elem, values.emplace_back())) return false;
    // std::vector<IValue> repeated(N, v), N an int32_t that wrapped below zero.
    if (*size < 0) return fail_at_offset(at, "cannot create std::vector larger than max_size()");
    // "bool[65535] a=True" prints 65,535 values: bound what a schema's text expands to.
    default_elements_ += static_cast<std::size_t>(*size);
    if (default_elements_ > limits::kSchemaDefaultElements)
      return fail_at_offset(at, fmt::format("sized-list defaults of this schema expand to more than {} "
                                            "elements (limit: {})",
                                            limits::kSchemaDefaultElements, limits::kSchemaDefaultElements));
    const Value v = values.front();
    values.assign(static_cast<std::size_t>(*size), v);
  } else {
    if (!expect('[')) return false;
    if (!is_punct(']')) {
      do {
        if (!parse_constant(elem, values.emplace_back())) return false;
      } while (accept(','));
    }
    if (!expect(']')) return false;
  }
  if (!check_list_elements(shape, values, at)) return false;
  // Argument's operator<<: int lists whose values are all the same print
  // as that one value ("int[2] stride=1").
  if (shape.inner_real_int && values.size() > 1 &&
      std::all_of(values.begin(), values.end(), [&](const Value& e) { return e.i == values[0].i; })) {
    append_value(out, values[0], false);
    return true;
  }
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    append_value(out, values[i], false);
  }
  out += ']';
  return true;
}

bool Parser::check_list_elements(const TypeShape& shape, const std::vector<Value>& values, std::size_t at) {
  // convertToList: each value converted to the element type (IValue's
  // toInt() and the like assert the value's tag).
  Value::Tag tag{};
  std::string_view what;
  switch (shape.inner) {
    case Kind::Int:
      tag = Value::Tag::Int;
      what = "int";
      break;
    case Kind::Float:
      tag = Value::Tag::Double;
      what = "double";
      break;
    case Kind::Bool:
      tag = Value::Tag::Bool;
      what = "bool";
      break;
    case Kind::Complex:
      tag = Value::Tag::Complex;
      break;
    default:
      return fail_at_offset(at, "lists are only supported for float, int and complex types");
  }
  for (const Value& v : values) {
    if (v.tag == tag) continue;
    if (tag == Value::Tag::Complex)
      return fail_at_offset(v.offset, fmt::format("Expected ComplexDouble but got {}", tag_name(v.tag)));
    return fail_at_offset(v.offset, fmt::format("expected {}", what));
  }
  return true;
}

bool Parser::parse_constant(const TypeShape& shape, Value& v) {
  v.offset = cur().begin;
  if (cur().kind == Tok::String) {
    if (!decode_string(cur(), v.s)) return false;
    v.tag = Value::Tag::String;
    advance();
    return true;
  }
  if (cur().kind == Tok::Ident) {
    const std::string_view word = text(cur());
    if (word == "True" || word == "False") {
      v.tag = Value::Tag::Bool;
      v.b = word == "True";
      advance();
      return true;
    }
    if (word == "None") {
      v.tag = Value::Tag::None;
      advance();
      return true;
    }
    if (!is_keyword(word)) {
      // The words of every type; dtype names for a ScalarType (or an Optional of one).
      std::optional<std::int64_t> value =
          grammar_.measured ? find_word(grammar_.default_words, word) : find_word(kDefaultWords, word);
      if (!value && shape.scalar_type) value = find_word(grammar_.dtype_defaults, word);
      const Token at = cur();
      advance();  // torch reads the word, then finds it stands for nothing
      if (!value)
        return fail_at(at, "invalid numeric default value", fmt::format("'{}' stands for no value here", word));
      v.tag = Value::Tag::Int;
      v.i = *value;
      return true;
    }
  }
  const bool negative = accept('-');
  if (cur().kind != Tok::Number) return fail_expected("number");
  if (opt_.printed && parse_printed_complex(v)) return true;
  const std::string n = fmt::format("{}{}", negative ? "-" : "", text(cur()));
  if (shape.kind == Kind::Complex || n.find('j') != std::string::npos) {
    // An imaginary number: its text without the last character (the 'j').
    const auto imag = stod_prefix(std::string_view(n).substr(0, n.size() - 1));
    if (!imag) return fail("stod", fmt::format("a complex default is an imaginary number such as 1j, not '{}'", n));
    v.tag = Value::Tag::Complex;
    v.d = *imag;
  } else if (shape.kind == Kind::Float || n.find_first_of(".e") != std::string::npos) {
    const auto d = stod_prefix(n);
    if (!d) return fail("stod", fmt::format("the number {} is out of range for a float", n));
    v.tag = Value::Tag::Double;
    v.d = *d;
  } else {
    // Like std::stoll, the leading digits ("1E3" is 1).
    const auto i = stoll_prefix(n);
    const bool ok = i.has_value();
    if (!ok) return fail("stoll", fmt::format("the integer {} is out of range", n));
    v.tag = Value::Tag::Int;
    v.i = *i;
  }
  advance();
  return true;
}

bool Parser::parse_printed_complex(Value& v) {
  // "0.+1.j", "0.-0.5j": printComplex's real part (0), sign and imaginary part.
  Lexer probe = lex_;
  probe.advance();
  if (probe.cur().kind != Tok::Punct || (probe.cur().punct != '+' && probe.cur().punct != '-')) return false;
  const bool minus = probe.cur().punct == '-';
  probe.advance();
  const std::string_view imag = probe.text(probe.cur());
  if (probe.cur().kind != Tok::Number || !imag.ends_with('j')) return false;
  const auto d = stod_prefix(imag.substr(0, imag.size() - 1));
  if (!d) return false;
  v.tag = Value::Tag::Complex;
  v.d = minus ? -*d : *d;
  lex_ = probe;
  advance();
  return true;
}

bool Parser::parse_device(std::string_view device, std::size_t at, std::string& out) {
  // c10::Device(const std::string&): ([a-zA-Z_]+)(?::([1-9]\d*|0))?, then the type.
  if (device.empty()) return fail_at_offset(at, "Device string must not be empty");
  const std::size_t colon = device.find(':');
  const std::string_view name = device.substr(0, colon);
  const std::string_view index = colon == std::string_view::npos ? std::string_view() : device.substr(colon + 1);
  const bool bad_name = name.empty() || !std::all_of(name.begin(), name.end(), [](char c) {
                          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
                        });
  const bool bad_index =
      colon != std::string_view::npos &&
      (index.empty() || !std::all_of(index.begin(), index.end(), is_digit) || (index.size() > 1 && index[0] == '0'));
  if (bad_name || bad_index) return fail_at_offset(at, fmt::format("Invalid device string: '{}'", device));
  int value = -1;
  if (!index.empty()) {
    const auto [ptr, ec] = std::from_chars(index.data(), index.data() + index.size(), value);
    if (ec != std::errc{})
      return fail_at_offset(at, fmt::format("Could not parse device index '{}' in device string '{}'", index, device));
  }
  const bool known =
      grammar_.measured
          ? std::find(grammar_.device_types.begin(), grammar_.device_types.end(), name) != grammar_.device_types.end()
          : std::find(kDeviceTypes.begin(), kDeviceTypes.end(), name) != kDeviceTypes.end();
  if (!known) {
    std::string list;
    const auto add = [&](std::string_view d) {
      if (!list.empty()) list += ", ";
      list += d;
    };
    if (grammar_.measured) {
      for (const auto& d : grammar_.device_types) add(d);
    } else {
      for (const auto d : kDeviceTypes) add(d);
    }
    return fail_at_offset(at, fmt::format("Expected one of {} device type at start of device string: {}", list, name));
  }
  // c10::DeviceIndex is an int8_t: "cuda:128" is cuda:-128, "cuda:255" no index at all.
  const auto stored = static_cast<std::int8_t>(static_cast<unsigned>(value) & 0xffU);
  out = name;
  if (stored != -1) fmt::format_to(std::back_inserter(out), ":{}", stored);
  return true;
}

bool Parser::decode_string(const Token& t, std::string& out) {
  const std::string_view lit = text(t);
  const std::size_t quote_len = (lit.size() >= 6 && lit[1] == lit[0] && lit[2] == lit[0]) ? 3 : 1;
  const std::string_view body = lit.substr(quote_len, lit.size() - 2 * quote_len);
  const std::size_t body_offset = t.begin + quote_len;
  out.clear();
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      out += body[i];
      continue;
    }
    const char e = i + 1 < body.size() ? body[i + 1] : '\0';
    char decoded = e;
    std::size_t length = 2;
    switch (e) {
      case '\\':
      case '\'':
      case '"':
      case '\n':
        break;
      case 'a':
        decoded = '\a';
        break;
      case 'b':
        decoded = '\b';
        break;
      case 'f':
        decoded = '\f';
        break;
      case 'n':
        decoded = '\n';
        break;
      case 'v':
        decoded = '\v';
        break;
      case 't':
        decoded = '\t';
        break;
      case 'x':
        return fail_at_offset(body_offset + i, "unsupported hex specifier");
      case 'u':
      case 'U':
        return fail_at_offset(body_offset + i, "unsupported unicode specifier");
      default: {
        int octal = 0;
        const bool ok = i + 3 < body.size() && std::all_of(body.begin() + static_cast<std::ptrdiff_t>(i + 1),
                                                           body.begin() + static_cast<std::ptrdiff_t>(i + 4),
                                                           [](char c) { return c >= '0' && c <= '7'; });
        if (ok) octal = (body[i + 1] - '0') * 64 + (body[i + 2] - '0') * 8 + (body[i + 3] - '0');
        if (!ok || octal >= 256) {
          return fail_at_offset(body_offset + i, "ill formed octal specifier",
                                "the escapes are \\\\ \\' \\\" \\a \\b \\f \\n \\v \\t and three octal digits");
        }
        decoded = static_cast<char>(octal);
        length = 4;
      }
    }
    out += decoded;
    i += length - 1;
  }
  return true;
}

}  // namespace dt::schema_detail
