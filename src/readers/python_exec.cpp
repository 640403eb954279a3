// The Python reader's statements (readers/python_reader_impl.hpp): blocks by
// indentation, simple statements, with, def, class, imports and assignments;
// if / for / try are in python_control.cpp.
#include <fmt/format.h>

#include <algorithm>

#include "readers/python_reader_impl.hpp"

namespace dt::pyread {

bool is_op(const PyToken& t, std::string_view o) { return t.kind == PyTok::Op && t.text == o; }
bool is_word(const PyToken& t, std::string_view w) { return t.kind == PyTok::Name && t.text == w; }

// The header's ':' at bracket depth 0 from token `b` (a lambda's own ':' skipped); 0 if none.
std::size_t header_colon(const std::vector<PyToken>& t, std::size_t b) {
  int depth = 0, lambdas = 0;
  for (std::size_t i = b; i < t.size(); ++i) {
    if (t[i].kind == PyTok::Op) {
      const std::string& o = t[i].text;
      if (o == "(" || o == "[" || o == "{") ++depth;
      if (o == ")" || o == "]" || o == "}") --depth;
      if (o == ":" && depth == 0) {
        if (lambdas > 0) {
          --lambdas;
          continue;
        }
        return i;
      }
    } else if (depth == 0 && is_word(t[i], "lambda")) {
      ++lambdas;
    }
  }
  return 0;
}

// Source-like text of tokens [b, e), for messages ("hasattr(torch.ops._C, 'x')").
std::string token_text(const std::vector<PyToken>& t, std::size_t b, std::size_t e) {
  std::string out;
  for (std::size_t i = b; i < e && i < t.size(); ++i) {
    const PyToken& k = t[i];
    if (k.kind == PyTok::Newline || k.kind == PyTok::End) break;
    std::string s = k.kind == PyTok::String ? (k.fstring ? "f'" : "'") + k.text + "'" : k.text;
    const bool tight_before = k.kind == PyTok::Op && (k.text == "." || k.text == "(" || k.text == ")" ||
                                                      k.text == "[" || k.text == "]" || k.text == "," || k.text == ":");
    const bool tight_after = !out.empty() && (out.back() == '.' || out.back() == '(' || out.back() == '[');
    if (!out.empty() && !tight_before && !tight_after) out += ' ';
    out += s;
    if (out.size() > 80) return out.substr(0, 77) + "...";
  }
  return out;
}

namespace {

// Where simple statements separated by ';' end, from `b`.
std::size_t statement_end(const std::vector<PyToken>& t, std::size_t b, std::size_t e) {
  int depth = 0;
  for (std::size_t i = b; i < e; ++i) {
    if (t[i].kind != PyTok::Op) continue;
    const std::string& o = t[i].text;
    if (o == "(" || o == "[" || o == "{") ++depth;
    if (o == ")" || o == "]" || o == "}") --depth;
    if (o == ";" && depth == 0) return i;
  }
  return e;
}

// An expression list: `a`, or `a, b, ...` as a Tuple (up to `e` or an '=').
Expected<PyExpr, Diagnostic> parse_list(FileName file, const std::vector<PyToken>& t, std::size_t& p, std::size_t e) {
  auto first = parse_py_expr(file, t, p);
  if (!first || p >= e || !is_op(t[p], ",")) return first;
  PyExpr tup;
  tup.kind = PyExpr::Tuple;
  tup.at = first->at;
  tup.args.push_back(std::move(*first));
  while (p < e && is_op(t[p], ",")) {
    ++p;
    if (p >= e || is_op(t[p], "=") || t[p].kind == PyTok::Newline || is_op(t[p], ";")) break;
    auto more = parse_py_expr(file, t, p);
    if (!more) return more;
    tup.args.push_back(std::move(*more));
  }
  return tup;
}

}  // namespace

PyVal join(const PyVal& a, const PyVal& b, const Cond& c) {
  if (auto s = same(a, b); s && *s) return a;
  return PyVal::unknown(fmt::format("it differs between the branches of {}", c.what), c.at);
}

std::size_t PyReader::body_end(const PyCode& code, std::size_t i, std::size_t e) const {
  const std::uint32_t indent = code.lines[i][0].indent;
  std::size_t j = i + 1;
  while (j < e && code.lines[j][0].indent > indent) ++j;
  return j;
}

Flow PyReader::exec_tokens(Frame& f, const std::vector<PyToken>& t, std::size_t b, std::size_t e) {
  const Nest nest(*this);
  if (!nest.ok()) return Flow::Normal;
  while (b < e && !failed()) {
    const std::size_t end = statement_end(t, b, e);
    if (end > b) {
      const Flow flow = exec_simple(f, t, b, end);
      if (flow != Flow::Normal) return flow;
    }
    b = end + 1;
  }
  return Flow::Normal;
}

Flow PyReader::exec_body(Frame& f, const PyCode& code, std::size_t i, std::size_t colon, std::size_t e) {
  const auto& t = code.lines[i];
  if (colon + 1 < t.size() && t[colon + 1].kind != PyTok::Newline) return exec_tokens(f, t, colon + 1, t.size() - 1);
  return exec_block(f, code, i + 1, body_end(code, i, e));
}

Flow PyReader::exec_block(Frame& f, const PyCode& code, std::size_t b, std::size_t e) {
  const Nest nest(*this);
  if (!nest.ok()) {
    warn_unread(f, code, b, e, "in a block nested too deeply for dispatchtool");
    return Flow::Normal;
  }
  std::vector<PyVal> decorators;
  std::size_t i = b;
  while (i < e && !failed()) {
    const Flow flow = exec_line(f, code, i, e, decorators);
    if (flow != Flow::Normal) return flow;
  }
  return Flow::Normal;
}

Flow PyReader::exec_line(Frame& f, const PyCode& code, std::size_t& i, std::size_t e, std::vector<PyVal>& decorators) {
  const auto& t = code.lines[i];
  const PyToken& first = t[0];
  const Location at{f.module->file, first.line, first.column};
  if (!spend(f, at)) {
    i = e;
    return Flow::Normal;
  }
  const std::string w = first.kind == PyTok::Name ? first.text : std::string();
  const bool async = w == "async" && t.size() > 1;
  const std::string kw = async ? t[1].text : w;
  if (is_op(first, "@")) {
    std::size_t p = 1;
    auto d = parse_py_expr(f.module->file, t, p);
    PyVal dv = d ? eval(f, *d) : PyVal::unknown("a decorator dispatchtool cannot parse", at);
    dv.at = Location{at.file, at.line, at.column + 1};  // applied where it is written
    decorators.push_back(std::move(dv));
    ++i;
    return Flow::Normal;
  }
  if (kw == "def") {
    const std::size_t end = body_end(code, i, e);
    exec_def(f, code, i, end, decorators);
    decorators.clear();
    i = end;
    return Flow::Normal;
  }
  if (w == "class") {
    const std::size_t end = body_end(code, i, e);
    exec_class(f, code, i, end, decorators);
    decorators.clear();
    i = end;
    return Flow::Normal;
  }
  decorators.clear();
  if (w == "if") return exec_if(f, code, i, e);
  if (kw == "for") return exec_for(f, code, i, e);
  if (w == "try") return exec_try(f, code, i, e);
  if (kw == "with") {
    const std::size_t colon = header_colon(t, async ? 2 : 1);
    const std::size_t end = body_end(code, i, e);
    const Flow flow = colon == 0 ? Flow::Normal : exec_body(f, code, i, colon, e);
    i = end;
    return flow;
  }
  if (w == "while" || w == "match" || w == "elif" || w == "else" || w == "except" || w == "finally") {
    std::size_t end = body_end(code, i, e);
    while (end < e && code.lines[end][0].indent == first.indent &&
           (is_word(code.lines[end][0], "else") || is_word(code.lines[end][0], "elif")))
      end = body_end(code, end, e);
    warn_unread(f, code, i, end,
                w == "while" ? "in a while loop (dispatchtool unrolls for loops over values it knows only)"
                : w == "match" ? "in a match statement"
                               : "in a clause dispatchtool cannot place");
    i = end;
    return Flow::Normal;
  }
  ++i;
  return exec_tokens(f, t, 0, t.size() - 1);
}

Flow PyReader::exec_simple(Frame& f, const std::vector<PyToken>& t, std::size_t b, std::size_t e) {
  const PyToken& first = t[b];
  const FileName file = f.module->file;
  const Location at{file, first.line, first.column};
  const std::string w = first.kind == PyTok::Name ? first.text : std::string();
  if (w == "pass" || w == "assert" || w == "nonlocal" || w == "yield") return Flow::Normal;
  if (w == "break") return Flow::Break;
  if (w == "continue") return Flow::Continue;
  if (w == "raise") return Flow::Raise;
  if (w == "import" || w == "from") {
    exec_import(f, t, b, e);
    return Flow::Normal;
  }
  if (w == "global") {
    if (f.locals)
      for (std::size_t i = b + 1; i < e; ++i)
        if (t[i].kind == PyTok::Name) f.locals->globals.push_back(t[i].text);
    return Flow::Normal;
  }
  if (w == "del") {
    for (std::size_t i = b + 1; i < e; ++i)
      if (t[i].kind == PyTok::Name && (i + 1 == e || is_op(t[i + 1], ","))) {
        unbind_library(f, t[i].text, nullptr, at);
        bind(f, t[i].text, PyVal::unknown("deleted", at));
      }
    return Flow::Normal;
  }
  if (w == "return") {
    PyVal v = PyVal::none(at);
    if (b + 1 < e) {
      std::size_t p = b + 1;
      auto x = parse_list(file, t, p, e);
      v = x ? eval(f, *x) : PyVal::unknown("a return value dispatchtool cannot parse", at);
    }
    if (f.returned_maybe && f.returned)
      f.returned = join(*f.returned, v, Cond{at, "a condition"});
    else
      f.returned = v;
    return Flow::Return;
  }
  // Assignment targets (a = b = value), an annotated or augmented assignment,
  // or an expression statement.
  std::vector<PyExpr> targets;
  std::size_t p = b;
  auto lhs = parse_list(file, t, p, e);
  if (!lhs) {
    if (mentions_registration(f, t, b, e))
      warn(f, at, "torch.library registration in a statement dispatchtool cannot parse: not read",
           ops_defined_in(t, b, e));
    return Flow::Normal;
  }
  if (p < e && is_op(t[p], ":")) {  // annotated
    ++p;
    auto ann = parse_py_expr(file, t, p);
    if (!ann || p >= e) return Flow::Normal;
  }
  if (p < e && t[p].kind == PyTok::Op && t[p].text.size() >= 2 && t[p].text.back() == '=' && t[p].text != "==" &&
      t[p].text != "<=" && t[p].text != ">=" && t[p].text != "!=") {  // augmented
    const std::string op = t[p].text.substr(0, t[p].text.size() - 1);
    ++p;
    auto rhs = parse_py_expr(file, t, p);
    if (!rhs) return Flow::Normal;
    const PyVal old = eval(f, *lhs);
    assign(f, *lhs, binary(op, old, eval(f, *rhs), at));
    return Flow::Normal;
  }
  if (!(p < e && is_op(t[p], "="))) {
    if (quiet_ && f.depth == 0) return Flow::Normal;  // loading names only: a statement binds none
    const std::size_t made = made_libs_.size();
    const PyVal v = eval(f, *lhs);
    (void)v;
    if (made_libs_.size() > made) free_temporaries(*lhs, made, at);
    return Flow::Normal;
  }
  targets.push_back(std::move(*lhs));
  PyVal value;
  while (p < e && is_op(t[p], "=")) {
    ++p;
    auto rhs = parse_list(file, t, p, e);
    if (!rhs) {
      if (mentions_registration(f, t, b, e))
        warn(f, at, "torch.library registration in a statement dispatchtool cannot parse: not read");
      for (const PyExpr& x : targets) assign(f, x, PyVal::unknown("a value dispatchtool cannot parse", at));
      return Flow::Normal;
    }
    if (p < e && is_op(t[p], "=")) {
      targets.push_back(std::move(*rhs));
      continue;
    }
    value = eval(f, *rhs);
  }
  for (const PyExpr& x : targets) {
    if (x.kind == PyExpr::Name && x.text.find('.') == std::string::npos) unbind_library(f, x.text, &value, at);
    assign(f, x, value);
  }
  return Flow::Normal;
}

void PyReader::bind(Frame& f, const std::string& name, PyVal v) {
  std::map<std::string, PyVal>* target = &f.module->globals;
  if (f.locals && std::find(f.locals->globals.begin(), f.locals->globals.end(), name) == f.locals->globals.end())
    target = &f.locals->vars;
  else if (f.module->owner != this)
    return;  // another reader's module: its globals are not written
  if (v.kind == PyVal::Lib && v.lib && target != &f.module->globals)
    lib_locals_[v.lib.get()].emplace(f.locals.get(), name);
  if (!f.journals.empty()) {
    auto it = target->find(name);
    f.journals.back().old.emplace(std::make_pair(static_cast<const void*>(target), name),
                                  it == target->end() ? std::nullopt : std::optional<PyVal>(it->second));
  }
  (*target)[name] = std::move(v);
}

void PyReader::assign(Frame& f, const PyExpr& x, const PyVal& v) {
  if (x.kind == PyExpr::Name) {
    const std::size_t dot = x.text.find('.');
    if (dot == std::string::npos) {
      bind(f, x.text, v);
      return;
    }
    // obj.attr = v: an instance of this reader's.
    const std::size_t last = x.text.rfind('.');
    PyExpr base;
    base.kind = PyExpr::Name;
    base.text = x.text.substr(0, last);
    base.at = x.at;
    const PyVal obj = eval(f, base);
    if (obj.kind == PyVal::Instance && obj.inst && obj.inst->owner == this) obj.inst->attrs[x.text.substr(last + 1)] = v;
    return;
  }
  if (x.kind == PyExpr::Tuple || x.kind == PyExpr::List) {
    for (std::size_t k = 0; k < x.args.size(); ++k)
      assign(f, x.args[k],
             v.is_sequence() && v.items.size() == x.args.size() ? v.items[k]
                                                                 : PyVal::unknown("an unpacked value", x.at));
    return;
  }
  if (x.kind == PyExpr::Subscript && x.base[0].kind == PyExpr::Name && x.base[0].text.find('.') == std::string::npos) {
    PyVal obj = eval(f, x.base[0]);
    const PyVal key = eval(f, x.args[0]);
    if (obj.kind == PyVal::Dict && key.known()) {
      bool done = false;
      for (std::size_t k = 0; k < obj.items.size(); ++k)
        if (auto s = same(obj.items[k], key); s && *s) {
          obj.values[k] = v;
          done = true;
        }
      if (!done) {
        obj.items.push_back(key);
        obj.values.push_back(v);
      }
    } else {
      obj = PyVal::unknown("an item assigned with a key dispatchtool does not know", x.at);
    }
    bind(f, x.base[0].text, obj);
  }
}

void PyReader::exec_def(Frame& f, const PyCode& code, std::size_t i, std::size_t end, std::vector<PyVal>& decorators) {
  const auto& t = code.lines[i];
  std::size_t p = is_word(t[0], "async") ? 1 : 0;
  auto sig = parse_py_def(f.module->file, t, p);
  const Location at{f.module->file, t[0].line, t[0].column};
  if (!sig) {
    warn_unread(f, code, i, end, "in a function whose signature dispatchtool cannot parse");
    return;
  }
  auto fn = std::make_shared<PyFunc>();
  fn->sig = std::move(*sig);
  fn->module = f.module;
  fn->closure = f.class_body ? (f.locals ? f.locals->parent : nullptr) : f.locals;
  for (const PyParam& q : fn->sig.params)
    fn->defaults.push_back(q.has_default ? std::optional<PyVal>(eval(f, q.default_value)) : std::nullopt);
  fn->begin = t[0].offset - (t[0].column - 1);
  fn->end = code.lines[end - 1].back().offset + 1;
  fn->first_line = t[0].line;
  for (const PyVal& d : decorators)
    if (d.kind == PyVal::Builtin || d.kind == PyVal::Ext) fn->decorators.push_back(d.s);
  bool registers = false;
  Location first_registration;
  std::string op;
  for (std::size_t k = i; k < end && !registers; ++k) {
    const auto& line = code.lines[k];
    registers = mentions_registration(f, line, k == i ? p + 1 : 0, line.size());
    if (registers) {
      first_registration = Location{f.module->file, line[0].line, line[0].column};
      op = ops_defined_in(line, 0, line.size());
    }
  }
  PyVal v;
  v.kind = PyVal::Func;
  v.fn = fn;
  v.at = at;
  if (registers && !quiet_ && !f.locals && decorators.empty()) registering_.push_back({fn, first_registration, op});
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) v = decorate(f, *it, std::move(v), it->at);
  bind(f, fn->sig.name, std::move(v));
}

void PyReader::exec_class(Frame& f, const PyCode& code, std::size_t i, std::size_t end,
                          std::vector<PyVal>& decorators) {
  const auto& t = code.lines[i];
  if (t.size() < 3 || t[1].kind != PyTok::Name) return;
  const std::size_t colon = header_colon(t, 2);
  if (colon == 0) return;
  auto cls = std::make_shared<PyClass>();
  cls->name = t[1].text;
  if (is_op(t[2], "(")) {
    std::size_t p = 2;
    // The bases, as a tuple expression "(A, B)".
    auto bases = parse_py_expr(f.module->file, t, p);
    if (bases && bases->kind == PyExpr::Tuple)
      for (const auto& b : bases->args) cls->bases.push_back(eval(f, b));
    else if (bases)
      cls->bases.push_back(eval(f, *bases));
  }
  Frame body = f;
  body.locals = std::make_shared<PyScope>();
  heap_->add(body.locals);
  body.locals->parent = f.locals;
  body.class_body = true;
  // Python runs a class body as a function the class statement calls: the
  // debug strings that name their caller's line name the statement's.
  body.caller = Location{f.module->file, t[0].line, t[0].column};
  body.journals.clear();
  (void)exec_body(body, code, i, colon, end);
  for (const PyVal& b : cls->bases)
    if (b.kind == PyVal::Class && b.cls)
      for (const auto& [k, v] : b.cls->attrs) body.locals->vars.emplace(k, v);
  cls->attrs = std::move(body.locals->vars);
  PyVal v;
  v.kind = PyVal::Class;
  v.cls = cls;
  v.at = Location{f.module->file, t[0].line, t[0].column};
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) v = decorate(f, *it, std::move(v), it->at);
  bind(f, cls->name, std::move(v));
}

void PyReader::exec_import(Frame& f, const std::vector<PyToken>& t, std::size_t b, std::size_t e) {
  const Location at{f.module->file, t[b].line, t[b].column};
  auto dotted = [&](std::size_t& p) {
    std::string s;
    while (p < e && t[p].kind == PyTok::Name && t[p].text != "import" && t[p].text != "as") {
      s += t[p++].text;
      if (p < e && is_op(t[p], "."))
        s += t[p++].text;
      else
        break;
    }
    return s;
  };
  // A module of the files read, or a name outside them.
  auto module_value = [&](const std::string& name, int level) -> PyVal {
    const std::string top = name.substr(0, name.find('.'));
    if (level == 0 && top == "torch") f.module->uses_torch = true;
    const bool external = level == 0 && (top == "torch" || top == "typing" || top == "functools" ||
                                         top == "collections" || top == "builtins" || top == "typing_extensions");
    if (project_ != nullptr && !external) {
      const std::string path = project_->find(name, level, f.module->path);
      if (!path.empty())
        if (auto m = project_->module(path)) {
          if (m->uses_torch) f.module->uses_torch = true;
          PyVal v;
          v.kind = PyVal::Module;
          v.mod = m;
          v.at = at;
          return v;
        }
    }
    if (level > 0)
      return PyVal::unknown(fmt::format("a relative import ({}{}) of a module that is not among the files read",
                                        std::string(static_cast<std::size_t>(level), '.'), name),
                            at);
    return PyVal::ext(name, at);
  };
  std::size_t p = b + 1;
  if (t[b].text == "import") {
    while (p < e) {
      const std::string mod = dotted(p);
      if (mod.empty()) break;
      if (p + 1 < e && t[p].text == "as") {
        bind(f, t[p + 1].text, module_value(mod, 0));
        p += 2;
      } else {
        const std::string head = mod.substr(0, mod.find('.'));
        bind(f, head, module_value(head, 0));
      }
      if (p < e && is_op(t[p], ","))
        ++p;
      else
        break;
    }
    return;
  }
  int level = 0;
  while (p < e && (is_op(t[p], ".") || is_op(t[p], "..."))) level += static_cast<int>(t[p++].text.size());
  const std::string mod = dotted(p);
  if (p >= e || t[p].text != "import") return;
  ++p;
  const PyVal from = module_value(mod, level);
  if (p < e && is_op(t[p], "*")) {
    if (from.kind == PyVal::Module) {
      for (const auto& [k, v] : from.mod->globals)
        if (!k.starts_with("_")) bind(f, k, v);
    } else if (mod == "typing") {
      for (const char* n : {"Any", "Dict", "List", "Optional", "Sequence", "Tuple", "Union", "Callable"})
        bind(f, n, PyVal::ext(std::string("typing.") + n, at));
    }
    return;
  }
  while (p < e) {
    if (is_op(t[p], "(") || is_op(t[p], ")") || is_op(t[p], ",")) {
      ++p;
      continue;
    }
    if (t[p].kind != PyTok::Name) break;
    const std::string name = t[p].text;
    std::string local = name;
    ++p;
    if (p + 1 < e && t[p].text == "as") {
      local = t[p + 1].text;
      p += 2;
    }
    PyVal v;
    if (from.kind == PyVal::Module) {
      auto it = from.mod->globals.find(name);
      if (it != from.mod->globals.end()) {
        v = it->second;
      } else {
        v = module_value(mod.empty() ? name : mod + "." + name, level);
        if (v.kind != PyVal::Module)
          v = PyVal::unknown(fmt::format("{} (a file read) binds no '{}' dispatchtool knows", from.mod->path, name),
                             at);
      }
    } else if (from.kind == PyVal::Ext) {
      v = attribute(f, from, name, at);
    } else {
      v = module_value(mod.empty() ? name : mod + "." + name, level);
    }
    bind(f, local, std::move(v));
  }
}

std::shared_ptr<const PyCode> PyReader::code_of(const PyFunc& fn) {
  const std::string_view text = fn.module->text;
  const std::pair<const char*, std::size_t> key{text.data(), fn.begin};
  if (auto it = code_cache_.find(key); it != code_cache_.end()) return it->second;
  auto code = std::make_shared<PyCode>();
  PyLexer lex(fn.module->file, text, fn.begin, fn.end, fn.first_line);
  std::size_t tokens = 0;
  for (;;) {
    std::vector<PyToken> line;
    auto more = lex.next_line(line);
    if (!more || !*more) break;
    tokens += line.size();
    code->lines.push_back(std::move(line));
  }
  if (code->lines.empty()) return nullptr;
  // Indentation as in the module: the slice starts at the `def`'s line start.
  if (cached_tokens_ + tokens <= kMaxCachedTokens) {
    cached_tokens_ += tokens;
    code_cache_[key] = code;
  }
  return code;
}

}  // namespace dt::pyread
