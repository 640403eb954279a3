// The Python reader's expressions (readers/python_reader_impl.hpp): literals,
// names (locals, closures, the module's globals, builtins), attributes of
// what the reader knows, + on strings and lists, comparisons, and / or /
// not, conditional expressions, subscripts and slices, f-strings. What it
// cannot know is Unknown, with why.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "readers/python_infer_schema.hpp"
#include "readers/python_reader_impl.hpp"

namespace dt::pyread {

namespace {

// TorchVersion's comparison: release numbers as numbers ("2.14.1+debian" -> 2, 14, 1).
std::vector<int> version_parts(std::string_view v) {
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
}

bool numeric(const PyVal& v) { return v.kind == PyVal::Int || v.kind == PyVal::Float || v.kind == PyVal::Bool; }
double num(const PyVal& v) {
  return v.kind == PyVal::Float ? v.d : v.kind == PyVal::Bool ? (v.b ? 1 : 0) : static_cast<double>(v.i);
}

constexpr std::string_view kBuiltins[] = {
    "str",      "int",        "float",      "bool",        "list",          "tuple",
    "dict",     "set",        "frozenset",  "len",         "getattr",       "hasattr",
    "setattr",  "isinstance", "issubclass", "print",       "range",         "enumerate",
    "zip",      "staticmethod", "classmethod", "property", "super",         "type",
    "object",   "repr",       "min",        "max",         "sorted",        "any",
    "all",      "callable",   "id",         "iter",        "next",          "map",
    "filter",   "reversed",   "sum",        "abs",         "round",         "hash",
    "format",   "globals",    "locals",     "vars",        "open",          "__import__",
    "Exception", "RuntimeError", "ValueError", "TypeError", "KeyError",     "AttributeError",
    "ImportError", "ModuleNotFoundError", "NotImplementedError", "AssertionError", "NotImplemented",
    "complex", "bytes", "bytearray", "memoryview", "slice", "Ellipsis",
};

}  // namespace

std::optional<bool> truth(const PyVal& v) {
  switch (v.kind) {
    case PyVal::None:
      return false;
    case PyVal::Bool:
      return v.b;
    case PyVal::Int:
      return v.i != 0;
    case PyVal::Float:
      return v.d != 0;
    case PyVal::Str:
      return !v.s.empty();
    case PyVal::Tuple:
    case PyVal::List:
    case PyVal::Set:
    case PyVal::Dict:
      return !v.items.empty();
    case PyVal::Module:
    case PyVal::Func:
    case PyVal::Lambda:
    case PyVal::Lib:
    case PyVal::Op:
    case PyVal::Partial:
    case PyVal::Deco:
    case PyVal::Class:
    case PyVal::Instance:
    case PyVal::Method:
    case PyVal::Builtin:
      return true;
    default:
      return std::nullopt;
  }
}

std::optional<bool> same(const PyVal& a, const PyVal& b) {
  if (!a.known() || !b.known()) return std::nullopt;
  if (numeric(a) && numeric(b)) return num(a) == num(b);
  if (a.kind == PyVal::Str && b.kind == PyVal::Str) {
    if (a.b || b.b) return version_parts(a.s) == version_parts(b.s);
    return a.s == b.s;
  }
  if (a.kind != b.kind) return (a.kind == PyVal::Ext || b.kind == PyVal::Ext) ? std::nullopt : std::optional(false);
  switch (a.kind) {
    case PyVal::None:
      return true;
    case PyVal::Ext:
      if (a.s == b.s) return true;
      return std::nullopt;
    case PyVal::Tuple:
    case PyVal::List:
    case PyVal::Set:
    case PyVal::Dict: {
      if (a.items.size() != b.items.size() || a.values.size() != b.values.size()) return false;
      for (std::size_t k = 0; k < a.items.size(); ++k) {
        auto s = same(a.items[k], b.items[k]);
        if (!s || !*s) return s;
      }
      for (std::size_t k = 0; k < a.values.size(); ++k) {
        auto s = same(a.values[k], b.values[k]);
        if (!s || !*s) return s;
      }
      return true;
    }
    case PyVal::Func:
      return a.fn == b.fn;
    case PyVal::Lambda:
      return a.at == b.at;
    case PyVal::Lib:
      return a.lib == b.lib;
    case PyVal::Op:
      return a.op == b.op;
    case PyVal::Module:
      return a.mod == b.mod;
    case PyVal::Class:
      return a.cls == b.cls;
    case PyVal::Instance:
      return a.inst == b.inst;
    case PyVal::Builtin:
      return a.s == b.s;
    default:
      return std::nullopt;
  }
}

std::optional<std::string> py_str(const PyVal& v) {
  switch (v.kind) {
    case PyVal::Str:
    case PyVal::Float:
      return v.s;
    case PyVal::Int:
      return std::to_string(v.i);
    case PyVal::Bool:
      return v.b ? "True" : "False";
    case PyVal::None:
      return "None";
    default:
      return std::nullopt;
  }
}

std::string describe(const PyVal& v) {
  switch (v.kind) {
    case PyVal::Unknown:
      return v.s.empty() ? std::string("a value dispatchtool does not know") : v.s;
    case PyVal::Str:
      return fmt::format("the string {:?}", v.s.size() > 60 ? v.s.substr(0, 57) + "..." : v.s);
    case PyVal::Ext:
      return fmt::format("{} (outside the files read)", v.s);
    case PyVal::Func:
      return fmt::format("the function {}", v.fn->sig.name);
    case PyVal::Lib:
      return "a Library";
    case PyVal::Op:
      return fmt::format("the custom op {}", v.op->qualname);
    default:
      if (auto s = py_str(v)) return *s;
      return "a value";
  }
}

std::string PyReader::dotted(const PyVal& v) { return v.kind == PyVal::Ext || v.kind == PyVal::Builtin ? v.s : ""; }

PyVal PyReader::literal_number(const PyExpr& x) {
  std::string lit = x.text;
  lit.erase(std::remove(lit.begin(), lit.end(), '_'), lit.end());
  if (lit.empty() || lit.back() == 'j' || lit.back() == 'J') return PyVal::unknown("a complex number", x.at);
  const bool hex = lit.size() > 1 && (lit[1] == 'x' || lit[1] == 'X');
  if (!hex && lit.find_first_of(".eE") != std::string::npos) {
    PyVal v;
    v.kind = PyVal::Float;
    v.d = std::strtod(lit.c_str(), nullptr);
    v.s = python_float_repr(v.d);
    v.at = x.at;
    return v;
  }
  int base = 10;
  std::string digits = lit;
  if (lit.size() > 1 && lit[0] == '0' && std::isalpha(static_cast<unsigned char>(lit[1])) != 0) {
    const char b = static_cast<char>(std::tolower(static_cast<unsigned char>(lit[1])));
    base = b == 'x' ? 16 : b == 'o' ? 8 : b == 'b' ? 2 : 0;
    digits = lit.substr(2);
    if (base == 0) return PyVal::unknown("a number dispatchtool cannot read", x.at);
  }
  long long v = 0;
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (r.ec != std::errc{} || r.ptr != digits.data() + digits.size())
    return PyVal::unknown("an integer dispatchtool cannot hold", x.at);
  return PyVal::integer(v, x.at);
}

PyVal PyReader::lookup(Frame& f, const std::string& name, Location at) {
  for (PyScope* s = f.locals.get(); s != nullptr; s = s->parent.get()) {
    if (std::find(s->globals.begin(), s->globals.end(), name) != s->globals.end()) break;
    if (auto it = s->vars.find(name); it != s->vars.end()) return it->second;
  }
  if (auto it = f.module->globals.find(name); it != f.module->globals.end()) return it->second;
  if (name == "True" || name == "False") return PyVal::boolean(name == "True", at);
  if (name == "None") return PyVal::none(at);
  if (name == "__file__") return PyVal::str(f.module->path, at);
  if (name == "__debug__") return PyVal::boolean(true, at);
  for (std::string_view b : kBuiltins)
    if (name == b) {
      PyVal v;
      v.kind = PyVal::Builtin;
      v.s = name;
      v.at = at;
      return v;
    }
  return PyVal::unknown(fmt::format("the name '{}', which no file read binds where it is used", name), at);
}

PyVal PyReader::attribute(Frame& f, const PyVal& obj, const std::string& attr, Location at) {
  auto method = [&](const PyVal& self) {
    PyVal m;
    m.kind = PyVal::Method;
    m.s = attr;
    m.target = std::make_shared<const PyVal>(self);
    m.at = at;
    return m;
  };
  switch (obj.kind) {
    case PyVal::Ext: {
      const std::string d = obj.s + "." + attr;
      if (d == "torch.__version__") {
        PyVal v = PyVal::str(profile_.torch_version(), at);
        v.b = true;
        return v;
      }
      if (d == "typing.TYPE_CHECKING" || d == "typing_extensions.TYPE_CHECKING") return PyVal::boolean(false, at);
      return PyVal::ext(d, at);
    }
    case PyVal::Module: {
      if (auto it = obj.mod->globals.find(attr); it != obj.mod->globals.end()) return it->second;
      if (project_ != nullptr && !obj.mod->name.empty()) {
        const std::string path = project_->find(obj.mod->name + "." + attr, 0, obj.mod->path);
        if (!path.empty())
          if (auto m = project_->module(path)) {
            PyVal v;
            v.kind = PyVal::Module;
            v.mod = m;
            v.at = at;
            return v;
          }
      }
      return PyVal::unknown(fmt::format("{} (a file read) binds no '{}' dispatchtool knows", obj.mod->path, attr), at);
    }
    case PyVal::Func:
      if (attr == "__name__" || attr == "__qualname__") return PyVal::str(obj.fn->sig.name, at);
      if (attr == "__module__") return PyVal::str(obj.fn->module->name, at);
      return PyVal::unknown(fmt::format("the attribute {} of a function", attr), at);
    case PyVal::Op:
      if (attr == "_init_fn" && obj.op->fn) {
        PyVal v;
        v.kind = PyVal::Func;
        v.fn = obj.op->fn;
        v.at = at;
        return v;
      }
      if (attr == "_name") return PyVal::str(obj.op->qualname, at);
      if (attr.starts_with("register_") || attr == "_register_fake") return method(obj);
      return PyVal::unknown(fmt::format("the attribute {} of a custom op", attr), at);
    case PyVal::Lib:
      if (attr == "ns") return PyVal::str(obj.lib->ns, at);
      if (attr == "kind") return PyVal::str(obj.lib->kind, at);
      if (attr == "dispatch_key") return PyVal::str(obj.lib->key, at);
      return method(obj);
    case PyVal::Str:
    case PyVal::Dict:
    case PyVal::List:
      return method(obj);
    case PyVal::Partial:
      if (attr == "func" && obj.target) return *obj.target;
      return PyVal::unknown("an attribute of a functools.partial", at);
    case PyVal::Class: {
      if (auto it = obj.cls->attrs.find(attr); it != obj.cls->attrs.end()) {
        const PyVal& v = it->second;
        if (v.kind == PyVal::Func && std::find(v.fn->decorators.begin(), v.fn->decorators.end(), "classmethod") !=
                                         v.fn->decorators.end()) {
          PyVal m = method(obj);
          m.s = "__call__";
          m.items.push_back(v);
          return m;
        }
        return v;
      }
      return PyVal::unknown(fmt::format("the attribute {} of class {}", attr, obj.cls->name), at);
    }
    case PyVal::Instance: {
      if (auto it = obj.inst->attrs.find(attr); it != obj.inst->attrs.end()) return it->second;
      if (auto it = obj.inst->cls->attrs.find(attr); it != obj.inst->cls->attrs.end()) {
        const PyVal& v = it->second;
        if (v.kind == PyVal::Func) {
          const auto& ds = v.fn->decorators;
          if (std::find(ds.begin(), ds.end(), "staticmethod") != ds.end()) return v;
          if (std::find(ds.begin(), ds.end(), "property") != ds.end()) {
            Args none;
            none.at = at;
            return call_function(f, v.fn, std::move(none), &obj);
          }
          PyVal m = method(obj);
          m.s = "__call__";
          m.items.push_back(v);
          return m;
        }
        return v;
      }
      return PyVal::unknown(fmt::format("the attribute {} of a {} instance", attr, obj.inst->cls->name), at);
    }
    case PyVal::Unknown:
      return obj;
    default:
      return PyVal::unknown(fmt::format("the attribute {} of {}", attr, describe(obj)), at);
  }
}

PyVal PyReader::binary(const std::string& op, const PyVal& a, const PyVal& b, Location at) {
  if (!a.known()) return a;
  if (!b.known()) return b;
  if (op == "+") {
    if (a.kind == PyVal::Str && b.kind == PyVal::Str) return PyVal::str(a.s + b.s, a.at);
    if (a.kind == b.kind && (a.kind == PyVal::List || a.kind == PyVal::Tuple)) {
      PyVal v = a;
      v.items.insert(v.items.end(), b.items.begin(), b.items.end());
      return v;
    }
  }
  if (a.kind == PyVal::Int && b.kind == PyVal::Int) {
    long long r = 0;
    if (op == "+" && !__builtin_add_overflow(a.i, b.i, &r)) return PyVal::integer(r, a.at);
    if (op == "-" && !__builtin_sub_overflow(a.i, b.i, &r)) return PyVal::integer(r, a.at);
    if (op == "*" && !__builtin_mul_overflow(a.i, b.i, &r)) return PyVal::integer(r, a.at);
  }
  if (op == "*" && a.kind == PyVal::Str && b.kind == PyVal::Int && b.i >= 0 && b.i < 4096 &&
      static_cast<std::size_t>(b.i) * a.s.size() < 4096) {
    std::string s;
    for (long long k = 0; k < b.i; ++k) s += a.s;
    return PyVal::str(s, a.at);
  }
  return PyVal::unknown(fmt::format("the result of `{}` on {} and {}", op, describe(a), describe(b)), at);
}

PyVal PyReader::compare(Frame& f, const PyExpr& x) {
  PyVal left = eval(f, x.args[0]);
  bool result = true;
  for (std::size_t k = 0; k < x.ops.size(); ++k) {
    PyVal right = eval(f, x.args[k + 1]);
    const std::string& op = x.ops[k];
    std::optional<bool> r;
    if (op == "is" || op == "is not") {
      if (left.known() && right.known()) {
        if (left.is_none() || right.is_none())
          r = left.is_none() == right.is_none();
        else
          r = same(left, right);
      }
      if (r && op == "is not") r = !*r;
    } else if (op == "==" || op == "!=") {
      r = same(left, right);
      if (r && op == "!=") r = !*r;
    } else if (op == "in" || op == "not in") {
      if (right.is_sequence() || right.kind == PyVal::Dict) {
        r = false;
        for (const PyVal& it : right.items) {
          auto s = same(left, it);
          if (!s) {
            r.reset();
            break;
          }
          if (*s) r = true;
        }
      } else if (right.kind == PyVal::Str && left.kind == PyVal::Str) {
        r = right.s.find(left.s) != std::string::npos;
      }
      if (r && op == "not in") r = !*r;
    } else if (left.kind == PyVal::Str && right.kind == PyVal::Str) {
      int c = 0;
      if (left.b || right.b) {
        const auto a = version_parts(left.s), b = version_parts(right.s);
        c = a < b ? -1 : a > b ? 1 : 0;
      } else {
        c = left.s.compare(right.s);
      }
      r = op == "<" ? c < 0 : op == ">" ? c > 0 : op == "<=" ? c <= 0 : c >= 0;
    } else if (numeric(left) && numeric(right)) {
      const double a = num(left), b = num(right);
      r = op == "<" ? a < b : op == ">" ? a > b : op == "<=" ? a <= b : a >= b;
    }
    if (!r) return PyVal::unknown(fmt::format("a comparison ({}) of {} and {}", op, describe(left), describe(right)),
                                  x.at);
    result = result && *r;
    left = std::move(right);
  }
  return PyVal::boolean(result, x.at);
}

PyVal PyReader::subscript(const PyVal& obj, const PyVal& index, Location at) {
  if (!obj.known()) return obj;
  if (!index.known()) return index;
  if (obj.kind == PyVal::Dict) {
    for (std::size_t k = 0; k < obj.items.size(); ++k)
      if (auto s = same(obj.items[k], index); s && *s) return obj.values[k];
    return PyVal::unknown("a key the dict does not have", at);
  }
  const bool seq = obj.kind == PyVal::List || obj.kind == PyVal::Tuple;
  const long long n = seq ? static_cast<long long>(obj.items.size()) : static_cast<long long>(obj.s.size());
  if ((seq || obj.kind == PyVal::Str) && index.kind == PyVal::Int) {
    long long i = index.i < 0 ? index.i + n : index.i;
    if (i < 0 || i >= n) return PyVal::unknown("an index out of range", at);
    if (seq) return obj.items[static_cast<std::size_t>(i)];
    return PyVal::str(std::string(1, obj.s[static_cast<std::size_t>(i)]), obj.at);
  }
  if ((seq || obj.kind == PyVal::Str) && index.kind == PyVal::Tuple && index.s == "slice") {
    auto bound = [&](const PyVal& v, long long dflt) -> std::optional<long long> {
      if (v.is_none()) return dflt;
      if (v.kind != PyVal::Int) return std::nullopt;
      long long i = v.i < 0 ? v.i + n : v.i;
      return std::clamp(i, 0LL, n);
    };
    auto lo = bound(index.items[0], 0), hi = bound(index.items[1], n);
    if (!lo || !hi || !index.items[2].is_none()) return PyVal::unknown("a slice dispatchtool does not compute", at);
    if (*hi < *lo) hi = lo;
    if (obj.kind == PyVal::Str)
      return PyVal::str(obj.s.substr(static_cast<std::size_t>(*lo), static_cast<std::size_t>(*hi - *lo)), obj.at);
    PyVal v = obj;
    v.items.assign(obj.items.begin() + *lo, obj.items.begin() + *hi);
    return v;
  }
  return PyVal::unknown(fmt::format("an item of {}", describe(obj)), at);
}

PyVal PyReader::fstring(Frame& f, const PyExpr& x) {
  std::string out;
  for (const FStringPart& p : parse_fstring(f.module->file, x)) {
    if (p.literal) {
      out += p.text;
      continue;
    }
    const PyVal v = eval(f, p.expr);
    auto s = py_str(v);
    if (!s || p.has_spec || (p.conversion != 0 && p.conversion != 's' && !(p.conversion == 'r' && v.is_str())))
      return PyVal::unknown(fmt::format("an f-string with {}", v.known() ? "a formatted value" : describe(v)),
                            v.known() ? p.expr.at : v.at);
    out += p.conversion == 'r' ? "'" + *s + "'" : *s;
  }
  return PyVal::str(out, x.at);
}

PyVal PyReader::eval(Frame& f, const PyExpr& x) {
  const Nest nest(*this);
  if (!nest.ok()) return PyVal::unknown("an expression nested too deeply for dispatchtool", x.at);
  switch (x.kind) {
    case PyExpr::Name: {
      std::size_t dot = x.text.find('.');
      PyVal v = lookup(f, x.text.substr(0, dot), x.at);
      while (dot != std::string::npos) {
        const std::size_t next = x.text.find('.', dot + 1);
        v = attribute(f, v, x.text.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1),
                      x.at);
        dot = next;
      }
      return v;
    }
    case PyExpr::Str:
      return x.fstring ? fstring(f, x) : PyVal::str(x.text, x.at);
    case PyExpr::Num:
      return literal_number(x);
    case PyExpr::Call:
      return call_expr(f, x);
    case PyExpr::Attr:
      return attribute(f, eval(f, x.base[0]), x.text, x.at);
    case PyExpr::Subscript: {
      const PyVal obj = eval(f, x.base[0]);
      if (obj.kind == PyVal::Ext) return PyVal::ext(obj.s + "[...]", x.at);  // a typing generic
      return subscript(obj, eval(f, x.args[0]), x.at);
    }
    case PyExpr::Slice: {
      PyVal v = PyVal::seq(PyVal::Tuple, {}, x.at);
      v.s = "slice";
      for (const PyExpr& a : x.args) v.items.push_back(a.absent() ? PyVal::none(x.at) : eval(f, a));
      return v;
    }
    case PyExpr::Tuple:
    case PyExpr::List:
    case PyExpr::Set: {
      PyVal v = PyVal::seq(x.kind == PyExpr::Tuple ? PyVal::Tuple : x.kind == PyExpr::List ? PyVal::List : PyVal::Set,
                           {}, x.at);
      for (const PyExpr& a : x.args) {
        if (a.kind == PyExpr::Opaque && a.text == "*") return PyVal::unknown("a starred item", a.at);
        if (a.kind == PyExpr::Opaque && a.text == "comprehension") return PyVal::unknown("a comprehension", a.at);
        v.items.push_back(eval(f, a));
      }
      return v;
    }
    case PyExpr::Dict: {
      PyVal v = PyVal::seq(PyVal::Dict, {}, x.at);
      for (std::size_t k = 0; k < x.args.size(); ++k) {
        v.items.push_back(eval(f, x.args[k]));
        v.values.push_back(eval(f, x.kwargs[k]));
      }
      return v;
    }
    case PyExpr::Neg: {
      PyVal v = eval(f, x.base[0]);
      if (v.kind == PyVal::Int) return PyVal::integer(-v.i, x.at);
      if (v.kind == PyVal::Float) {
        v.d = -v.d;
        v.s = python_float_repr(v.d);
        v.at = x.at;
        return v;
      }
      return PyVal::unknown("a negated value", x.at);
    }
    case PyExpr::Not: {
      auto t = truth(eval(f, x.base[0]));
      return t ? PyVal::boolean(!*t, x.at) : PyVal::unknown("`not` of a value whose truth is not known", x.at);
    }
    case PyExpr::Binary:
      return binary(x.text, eval(f, x.args[0]), eval(f, x.args[1]), x.at);
    case PyExpr::BitOr:
      return PyVal::unknown("a `|` expression", x.at);
    case PyExpr::BoolOp: {
      PyVal v;
      for (const PyExpr& a : x.args) {
        v = eval(f, a);
        auto t = truth(v);
        if (!t) return PyVal::unknown(fmt::format("`{}` of {}", x.text, describe(v)), v.at);
        if (*t == (x.text == "or")) return v;
      }
      return v;
    }
    case PyExpr::Compare:
      return compare(f, x);
    case PyExpr::IfExp: {
      auto t = truth(eval(f, x.args[1]));
      if (t) return eval(f, x.args[*t ? 0 : 2]);
      const PyVal a = eval(f, x.args[0]), b = eval(f, x.args[2]);
      if (auto s = same(a, b); s && *s) return a;
      return PyVal::unknown("a conditional expression whose condition is not known", x.at);
    }
    case PyExpr::Lambda: {
      PyVal v;
      v.kind = PyVal::Lambda;
      v.at = x.at;
      return v;
    }
    default:
      return PyVal::unknown(x.text.empty() || x.text == "..." ? std::string("an expression dispatchtool does not evaluate")
                                                              : fmt::format("a {} expression", x.text),
                            x.at);
  }
}

}  // namespace dt::pyread
