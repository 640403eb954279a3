// read_cpp (cpp_reader.hpp): finds the library blocks in the preprocessed
// token stream (readers/cpp_preprocessor.hpp) and reads their statements.
//
// What c10 records (torch/library.h, checked against compiled extensions by
// tests/oracle/cpp_reader_oracle.py): every def, kernel and fallback of a
// block gets the Library's debug string "registered at __FILE__:__LINE__",
// __LINE__ being the line of the macro's name (also when its arguments go on
// over several lines, with GCC; through a project's macro, the line of the
// outermost macro's name); a kernel made from a C++ function carries the
// schema c10 infers from its type; CppFunction::makeFallthrough() and makeFromBoxedFunction<>() none.
#include "readers/cpp_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "base/operator_name.hpp"
#include "base/text.hpp"
#include "readers/cpp_condition.hpp"
#include "readers/cpp_kernel.hpp"
#include "readers/cpp_preprocessor.hpp"
#include "readers/cpp_reader_impl.hpp"

namespace dt {

namespace cppread {

// The operator a string literal names ("ns::op", "ns::op.overload", or
// "op" in the block's namespace `ns`), if it is one (OperatorName::parse).
std::optional<std::string> operator_name_literal(std::string_view v, const std::string& ns) {
  auto n = OperatorName::parse(v);
  if (!n || (n->ns.empty() && ns.empty())) return std::nullopt;
  if (n->ns.empty()) n->ns = ns;
  return n->qualified();
}

std::optional<Literal> literal(const CppScan& s, TokenRange r) {
  const auto& t = s.tokens;
  if (r.e == r.b + 1 && t[r.b].kind == Kind::String) return literal(s, t[r.b]);
  if (r.e == r.b + 4 && (t[r.b].is("TORCH_SELECTIVE_NAME") || t[r.b].is("TORCH_SELECTIVE_SCHEMA")) &&
      t[r.b + 1].is("(") && t[r.b + 2].kind == Kind::String && t[r.b + 3].is(")"))
    return literal(s, t[r.b + 2]);
  return std::nullopt;
}

Literal literal(const CppScan& s, const CppToken& t) {
  const Location at{s.files[t.file], t.value_line, t.value_col};
  // A literal a macro made (#x, or written in a macro's body): its columns
  // are not the source's.
  if (t.expansion != 0) return Literal{t.value, at, 1};
  // The first literal as written, from its value's first character to its
  // closing quote or the end of its first line: a column of the value past
  // those (adjacent literals joined, a raw string's next line) maps to its start.
  std::string_view rest = t.text;
  const std::size_t skip = t.value_line == t.line && t.value_col > t.col ? t.value_col - t.col : 0;
  rest.remove_prefix(std::min(skip, rest.size()));
  rest = rest.substr(0, rest.find('\n'));
  if (rest.ends_with('"')) rest.remove_suffix(1);
  return Literal{t.value, at, static_cast<std::uint32_t>(std::max<std::size_t>(rest.size(), 1))};
}

std::string text(const std::vector<CppToken>& t, TokenRange r) {
  std::string s;
  for (std::size_t i = r.b; i < r.e && s.size() < 80; ++i) {
    if (!s.empty() && t[i].kind == Kind::Ident && t[i - 1].kind == Kind::Ident) s += ' ';
    s += t[i].kind == Kind::String ? "\"" + t[i].value + "\"" : std::string(t[i].text);
    if (t[i].is(",")) s += ' ';
  }
  return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

void warn(Blocks& out, const CppScan& s, const CppToken& t, std::string msg, std::string op) {
  Diagnostic d = make_error(s.at(t), std::move(msg), s.notes(t));
  d.severity = Severity::Warning;
  d.op = std::move(op);
  out.warnings.push_back(std::move(d));
}

}  // namespace cppread

namespace {

using Kind = CppToken::Kind;
using cppread::Literal;

using Range = TokenRange;

class Reader {
 public:
  Reader(const Profile& p, const CppScan& s) : p_(p), s_(s), tk_(s.tokens), t_(s.tokens) {}

  Blocks run() {
    for (const Diagnostic& w : s_.warnings) out_.warnings.push_back(w);
    // Blocks and RegisterOperators in file order: the order of their static initializers.
    for (std::size_t i = 0; i + 1 < t_.size(); ++i) {
      if (t_[i].kind != Kind::Ident) continue;
      // torch::jit::RegisterOperators fills TorchScript's operator table, not the
      // dispatcher's: nothing of it is in _dispatch_dump.
      if (t_[i].text == "RegisterOperators" && !t_[i + 1].is("::") &&
          !(i >= 2 && t_[i - 1].is("::") && t_[i - 2].is("jit"))) {
        i = cppread::register_operators(s_, tk_, i, out_);
        continue;
      }
      if (t_[i].text == "TorchLibraryInit" && i > 0 && t_[i - 1].is("::")) {
        i = static_init_block(i);
        continue;
      }
      if (!t_[i + 1].is("(")) continue;
      if (i > 0 && (t_[i - 1].is("::") || t_[i - 1].is(".") || t_[i - 1].is("->"))) continue;
      std::string_view m = t_[i].text;
      const bool stable = m.starts_with("STABLE_");
      if (stable) m.remove_prefix(7);
      if (m == "TORCH_LIBRARY" || m == "TORCH_LIBRARY_FRAGMENT" || m == "TORCH_LIBRARY_IMPL") {
        i = block(i, m, stable);
        continue;
      }
      i = unknown_macro_block(i);
    }
    return std::move(out_);
  }

 private:
  Location at(const CppToken& t) const { return s_.at(t); }
  void warn(const CppToken& t, std::string msg) { cppread::warn(out_, s_, t, std::move(msg)); }

  // The headers not found that may be the project's: quoted ones, and
  // <dir/name.h> ones: "\"config.h\" (line 3), ..." or "".
  std::string project_headers_not_found() const {
    std::string headers;
    for (const CppMissingInclude& m : s_.missing_includes)
      if (m.name.starts_with('"') || m.name.find('/') != std::string::npos)
        headers += fmt::format("{}{} (line {})", headers.empty() ? "" : ", ", printable(m.name), m.at.line);
    return headers;
  }

  // TORCH_LIBRARY_IMPL(ns, NAME, m), `name` c10's name for NAME, where it
  // is no key of the profile and no macro defined here, while a header of
  // the project's was not found: the macro is likely there (a project's device key, MY_DEVICE_KEY), so
  // the block is said not read rather than refused. With every header
  // found, NAME is left to the loader, whose error names the key (a typo
  // that would not compile).
  bool unknown_key_macro(const CppToken& anchor, const std::string& shown, const CppToken& key,
                         const std::string& name) {
    if (name.empty() || p_.find(name)) return false;
    const std::string headers = project_headers_not_found();
    if (headers.empty()) return false;
    warn(anchor, fmt::format("{}(..., {}, ...) is not read: '{}' is no dispatch key of {} and no macro defined here "
                             "(its definition may be in a header not found: {}; give the include directories with "
                             "-I or -p, or -D {}=KEY)",
                             shown, key.text, key.text, p_.name(), headers, key.text));
    return true;
  }

  // NAME(args) { ... } at namespace scope, where NAME is no macro this file
  // or its headers define and the braces hold library calls: a project's
  // block macro whose definition was not seen (its header not found).
  std::size_t unknown_macro_block(std::size_t i) {
    const std::size_t pclose = tk_.close(i + 1);
    if (pclose == std::string::npos || pclose + 1 >= t_.size() || !t_[pclose + 1].is("{")) return i;
    const std::size_t body_end = tk_.close(pclose + 1);
    if (body_end == std::string::npos) return i;
    // Only an identifier that looks like a macro (no lower case) with a block after it.
    const std::string_view name = t_[i].text;
    if (std::any_of(name.begin(), name.end(), [](char ch) { return ch >= 'a' && ch <= 'z'; })) return i;
    if (i > 0 && !(t_[i - 1].is(";") || t_[i - 1].is("}") || t_[i - 1].is("{"))) return i;
    // Dispatcher calls: impl( or fallback(, or def( of a schema ("...(...) -> ..."); pybind11's
    // PYBIND11_MODULE(name, m) { m.def("f", &f); } is not one.
    bool calls = false;
    for (std::size_t j = pclose + 2; j + 3 < body_end && !calls; ++j) {
      if (!(t_[j].is(".") || t_[j].is("->")) || !t_[j + 2].is("(")) continue;
      if (t_[j + 1].is("impl") || t_[j + 1].is("fallback")) calls = true;
      if (t_[j + 1].is("def") && t_[j + 3].kind == Kind::String && t_[j + 3].value.find("->") != std::string::npos)
        calls = true;
    }
    if (!calls) return i;
    const std::string headers = project_headers_not_found();
    warn(t_[i], fmt::format("'{}({})' looks like a library block, but '{}' is not a macro defined here{}: its "
                            "registrations are not read",
                            name, text({i + 2, pclose}), name,
                            headers.empty() ? std::string(" (nor in a header it includes)")
                                            : fmt::format(" (its definition may be in a header not found: {}; "
                                                          "give the include directories with -I or -p)",
                                                          headers)));
    return body_end;
  }

  // Once per #if group whose condition rests on names nothing defines:
  // its registrations are read, and said to depend on them.
  void note_condition(const CppToken& t) {
    if (t.cond == 0 || t.cond > s_.conditions.size()) return;
    if (warned_cond_.size() < s_.conditions.size() + 1) warned_cond_.resize(s_.conditions.size() + 1, false);
    if (warned_cond_[t.cond]) return;
    warned_cond_[t.cond] = true;
    const CppCondition& c = s_.conditions[t.cond - 1];
    const UnknownWhy why = unknown_why(c.unknown);
    warn(t,
         fmt::format("read, but it depends on the #if at {}:{}: {}; {} (or give the build's flags with -p) to be sure",
                     c.at.file, c.at.line, why.why, why.fix));
  }
  std::string text(Range r) const { return cppread::text(t_, r); }

  // The defs of groups not read that lie in this block's body (between
  // `from` and `to`, in one file): their operators, qualified with the
  // block's namespace, become the op of their group's warning, so that lint
  // does not call their kernels dangling.
  void name_unread_defs(const Location& from, const Location& to, std::string_view ns) {
    if (s_.unread_defs.empty()) return;
    if (unread_sorted_.empty()) {  // once: by location, so that each block looks at its own only
      for (const CppScan::UnreadDef& u : s_.unread_defs) unread_sorted_.push_back(&u);
      std::sort(unread_sorted_.begin(), unread_sorted_.end(),
                [](const CppScan::UnreadDef* a, const CppScan::UnreadDef* b) { return a->at < b->at; });
    }
    auto it = std::lower_bound(unread_sorted_.begin(), unread_sorted_.end(), from,
                               [](const CppScan::UnreadDef* u, const Location& l) { return u->at < l; });
    for (; it != unread_sorted_.end() && !(to < (*it)->at); ++it) {
      const CppScan::UnreadDef& u = **it;
      if (u.warning >= out_.warnings.size()) continue;
      std::string name = u.name.find("::") == std::string::npos ? std::string(ns) + "::" + u.name : u.name;
      std::string& op = out_.warnings[u.warning].op;
      if (op.size() > 4096) continue;
      if (!op.empty()) op += ',';
      op += name;
    }
  }

  // A block macro at token i; returns the index to continue after.
  std::size_t block(std::size_t i, std::string_view macro, bool stable) {
    const std::size_t pclose = tk_.close(i + 1);
    const std::string shown = fmt::format("{}{}", stable ? "STABLE_" : "", macro);
    if (pclose == std::string::npos) {
      warn(t_[i], fmt::format("{}( without its closing parenthesis: not read", shown));
      return i + 1;
    }
    const auto a = tk_.args(i + 1);
    const bool impl = macro == "TORCH_LIBRARY_IMPL";
    const std::size_t want = impl ? 3 : 2;
    bool simple = a.size() == want;
    for (const Range& r : a) simple = simple && r.e == r.b + 1 && t_[r.b].kind == Kind::Ident;
    if (pclose + 1 >= t_.size() || !t_[pclose + 1].is("{")) {
      return pclose;  // a declaration or use without a body (e.g. in a comment-like macro): not a block
    }
    const std::size_t body = pclose + 1;
    const std::size_t body_end = tk_.close(body);
    if (!simple || body_end == std::string::npos) {
      warn(t_[i], fmt::format("{}({}) is not read: {}", shown, text({i + 2, pclose}),
                              simple ? "its body has no closing brace" : "its arguments are not plain names"));
      return body_end == std::string::npos ? pclose : body_end;
    }
    const CppToken& ns = t_[a[0].b];
    const CppToken* key = impl ? &t_[a[1].b] : nullptr;
    std::string key_name = key == nullptr ? std::string() : stable ? std::string(key->text) : cpp_key_name(key->text);
    if (key != nullptr && unknown_key_macro(t_[i], shown, *key, key_name)) return body_end;
    emit_block({t_[i], shown,
                macro == "TORCH_LIBRARY" ? "DEF"
                : impl                   ? "IMPL"
                                         : "FRAGMENT",
                ns, ns.text, key, std::move(key_name), std::string(t_[a.back().b].text), stable},
               body, body_end);
    return body_end;
  }

  // The block whose body's braces are t_[body] and t_[body_end].
  void emit_block(const cppread::BlockHead& h, std::size_t body, std::size_t body_end) {
    note_condition(h.anchor);
    TomlBlock blk;
    blk.at = at(h.anchor);
    blk.note = h.shown;
    blk.add("namespace", std::string(h.ns), at(h.ns_at));
    name_unread_defs(at(t_[body]), at(t_[body_end]), h.ns);
    blk.add("kind", std::string(h.kind), at(h.anchor));
    if (h.key_at != nullptr && !h.key.empty()) blk.add("dispatch_key", h.key, at(*h.key_at));
    Ctx c{&blk, h.handle, fmt::format("registered at {}:{}", s_.files[h.anchor.file], h.anchor.line), h.stable, 0, {}};
    statements({body + 1, body_end}, c);
    out_.blocks.push_back(std::move(blk));
  }

  // TORCH_LIBRARY's expansion written out (cppread::static_init_head) at token i.
  std::size_t static_init_block(std::size_t i) {
    std::size_t next = i;
    if (auto h = cppread::static_init_head(s_, tk_, i, out_, next)) emit_block(h->head, h->body, h->body_end);
    return next;
  }

  struct Ctx {
    TomlBlock* blk;
    std::string handle;
    std::string debug;  // the Library's debug string
    bool stable;
    int depth = 0;
    std::vector<std::string> classes;  // variables holding a handle.class_<T>(...) (custom classes)
  };

  std::size_t statement_end(std::size_t j, std::size_t e) const {
    for (; j < e; ++j) {
      if (t_[j].is(";")) return j + 1;
      const std::size_t c = tk_.close(j);
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
      if (tk.is("{") && tk_.close(j) != std::string::npos && tk_.close(j) < r.e) {
        if (++c.depth > kCppMaxDepth)
          warn_calls({j, tk_.close(j)}, c, fmt::format("nested deeper than {} scopes", kCppMaxDepth));
        else
          statements({j + 1, tk_.close(j)}, c);
        --c.depth;
        j = tk_.close(j) + 1;
        continue;
      }
      if (tk.is("for") || tk.is("while") || tk.is("do") || tk.is("if") || tk.is("else") || tk.is("switch")) {
        std::size_t k = j + 1;
        if (k < r.e && t_[k].is("(") && tk_.close(k) != std::string::npos) k = tk_.close(k) + 1;
        if (k < r.e && t_[k].is("{") && tk_.close(k) != std::string::npos && tk_.close(k) < r.e)
          k = tk_.close(k) + 1;
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
    note_condition(first);
    if (custom_class(r, c)) return;
    bool mentions = false;
    for (std::size_t j = r.b; j < r.e; ++j) mentions = mentions || (t_[j].kind == Kind::Ident && t_[j].text == c.handle);
    if (first.kind == Kind::Ident && first.text == c.handle && r.b + 1 < r.e && t_[r.b + 1].is(".")) {
      std::size_t j = r.b + 1;
      while (j + 2 < r.e && t_[j].is(".") && t_[j + 1].kind == Kind::Ident && t_[j + 2].is("(") &&
             tk_.close(j + 2) != std::string::npos) {
        call(t_[j + 1], j + 2, c);
        j = tk_.close(j + 2) + 1;
      }
      if (j < r.e && !t_[j].is(";"))
        warn(t_[j], fmt::format("'{}' on the library handle '{}' is not read", text({j, r.e}), c.handle));
      return;
    }
    if (mentions) {
      // The operators it may register, by the names its string literals give
      // (IPEX's construct_function_schema_and_register("torch_ipex::" NAME, f, m)):
      // lint does not call their kernels dangling (impl-without-def).
      std::string ns;
      for (const TomlField& f : c.blk->header)
        if (f.key == "namespace" && std::holds_alternative<std::string>(f.value)) ns = std::get<std::string>(f.value);
      std::vector<std::string> named;
      for (std::size_t j = r.b; j < r.e; ++j)
        if (t_[j].kind == Kind::String)
          if (auto n = cppread::operator_name_literal(t_[j].value, ns); n && named.size() < 16) named.push_back(std::move(*n));
      warn(first, fmt::format("'{}' uses the library handle '{}' in a way dispatchtool cannot read statically "
                              "(a macro or function of the project's?): its registrations are not read{}",
                              text(r), c.handle,
                              named.empty() ? std::string()
                                            : fmt::format(" (it names {}, whose def may be among them)",
                                                          join(named, ", "))));
      out_.warnings.back().op = join(named, ",");
      return;
    }
    // An autocast registration macro (KERNEL_CPU(op, policy), a project's
    // KERNEL_XLA) left unexpanded: nothing read defines it.
    if (first.kind == Kind::Ident && (first.text.starts_with("KERNEL") || first.text.starts_with("_KERNEL")) &&
        r.b + 1 < r.e && t_[r.b + 1].is("(")) {
      warn(first, undefined_kernel_macro(first.text));
      return;
    }
    for (std::size_t j = r.b; j + 2 < r.e; ++j)
      if (t_[j].is(".") && t_[j + 2].is("(") && is_api(t_[j + 1].text) && j > r.b &&
          t_[j - 1].kind == Kind::Ident)
        warn(t_[j - 1], fmt::format("{}.{}(...): '{}' is not a known library handle (the block's is '{}'): not read",
                                    t_[j - 1].text, t_[j + 1].text, t_[j - 1].text, c.handle));
  }

  std::string undefined_kernel_macro(std::string_view name) const {
    const std::string def = fmt::format("#define {}(", name);
    const bool torch_macro = std::any_of(embedded_cpp_preludes().begin(), embedded_cpp_preludes().end(),
                                         [&](const auto& e) { return e.second.find(def) != std::string_view::npos; });
    if (!torch_macro)
      return fmt::format("{}(...) is a macro that no source read defines (a project's own autocast macro? give the "
                         "folder of its header with -I, or the build's flags with -p/--compile-commands): not read",
                         name);
    return fmt::format("{}(...) is one of PyTorch's autocast registration macros, which profile '{}' does not "
                       "define{}: not read",
                       name, p_.name(),
                       cpp_prelude(p_).empty() ? " (it has no C++ prelude: dispatchtool-export writes cpp_prelude.h "
                                                 "beside profile.toml when torch's C++ headers and a C++ compiler are "
                                                 "at hand)"
                                               : "");
  }

  // A custom class (torch/custom_class.h): `handle.class_<T>("Name")`, its
  // chained .def(...) calls, `[type] x = handle.class_<T>(...)...;` and then
  // `x.def(...);`. The methods go to the class, not to the dispatcher: they
  // register no operator (the block's note names the class).
  bool custom_class(Range r, Ctx& c) {
    const CppToken& first = t_[r.b];
    if (first.kind == Kind::Ident && r.b + 1 < r.e && t_[r.b + 1].is(".") &&
        std::find(c.classes.begin(), c.classes.end(), first.text) != c.classes.end())
      return true;  // x.def(...) on a class handle
    // handle . class_ < ... > ( ... ) at the start, or after `NAME =`.
    std::size_t h = r.b;
    std::string_view var;
    for (std::size_t j = r.b; j + 1 < r.e && !t_[j].is(";"); ++j) {
      if (t_[j].is("=") && j > r.b && t_[j - 1].kind == Kind::Ident) {
        var = t_[j - 1].text;
        h = j + 1;
        break;
      }
    }
    if (!(h + 3 < r.e && t_[h].kind == Kind::Ident && t_[h].text == c.handle && t_[h + 1].is(".") &&
          t_[h + 2].is("class_") && t_[h + 3].is("<")))
      return false;
    const std::size_t gt = tk_.match_angle(h + 3, r.e);
    if (gt == std::string::npos || gt + 1 >= r.e || !t_[gt + 1].is("(")) return false;
    const auto a = tk_.args(gt + 1);
    const auto name = a.size() == 1 ? literal(a[0]) : std::nullopt;
    c.blk->note += fmt::format("; class_ {} at line {} (a custom class: registers no operator)",
                               name ? name->value : text(a.empty() ? Range{gt + 1, gt + 1} : a[0]), t_[h + 2].line);
    if (!var.empty()) c.classes.emplace_back(var);
    return true;
  }

  // handle.NAME(args) with the '(' at `open`.
  void call(const CppToken& name, std::size_t open, Ctx& c) {
    const auto a = tk_.args(open);
    const std::string_view m = name.text;
    if (m == "set_python_module") {
      c.blk->note += fmt::format("; set_python_module({}) at line {} (registers no kernel)", text({open + 1, tk_.close(open)}),
                                 name.line);
      return;
    }
    if (m == "def") return def(name, a, c);
    if (m == "impl") return impl(name, a, c);
    if (m == "fallback") return fallback(name, a, c);
    warn(name, fmt::format("{}.{}(...) is not a registration dispatchtool reads: not read", c.handle, m));
  }

  std::optional<Literal> literal(Range r) const { return cppread::literal(s_, r); }
  Literal literal(const CppToken& t) const { return cppread::literal(s_, t); }

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
        const auto sa = tk_.args(k + 1);
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
    std::optional<CppKernel> k;
    std::vector<std::pair<std::vector<std::string>, Location>> tags;
    for (std::size_t i = 1; i < a.size(); ++i) {
      if (!a[i].empty() && t_[a[i].b].is("{")) {
        std::vector<std::string> ts;
        for (std::size_t j = a[i].b; j < a[i].e; ++j)
          if (t_[j].kind == Kind::Ident && j + 1 < a[i].e && (t_[j + 1].is(",") || t_[j + 1].is("}")))
            ts.emplace_back(t_[j].text);
        tags.emplace_back(std::move(ts), at(t_[a[i].b]));
      } else if (i == 1) {
        k = read_kernel(tk_, s_.files, a[1], c.stable);
      } else {
        warn(t_[a[i].b], fmt::format("{}.def(...): argument '{}' is not read", c.handle, text(a[i])));
      }
    }
    if (lit->value.find('(') == std::string::npos) {
      // def("name", fn): the schema c10 infers from the kernel, under that
      // name, with CONSERVATIVE alias analysis (Library::_def).
      if (!k || k->what == CppKernel::What::Fallthrough || !k->signature)
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

  // impl(name, fn), and impl(name, key_or_device, fn), which c10 makes
  // impl(name, torch::dispatch(key_or_device, fn)).
  void impl(const CppToken& name, const std::vector<Range>& a, Ctx& c) {
    if (a.size() != 2 && a.size() != 3)
      return warn(name, fmt::format("{}.impl(...) with {} arguments: not read", c.handle, a.size()));
    auto lit = literal(a[0]);
    if (!lit)
      return warn(t_[a[0].b], fmt::format("{}.impl({}, ...): the operator name is not a string literal: not read",
                                          c.handle, text(a[0])));
    CppKernel k = read_kernel(tk_, s_.files, a.back(), c.stable);
    if (a.size() == 3) {
      if (a[1].empty()) return warn(name, fmt::format("{}.impl(...): an empty dispatch key: not read", c.handle));
      const CppToken& kt = t_[a[1].e - 1];
      k.key = cpp_key_name(kt.text);
      k.key_at = at(kt);
    }
    add_impl(name, lit->value, *lit, k, a.back(), c);
  }

  void add_impl(const CppToken& name, const std::string& op, const Literal& op_at, const CppKernel& k, Range kr,
                Ctx& c) {
    if (k.what == CppKernel::What::Unknown)
      return warn(t_[kr.b], fmt::format("{}.{}(\"{}\", {}): {}: not read", c.handle, name.text, op, text(kr), k.unknown));
    TomlEntry e;
    e.kind = "impl";
    e.at = at(name);
    e.add("op", op, op_at.at, op_at.span);
    if (k.key && !k.key->empty()) e.add("key", *k.key, k.key_at);
    e.add("kernel", c.debug, at(t_[kr.b]));  // a fallthrough has the block's debug string too
    if (k.what == CppKernel::What::Fallthrough) {
      e.add("fallthrough", true, at(t_[kr.b]));
    } else {
      if (k.signature) e.add("signature", *k.signature, at(t_[kr.b]));
      if (k.op_signature) e.add("op_signature", true, at(t_[kr.b]));
      if (k.what == CppKernel::What::Boxed || k.symint) e.add("boxed_only", true, at(t_[kr.b]));
      if (k.what == CppKernel::What::Function && !k.signature && !k.op_signature)
        warn(t_[kr.b], fmt::format("{}.{}(\"{}\", {}): the kernel's C++ signature is not known ({}): its inferred "
                                   "schema is left out",
                                   c.handle, name.text, op, text(kr), k.unknown));
    }
    c.blk->entries.push_back(std::move(e));
  }

  void fallback(const CppToken& name, const std::vector<Range>& a, Ctx& c) {
    if (a.size() != 1) return warn(name, fmt::format("{}.fallback(...) with {} arguments: not read", c.handle, a.size()));
    const CppKernel k = read_kernel(tk_, s_.files, a[0], c.stable);
    if (k.what == CppKernel::What::Unknown || k.opaque)
      return warn(t_[a[0].b], fmt::format("{}.fallback({}): {}: not read", c.handle, text(a[0]), k.unknown));
    TomlEntry e;
    e.kind = "fallback";
    e.at = at(name);
    e.add("kernel", c.debug, at(t_[a[0].b]));
    if (k.what == CppKernel::What::Fallthrough) e.add("fallthrough", true, at(t_[a[0].b]));
    c.blk->entries.push_back(std::move(e));
  }

  const Profile& p_;
  const CppScan& s_;
  std::vector<const CppScan::UnreadDef*> unread_sorted_;
  CppTokens tk_;
  const std::vector<CppToken>& t_;
  Blocks out_;
  std::vector<bool> warned_cond_;
};

}  // namespace

Expected<Blocks, Diagnostic> read_cpp(const Profile& profile, FileName file, std::string_view text,
                                      const CppOptions& options) {
  DT_TRY(scan, preprocess_cpp(profile, file, text, options));
  return Reader(profile, scan).run();
}

}  // namespace dt
