// The Python reader's calls (readers/python_reader_impl.hpp): a function of
// the files read is inlined (its parameters bound to the arguments, its body
// interpreted with its module's globals) within a depth and step budget;
// functools.partial, classes and instances, the builtins and string methods
// registration code uses; torch.library's APIs go to python_torch_library.cpp.
#include <fmt/format.h>

#include <algorithm>

#include "readers/python_reader_impl.hpp"

namespace dt::pyread {

namespace {

// Decorators that return the function they decorate, as far as the dispatcher is concerned.
bool transparent(std::string_view d) {
  static constexpr std::string_view kNames[] = {
      "functools.lru_cache", "functools.cache",      "functools.wraps",         "functools.cached_property",
      "torch.no_grad",       "torch.inference_mode", "torch.compiler.disable",  "torch._dynamo.disable",
      "typing.overload",     "typing.final",         "typing_extensions.final", "torch.jit.ignore",
      "torch.jit.unused",    "torch.compiler.allow_in_graph", "torch._dynamo.allow_in_graph"};
  return std::find(std::begin(kNames), std::end(kNames), d) != std::end(kNames);
}

// Modules whose functions register nothing with the dispatcher.
bool stdlib(std::string_view dotted) {
  static constexpr std::string_view kModules[] = {"functools", "typing", "atexit", "logging", "os", "sys",
                                                  "contextlib", "dataclasses", "abc", "enum", "warnings", "inspect",
                                                  "itertools", "collections", "math", "re", "builtins", "numpy",
                                                  "triton", "copy", "weakref", "threading", "importlib"};
  const std::string_view top = dotted.substr(0, dotted.find('.'));
  return std::find(std::begin(kModules), std::end(kModules), top) != std::end(kModules);
}


}  // namespace

Args PyReader::eval_args(Frame& f, const PyExpr& call) {
  Args a;
  a.at = call.at;
  for (const PyExpr& x : call.args) a.pos.push_back(eval(f, x));
  for (const PyExpr& x : call.star_args) {
    const PyVal v = eval(f, x);
    if (v.is_sequence())
      a.pos.insert(a.pos.end(), v.items.begin(), v.items.end());
    else
      a.unknown_star = true;
  }
  for (std::size_t k = 0; k < call.kwargs.size(); ++k) {
    a.names.push_back(call.kwarg_names[k]);
    a.kw.push_back(eval(f, call.kwargs[k]));
  }
  for (const PyExpr& x : call.star_kwargs) {
    const PyVal v = eval(f, x);
    if (v.kind != PyVal::Dict) {
      a.unknown_star = true;
      continue;
    }
    for (std::size_t k = 0; k < v.items.size(); ++k) {
      if (!v.items[k].is_str()) {
        a.unknown_star = true;
        continue;
      }
      a.names.push_back(v.items[k].s);
      a.kw.push_back(v.values[k]);
    }
  }
  return a;
}

PyVal PyReader::call_expr(Frame& f, const PyExpr& x) {
  const PyVal callee = eval(f, x.base[0]);
  Args a = eval_args(f, x);
  if (a.unknown_star && (callee.kind == PyVal::Func || callee.kind == PyVal::Ext || callee.kind == PyVal::Method)) {
    const std::string name = x.base[0].kind == PyExpr::Name ? x.base[0].text : dotted(callee);
    if (looks_registering(name) || (callee.kind == PyVal::Ext && is_api(callee.s)))
      warn(f, x.at, fmt::format("{}(...) with *args / **kwargs dispatchtool cannot expand: not read", name));
    return PyVal::unknown("a call with *args / **kwargs", x.at);
  }
  if (!callee.known() || (callee.kind == PyVal::Ext && !is_api(callee.s) && looks_registering(callee.s))) {
    const std::string name = x.base[0].kind == PyExpr::Name ? x.base[0].text : std::string("a call");
    // A function this module defines, handed to a function dispatchtool cannot see: a helper of the project's?
    const bool passes_own_function =
        std::any_of(a.pos.begin(), a.pos.end(), [&](const PyVal& v) {
          return v.kind == PyVal::Func && v.fn->module == f.module;
        }) ||
        std::any_of(a.kw.begin(), a.kw.end(),
                    [&](const PyVal& v) { return v.kind == PyVal::Func && v.fn->module == f.module; });
    const bool outside_project = callee.kind == PyVal::Ext ? !callee.s.starts_with("torch.") && !stdlib(callee.s)
                                                           : callee.s.find("relative import") != std::string::npos ||
                                                                 callee.s.find("a file read") != std::string::npos;
    if (looks_registering(name) || (passes_own_function && outside_project && f.depth == 0))
      warn(f, x.at,
           fmt::format("{}(...) {}, but dispatchtool cannot inline it: {} (if it registers, pass the file that "
                       "defines it too)",
                       name,
                       looks_registering(name) ? "looks like a registration helper"
                                               : "is handed a function of this file, as registration helpers are",
                       callee.kind == PyVal::Ext ? fmt::format("it is defined in {}, which is not among the files read",
                                                               callee.s.substr(0, callee.s.rfind('.')))
                                                 : describe(callee)));
  }
  return call(f, callee, std::move(a));
}

PyVal PyReader::call(Frame& f, const PyVal& callee, Args args) {
  switch (callee.kind) {
    case PyVal::Func:
      return call_function(f, callee.fn, std::move(args), nullptr);
    case PyVal::Partial: {
      Args merged;
      merged.at = args.at;
      merged.decorator = args.decorator;
      merged.pos = callee.items;
      merged.pos.insert(merged.pos.end(), args.pos.begin(), args.pos.end());
      merged.names = callee.names;
      merged.kw = callee.values;
      for (std::size_t k = 0; k < args.names.size(); ++k) {
        auto it = std::find(merged.names.begin(), merged.names.end(), args.names[k]);
        if (it != merged.names.end())
          merged.kw[static_cast<std::size_t>(it - merged.names.begin())] = args.kw[k];
        else {
          merged.names.push_back(args.names[k]);
          merged.kw.push_back(args.kw[k]);
        }
      }
      return call(f, *callee.target, std::move(merged));
    }
    case PyVal::Deco: {
      // A torch.library API called without its function, now given it.
      if (args.pos.size() != 1 || !args.names.empty())
        return PyVal::unknown("a torch.library decorator called with other arguments", args.at);
      Args full;
      full.at = callee.at;
      full.decorator = true;
      full.pos = callee.items;
      full.names = callee.names;
      full.kw = callee.values;
      full.decorated = args.pos[0];
      return call_ext(f, callee.s, full);
    }
    case PyVal::Ext:
      return call_ext(f, callee.s, args);
    case PyVal::Builtin:
      return call_builtin(f, callee.s, args);
    case PyVal::Method:
      if (callee.s == "__call__" && !callee.items.empty() && callee.items[0].kind == PyVal::Func)
        return call_function(f, callee.items[0].fn, std::move(args),
                             callee.target->kind == PyVal::Class ? nullptr : callee.target.get());
      return call_method(f, *callee.target, callee.s, args);
    case PyVal::Class:
      return instantiate(f, callee.cls, args);
    case PyVal::Lambda:
      return PyVal::unknown("what a lambda returns", args.at);
    default:
      return PyVal::unknown(fmt::format("the result of calling {}", describe(callee)), args.at);
  }
}

PyVal PyReader::call_function(Frame& f, const std::shared_ptr<const PyFunc>& fn, Args args, const PyVal* self) {
  called_.insert(fn.get());
  const Location at = args.at;
  if (f.depth >= kMaxCallDepth) {
    warn(f, at, fmt::format("{}(...) is nested {} calls deep: dispatchtool does not inline it", fn->sig.name,
                            kMaxCallDepth));
    return PyVal::unknown("a call nested too deeply", at);
  }
  if (!spend(f, at)) return PyVal::unknown("the inlining budget is spent", at);
  // Recursion on values dispatchtool does not know (a module tree's children):
  // every level would read the body again, down to kMaxCallDepth, each as
  // wide as the last. The first level is read; the call inside it is not,
  // and when the body registers, a warning says so.
  const auto unknown_arg = [](const PyVal& v) { return !v.known(); };
  if (active_[fn.get()] > 0 && (std::any_of(args.pos.begin(), args.pos.end(), unknown_arg) ||
                                std::any_of(args.kw.begin(), args.kw.end(), unknown_arg))) {
    if (function_registration(fn))
      warn(f, at,
           fmt::format("{}(...) calls itself on values dispatchtool does not know: its registrations are read for "
                       "the first call only, not for the recursive ones",
                       fn->sig.name));
    return PyVal::unknown(fmt::format("a recursive call of {} on values dispatchtool does not know", fn->sig.name),
                          at);
  }
  ++active_[fn.get()];
  struct Leave {
    int& n;
    ~Leave() { --n; }
  } leave{active_[fn.get()]};
  // functools.lru_cache / cache: a second call with the same (literal) arguments returns the first result.
  std::optional<std::string> memo;
  const auto& ds = fn->decorators;
  if (std::any_of(ds.begin(), ds.end(), [](const std::string& d) {
        return d == "__lru_cache__" || d == "functools.lru_cache" || d == "functools.cache";
      })) {
    memo = "";
    for (const PyVal& v : args.pos) memo = memo && py_str(v) ? *memo + *py_str(v) + "\x1f" : std::optional<std::string>();
    for (std::size_t k = 0; k < args.kw.size(); ++k)
      memo = memo && py_str(args.kw[k]) ? *memo + args.names[k] + "=" + *py_str(args.kw[k]) + "\x1f"
                                        : std::optional<std::string>();
    if (memo)
      if (auto it = memo_.find({fn.get(), *memo}); it != memo_.end()) return it->second;
  }
  auto code = code_of(*fn);
  if (!code) return PyVal::unknown(fmt::format("{}'s body", fn->sig.name), at);
  const auto& header = code->lines[0];
  std::size_t p = header[0].kind == PyTok::Name && header[0].text == "async" ? 1 : 0;
  if (!parse_py_def(fn->module->file, header, p)) return PyVal::unknown("a function that does not parse", at);
  Frame callee;
  callee.module = fn->module;
  callee.locals = std::make_shared<PyScope>();
  heap_->add(callee.locals);
  callee.locals->parent = fn->closure;
  callee.caller = at;
  callee.depth = f.depth + 1;
  callee.conds = f.conds;
  callee.chain = f.chain;
  if (callee.chain.empty()) callee.chain.push_back({at, "read where this call is"});
  callee.chain.push_back({Location{fn->module->file, fn->sig.at.line, fn->sig.at.column},
                          fmt::format("inlined: {} (called at {}:{})", fn->sig.name, at.file.view(), at.line)});
  // Parameters.
  std::vector<PyVal> pos = std::move(args.pos);
  if (self != nullptr) pos.insert(pos.begin(), *self);
  std::size_t next = 0;
  std::vector<bool> used(args.names.size(), false);
  for (std::size_t k = 0; k < fn->sig.params.size(); ++k) {
    const PyParam& q = fn->sig.params[k];
    if (q.kind == PyParam::VarArgs) {
      PyVal rest = PyVal::seq(PyVal::Tuple, {}, at);
      while (next < pos.size()) rest.items.push_back(pos[next++]);
      callee.locals->vars[q.name] = rest;
      continue;
    }
    if (q.kind == PyParam::VarKw) {
      PyVal rest = PyVal::seq(PyVal::Dict, {}, at);
      for (std::size_t n = 0; n < args.names.size(); ++n)
        if (!used[n]) {
          rest.items.push_back(PyVal::str(args.names[n], at));
          rest.values.push_back(args.kw[n]);
          used[n] = true;
        }
      callee.locals->vars[q.name] = rest;
      continue;
    }
    std::optional<PyVal> v;
    if (q.kind != PyParam::KeywordOnly && next < pos.size()) v = pos[next++];
    if (q.kind != PyParam::PositionalOnly)
      for (std::size_t n = 0; n < args.names.size(); ++n)
        if (!used[n] && args.names[n] == q.name) {
          v = args.kw[n];
          used[n] = true;
        }
    if (!v && fn->defaults[k]) v = *fn->defaults[k];
    if (!v) v = PyVal::unknown(fmt::format("the missing argument {} of {}", q.name, fn->sig.name), at);
    callee.locals->vars[q.name] = std::move(*v);
  }
  if (args.unknown_star)
    for (auto& [k, v] : callee.locals->vars) v = PyVal::unknown("an argument passed with *args / **kwargs", at);
  // The body: the lines after the header, or what follows its ':'.
  Flow flow = Flow::Normal;
  const std::size_t made = made_libs_.size();
  if (p + 1 < header.size() && header[p].kind != PyTok::Newline)
    flow = exec_tokens(callee, header, p, header.size() - 1);
  else
    flow = exec_block(callee, *code, 1, code->lines.size());
  if (flow != Flow::Raise && made_libs_.size() > made) free_locals(callee, *code, *fn, made, at);
  if (flow == Flow::Raise && !callee.returned) return PyVal::unknown(fmt::format("{}(...) raises", fn->sig.name), at);
  PyVal result = callee.returned ? *callee.returned : PyVal::none(at);
  if (callee.returned && flow != Flow::Return && callee.returned_maybe) {
    if (auto s = same(result, PyVal::none(at)); !s || !*s)
      result = PyVal::unknown(fmt::format("what {}(...) returns (it depends on a condition)", fn->sig.name), at);
  }
  if (memo) memo_[{fn.get(), *memo}] = result;
  return result;
}

PyVal PyReader::instantiate(Frame& f, const std::shared_ptr<const PyClass>& cls, Args& args) {
  auto inst = std::make_shared<PyInstance>();
  heap_->add(inst);
  inst->cls = cls;
  inst->owner = this;
  PyVal self;
  self.kind = PyVal::Instance;
  self.inst = inst;
  self.at = args.at;
  if (auto it = cls->attrs.find("__init__"); it != cls->attrs.end() && it->second.kind == PyVal::Func)
    (void)call_function(f, it->second.fn, args, &self);
  return self;
}

PyVal PyReader::decorate(Frame& f, const PyVal& d, PyVal fn, Location at) {
  switch (d.kind) {
    case PyVal::Builtin:
      if (d.s == "staticmethod" || d.s == "classmethod" || d.s == "property" || d.s == "__identity__" ||
          d.s == "__lru_cache__")
        return fn;
      break;
    case PyVal::Ext:
      if (transparent(d.s)) return fn;
      if (is_api(d.s)) {
        warn(f, at, fmt::format("@{} without its arguments: not read", d.s));
        return PyVal::unknown("a function under a torch.library decorator not read", at);
      }
      if (looks_registering(d.s))
        warn(f, at,
             fmt::format("@{} looks like a registration helper, but dispatchtool cannot inline it: it is defined in "
                         "{}, which is not among the files read (pass that file too)",
                         d.s.substr(d.s.rfind('.') + 1), d.s.substr(0, d.s.rfind('.'))));
      return PyVal::unknown(fmt::format("a function decorated by {}", d.s), at);
    case PyVal::Unknown:
      return PyVal::unknown(fmt::format("a function under a decorator dispatchtool does not know ({})", describe(d)),
                            at);
    default:
      break;
  }
  Args a;
  a.at = at;
  a.decorator = true;
  a.pos.push_back(std::move(fn));
  return call(f, d, std::move(a));
}

PyVal PyReader::call_builtin(Frame& f, const std::string& name, Args& a) {
  const Location at = a.at;
  const PyVal* x = a.get(0, "");
  if (name == "print" || name == "setattr") return PyVal::none(at);
  if (name == "staticmethod" || name == "classmethod" || name == "property" || name == "__identity__" ||
      name == "__lru_cache__")
    return x != nullptr ? *x : PyVal::unknown("an empty decorator", at);
  if (name == "str" && x != nullptr) {
    if (auto s = py_str(*x)) return PyVal::str(*s, at);
    return PyVal::unknown(fmt::format("str() of {}", describe(*x)), at);
  }
  if (name == "bool" && x != nullptr) {
    if (auto t = truth(*x)) return PyVal::boolean(*t, at);
    return PyVal::unknown("bool() of a value whose truth is not known", at);
  }
  if (name == "int" && x != nullptr && (x->kind == PyVal::Int || x->kind == PyVal::Bool))
    return PyVal::integer(x->kind == PyVal::Bool ? x->b : x->i, at);
  if (name == "len" && x != nullptr) {
    if (x->is_sequence() || x->kind == PyVal::Dict) return PyVal::integer(static_cast<long long>(x->items.size()), at);
    if (x->kind == PyVal::Str) return PyVal::integer(static_cast<long long>(x->s.size()), at);
  }
  if (name == "getattr" && a.pos.size() >= 2 && a.pos[1].is_str()) {
    PyVal v = attribute(f, a.pos[0], a.pos[1].s, at);
    if (!v.known() && a.pos.size() >= 3 && a.pos[0].known() && a.pos[0].kind != PyVal::Ext) return a.pos[2];
    return v;
  }
  if (name == "hasattr" && a.pos.size() == 2 && a.pos[1].is_str()) {
    const PyVal& o = a.pos[0];
    const TorchLibraryInfo& tl = profile_.torch_library();
    if (o.is_ext("torch.library") && tl.python_measured)
      return PyVal::boolean(std::find(tl.library_names.begin(), tl.library_names.end(), a.pos[1].s) !=
                                tl.library_names.end(),
                            at);
    if (o.kind == PyVal::Module) return PyVal::boolean(o.mod->globals.count(a.pos[1].s) != 0, at);
    if (o.kind == PyVal::Instance)
      return PyVal::boolean(o.inst->attrs.count(a.pos[1].s) != 0 || o.inst->cls->attrs.count(a.pos[1].s) != 0, at);
    return PyVal::unknown(fmt::format("hasattr({}, {:?}), known only at run time", describe(o), a.pos[1].s), at);
  }
  if (name == "isinstance" && a.pos.size() == 2 && a.pos[0].known() && a.pos[1].kind == PyVal::Builtin) {
    const std::string& t = a.pos[1].s;
    const PyVal& o = a.pos[0];
    if (t == "str") return PyVal::boolean(o.kind == PyVal::Str, at);
    if (t == "list") return PyVal::boolean(o.kind == PyVal::List, at);
    if (t == "tuple") return PyVal::boolean(o.kind == PyVal::Tuple, at);
    if (t == "dict") return PyVal::boolean(o.kind == PyVal::Dict, at);
    if (t == "bool") return PyVal::boolean(o.kind == PyVal::Bool, at);
  }
  if (name == "range") {
    long long lo = 0, hi = 0, step = 1;
    bool ok = !a.pos.empty() && std::all_of(a.pos.begin(), a.pos.end(), [](const PyVal& v) { return v.kind == PyVal::Int; });
    if (ok && a.pos.size() == 1) hi = a.pos[0].i;
    if (ok && a.pos.size() >= 2) {
      lo = a.pos[0].i;
      hi = a.pos[1].i;
    }
    if (ok && a.pos.size() == 3) step = a.pos[2].i;
    if (!ok || step == 0 || a.pos.size() > 3) return PyVal::unknown("a range dispatchtool does not know", at);
    const long long n = step > 0 ? (hi - lo + step - 1) / step : (lo - hi - step - 1) / -step;
    if (n > static_cast<long long>(kMaxIterations)) return PyVal::unknown(fmt::format("a range of {} items", n), at);
    PyVal v = PyVal::seq(PyVal::List, {}, at);
    for (long long i = lo; step > 0 ? i < hi : i > hi; i += step) v.items.push_back(PyVal::integer(i, at));
    return v;
  }
  if ((name == "list" || name == "tuple" || name == "set" || name == "sorted" || name == "enumerate" ||
       name == "reversed") &&
      x != nullptr && (x->is_sequence() || x->kind == PyVal::Dict || x->kind == PyVal::Str)) {
    PyVal v = PyVal::seq(name == "tuple" ? PyVal::Tuple : name == "set" ? PyVal::Set : PyVal::List, {}, at);
    if (x->kind == PyVal::Str)
      for (char c : x->s) v.items.push_back(PyVal::str(std::string(1, c), at));
    else
      v.items = x->items;
    if (name == "reversed") std::reverse(v.items.begin(), v.items.end());
    if (name == "sorted") {
      if (!std::all_of(v.items.begin(), v.items.end(), [](const PyVal& i) { return i.is_str(); }))
        return PyVal::unknown("sorted() of values that are not strings", at);
      std::sort(v.items.begin(), v.items.end(), [](const PyVal& l, const PyVal& r) { return l.s < r.s; });
    }
    if (name == "enumerate")
      for (std::size_t k = 0; k < v.items.size(); ++k)
        v.items[k] = PyVal::seq(PyVal::Tuple, {PyVal::integer(static_cast<long long>(k), at), v.items[k]}, at);
    return v;
  }
  if ((name == "list" || name == "tuple" || name == "set" || name == "dict") && x == nullptr && a.names.empty())
    return PyVal::seq(name == "tuple" ? PyVal::Tuple : name == "set" ? PyVal::Set : name == "dict" ? PyVal::Dict
                                                                                                   : PyVal::List,
                      {}, at);
  if (name == "dict" && a.pos.empty()) {
    PyVal v = PyVal::seq(PyVal::Dict, {}, at);
    for (std::size_t k = 0; k < a.names.size(); ++k) {
      v.items.push_back(PyVal::str(a.names[k], at));
      v.values.push_back(a.kw[k]);
    }
    return v;
  }
  if (name == "zip" && !a.pos.empty() &&
      std::all_of(a.pos.begin(), a.pos.end(), [](const PyVal& v) { return v.is_sequence(); })) {
    std::size_t n = SIZE_MAX;
    for (const PyVal& s : a.pos) n = std::min(n, s.items.size());
    PyVal v = PyVal::seq(PyVal::List, {}, at);
    for (std::size_t k = 0; k < n; ++k) {
      PyVal t = PyVal::seq(PyVal::Tuple, {}, at);
      for (const PyVal& s : a.pos) t.items.push_back(s.items[k]);
      v.items.push_back(std::move(t));
    }
    return v;
  }
  return PyVal::unknown(fmt::format("the result of {}()", name), at);
}

PyVal PyReader::call_method(Frame& f, const PyVal& self, const std::string& name, Args& a) {
  const Location at = a.at;
  if (self.kind == PyVal::Lib) return library_method(f, self.lib, name, a);
  if (self.kind == PyVal::Op) return op_method(f, self.op, name, a, 0);
  const PyVal* x = a.get(0, "");
  if (self.kind == PyVal::Str) {
    std::string s = self.s;
    auto strip = [&](bool left, bool right) {
      const std::string chars = x != nullptr && x->is_str() ? x->s : std::string(" \t\n\r\f\v");
      std::size_t b = left ? s.find_first_not_of(chars) : 0;
      if (b == std::string::npos) return std::string();
      std::size_t e = right ? s.find_last_not_of(chars) : s.size() - 1;
      return s.substr(b, e - b + 1);
    };
    if (name == "lower" || name == "upper") {
      for (char& c : s)
        c = static_cast<char>(name == "lower" ? std::tolower(static_cast<unsigned char>(c))
                                              : std::toupper(static_cast<unsigned char>(c)));
      return PyVal::str(s, self.at);
    }
    if (name == "strip") return PyVal::str(strip(true, true), self.at);
    if (name == "lstrip") return PyVal::str(strip(true, false), self.at);
    if (name == "rstrip") return PyVal::str(strip(false, true), self.at);
    if ((name == "startswith" || name == "endswith") && x != nullptr && x->is_str())
      return PyVal::boolean(name == "startswith" ? s.starts_with(x->s) : s.ends_with(x->s), at);
    if ((name == "removeprefix" || name == "removesuffix") && x != nullptr && x->is_str()) {
      if (name == "removeprefix" && s.starts_with(x->s)) s = s.substr(x->s.size());
      if (name == "removesuffix" && s.ends_with(x->s)) s.resize(s.size() - x->s.size());
      return PyVal::str(s, self.at);
    }
    if (name == "replace" && a.pos.size() == 2 && a.pos[0].is_str() && a.pos[1].is_str() && !a.pos[0].s.empty()) {
      std::string out;
      std::size_t b = 0;
      for (std::size_t p = s.find(a.pos[0].s); p != std::string::npos; p = s.find(a.pos[0].s, b)) {
        out += s.substr(b, p - b) + a.pos[1].s;
        b = p + a.pos[0].s.size();
      }
      return PyVal::str(out + s.substr(b), self.at);
    }
    if (name == "split" && x != nullptr && x->is_str() && !x->s.empty()) {
      PyVal v = PyVal::seq(PyVal::List, {}, at);
      std::size_t b = 0;
      for (std::size_t p = s.find(x->s); p != std::string::npos; p = s.find(x->s, b)) {
        v.items.push_back(PyVal::str(s.substr(b, p - b), self.at));
        b = p + x->s.size();
      }
      v.items.push_back(PyVal::str(s.substr(b), self.at));
      return v;
    }
    if (name == "join" && x != nullptr && x->is_sequence()) {
      std::string out;
      for (std::size_t k = 0; k < x->items.size(); ++k) {
        if (!x->items[k].is_str()) return PyVal::unknown("a join of values that are not strings", at);
        out += (k ? s : "") + x->items[k].s;
      }
      return PyVal::str(out, self.at);
    }
    if (name == "format") {
      std::string out;
      std::size_t next = 0;
      for (std::size_t k = 0; k < s.size(); ++k) {
        if (s[k] == '{' && k + 1 < s.size() && s[k + 1] == '{') {
          out += '{';
          ++k;
        } else if (s[k] == '}' && k + 1 < s.size() && s[k + 1] == '}') {
          out += '}';
          ++k;
        } else if (s[k] == '{') {
          const std::size_t close = s.find('}', k);
          if (close == std::string::npos) return PyVal::unknown("a format string dispatchtool cannot read", at);
          const std::string field = s.substr(k + 1, close - k - 1);
          const PyVal* v = nullptr;
          if (field.empty())
            v = next < a.pos.size() ? &a.pos[next++] : nullptr;
          else if (std::all_of(field.begin(), field.end(), [](char c) { return c >= '0' && c <= '9'; }))
            v = a.get(static_cast<std::size_t>(std::stoul(field)), "");
          else
            v = a.kwarg(field);
          auto str = v != nullptr ? py_str(*v) : std::nullopt;
          if (!str) return PyVal::unknown("a format() with values dispatchtool does not know", at);
          out += *str;
          k = close;
        } else {
          out += s[k];
        }
      }
      return PyVal::str(out, self.at);
    }
  }
  if (self.kind == PyVal::Dict) {
    if (name == "get" && x != nullptr) {
      for (std::size_t k = 0; k < self.items.size(); ++k)
        if (auto s = same(self.items[k], *x); s && *s) return self.values[k];
      return a.pos.size() >= 2 ? a.pos[1] : PyVal::none(at);
    }
    if (name == "keys" || name == "values" || name == "items") {
      PyVal v = PyVal::seq(PyVal::List, {}, at);
      for (std::size_t k = 0; k < self.items.size(); ++k)
        v.items.push_back(name == "keys"     ? self.items[k]
                          : name == "values" ? self.values[k]
                                             : PyVal::seq(PyVal::Tuple, {self.items[k], self.values[k]}, at));
      return v;
    }
  }
  return PyVal::unknown(fmt::format("the result of .{}() on {}", name, describe(self)), at);
}

PyVal PyReader::call_ext(Frame& f, const std::string& name, Args& a) {
  const Location at = a.at;
  if (is_api(name)) return torch_library(f, name.substr(name.rfind('.') + 1), a);
  if (name == "torch._library.custom_ops.custom_op" || name == "torch._library.triton.triton_op")
    return torch_library(f, name.substr(name.rfind('.') + 1), a);
  if (name == "torch.utils.rename_privateuse1_backend" || name == "torch.rename_privateuse1_backend" ||
      name == "torch._C._rename_privateuse1_backend") {
    rename_privateuse1(f, a);
    return PyVal::none(at);
  }
  if (name == "torch.library.infer_schema" || name == "torch._library.infer_schema.infer_schema" ||
      name == "torch._custom_op.impl.infer_schema") {
    const PyVal* fn = a.get(0, "prototype_function");
    const PyVal* mut = a.get(1, "mutates_args");
    const PyVal* op_name = a.kwarg("op_name");
    if (fn == nullptr) return PyVal::unknown("infer_schema() without a function", at);
    auto s = infer(f, *fn, mut, at, false, "");
    if (!s) return PyVal::unknown("a schema infer_schema cannot infer here", at);
    std::string out = *s;
    if (op_name != nullptr && op_name->is_str()) out = op_name->s + out;
    return PyVal::str(out, fn->at);
  }
  if (name == "functools.partial") {
    if (a.pos.empty()) return PyVal::unknown("functools.partial() without a function", at);
    PyVal v;
    v.kind = PyVal::Partial;
    v.at = at;
    v.target = std::make_shared<const PyVal>(a.pos[0]);
    v.items.assign(a.pos.begin() + 1, a.pos.end());
    v.names = a.names;
    v.values = a.kw;
    return v;
  }
  if (transparent(name)) {  // lru_cache(maxsize=None), wraps(fn), no_grad(): decorators that keep the function
    if (name == "functools.lru_cache" && a.pos.size() == 1 && a.pos[0].callable()) return a.pos[0];
    PyVal v;
    v.kind = PyVal::Builtin;
    // returns what it decorates (an lru_cache'd function's results are memoised)
    v.s = name == "functools.lru_cache" || name == "functools.cache" ? "__lru_cache__" : "__identity__";
    v.at = at;
    return v;
  }
  if (name == "typing.cast" && a.pos.size() == 2) return a.pos[1];
  if (name == "torch.device" && !a.pos.empty() && a.pos[0].is_str()) {  // a default infer_schema prints as "cpu"
    std::string d = a.pos[0].s;
    if (a.pos.size() == 2 && a.pos[1].kind == PyVal::Int) d += ":" + std::to_string(a.pos[1].i);
    return PyVal::ext("torch.device:" + d, a.pos[0].at);
  }
  return PyVal::unknown(fmt::format("the result of {}(...)", name), at);
}

}  // namespace dt::pyread
