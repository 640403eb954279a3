// read_cpp (cpp_reader.hpp): finds the library blocks in the token stream
// (readers/cpp_scanner.hpp) and reads their statements.
//
// What c10 records (torch/library.h, checked against compiled extensions by
// tests/oracle/cpp_reader_oracle.py): every def, kernel and fallback of a
// block gets the Library's debug string "registered at __FILE__:__LINE__",
// __LINE__ being the line of the macro's name (also when its arguments go on
// over several lines, with GCC); a kernel made from a C++ function carries the schema c10 infers from
// its type; CppFunction::makeFallthrough() and makeFromBoxedFunction<>() none.
#include "readers/cpp_reader.hpp"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <utility>

#include "readers/cpp_scanner.hpp"
#include "readers/cpp_signature.hpp"

namespace dt {

std::string cpp_key_name(std::string_view k) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kAliases = {{
      {"CatchAll", ""},
      {"DefaultBackend", "CompositeExplicitAutograd"},
      {"Autocast", "AutocastCUDA"},
      {"PrivateUse1_PreAutograd", "AutogradPrivateUse1"},
      {"PrivateUse2_PreAutograd", "AutogradPrivateUse2"},
      {"PrivateUse3_PreAutograd", "AutogradPrivateUse3"},
      {"Undefined", ""},
  }};
  for (const auto& [a, b] : kAliases)
    if (k == a) return std::string(b);
  // c10::DeviceType constants (c10/core/DeviceType.h) -> computeDispatchKey.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kDevices = {{
      {"kCPU", "CPU"}, {"kCUDA", "CUDA"}, {"kHIP", "HIP"}, {"kXLA", "XLA"}, {"kMPS", "MPS"}, {"kXPU", "XPU"},
      {"kMeta", "Meta"}, {"kHPU", "HPU"}, {"kLazy", "Lazy"}, {"kIPU", "IPU"}, {"kMTIA", "MTIA"},
      {"kPrivateUse1", "PrivateUse1"},
  }};
  for (const auto& [a, b] : kDevices)
    if (k == a) return std::string(b);
  return std::string(k);
}

namespace {

using Kind = CppToken::Kind;

struct Range {
  std::size_t b = 0, e = 0;
  [[nodiscard]] bool empty() const { return b >= e; }
};

// A kernel expression, read.
struct KernelExpr {
  enum class What { Function, Fallthrough, Boxed, Unknown } what = What::Unknown;
  std::optional<std::string> key;  // torch::dispatch(KEY, ...): "" = CatchAll
  Location key_at;
  std::optional<std::string> signature;
  bool symint = false;   // a SymInt argument: c10 keeps no unboxed entry point ("[ boxed ]")
  std::string unknown;   // why the signature (or the expression) is not known
};

class Reader {
 public:
  Reader(const Profile& p, FileName file, const CppScan& s) : file_(file), s_(s), t_(s.tokens) {
    (void)p;
    close_.assign(t_.size(), std::string::npos);
    std::vector<std::size_t> stack;
    for (std::size_t i = 0; i < t_.size(); ++i) {
      const CppToken& tk = t_[i];
      if (tk.kind != Kind::Punct) continue;
      if (tk.is("(") || tk.is("{") || tk.is("[")) {
        stack.push_back(i);
      } else if (tk.is(")") || tk.is("}") || tk.is("]")) {
        const char open = tk.text[0] == ')' ? '(' : tk.text[0] == '}' ? '{' : '[';
        if (!stack.empty() && t_[stack.back()].text[0] == open) {
          close_[stack.back()] = i;
          stack.pop_back();
        }
      }
    }
  }

  Blocks run() {
    for (const CppDefine& d : s_.registering_defines)
      warn(d.line, d.col,
           fmt::format("the macro '{}' registers operators or kernels: its expansions are not read "
                       "(dispatchtool does not run the preprocessor); write them out or in TOML",
                       d.name));
    for (std::size_t i = 0; i + 1 < t_.size(); ++i) {
      if (t_[i].kind != Kind::Ident || !t_[i + 1].is("(")) continue;
      std::string_view m = t_[i].text;
      const bool stable = m.starts_with("STABLE_");
      if (stable) m.remove_prefix(7);
      if (m != "TORCH_LIBRARY" && m != "TORCH_LIBRARY_FRAGMENT" && m != "TORCH_LIBRARY_IMPL") continue;
      if (i > 0 && (t_[i - 1].is("::") || t_[i - 1].is("."))) continue;
      i = block(i, m, stable);
    }
    return std::move(out_);
  }

 private:
  Location at(const CppToken& t) const { return Location{file_, t.line, t.col}; }
  Location value_at(const CppToken& t) const {
    return t.kind == Kind::String ? Location{file_, t.value_line, t.value_col} : at(t);
  }
  void warn(std::uint32_t line, std::uint32_t col, std::string msg) {
    Diagnostic d = make_error(Location{file_, line, col}, std::move(msg));
    d.severity = Severity::Warning;
    out_.warnings.push_back(std::move(d));
  }
  void warn(const CppToken& t, std::string msg) { warn(t.line, t.col, std::move(msg)); }
  std::string text(Range r) const {
    std::string s;
    for (std::size_t i = r.b; i < r.e && s.size() < 80; ++i) {
      if (!s.empty() && t_[i].kind == Kind::Ident && t_[i - 1].kind == Kind::Ident) s += ' ';
      s += t_[i].kind == Kind::String ? "\"" + t_[i].value + "\"" : std::string(t_[i].text);
      if (t_[i].is(",")) s += ' ';
    }
    return s.size() > 80 ? s.substr(0, 77) + "..." : s;
  }
  std::size_t close(std::size_t i) const { return i < close_.size() ? close_[i] : std::string::npos; }

  // The comma-separated arguments inside the parentheses opened at `open`.
  std::vector<Range> args(std::size_t open) const {
    std::vector<Range> out;
    const std::size_t end = close(open);
    std::size_t b = open + 1;
    for (std::size_t i = open + 1; i < end; ++i) {
      const std::size_t c = close(i);
      if (c != std::string::npos) {
        i = c;
        continue;
      }
      if (t_[i].is("<")) {  // template arguments: up to the matching '>' on this level
        int depth = 1;
        std::size_t j = i + 1;
        for (; j < end && depth > 0 && j < i + 256; ++j) {
          if (t_[j].is("<")) ++depth;
          if (t_[j].is(">")) --depth;
          if (t_[j].is(";") || t_[j].is("{")) break;
        }
        if (depth == 0) i = j - 1;
        continue;
      }
      if (t_[i].is(",")) {
        out.push_back({b, i});
        b = i + 1;
      }
    }
    if (b < end || !out.empty()) out.push_back({b, end});
    return out;
  }

  // A block macro at token i; returns the index to continue after.
  std::size_t block(std::size_t i, std::string_view macro, bool stable) {
    const std::size_t pclose = close(i + 1);
    const std::string shown = fmt::format("{}{}", stable ? "STABLE_" : "", macro);
    if (pclose == std::string::npos) {
      warn(t_[i], fmt::format("{}( without its closing parenthesis: not read", shown));
      return i + 1;
    }
    const auto a = args(i + 1);
    const bool impl = macro == "TORCH_LIBRARY_IMPL";
    const std::size_t want = impl ? 3 : 2;
    bool simple = a.size() == want;
    for (const Range& r : a) simple = simple && r.e == r.b + 1 && t_[r.b].kind == Kind::Ident;
    if (pclose + 1 >= t_.size() || !t_[pclose + 1].is("{")) {
      return pclose;  // a declaration or use without a body (e.g. in a comment-like macro): not a block
    }
    const std::size_t body = pclose + 1;
    const std::size_t body_end = close(body);
    if (!simple || body_end == std::string::npos) {
      warn(t_[i], fmt::format("{}({}) is not read: {}", shown, text({i + 2, pclose}),
                              simple ? "its body has no closing brace" : "its arguments are not plain names"));
      return body_end == std::string::npos ? pclose : body_end;
    }
    if (t_[i].cond_line != 0) {
      warn(t_[i], fmt::format("{}({}) is inside the #if / #ifdef at line {}: not read (dispatchtool does not "
                              "evaluate preprocessor conditions)",
                              shown, text({i + 2, pclose}), t_[i].cond_line));
      return body_end;
    }
    TomlBlock blk;
    blk.at = at(t_[i]);
    blk.note = shown;
    const CppToken& ns = t_[a[0].b];
    blk.add("namespace", std::string(ns.text), at(ns));
    blk.add("kind", macro == "TORCH_LIBRARY" ? "DEF" : impl ? "IMPL" : "FRAGMENT", at(t_[i]));
    if (impl) {
      const CppToken& k = t_[a[1].b];
      const std::string key = stable ? std::string(k.text) : cpp_key_name(k.text);
      if (!key.empty()) blk.add("dispatch_key", key, at(k));
    }
    Ctx c{&blk, std::string(t_[a.back().b].text), fmt::format("registered at {}:{}", file_, t_[i].line),
          stable, t_[i].cond_line};
    statements({body + 1, body_end}, c);
    out_.blocks.push_back(std::move(blk));
    return body_end;
  }

  struct Ctx {
    TomlBlock* blk;
    std::string handle;
    std::string debug;  // the Library's debug string
    bool stable;
    std::uint32_t cond;
    int depth = 0;
  };
  static constexpr int kMaxDepth = 200;  // nested scopes and kernel expressions read

  std::size_t statement_end(std::size_t j, std::size_t e) const {
    for (; j < e; ++j) {
      if (t_[j].is(";")) return j + 1;
      const std::size_t c = close(j);
      if (c != std::string::npos && c < e) j = c;
    }
    return e;
  }

  // Registration calls in r (for the warnings about the ones not read).
  void warn_calls(Range r, const Ctx& c, std::string_view why) {
    for (std::size_t j = r.b; j + 2 < r.e; ++j)
      if (t_[j].is(".") && t_[j + 2].is("(") && is_api(t_[j + 1].text))
        warn(t_[j + 1], fmt::format("{}{}(...) {}: not read", j > r.b ? std::string(t_[j - 1].text) + "." : "",
                                    t_[j + 1].text, why));
    (void)c;
  }
  static bool is_api(std::string_view m) {
    return m == "def" || m == "impl" || m == "fallback" || m == "set_python_module";
  }

  void statements(Range r, Ctx& c) {
    std::size_t j = r.b;
    while (j < r.e) {
      const CppToken& tk = t_[j];
      if (tk.is(";")) {
        ++j;
        continue;
      }
      if (tk.is("{") && close(j) != std::string::npos && close(j) < r.e) {
        if (++c.depth > kMaxDepth)
          warn_calls({j, close(j)}, c, fmt::format("nested deeper than {} scopes", kMaxDepth));
        else
          statements({j + 1, close(j)}, c);
        --c.depth;
        j = close(j) + 1;
        continue;
      }
      if (tk.is("for") || tk.is("while") || tk.is("do") || tk.is("if") || tk.is("else") || tk.is("switch")) {
        std::size_t k = j + 1;
        if (k < r.e && t_[k].is("(") && close(k) != std::string::npos) k = close(k) + 1;
        if (k < r.e && t_[k].is("{") && close(k) != std::string::npos && close(k) < r.e)
          k = close(k) + 1;
        else if (k < r.e && !t_[k].is("if"))
          k = statement_end(k, r.e);
        warn_calls({j, k}, c, fmt::format("inside the '{}' statement at line {}", tk.text, tk.line));
        j = k;
        continue;
      }
      const std::size_t end = statement_end(j, r.e);
      statement({j, end}, c);
      j = end;
    }
  }

  void statement(Range r, Ctx& c) {
    const CppToken& first = t_[r.b];
    if (first.cond_line != c.cond) {
      warn_calls(r, c, fmt::format("inside the #if / #ifdef at line {}", first.cond_line));
      if (!(first.kind == Kind::Ident && first.text == c.handle)) return;
      return;
    }
    bool mentions = false;
    for (std::size_t j = r.b; j < r.e; ++j) mentions = mentions || (t_[j].kind == Kind::Ident && t_[j].text == c.handle);
    if (first.kind == Kind::Ident && first.text == c.handle && r.b + 1 < r.e && t_[r.b + 1].is(".")) {
      std::size_t j = r.b + 1;
      while (j + 2 < r.e && t_[j].is(".") && t_[j + 1].kind == Kind::Ident && t_[j + 2].is("(") &&
             close(j + 2) != std::string::npos) {
        call(t_[j + 1], j + 2, c);
        j = close(j + 2) + 1;
      }
      if (j < r.e && !t_[j].is(";"))
        warn(t_[j], fmt::format("'{}' on the library handle '{}' is not read", text({j, r.e}), c.handle));
      return;
    }
    if (mentions) {
      warn(first, fmt::format("'{}' uses the library handle '{}' in a way dispatchtool cannot read statically "
                              "(a macro or function of the project's?): its registrations are not read",
                              text(r), c.handle));
      return;
    }
    for (std::size_t j = r.b; j + 2 < r.e; ++j)
      if (t_[j].is(".") && t_[j + 2].is("(") && is_api(t_[j + 1].text) && j > r.b &&
          t_[j - 1].kind == Kind::Ident)
        warn(t_[j - 1], fmt::format("{}.{}(...): '{}' is not a known library handle (the block's is '{}'): not read",
                                    t_[j - 1].text, t_[j + 1].text, t_[j - 1].text, c.handle));
  }

  // handle.NAME(args) with the '(' at `open`.
  void call(const CppToken& name, std::size_t open, Ctx& c) {
    const auto a = args(open);
    const std::string_view m = name.text;
    if (m == "set_python_module") {
      c.blk->note += fmt::format("; set_python_module({}) at line {} (registers no kernel)", text({open + 1, close(open)}),
                                 name.line);
      return;
    }
    if (m == "def") return def(name, a, c);
    if (m == "impl") return impl(name, a, c);
    if (m == "fallback") return fallback(name, a, c);
    warn(name, fmt::format("{}.{}(...) is not a registration dispatchtool reads: not read", c.handle, m));
  }

  // A string literal, also as PyTorch's TORCH_SELECTIVE_NAME("...") /
  // TORCH_SELECTIVE_SCHEMA("...") (torch/library.h: the literal itself
  // unless the build is a selective mobile build).
  struct Literal {
    std::string value;
    Location at;         // its first character
    std::uint32_t span;  // TomlField::span: columns of the first literal's line from `at` on
  };
  std::optional<Literal> literal(Range r) const {
    if (r.e == r.b + 1 && t_[r.b].kind == Kind::String) return literal(t_[r.b]);
    if (r.e == r.b + 4 && (t_[r.b].is("TORCH_SELECTIVE_NAME") || t_[r.b].is("TORCH_SELECTIVE_SCHEMA")) &&
        t_[r.b + 1].is("(") && t_[r.b + 2].kind == Kind::String && t_[r.b + 3].is(")"))
      return literal(t_[r.b + 2]);
    return std::nullopt;
  }
  Literal literal(const CppToken& t) const {
    // The first literal as written, from its value's first character to its
    // closing quote or the end of its first line: a column of the value past
    // those (adjacent literals joined, a raw string's next line) maps to its start.
    std::string_view rest = t.text;
    const std::size_t skip = t.value_line == t.line && t.value_col > t.col ? t.value_col - t.col : 0;
    rest.remove_prefix(std::min(skip, rest.size()));
    rest = rest.substr(0, rest.find('\n'));
    if (rest.ends_with('"')) rest.remove_suffix(1);
    return Literal{t.value, value_at(t), static_cast<std::uint32_t>(std::max<std::size_t>(rest.size(), 1))};
  }

  void def(const CppToken& name, const std::vector<Range>& a, Ctx& c) {
    if (a.empty()) return warn(name, "def() without arguments: not read");
    TomlEntry e;
    e.kind = "def";
    e.at = at(name);
    auto lit = literal(a[0]);
    std::string alias;
    Location alias_at;
    if (!lit && a[0].e > a[0].b + 2) {  // torch::schema("...", c10::AliasAnalysisKind::X)
      std::size_t k = a[0].b;
      while (k + 1 < a[0].e && (t_[k + 1].is("::"))) k += 2;
      if (t_[k].is("schema") && k + 1 < a[0].e && t_[k + 1].is("(")) {
        const auto sa = args(k + 1);
        if (!sa.empty()) lit = literal(sa[0]);
        if (sa.size() == 2 && !sa[1].empty()) {
          alias = std::string(t_[sa[1].e - 1].text);
          alias_at = at(t_[sa[1].e - 1]);
        }
      }
    }
    if (!lit)
      return warn(t_[a[0].b], fmt::format("{}.def({}): the schema is not a string literal: not read", c.handle,
                                          text(a[0])));
    std::optional<KernelExpr> k;
    std::vector<std::pair<std::vector<std::string>, Location>> tags;
    for (std::size_t i = 1; i < a.size(); ++i) {
      if (!a[i].empty() && t_[a[i].b].is("{")) {
        std::vector<std::string> ts;
        for (std::size_t j = a[i].b; j < a[i].e; ++j)
          if (t_[j].kind == Kind::Ident && j + 1 < a[i].e && (t_[j + 1].is(",") || t_[j + 1].is("}")))
            ts.emplace_back(t_[j].text);
        tags.emplace_back(std::move(ts), at(t_[a[i].b]));
      } else if (i == 1) {
        k = kernel(a[1], c);
      } else {
        warn(t_[a[i].b], fmt::format("{}.def(...): argument '{}' is not read", c.handle, text(a[i])));
      }
    }
    if (lit->value.find('(') == std::string::npos) {
      // def("name", fn): the schema c10 infers from the kernel, under that
      // name, with CONSERVATIVE alias analysis (Library::_def).
      if (!k || k->what == KernelExpr::What::Fallthrough || !k->signature)
        return warn(name, fmt::format("{}.def(\"{}\", ...): a name without a schema takes the schema c10 infers "
                                      "from the kernel, and this kernel's is not known{}: not read",
                                      c.handle, lit->value, k && !k->unknown.empty() ? " (" + k->unknown + ")" : ""));
      e.add("schema", lit->value + *k->signature, lit->at, lit->span);
      e.add("alias_analysis", "CONSERVATIVE", lit->at);
    } else {
      e.add("schema", lit->value, lit->at, lit->span);
      if (!alias.empty()) e.add("alias_analysis", alias, alias_at);
    }
    e.add("debug", c.debug, at(name));
    for (auto& [ts, where] : tags) e.add("tags", ts, where);
    const std::string op = lit->value.substr(0, lit->value.find('('));
    c.blk->entries.push_back(std::move(e));
    if (k) add_impl(name, op, *lit, *k, a[1], c);
  }

  void impl(const CppToken& name, const std::vector<Range>& a, Ctx& c) {
    if (a.size() != 2)
      return warn(name, fmt::format("{}.impl(...) with {} arguments: not read", c.handle, a.size()));
    auto lit = literal(a[0]);
    if (!lit)
      return warn(t_[a[0].b], fmt::format("{}.impl({}, ...): the operator name is not a string literal: not read",
                                          c.handle, text(a[0])));
    add_impl(name, lit->value, *lit, kernel(a[1], c), a[1], c);
  }

  void add_impl(const CppToken& name, const std::string& op, const Literal& op_at, const KernelExpr& k, Range kr,
                Ctx& c) {
    if (k.what == KernelExpr::What::Unknown)
      return warn(t_[kr.b], fmt::format("{}.{}(\"{}\", {}): {}: not read", c.handle, name.text, op, text(kr), k.unknown));
    TomlEntry e;
    e.kind = "impl";
    e.at = at(name);
    e.add("op", op, op_at.at, op_at.span);
    if (k.key && !k.key->empty()) e.add("key", *k.key, k.key_at);
    e.add("kernel", c.debug, at(t_[kr.b]));  // a fallthrough has the block's debug string too
    if (k.what == KernelExpr::What::Fallthrough) {
      e.add("fallthrough", true, at(t_[kr.b]));
    } else {
      if (k.signature) e.add("signature", *k.signature, at(t_[kr.b]));
      if (k.what == KernelExpr::What::Boxed || k.symint) e.add("boxed_only", true, at(t_[kr.b]));
      if (k.what == KernelExpr::What::Function && !k.signature)
        warn(t_[kr.b], fmt::format("{}.{}(\"{}\", {}): the kernel's C++ signature is not known ({}): its inferred "
                                   "schema is left out",
                                   c.handle, name.text, op, text(kr), k.unknown));
    }
    c.blk->entries.push_back(std::move(e));
  }

  void fallback(const CppToken& name, const std::vector<Range>& a, Ctx& c) {
    if (a.size() != 1) return warn(name, fmt::format("{}.fallback(...) with {} arguments: not read", c.handle, a.size()));
    const KernelExpr k = kernel(a[0], c);
    if (k.what == KernelExpr::What::Unknown)
      return warn(t_[a[0].b], fmt::format("{}.fallback({}): {}: not read", c.handle, text(a[0]), k.unknown));
    TomlEntry e;
    e.kind = "fallback";
    e.at = at(name);
    e.add("kernel", c.debug, at(t_[a[0].b]));
    if (k.what == KernelExpr::What::Fallthrough) e.add("fallthrough", true, at(t_[a[0].b]));
    c.blk->entries.push_back(std::move(e));
  }

  // The last identifier of a qualified name starting at j (a::b::c), and the index after it.
  std::pair<std::string_view, std::size_t> path(std::size_t j, std::size_t e) const {
    std::string_view last;
    if (j < e && t_[j].is("::")) ++j;
    while (j < e && t_[j].kind == Kind::Ident) {
      last = t_[j].text;
      if (j + 2 < e && t_[j + 1].is("::") && t_[j + 2].kind == Kind::Ident) {
        j += 2;
        continue;
      }
      ++j;
      break;
    }
    return {last, j};
  }

  KernelExpr kernel(Range r, const Ctx& c, int depth = 0) const {
    KernelExpr k;
    if (r.empty()) {
      k.unknown = "an empty kernel expression";
      return k;
    }
    if (depth > kMaxDepth) {
      k.unknown = fmt::format("a kernel expression nested deeper than {}", kMaxDepth);
      return k;
    }
    std::size_t j = r.b;
    if (t_[j].is("[")) return lambda(r);
    // (f): the parentheses a template-id with commas needs inside a macro argument.
    if (t_[j].is("(") && close(j) != std::string::npos && close(j) + 1 == r.e && r.e - r.b > 2)
      return kernel(Range{j + 1, r.e - 1}, c, depth + 1);
    const bool addr = t_[j].is("&");
    if (addr) ++j;
    auto [last, after] = path(j, r.e);
    if (!addr && after < r.e && t_[after].is("(") && close(after) != std::string::npos && close(after) + 1 == r.e) {
      const auto inner = args(after);
      if (last == "dispatch" && inner.size() == 2 && !inner[0].empty()) {
        KernelExpr in = kernel(inner[1], c, depth + 1);
        const CppToken& kt = t_[inner[0].e - 1];
        in.key = cpp_key_name(kt.text);
        in.key_at = at(kt);
        return in;
      }
      if (last == "makeFallthrough" && inner.empty()) {
        k.what = KernelExpr::What::Fallthrough;
        return k;
      }
      if ((last == "TORCH_FN" || last == "makeFromUnboxedFunction") && inner.size() == 1)
        return kernel(inner[0], c, depth + 1);
      if (last == "TORCH_BOX" && inner.size() == 1) {
        k.what = KernelExpr::What::Boxed;
        return k;
      }
      if (last == "makeFromBoxedFunctor" || last == "makeFromBoxedKernel") {
        k.what = KernelExpr::What::Boxed;
        return k;
      }
    }
    if (!addr && after < r.e && t_[after].is("<") && (last == "makeFromBoxedFunction" || last == "makeFromBoxedFunctor")) {
      k.what = KernelExpr::What::Boxed;
      return k;
    }
    if (after < r.e && t_[after].is("<") && !last.empty()) {
      // f<A, B>: a specialization of a function template, whose signature
      // is the template's (torchvision's autocast kernels).
      std::size_t q = after;
      for (int d = 0; q < r.e; ++q) {
        if (t_[q].is("(") && close(q) != std::string::npos && close(q) < r.e) q = close(q);
        else if (t_[q].is("<")) ++d;
        else if (t_[q].is(">") && --d == 0) break;
      }
      if (q + 1 == r.e) after = r.e;
    }
    if (after == r.e && !last.empty()) {
      if (c.stable) {  // StableLibrary::impl takes a boxed function
        k.what = KernelExpr::What::Boxed;
        return k;
      }
      k.what = KernelExpr::What::Function;
      if (!functions_) functions_ = index_functions(t_, close_);
      const auto it = functions_->find(last);
      const std::optional<CppFunctionDecl> decl =
          it == functions_->end() ? std::nullopt : std::optional<CppFunctionDecl>(it->second);
      if (!decl) {
        k.unknown = fmt::format("no declaration of '{}' in this file", last);
        return k;
      }
      std::string why;
      k.signature = infer_signature(t_, decl->rb, decl->re, decl->pb, decl->pe, why);
      k.unknown = why;
      k.symint = k.signature && has_symint_argument(*k.signature);
      return k;
    }
    k.unknown = "a kernel expression dispatchtool does not read";
    return k;
  }

  // [captures](params) [mutable] [-> ret] { body }
  KernelExpr lambda(Range r) const {
    KernelExpr k;
    k.what = KernelExpr::What::Function;
    std::size_t j = close(r.b);
    if (j == std::string::npos || j + 1 >= r.e || !t_[j + 1].is("(") || close(j + 1) == std::string::npos) {
      k.unknown = "a lambda without a parameter list";
      return k;
    }
    const std::size_t po = j + 1, pc = close(po);
    std::size_t q = pc + 1;
    while (q < r.e && (t_[q].is("mutable") || t_[q].is("noexcept"))) ++q;
    std::size_t rb = 0, re = 0;
    if (q < r.e && t_[q].is("->")) {
      rb = q + 1;
      re = rb;
      while (re < r.e && !t_[re].is("{")) ++re;
    } else {
      // No trailing return type: what `return NAME;` returns when NAME is a parameter.
      const std::size_t body = q;
      if (body >= r.e || !t_[body].is("{") || close(body) == std::string::npos) {
        k.unknown = "a lambda without a body";
        return k;
      }
      std::optional<std::pair<std::size_t, std::size_t>> ret;
      bool returns = false;
      for (std::size_t x = body + 1; x + 2 < close(body); ++x) {
        if (!t_[x].is("return")) continue;
        returns = true;
        if (!t_[x + 2].is(";")) {
          ret.reset();
          break;
        }
        // the parameter named t_[x+1]
        std::size_t b = po + 1;
        for (std::size_t y = po + 1; y <= pc; ++y) {
          if (y == pc || t_[y].is(",")) {
            if (y > b && t_[y - 1].text == t_[x + 1].text) ret = std::pair{b, y - 1};
            b = y + 1;
          }
        }
        if (!ret) break;
      }
      if (!returns) {
        static const std::vector<CppToken> kVoid = [] {
          CppToken v;
          v.kind = Kind::Ident;
          v.text = "void";
          return std::vector<CppToken>{v};
        }();
        std::string why;
        KernelExpr out = k;
        auto sig = infer_signature(t_, po + 1, po + 1, po + 1, pc, why);  // parameters only
        if (sig) {
          out.signature = sig->substr(0, sig->rfind("-> ") + 3) + "()";
          out.symint = has_symint_argument(*out.signature);
        }
        out.unknown = why;
        return out;
      }
      if (!ret) {
        k.unknown = "a lambda whose return type is deduced from an expression";
        return k;
      }
      std::tie(rb, re) = *ret;  // auto: the parameter's type, decayed
    }
    std::string why;
    k.signature = infer_signature(t_, rb, re, po + 1, pc, why);
    k.unknown = why;
    k.symint = k.signature && has_symint_argument(*k.signature);
    return k;
  }

  FileName file_;
  const CppScan& s_;
  const std::vector<CppToken>& t_;
  std::vector<std::size_t> close_;
  mutable std::optional<std::unordered_map<std::string_view, CppFunctionDecl>> functions_;  // index_functions, once
  Blocks out_;
};

}  // namespace

Expected<Blocks, Diagnostic> read_cpp(const Profile& profile, FileName file, std::string_view text) {
  // Every block starts with a TORCH_LIBRARY... macro: without one, only the
  // scanner's errors and registering #defines can come out (most of a large
  // tree: 412 of aten/src/ATen/native's 452 files), and no token is kept.
  auto scan = scan_cpp(file, text, text.find("TORCH_LIBRARY") != std::string_view::npos);
  if (!scan) return unexpected(std::move(scan.error()));
  return Reader(profile, file, *scan).run();
}

}  // namespace dt
