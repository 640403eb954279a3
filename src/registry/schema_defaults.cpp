// The schema parser's default values (schema_parser.hpp): constants, lists,
// strings and devices, and how PyTorch prints them; after
// function_schema_parser.cpp (parseDefaultValue), parse_string_literal.h,
// c10/util/StringUtil.h (printQuotedString) and ivalue.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <optional>

#include "base/limits.hpp"
#include "registry/schema_parser.hpp"

namespace dt::schema_detail {

namespace {

// All of `number` (the lexer's decimal: digits, '.', an exponent) as a double;
// false when it is out of range. std::from_chars where the standard library
// has it for double (libstdc++); std::strtod elsewhere -- the libc++ of
// emscripten 3.1.6, which builds the playground (docs/playground.md), has no
// floating-point from_chars. Both round correctly, and both refuse overflow
// and underflow (strtod with ERANGE); the tool never changes the "C" locale.
bool read_double(std::string_view number, double& d) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), d);
  return ec == std::errc{} && ptr == number.data() + number.size();
#else
  const std::string text(number);
  char* end = nullptr;
  errno = 0;
  d = std::strtod(text.c_str(), &end);
  return errno != ERANGE && end == text.c_str() + text.size() && std::isfinite(d);
#endif
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
    case Value::Tag::String:
      if (quote_strings) {
        append_quoted(out, v.s);
      } else {
        out += v.s;
      }
      break;
  }
}

// c10::Device's string syntax: a device type, optionally ":index".
bool is_valid_device(std::string_view text) {
  static constexpr std::array<std::string_view, 19> kDeviceTypes = {
      "cpu",  "cuda", "ipu", "xpu",  "mkldnn", "opengl", "opencl", "ideep", "hip",          "ve",
      "fpga", "ort",  "xla", "lazy", "vulkan", "mps",    "meta",   "hpu",   "privateuseone"};
  const std::size_t colon = text.find(':');
  const std::string_view type = text.substr(0, colon);
  if (std::find(kDeviceTypes.begin(), kDeviceTypes.end(), type) == kDeviceTypes.end()) return false;
  if (colon == std::string_view::npos) return true;
  const std::string_view index = text.substr(colon + 1);
  if (index.empty() || index.size() > 3 || !std::all_of(index.begin(), index.end(), is_digit)) return false;
  if (index.size() > 1 && index[0] == '0') return false;
  int value = 0;
  std::from_chars(index.data(), index.data() + index.size(), value);
  return value <= 127;  // c10::DeviceIndex is an int8_t
}

}  // namespace

bool Parser::parse_default(const TypeShape& shape, std::optional<std::int64_t> size, std::string_view type,
                           std::string& out) {
  switch (shape.kind) {
    case Kind::Tensor:
    case Kind::Generator:
      if (!is_word("None"))
        return fail(fmt::format("the default value of a '{}' argument can only be None, found {}", type, found()));
      advance();
      out = "None";
      return true;
    case Kind::String:
    case Kind::Optional:
    case Kind::Number:
    case Kind::Int:
    case Kind::Bool:
    case Kind::Float: {
      Value v;
      const bool scalar_type = shape.kind == Kind::Optional ? shape.inner_scalar_type : shape.scalar_type;
      if (!parse_constant(shape.kind, v, scalar_type)) return false;
      const bool quote = shape.kind == Kind::String || (shape.kind == Kind::Optional && shape.inner == Kind::String);
      append_value(out, v, quote);
      return true;
    }
    case Kind::Device: {
      if (cur().kind != Tok::String) return fail_expected("a device string such as \"cpu\"");
      std::string device;
      if (!decode_string(cur(), device)) return false;
      if (!is_valid_device(device)) return fail(fmt::format("invalid device string '{}'", device));
      advance();
      out = std::move(device);
      return true;
    }
    case Kind::List:
      return parse_default_list(shape, size, type, out);
    case Kind::Complex:
      return fail("default values of type 'complex' are not supported");
    default:
      return fail(fmt::format("an argument of type '{}' cannot have a default value", type));
  }
}

bool Parser::parse_default_list(const TypeShape& shape, std::optional<std::int64_t> size, std::string_view type,
                                std::string& out) {
  if (cur().kind == Tok::Ident && !is_keyword(text(cur())))
    return fail(fmt::format("invalid default value '{}' for a list of type '{}'", text(cur()), type));
  std::vector<Value> values;
  if (size && !is_punct('[')) {
    if (!parse_constant(shape.inner, values.emplace_back())) return false;
    if (!check_list_elements(shape, values, type)) return false;
    const Value v = values.front();
    // "bool[65535] a=True" prints 65,535 values: bound what a schema's text expands to.
    default_elements_ += static_cast<std::size_t>(*size);
    if (default_elements_ > limits::kSchemaDefaultElements)
      return fail_at_offset(v.offset, fmt::format("sized-list defaults of this schema expand to more than {} "
                                                  "elements (limit: {})",
                                                  limits::kSchemaDefaultElements, limits::kSchemaDefaultElements));
    values.assign(static_cast<std::size_t>(*size), v);
  } else {
    if (!expect('[', fmt::format("to start the default list of '{}'", type))) return false;
    if (!is_punct(']')) {
      do {
        if (!parse_constant(shape.inner, values.emplace_back())) return false;
      } while (accept(','));
    }
    if (!expect(']', "to close the default list")) return false;
    if (!check_list_elements(shape, values, type)) return false;
  }
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

bool Parser::check_list_elements(const TypeShape& shape, const std::vector<Value>& values, std::string_view type) {
  Value::Tag tag{};
  std::string_view what;
  switch (shape.inner) {
    case Kind::Int:
      tag = Value::Tag::Int;
      what = "an integer";
      break;
    case Kind::Float:
      tag = Value::Tag::Double;
      what = "a float";
      break;
    case Kind::Bool:
      tag = Value::Tag::Bool;
      what = "True or False";
      break;
    default:
      return fail_at_offset(
          values.empty() ? cur().begin : values[0].offset,
          fmt::format("default lists are only supported for int, float and bool lists, not '{}'", type));
  }
  for (const Value& v : values)
    if (v.tag != tag)
      return fail_at_offset(v.offset, fmt::format("expected {} in the default list of '{}'", what, type));
  return true;
}

namespace {

// c10::ScalarType's values by str() name (c10/core/ScalarType.h; the same in
// 2.6 and 2.14 for the names both have).
constexpr std::array<std::string_view, 47> kScalarTypes = {
    "uint8",         "int8",          "int16",           "int32",           "int64",    "float16",  "float32",
    "float64",       "complex32",     "complex64",       "complex128",      "bool",     "qint8",    "quint8",
    "qint32",        "bfloat16",      "quint4x2",        "quint2x4",        "bits1x8",  "bits2x4",  "bits4x2",
    "bits8",         "bits16",        "float8_e5m2",     "float8_e4m3fn",   "float8_e5m2fnuz",     "float8_e4m3fnuz",
    "uint16",        "uint32",        "uint64",          "uint1",           "uint2",    "uint3",    "uint4",
    "uint5",         "uint6",         "uint7",           "int1",            "int2",     "int3",     "int4",
    "int5",          "int6",          "int7",            "float8_e8m0fnu",  "float4_e2m1fn_x2",    "bcomplex32"};

// The value of dtype attribute `word` (torch.<word>) under `dtypes`; nullopt when it is not one.
std::optional<std::int64_t> dtype_value(const std::vector<std::pair<std::string, std::string>>* dtypes,
                                        std::string_view word) {
  if (dtypes == nullptr) return std::nullopt;
  auto it = std::lower_bound(dtypes->begin(), dtypes->end(), word,
                             [](const auto& e, std::string_view w) { return e.first < w; });
  if (it == dtypes->end() || it->first != word) return std::nullopt;
  const auto* st = std::find(kScalarTypes.begin(), kScalarTypes.end(), it->second);
  if (st == kScalarTypes.end()) return std::nullopt;
  return static_cast<std::int64_t>(st - kScalarTypes.begin());
}

}  // namespace

bool Parser::parse_constant(Kind kind, Value& v, bool scalar_type) {
  v.offset = cur().begin;
  if (cur().kind == Tok::String) {
    if (!decode_string(cur(), v.s)) return false;
    v.tag = Value::Tag::String;
    advance();
    return true;
  }
  if (cur().kind == Tok::Ident) {
    const std::string_view word = text(cur());
    static constexpr std::array<std::pair<std::string_view, std::int64_t>, 6> kEnumWords = {{
        {"float", 6},              // at::kFloat
        {"complex", 9},            // at::kComplexFloat
        {"long", 4},               // at::kLong
        {"strided", 0},            // at::kStrided
        {"Mean", 1},               // at::Reduction::Mean
        {"contiguous_format", 0},  // c10::MemoryFormat::Contiguous
    }};
    if (word == "True" || word == "False") {
      v.tag = Value::Tag::Bool;
      v.b = word == "True";
    } else if (word == "None") {
      v.tag = Value::Tag::None;
    } else if (const auto* it =
                   std::find_if(kEnumWords.begin(), kEnumWords.end(), [&](const auto& e) { return e.first == word; });
               it != kEnumWords.end()) {
      v.tag = Value::Tag::Int;
      v.i = it->second;
    } else if (const auto dt = scalar_type ? dtype_value(opt_.dtypes, word) : std::nullopt) {
      v.tag = Value::Tag::Int;
      v.i = *dt;
    } else {
      return fail(
          fmt::format("invalid default value '{}' (expected a number, True, False, None, a string, or one of "
                      "float, complex, long, strided, Mean, contiguous_format{})",
                      word, scalar_type && opt_.dtypes != nullptr ? ", or a torch dtype's name" : ""));
    }
    advance();
    return true;
  }
  const bool negative = accept('-');
  if (cur().kind != Tok::Number) return fail_expected(negative ? "a number after '-'" : "a default value");
  const std::string_view number = text(cur());
  if (kind == Kind::Float || number.find_first_of(".e") != std::string_view::npos) {
    double d = 0;
    if (!read_double(number, d) || (d != 0 && std::fabs(d) < std::numeric_limits<double>::min()))
      return fail(fmt::format("the number {} is out of range for a float", number));
    v.tag = Value::Tag::Double;
    v.d = negative ? -d : d;
  } else {
    // Like std::stoll, reads the leading digits ("1E3" is 1).
    std::uint64_t magnitude = 0;
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), magnitude);
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (ec != std::errc{} || magnitude > kMax + (negative ? 1 : 0))
      return fail(fmt::format("the integer {}{} is out of range", negative ? "-" : "", number));
    v.tag = Value::Tag::Int;
    v.i = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  }
  advance();
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
        return fail_at_offset(body_offset + i, "unsupported escape sequence '\\x' (hex escapes are not supported)");
      case 'u':
      case 'U':
        return fail_at_offset(body_offset + i,
                              fmt::format("unsupported escape sequence '\\{}' (unicode escapes are not supported)", e));
      default: {
        int octal = 0;
        const bool ok = i + 3 < body.size() && std::all_of(body.begin() + static_cast<std::ptrdiff_t>(i + 1),
                                                           body.begin() + static_cast<std::ptrdiff_t>(i + 4),
                                                           [](char c) { return c >= '0' && c <= '7'; });
        if (ok) octal = (body[i + 1] - '0') * 64 + (body[i + 2] - '0') * 8 + (body[i + 3] - '0');
        if (!ok || octal >= 256) {
          return fail_at_offset(body_offset + i,
                                fmt::format("ill-formed escape sequence '\\{}' (expected one of \\\\ \\' \\\" \\a "
                                            "\\b \\f \\n \\v \\t or three octal digits)",
                                            e >= 0x20 && e < 0x7f ? std::string(1, e) : std::string()));
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
