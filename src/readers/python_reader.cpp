// The Python reader (readers/python_reader.hpp).
#include "readers/python_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "readers/python_infer_schema.hpp"
#include "readers/python_lexer.hpp"
#include "readers/python_parser.hpp"

namespace dt {

namespace {

// The debug strings (_dispatch_dump's "registered at ...") of torch.library's
// Python forms, as each release makes them (measured; checked by
// tests/oracle/py_reader_oracle.py). {file} and {line}: where the form is
// written; {torch}: the torch package's directory.
//  - torch 2.6: Library.__init__ takes traceback.extract_stack(limit=3)[0],
//    the frame two above it, and the build registers the file as /dev/null:
//    for a Library made at module level that frame is importlib's
//    (_call_with_frames_removed, line 488 of Python 3.13's
//    <frozen importlib._bootstrap>); for the decorator torch.library.impl
//    it is the decorator's line; for the call forms a line of torch/library.py.
//  - torch 2.14: Library.__init__ takes sys._getframe(1), the caller: the
//    module's file and line; torch.library.impl / define without lib= make
//    their own Library inside torch/library.py.
struct DebugTable {
  std::string library, impl_decorator, impl_call, define;
};

std::optional<DebugTable> debug_table(const Profile& p) {
  const std::string& v = p.torch_version();
  if (v.starts_with("2.6."))
    return DebugTable{"registered at /dev/null:488", "registered at /dev/null:{line}", "registered at /dev/null:608",
                      "registered at /dev/null:934"};
  if (v.starts_with("2.14.")) {
    const std::string def = p.torch_library().debug_of("def");
    const std::size_t a = def.find("registered at "), b = def.find("/_library/");
    if (a != 0 || b == std::string::npos) return std::nullopt;
    const std::string torch = def.substr(14, b - 14);
    return DebugTable{"registered at {file}:{line}", "registered at " + torch + "/library.py:940",
                      "registered at " + torch + "/library.py:940", "registered at " + torch + "/library.py:750"};
  }
  return std::nullopt;
}

constexpr std::string_view kRegNames[] = {"Library",
                                          "define",
                                          "impl",
                                          "fallback",
                                          "custom_op",
                                          "register_kernel",
                                          "register_fake",
                                          "register_autograd",
                                          "register_autocast",
                                          "register_vmap",
                                          "impl_abstract",
                                          "triton_op",
                                          "register_torch_dispatch"};
bool is_reg_name(std::string_view n) {
  return std::find(std::begin(kRegNames), std::end(kRegNames), n) != std::end(kRegNames);
}

struct OpRef {
  std::size_t block, entry;
};

class Reader {
 public:
  Reader(const Profile& p, FileName f) : profile_(p), file_(f), dbg_(debug_table(p)) {}

  Expected<Blocks, Diagnostic> run(std::string_view text) {
    // One logical line at a time: memory stays that of the largest statement.
    PyLexer lex(file_, text);
    std::vector<PyExpr> decorators;
    for (;;) {
      auto more = lex.next_line(t_);
      if (!more) return unexpected(std::move(more.error()));
      if (!*more) break;
      auto r = statement(0, t_.size() - 1, decorators);
      if (!r) return unexpected(std::move(r.error()));
    }
    return std::move(out_);
  }

 private:
  const Profile& profile_;
  FileName file_;
  std::optional<DebugTable> dbg_;
  std::vector<PyToken> t_;                    // the current logical line's tokens
  std::map<std::string, std::string> alias_;  // local name -> what it names ("torch.library")
  std::map<std::string, PyExpr> consts_;      // module-level string constants
  std::map<std::string, std::size_t> libs_;   // Library objects -> block
  std::map<std::string, std::uint32_t> lib_line_;
  std::map<std::string, PyFunction> defs_;
  std::map<std::string, OpRef> ops_;  // custom_op objects, and their qualnames
  Blocks out_;
  // A module-level `if torch.__version__ OP "X.Y":` (and its `else:`), decided
  // with the profile's torch_version: the body of the branch taken is read
  // as module-level code, the other skipped.
  struct Branch {
    bool taken = false;
    std::uint32_t body_indent = 0;  // 0 until its first line
  };
  std::optional<Branch> branch_;

  Location loc(const PyToken& k) const { return Location{file_, k.line, k.column}; }

  std::string canonical(const std::string& dotted) const {
    const std::size_t dot = dotted.find('.');
    const std::string head = dotted.substr(0, dot);
    auto it = alias_.find(head);
    if (it == alias_.end()) return dotted;
    return dot == std::string::npos ? it->second : it->second + dotted.substr(dot);
  }
  std::string callee(const PyExpr& call) const {
    return call.kind == PyExpr::Call && call.base[0].kind == PyExpr::Name ? canonical(call.base[0].text) : "";
  }

  void warn(Location at, std::string what) {
    Diagnostic d = make_error(std::move(at), std::move(what));
    d.severity = Severity::Warning;
    out_.warnings.push_back(std::move(d));
  }
  dispatchtool::Unexpected<Diagnostic> error(Location at, std::string what) const {
    return unexpected(make_error(std::move(at), std::move(what)));
  }

  // Whether tokens [b, e) name a torch.library registration (for warnings).
  bool mentions_registration(std::size_t b, std::size_t e) const {
    for (std::size_t i = b; i < e; ++i) {
      if (t_[i].kind != PyTok::Name || (i > b && t_[i - 1].kind == PyTok::Op && t_[i - 1].text == ".")) continue;
      if (i > b && t_[i - 1].kind == PyTok::Name && t_[i - 1].text == "def") continue;
      std::string chain = t_[i].text;
      std::size_t j = i + 1;
      while (j + 1 < e && t_[j].kind == PyTok::Op && t_[j].text == "." && t_[j + 1].kind == PyTok::Name) {
        chain += "." + t_[j + 1].text;
        j += 2;
      }
      const std::string c = canonical(chain);
      const std::string last = chain.substr(chain.find_last_of('.') + 1);
      const std::string head = chain.substr(0, chain.find('.'));
      if ((c.starts_with("torch.library.") && is_reg_name(c.substr(c.find_last_of('.') + 1))) ||
          ((libs_.count(head) != 0 || ops_.count(head) != 0) && chain != head && is_reg_name(last)))
        return true;
    }
    return false;
  }

  // torch.__version__ OP "X.Y.Z" with the profile's version (TorchVersion
  // compares as versions); nullopt when the condition is anything else.
  std::optional<bool> version_condition(std::size_t b, std::size_t e) const {
    // if NAME(.NAME)* OP STRING :
    std::size_t p = b + 1;
    std::string chain;
    while (p < e && (t_[p].kind == PyTok::Name || (t_[p].kind == PyTok::Op && t_[p].text == ".")))
      chain += t_[p++].text;
    if (canonical(chain) != "torch.__version__" || p + 3 != e || t_[p].kind != PyTok::Op ||
        t_[p + 1].kind != PyTok::String || t_[p + 1].fstring || t_[p + 2].text != ":")
      return std::nullopt;
    auto parts = [](std::string_view v) {
      std::vector<int> out;
      int cur = 0;
      bool any = false;
      for (char c : v) {
        if (c >= '0' && c <= '9') {
          cur = cur * 10 + (c - '0');
          any = true;
        } else if (c == '.') {
          out.push_back(cur);
          cur = 0;
          any = false;
        } else {
          break;
        }
      }
      if (any) out.push_back(cur);
      while (!out.empty() && out.back() == 0) out.pop_back();
      return out;
    };
    const auto have = parts(profile_.torch_version()), want = parts(t_[p + 1].text);
    const std::string& op = t_[p].text;
    if (op == ">=") return have >= want;
    if (op == ">") return have > want;
    if (op == "<=") return have <= want;
    if (op == "<") return have < want;
    if (op == "==") return have == want;
    if (op == "!=") return have != want;
    return std::nullopt;
  }

  Expected<bool, Diagnostic> statement(std::size_t b, std::size_t e, std::vector<PyExpr>& decorators) {
    const PyToken& first = t_[b];
    if (branch_ && first.line_start && first.indent > 0) {
      if (branch_->body_indent == 0) branch_->body_indent = first.indent;
      if (!branch_->taken) return true;
      if (first.indent == branch_->body_indent) return module_statement(b, e, decorators);
    } else if (branch_ && first.line_start && first.indent == 0) {
      const bool is_else = first.kind == PyTok::Name && first.text == "else" && b + 2 == e;
      if (is_else) {
        branch_->taken = !branch_->taken;
        branch_->body_indent = 0;
        return true;
      }
      branch_.reset();
    }
    if (first.line_start && first.indent == 0 && first.kind == PyTok::Name && first.text == "if")
      if (auto taken = version_condition(b, e)) {
        branch_ = Branch{*taken, 0};
        return true;
      }
    return module_statement(b, e, decorators);
  }

  Expected<bool, Diagnostic> module_statement(std::size_t b, std::size_t e, std::vector<PyExpr>& decorators) {
    const PyToken& first = t_[b];
    if ((first.indent > 0 && !(branch_ && first.indent == branch_->body_indent)) || !first.line_start) {
      if (mentions_registration(b, e))
        warn(loc(first),
             "torch.library registration not at module level (in a function, class, loop or "
             "condition): not read; dispatchtool reads module-level statements only");
      return true;
    }
    const std::string& w = first.kind == PyTok::Name ? first.text : std::string();
    if (first.kind == PyTok::Op && first.text == "@") {
      std::size_t p = b + 1;
      auto d = parse_py_expr(file_, t_, p);
      if (!d) return parse_failed(b, e);
      decorators.push_back(std::move(*d));
      return true;
    }
    if (w == "def" || (w == "async" && t_[b + 1].text == "def")) {
      std::size_t p = w == "async" ? b + 1 : b;
      auto f = parse_py_def(file_, t_, p);
      std::vector<PyExpr> ds = std::move(decorators);
      decorators.clear();
      if (!f) return parse_failed(b, e);
      defs_[f->name] = *f;
      for (auto it = ds.rbegin(); it != ds.rend(); ++it) {
        auto r = decorate(*it, f->name, it->at);
        if (!r) return r;
      }
      return true;
    }
    if (w == "class") {
      for (const PyExpr& d : decorators)
        if (is_registration_expr(d)) warn(d.at, "torch.library decorator on a class: not read");
      decorators.clear();
      return true;
    }
    decorators.clear();
    if (w == "import" || w == "from") return import(b, e);
    static constexpr std::string_view kCompound[] = {"if",     "elif",   "else",     "for",      "while",  "with",
                                                     "try",    "except", "finally",  "match",    "case",   "async",
                                                     "return", "del",    "global",   "nonlocal", "assert", "raise",
                                                     "pass",   "break",  "continue", "yield",    "lambda", "type"};
    for (auto k : kCompound)
      if (w == k) {
        if (mentions_registration(b, e))
          warn(loc(first), fmt::format("torch.library registration in a '{}' statement: not read", w));
        return true;
      }
    std::size_t p = b;
    auto lhs = parse_py_expr(file_, t_, p);
    if (!lhs) return parse_failed(b, e);
    if (p < e && t_[p].kind == PyTok::Op && t_[p].text == ":") {  // annotated assignment
      ++p;
      auto ann = parse_py_expr(file_, t_, p);
      if (!ann) return parse_failed(b, e);
      if (p >= e) return true;
    }
    if (p < e && t_[p].kind == PyTok::Op && t_[p].text == "=") {
      ++p;
      auto rhs = parse_py_expr(file_, t_, p);
      if (!rhs || p != e) return parse_failed(b, e);
      return assign(*lhs, *rhs, b, e);
    }
    if (p != e) return parse_failed(b, e);
    return expression(*lhs, b, e);
  }

  Expected<bool, Diagnostic> parse_failed(std::size_t b, std::size_t e) {
    if (mentions_registration(b, e))
      warn(loc(t_[b]), "torch.library registration in a statement dispatchtool cannot read: not read");
    return true;
  }

  bool is_registration_expr(const PyExpr& d) const {
    const PyExpr* x = &d;
    while (x->kind == PyExpr::Call || x->kind == PyExpr::Attr) x = &x->base[0];
    if (x->kind != PyExpr::Name) return false;
    const std::string c = canonical(x->text);
    const std::string head = x->text.substr(0, x->text.find('.'));
    return c.starts_with("torch.library.") || libs_.count(head) != 0 || ops_.count(head) != 0;
  }

  // import a.b [as c], ... / from a.b import c [as d], ... / from a import (c, d)
  Expected<bool, Diagnostic> import(std::size_t b, std::size_t e) {
    auto dotted = [&](std::size_t& p) {
      std::string s;
      while (p < e && t_[p].kind == PyTok::Name && t_[p].text != "import" && t_[p].text != "as") {
        s += t_[p++].text;
        if (p < e && t_[p].kind == PyTok::Op && t_[p].text == ".")
          s += t_[p++].text;
        else
          break;
      }
      return s;
    };
    std::size_t p = b + 1;
    if (t_[b].text == "import") {
      while (p < e) {
        const std::string mod = dotted(p);
        if (p + 1 < e && t_[p].text == "as") {
          alias_[t_[p + 1].text] = mod;
          p += 2;
        } else {
          const std::string head = mod.substr(0, mod.find('.'));
          alias_[head] = head;
        }
        if (p < e && t_[p].text == ",")
          ++p;
        else
          break;
      }
      return true;
    }
    const std::string mod = dotted(p);
    if (p >= e || t_[p].text != "import") return true;
    ++p;
    while (p < e) {
      if (t_[p].text == "(" || t_[p].text == ")" || t_[p].text == ",") {
        ++p;
        continue;
      }
      if (t_[p].kind != PyTok::Name) break;
      const std::string name = t_[p].text;
      std::string local = name;
      ++p;
      if (p + 1 < e && t_[p].text == "as") {
        local = t_[p + 1].text;
        p += 2;
      }
      if (name == "*") break;
      alias_[local] = mod + "." + name;
    }
    return true;
  }

  std::optional<std::pair<std::string, Location>> str_of(const PyExpr& x) const {
    if (x.kind == PyExpr::Str && !x.fstring) return std::make_pair(x.text, x.at);
    if (x.kind == PyExpr::Name)
      if (auto it = consts_.find(x.text); it != consts_.end()) return std::make_pair(it->second.text, it->second.at);
    return std::nullopt;
  }
  // A string or a tuple/list of strings.
  std::optional<std::vector<std::string>> strs_of(const PyExpr& x) const {
    if (auto s = str_of(x)) return std::vector<std::string>{s->first};
    if (x.kind != PyExpr::Tuple && x.kind != PyExpr::List) return std::nullopt;
    std::vector<std::string> v;
    for (const PyExpr& a : x.args) {
      auto s = str_of(a);
      if (!s) return std::nullopt;
      v.push_back(s->first);
    }
    return v;
  }
  std::optional<std::vector<std::string>> tags_of(const PyExpr& x) const {
    std::vector<const PyExpr*> items;
    if (x.kind == PyExpr::Tuple || x.kind == PyExpr::List)
      for (const auto& a : x.args) items.push_back(&a);
    else
      items.push_back(&x);
    std::vector<std::string> v;
    for (const PyExpr* a : items) {
      const std::string c = a->kind == PyExpr::Name ? canonical(a->text) : "";
      if (!c.starts_with("torch.Tag.")) return std::nullopt;
      v.push_back(c.substr(10));
    }
    return v;
  }
  // An argument by position or keyword.
  static const PyExpr* arg(const PyExpr& call, std::size_t pos, std::string_view kw) {
    if (pos < call.args.size()) return &call.args[pos];
    return call.kwarg(kw);
  }

  std::string fill(const std::string& pattern, std::uint32_t line) const {
    std::string s = pattern;
    auto rep = [&](std::string_view key, const std::string& v) {
      if (auto at = s.find(key); at != std::string::npos) s.replace(at, key.size(), v);
    };
    rep("{file}", file_.str());
    rep("{line}", std::to_string(line));
    return s;
  }
  Expected<bool, Diagnostic> need_debug(Location at) const {
    if (dbg_) return true;
    return error(at, fmt::format("the Python reader knows the debug strings torch.library registers in torch 2.6 "
                                 "and 2.14 only (profile {} is torch {}): pass --profile torch-2.6 or torch-2.14",
                                 profile_.name(), profile_.torch_version()));
  }

  std::size_t new_block(const std::string& ns, const char* kind, const std::string& key, Location at,
                        std::string note) {
    TomlBlock blk;
    blk.at = at;
    blk.note = std::move(note);
    if (!ns.empty()) blk.add("namespace", ns, at);
    blk.add("kind", kind, at);
    if (!key.empty()) blk.add("dispatch_key", key, at);
    out_.blocks.push_back(std::move(blk));
    return out_.blocks.size() - 1;
  }
  static std::string ns_of(const std::string& qualname) {
    const std::size_t c = qualname.find("::");
    return c == std::string::npos ? std::string() : qualname.substr(0, c);
  }
  TomlEntry& entry(std::size_t block, const char* kind, Location at) {
    TomlEntry en;
    en.kind = kind;
    en.at = at;
    out_.blocks[block].entries.push_back(std::move(en));
    return out_.blocks[block].entries.back();
  }

  // ---- assignments and expression statements ------------------------------
  Expected<bool, Diagnostic> assign(const PyExpr& lhs, const PyExpr& rhs, std::size_t b, std::size_t e) {
    const bool simple = lhs.kind == PyExpr::Name && lhs.text.find('.') == std::string::npos;
    if (simple) {
      consts_.erase(lhs.text);
      libs_.erase(lhs.text);
      ops_.erase(lhs.text);
    }
    if (simple && rhs.kind == PyExpr::Str && !rhs.fstring) {
      consts_[lhs.text] = rhs;
      return true;
    }
    if (simple && rhs.kind == PyExpr::Name &&
        canonical(rhs.text).starts_with("torch.")) {  // W = torch.library.custom_op
      alias_[lhs.text] = canonical(rhs.text);
      return true;
    }
    if (simple) alias_.erase(lhs.text);
    const std::string c = callee(rhs);
    if (c == "torch.library.Library") return library(simple ? lhs.text : std::string(), rhs);
    if (c == "torch.library.custom_op") {
      const PyExpr* fn = arg(rhs, 1, "fn");
      if (fn == nullptr || fn->kind != PyExpr::Name || defs_.count(fn->text) == 0) {
        warn(rhs.at, "torch.library.custom_op without a function defined in this file: not read");
        return true;
      }
      return custom_op(rhs, fn->text, simple ? lhs.text : std::string());
    }
    if (rhs.kind == PyExpr::Call && rhs.base[0].kind == PyExpr::Call && rhs.args.size() == 1 &&
        rhs.args[0].kind == PyExpr::Name && defs_.count(rhs.args[0].text) != 0) {
      auto r = decorate(rhs.base[0], rhs.args[0].text, rhs.at, false);
      if (!r) return r;
      if (simple && ops_.count(rhs.args[0].text) != 0) ops_[lhs.text] = ops_[rhs.args[0].text];
      return true;
    }
    return expression(rhs, b, e);
  }

  Expected<bool, Diagnostic> expression(const PyExpr& x, std::size_t b, std::size_t e) {
    if (x.kind != PyExpr::Call) {
      if (mentions_registration(b, e)) warn(x.at, "torch.library registration dispatchtool cannot read: not read");
      return true;
    }
    if (x.base[0].kind == PyExpr::Name) {
      const std::string& name = x.base[0].text;
      const std::size_t dot = name.rfind('.');
      if (dot != std::string::npos && name.find('.') == dot) {
        const std::string obj = name.substr(0, dot), method = name.substr(dot + 1);
        if (libs_.count(obj) != 0) return library_method(obj, method, x);
        if (ops_.count(obj) != 0 && method.starts_with("register_"))
          return op_register(ops_.at(obj), method, x, 0, false);
      }
      const std::string c = canonical(name);
      if (c == "torch.library.define") return define(x);
      if (c == "torch.library.impl") {
        if (arg(x, 2, "func") != nullptr) return impl_qualname(x, false);
      } else if (c.starts_with("torch.library.register_")) {
        return register_by_target(c.substr(14), x, false);
      }
    }
    if (x.base[0].kind == PyExpr::Call && x.args.size() == 1 && x.args[0].kind == PyExpr::Name &&
        defs_.count(x.args[0].text) != 0)
      return decorate(x.base[0], x.args[0].text, x.at, false);
    if (is_registration_expr(x) || mentions_registration(b, e))
      warn(x.at,
           "torch.library registration dispatchtool cannot read statically (computed arguments or a "
           "form it does not know): not read");
    return true;
  }

  // ---- decorators -----------------------------------------------------------
  Expected<bool, Diagnostic> decorate(const PyExpr& d, const std::string& fname, Location at, bool decorator = true) {
    if (d.kind == PyExpr::Call && d.base[0].kind == PyExpr::Name) {
      const std::string& name = d.base[0].text;
      const std::size_t dot = name.rfind('.');
      if (dot != std::string::npos && name.find('.') == dot && ops_.count(name.substr(0, dot)) != 0 &&
          name.substr(dot + 1).starts_with("register_"))
        return op_register(ops_.at(name.substr(0, dot)), name.substr(dot + 1), d, 0, decorator);
      const std::string c = canonical(name);
      if (c == "torch.library.custom_op") return custom_op(d, fname, fname);
      if (c == "torch.library.impl") return impl_qualname(d, decorator);
      if (c.starts_with("torch.library.register_")) return register_by_target(c.substr(14), d, decorator);
    }
    if (d.kind == PyExpr::Name) {
      const std::size_t dot = d.text.rfind('.');
      if (dot != std::string::npos && ops_.count(d.text.substr(0, dot)) != 0) {
        PyExpr call;  // @op.register_fake == op.register_fake(fn)
        call.kind = PyExpr::Call;
        call.at = d.at;
        call.base.push_back(d);
        return op_register(ops_.at(d.text.substr(0, dot)), d.text.substr(dot + 1), call, 0, true);
      }
    }
    if (is_registration_expr(d)) warn(at, "torch.library decorator dispatchtool cannot read statically: not read");
    return true;
  }

  // ---- Library objects --------------------------------------------------------
  Expected<bool, Diagnostic> library(const std::string& name, const PyExpr& call) {
    const PyExpr* ns = arg(call, 0, "ns");
    const PyExpr* kind = arg(call, 1, "kind");
    const PyExpr* key = arg(call, 2, "dispatch_key");
    auto nss = ns ? str_of(*ns) : std::nullopt;
    auto kinds = kind ? str_of(*kind) : std::nullopt;
    auto keys = key ? str_of(*key) : std::optional<std::pair<std::string, Location>>(std::make_pair("", call.at));
    if (!nss || !kinds || !keys || name.empty()) {
      warn(call.at,
           "torch.library.Library with arguments that are not string literals (or not bound to a name): "
           "not read, nor anything registered through it");
      if (!name.empty()) libs_[name] = SIZE_MAX;
      return true;
    }
    if (auto ok = need_debug(call.at); !ok) return ok;
    TomlBlock blk;
    blk.at = call.at;
    blk.note = fmt::format("torch.library.Library({:?}, {:?}{})", nss->first, kinds->first,
                           keys->first.empty() ? "" : fmt::format(", {:?}", keys->first));
    blk.add("namespace", nss->first, nss->second);
    blk.add("kind", kinds->first, kinds->second);
    if (!keys->first.empty()) blk.add("dispatch_key", keys->first, keys->second);
    out_.blocks.push_back(std::move(blk));
    libs_[name] = out_.blocks.size() - 1;
    lib_line_[name] = call.base[0].at.line;
    return true;
  }
  std::string lib_debug(const std::string& name) const { return fill(dbg_->library, lib_line_.at(name)); }

  bool is_fallthrough(const PyExpr* fn) const {
    return fn != nullptr && fn->kind == PyExpr::Name && canonical(fn->text) == "torch.library.fallthrough_kernel";
  }
  void kernel_fields(TomlEntry& en, const PyExpr* fn, const std::string& debug, Location at) {
    if (is_fallthrough(fn)) {
      en.add("fallthrough", true, fn->at);
      en.add("kernel", debug, at);
    } else {
      en.add("kernel", debug, at);
      en.add("boxed_only", true, at);
    }
  }

  Expected<bool, Diagnostic> library_method(const std::string& obj, const std::string& method, const PyExpr& x) {
    const std::size_t blk = libs_.at(obj);
    if (blk == SIZE_MAX) {
      warn(x.at, fmt::format("{}.{} on a Library dispatchtool could not read: not read", obj, method));
      return true;
    }
    if (method == "define") {
      auto schema = arg(x, 0, "schema") ? str_of(*arg(x, 0, "schema")) : std::nullopt;
      const PyExpr* aa = arg(x, 1, "alias_analysis");
      auto aas = aa ? str_of(*aa) : std::nullopt;
      const PyExpr* tg = x.kwarg("tags");
      auto tags = tg ? tags_of(*tg) : std::optional<std::vector<std::string>>(std::vector<std::string>{});
      if (!schema || (aa && !aas) || !tags) return unread(x, obj + ".define");
      TomlEntry& en = entry(blk, "def", x.at);
      en.add("schema", schema->first, schema->second);
      if (aas && !aas->first.empty()) en.add("alias_analysis", aas->first, aas->second);
      if (!tags->empty()) en.add("tags", *tags, tg->at);
      en.add("debug", lib_debug(obj), x.at);
      return true;
    }
    if (method == "impl") {
      auto op = arg(x, 0, "op_name") ? str_of(*arg(x, 0, "op_name")) : std::nullopt;
      const PyExpr* fn = arg(x, 1, "fn");
      const PyExpr* key = arg(x, 2, "dispatch_key");
      auto keys = key ? str_of(*key) : std::nullopt;
      if (!op || fn == nullptr || (key && !keys)) return unread(x, obj + ".impl");
      TomlEntry& en = entry(blk, "impl", x.at);
      en.add("op", op->first, op->second);
      if (keys && !keys->first.empty()) en.add("key", keys->first, keys->second);
      kernel_fields(en, fn, lib_debug(obj), x.at);
      return true;
    }
    if (method == "fallback") {
      const PyExpr* fn = arg(x, 0, "fn");
      const PyExpr* key = arg(x, 1, "dispatch_key");
      auto keys = key ? str_of(*key) : std::nullopt;
      if (fn == nullptr || (key && !keys)) return unread(x, obj + ".fallback");
      TomlEntry& en = entry(blk, "fallback", x.at);
      if (keys && !keys->first.empty()) en.add("key", keys->first, keys->second);
      if (is_fallthrough(fn)) en.add("fallthrough", true, fn->at);
      en.add("kernel", lib_debug(obj), x.at);
      return true;
    }
    return unread(x, obj + "." + method);
  }

  Expected<bool, Diagnostic> unread(const PyExpr& x, const std::string& what) {
    warn(x.at, fmt::format("{}(...) with arguments that are not literals (or a form dispatchtool does not know): "
                           "not read",
                           what));
    return true;
  }

  // ---- torch.library.define / impl ------------------------------------------
  // The block a lib= argument names (or a new FRAGMENT block, as torch.library
  // makes its own Library), and the debug string.
  std::optional<std::pair<std::size_t, std::string>> target_block(const PyExpr& x, const std::string& qualname,
                                                                  const std::string& own_debug) {
    if (const PyExpr* lib = x.kwarg("lib"); lib != nullptr && !(lib->kind == PyExpr::Name && lib->text == "None")) {
      if (lib->kind != PyExpr::Name || libs_.count(lib->text) == 0 || libs_.at(lib->text) == SIZE_MAX)
        return std::nullopt;
      return std::make_pair(libs_.at(lib->text), lib_debug(lib->text));
    }
    return std::make_pair(new_block(ns_of(qualname), "FRAGMENT", "", x.at, "a Library torch.library makes"), own_debug);
  }

  Expected<bool, Diagnostic> define(const PyExpr& x) {
    auto q = arg(x, 0, "qualname") ? str_of(*arg(x, 0, "qualname")) : std::nullopt;
    auto schema = arg(x, 1, "schema") ? str_of(*arg(x, 1, "schema")) : std::nullopt;
    const PyExpr* tg = x.kwarg("tags");
    auto tags = tg ? tags_of(*tg) : std::optional<std::vector<std::string>>(std::vector<std::string>{});
    if (!q || !schema || !tags) return unread(x, "torch.library.define");
    if (auto ok = need_debug(x.at); !ok) return ok;
    auto tb = target_block(x, q->first, fill(dbg_->define, x.at.line));
    if (!tb) return unread(x, "torch.library.define");
    TomlEntry& en = entry(tb->first, "def", x.at);
    en.add("name", q->first, q->second);
    en.add("schema", schema->first, schema->second);
    if (!tags->empty()) en.add("tags", *tags, tg->at);
    en.add("debug", tb->second, x.at);
    return true;
  }

  Expected<bool, Diagnostic> impl_qualname(const PyExpr& x, bool decorator) {
    if (auto ok = need_debug(x.at); !ok) return ok;
    const PyExpr* first = arg(x, 0, "qualname");
    if (first && first->kind == PyExpr::Name && libs_.count(first->text) != 0) {  // impl(lib, name, dispatch_key)
      const std::string& obj = first->text;
      auto op = arg(x, 1, "name") ? str_of(*arg(x, 1, "name")) : std::nullopt;
      const PyExpr* key = arg(x, 2, "dispatch_key");
      auto keys = key ? str_of(*key) : std::nullopt;
      if (libs_.at(obj) == SIZE_MAX || !op || (key && !keys) || !decorator) return unread(x, "torch.library.impl");
      TomlEntry& en = entry(libs_.at(obj), "impl", x.at);
      en.add("op", op->first, op->second);
      if (keys && !keys->first.empty()) en.add("key", keys->first, keys->second);
      kernel_fields(en, nullptr, lib_debug(obj), x.at);
      return true;
    }
    auto q = first ? str_of(*first) : std::nullopt;
    auto types = arg(x, 1, "types") ? strs_of(*arg(x, 1, "types")) : std::nullopt;
    const PyExpr* fn = decorator ? nullptr : arg(x, 2, "func");
    if (!q || !types) return unread(x, "torch.library.impl");
    auto tb = target_block(x, q->first, fill(decorator ? dbg_->impl_decorator : dbg_->impl_call, x.at.line));
    if (!tb) return unread(x, "torch.library.impl");
    TomlEntry& en = entry(tb->first, "impl", x.at);
    en.add("op", q->first, q->second);
    en.add("device_types", *types, arg(x, 1, "types")->at);
    kernel_fields(en, fn, tb->second, x.at);
    return true;
  }

  // ---- custom_op and the register_* functions -----------------------------------
  Expected<bool, Diagnostic> custom_op(const PyExpr& x, const std::string& fname, const std::string& bind) {
    auto q = arg(x, 0, "name") ? str_of(*arg(x, 0, "name")) : std::nullopt;
    const PyExpr* mut = x.kwarg("mutates_args");
    const PyExpr* dev = x.kwarg("device_types");
    const PyExpr* sch = x.kwarg("schema");
    const PyExpr* tg = x.kwarg("tags");
    if (!q) return unread(x, "torch.library.custom_op");
    MutatesArgs m;
    if (mut == nullptr) return error(x.at, "custom_op() missing 1 required keyword-only argument: 'mutates_args'");
    m.at = mut->at;
    if (auto s = str_of(*mut)) {
      if (s->first != "unknown")
        return error(mut->at,
                     "mutates_args must either be a sequence of the names of the arguments that are "
                     "mutated or the string 'unknown'. ");
      m.unknown = true;
    } else if (auto v = strs_of(*mut)) {
      m.names = *v;
    } else {
      return unread(x, "torch.library.custom_op");
    }
    const bool dev_none = dev == nullptr || (dev->kind == PyExpr::Name && dev->text == "None");
    auto devs = dev_none ? std::nullopt : strs_of(*dev);
    const bool tags_none = tg == nullptr || (tg->kind == PyExpr::Name && tg->text == "None");
    auto tags = tags_none ? std::nullopt : tags_of(*tg);
    const bool sch_none = sch == nullptr || (sch->kind == PyExpr::Name && sch->text == "None");
    auto schema = sch_none ? std::nullopt : str_of(*sch);
    if ((!dev_none && !devs) || (!tags_none && !tags) || (!sch_none && !schema))
      return unread(x, "torch.library.custom_op");
    std::string inferred;
    Location schema_at = x.at;
    if (schema) {
      inferred = schema->first;
      schema_at = schema->second;
    } else {
      auto s = infer_schema(defs_.at(fname), m, infer_schema_release(profile_.torch_version()),
                            [this](const std::string& n) { return canonical(n); });
      if (!s) return unexpected(std::move(s.error()));
      inferred = *s;
      schema_at = defs_.at(fname).at;
      for (const PyParam& p : defs_.at(fname).params)  // CustomOpDef._validate_schema
        if (p.kind == PyParam::KeywordOnly && param_is_tensor(inferred, p.name))
          return error(x.at, fmt::format("custom_op with kwarg-only Tensor args. Please make your tensors not "
                                         "kwarg-only. Got: {}{}",
                                         q->first.substr(q->first.find("::") + 2), inferred));
    }
    const std::size_t blk = new_block(ns_of(q->first), "FRAGMENT", "", x.at, "torch.library.custom_op");
    TomlEntry& en = entry(blk, "custom_op", x.at);
    en.note = schema ? "" : "schema inferred from " + fname + "'s annotations (torch.library.infer_schema)";
    en.add("name", q->first, q->second);
    en.add("schema", inferred, schema_at);
    std::vector<std::string> muts = m.names;
    if (m.unknown) {
      muts.clear();
      for (const PyParam& p : defs_.at(fname).params)
        if (auto t = param_is_tensor(inferred, p.name); t) muts.push_back(p.name);
    }
    if (!muts.empty()) en.add("mutates_args", muts, mut->at);
    if (devs) {
      if (dev->kind == PyExpr::Str || dev->kind == PyExpr::Name)
        en.add("device_types", devs->front(), dev->at);
      else
        en.add("device_types", *devs, dev->at);
    }
    if (tags) en.add("tags", *tags, tg->at);
    const OpRef ref{blk, out_.blocks[blk].entries.size() - 1};
    ops_[q->first] = ref;
    if (!bind.empty()) ops_[bind] = ref;
    return true;
  }
  // Whether the schema's parameter `name` is a Tensor type ("Tensor(a0!)[] x" too).
  static bool param_is_tensor(const std::string& schema, const std::string& name) {
    const std::string needle = " " + name;
    std::size_t at = 0;
    while ((at = schema.find(needle, at)) != std::string::npos) {
      const std::size_t end = at + needle.size();
      if (end < schema.size() && (schema[end] == ',' || schema[end] == ')' || schema[end] == '=')) {
        const std::size_t comma = schema.rfind(", ", at);
        const std::size_t start = comma == std::string::npos ? 1 : comma + 2;
        return schema.compare(start, 6, "Tensor") == 0;
      }
      at = end;
    }
    return false;
  }

  TomlField* field(TomlEntry& en, std::string_view key) {
    for (TomlField& f : en.fields)
      if (f.key == key) return &f;
    return nullptr;
  }
  void append(TomlEntry& en, const char* key, const std::vector<std::string>& v, Location at) {
    TomlField* f = field(en, key);
    if (f == nullptr) {
      en.add(key, v, at);
      return;
    }
    std::vector<std::string> all;
    if (auto* s = std::get_if<std::string>(&f->value)) all.push_back(*s);
    if (auto* a = std::get_if<std::vector<std::string>>(&f->value)) all = *a;
    for (const auto& d : v)
      if (std::find(all.begin(), all.end(), d) == all.end()) all.push_back(d);
    f->value = all;
  }

  // register_<api> on a custom op: `x` is the call (op.register_kernel("cuda"),
  // torch.library.register_kernel(op, "cuda", fn)); its arguments start at `first`.
  Expected<bool, Diagnostic> op_register(OpRef ref, const std::string& api, const PyExpr& x, std::size_t first,
                                         bool decorator) {
    (void)decorator;
    TomlEntry& en = out_.blocks[ref.block].entries[ref.entry];
    if (api == "register_kernel") {
      const PyExpr* d = arg(x, first, "device_types");
      auto devs = d ? strs_of(*d) : std::nullopt;
      if (!devs) return unread(x, api);
      append(en, "register_kernel", *devs, d->at);
    } else if (api == "register_autocast") {
      const PyExpr* d = arg(x, first, "device_type");
      auto devs = d ? strs_of(*d) : std::nullopt;
      if (!devs) return unread(x, api);
      append(en, "register_autocast", *devs, d->at);
    } else if (api == "register_fake" || api == "register_autograd" || api == "register_vmap") {
      if (field(en, api) == nullptr) en.add(api, true, x.at);
    } else {
      warn(x.at, fmt::format("{} on a custom op: dispatchtool does not read this API: not read", api));
    }
    return true;
  }

  Expected<bool, Diagnostic> register_by_target(const std::string& api, const PyExpr& x, bool decorator) {
    const PyExpr* op = arg(x, 0, "op");
    std::optional<OpRef> ref;
    if (op != nullptr && op->kind == PyExpr::Name && ops_.count(op->text) != 0)
      ref = ops_.at(op->text);
    else if (op != nullptr)
      if (auto s = str_of(*op); s && ops_.count(s->first) != 0) ref = ops_.at(s->first);
    if (!ref) {
      warn(x.at, fmt::format("torch.library.{} on an operator not made by torch.library.custom_op in this file: "
                             "not read",
                             api));
      return true;
    }
    return op_register(*ref, api, x, 1, decorator);
  }
};

}  // namespace

Expected<Blocks, Diagnostic> read_python(const Profile& profile, FileName file, std::string_view text) {
  return Reader(profile, file).run(text);
}

}  // namespace dt
