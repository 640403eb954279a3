// The Python reader (readers/python_reader.hpp): statements, imports,
// names, decorators; the torch.library forms are in python_torch_library.cpp.
#include "readers/python_reader.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "readers/python_infer_schema.hpp"
#include "readers/python_reader_impl.hpp"

namespace dt {

namespace pyread {

std::optional<DebugTable> debug_table(const Profile& p) {
  const std::string& v = p.torch_version();
  if (v.starts_with("2.6."))
    return DebugTable{"registered at /dev/null:488", "registered at /dev/null:{line}", "registered at /dev/null:608",
                      "registered at /dev/null:934", p.torch_library().debug_of("fake"), false};
  if (v.starts_with("2.14.")) {
    const std::string def = p.torch_library().debug_of("def");
    const std::size_t a = def.find("registered at "), b = def.find("/_library/");
    if (a != 0 || b == std::string::npos) return std::nullopt;
    const std::string torch = def.substr(14, b - 14);
    return DebugTable{"registered at {file}:{line}",
                      "registered at " + torch + "/library.py:940",
                      "registered at " + torch + "/library.py:940",
                      "registered at " + torch + "/library.py:750",
                      "registered at " + torch + "/library.py:1012",
                      true};
  }
  return std::nullopt;
}

namespace {

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
}  // namespace

bool is_reg_name(std::string_view n) {
  return std::find(std::begin(kRegNames), std::end(kRegNames), n) != std::end(kRegNames);
}

Expected<Blocks, Diagnostic> PyReader::run(std::string_view text) {
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
std::string PyReader::canonical(const std::string& dotted) const {
  const std::size_t dot = dotted.find('.');
  const std::string head = dotted.substr(0, dot);
  auto it = alias_.find(head);
  if (it == alias_.end()) return dotted;
  return dot == std::string::npos ? it->second : it->second + dotted.substr(dot);
}
std::string PyReader::callee(const PyExpr& call) const {
  return call.kind == PyExpr::Call && call.base[0].kind == PyExpr::Name ? canonical(call.base[0].text) : "";
}
void PyReader::warn(Location at, std::string what) {
  Diagnostic d = make_error(std::move(at), std::move(what));
  d.severity = Severity::Warning;
  out_.warnings.push_back(std::move(d));
}
dispatchtool::Unexpected<Diagnostic> PyReader::error(Location at, std::string what) const {
  return unexpected(make_error(std::move(at), std::move(what)));
}
// Whether tokens [b, e) name a torch.library registration (for warnings).
bool PyReader::mentions_registration(std::size_t b, std::size_t e) const {
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
std::optional<bool> PyReader::version_condition(std::size_t b, std::size_t e) const {
  // if NAME(.NAME)* OP STRING :
  std::size_t p = b + 1;
  std::string chain;
  while (p < e && (t_[p].kind == PyTok::Name || (t_[p].kind == PyTok::Op && t_[p].text == "."))) chain += t_[p++].text;
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
Expected<bool, Diagnostic> PyReader::statement(std::size_t b, std::size_t e, std::vector<PyExpr>& decorators) {
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
Expected<bool, Diagnostic> PyReader::module_statement(std::size_t b, std::size_t e, std::vector<PyExpr>& decorators) {
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
Expected<bool, Diagnostic> PyReader::parse_failed(std::size_t b, std::size_t e) {
  if (mentions_registration(b, e))
    warn(loc(t_[b]), "torch.library registration in a statement dispatchtool cannot read: not read");
  return true;
}
bool PyReader::is_registration_expr(const PyExpr& d) const {
  const PyExpr* x = &d;
  while (x->kind == PyExpr::Call || x->kind == PyExpr::Attr) x = &x->base[0];
  if (x->kind != PyExpr::Name) return false;
  const std::string c = canonical(x->text);
  const std::string head = x->text.substr(0, x->text.find('.'));
  return c.starts_with("torch.library.") || libs_.count(head) != 0 || ops_.count(head) != 0;
}
// import a.b [as c], ... / from a.b import c [as d], ... / from a import (c, d)
Expected<bool, Diagnostic> PyReader::import(std::size_t b, std::size_t e) {
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
  // from typing import *: typing.__all__ binds (among others) the generics
  // infer_schema reads, as PyTorch's own torch/testing/_internal/custom_op_db.py uses them.
  if (p < e && t_[p].kind == PyTok::Op && t_[p].text == "*") {
    if (mod == "typing")
      for (const char* n : {"Any", "Dict", "List", "Optional", "Sequence", "Tuple", "Union"})
        alias_[n] = std::string("typing.") + n;
    return true;
  }
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
std::optional<std::pair<std::string, Location>> PyReader::str_of(const PyExpr& x) const {
  if (x.kind == PyExpr::Str && !x.fstring) return std::make_pair(x.text, x.at);
  if (x.kind == PyExpr::Name)
    if (auto it = consts_.find(x.text); it != consts_.end()) return std::make_pair(it->second.text, it->second.at);
  return std::nullopt;
}
// A string or a tuple/list of strings.
std::optional<std::vector<std::string>> PyReader::strs_of(const PyExpr& x) const {
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
std::optional<std::vector<std::string>> PyReader::tags_of(const PyExpr& x) const {
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
const PyExpr* PyReader::arg(const PyExpr& call, std::size_t pos, std::string_view kw) {
  if (pos < call.args.size()) return &call.args[pos];
  return call.kwarg(kw);
}
std::string PyReader::fill(const std::string& pattern, std::uint32_t line) const {
  std::string s = pattern;
  auto rep = [&](std::string_view key, const std::string& v) {
    if (auto at = s.find(key); at != std::string::npos) s.replace(at, key.size(), v);
  };
  rep("{file}", file_.str());
  rep("{line}", std::to_string(line));
  return s;
}
Expected<bool, Diagnostic> PyReader::need_debug(Location at) const {
  if (dbg_) return true;
  return error(at, fmt::format("the Python reader knows the debug strings torch.library registers in torch 2.6 "
                               "and 2.14 only (profile {} is torch {}): pass --profile torch-2.6 or torch-2.14",
                               profile_.name(), profile_.torch_version()));
}
std::size_t PyReader::new_block(const std::string& ns, const char* kind, const std::string& key, Location at,
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
std::string PyReader::ns_of(const std::string& qualname) {
  const std::size_t c = qualname.find("::");
  return c == std::string::npos ? std::string() : qualname.substr(0, c);
}
TomlEntry& PyReader::entry(std::size_t block, const char* kind, Location at) {
  TomlEntry en;
  en.kind = kind;
  en.at = at;
  out_.blocks[block].entries.push_back(std::move(en));
  return out_.blocks[block].entries.back();
}
// ---- assignments and expression statements ------------------------------
Expected<bool, Diagnostic> PyReader::assign(const PyExpr& lhs, const PyExpr& rhs, std::size_t b, std::size_t e) {
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
  if (simple && rhs.kind == PyExpr::Name && canonical(rhs.text).starts_with("torch.")) {  // W = torch.library.custom_op
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
Expected<bool, Diagnostic> PyReader::expression(const PyExpr& x, std::size_t b, std::size_t e) {
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
    if (c == "torch.library.impl_abstract") return register_by_target("register_fake", x, false);  // its old name
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
Expected<bool, Diagnostic> PyReader::decorate(const PyExpr& d, const std::string& fname, Location at, bool decorator) {
  if (d.kind == PyExpr::Call && d.base[0].kind == PyExpr::Name) {
    const std::string& name = d.base[0].text;
    const std::size_t dot = name.rfind('.');
    if (dot != std::string::npos && name.find('.') == dot && ops_.count(name.substr(0, dot)) != 0 &&
        name.substr(dot + 1).starts_with("register_"))
      return op_register(ops_.at(name.substr(0, dot)), name.substr(dot + 1), d, 0, decorator);
    const std::string c = canonical(name);
    if (c == "torch.library.custom_op") return custom_op(d, fname, fname);
    if (c == "torch.library.impl") return impl_qualname(d, decorator);
    if (c == "torch.library.impl_abstract") return register_by_target("register_fake", d, decorator);
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

}  // namespace pyread

Expected<Blocks, Diagnostic> read_python(const Profile& profile, FileName file, std::string_view text) {
  return pyread::PyReader(profile, file).run(text);
}

}  // namespace dt
