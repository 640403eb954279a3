// What the Python reader knows of a value while it reads a module (internal
// to the readers layer): a literal, a name of something outside the files
// read (`torch.library.impl`, `typing.Optional`), a module, function, class
// or instance of the files read, a torch.library Library or custom op, a
// functools.partial, or Unknown (with why). Nothing is run: the reader
// evaluates the part of Python registration code is written in
// (python_eval.cpp) and inlines the functions of the files read
// (python_exec.cpp, python_call.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.hpp"
#include "readers/python_parser.hpp"

namespace dt::pyread {

struct PyModule;
struct PyFunc;
struct PyScope;
struct PyLib;
struct PyOpDef;
struct PyClass;
struct PyInstance;

struct PyVal {
  enum Kind : std::uint8_t {
    Unknown,   // s: why it is not known
    None,
    Bool,      // b
    Int,       // i
    Float,     // s: Python's repr, d: the value
    Str,       // s; b: a TorchVersion (torch.__version__), compared as versions
    Tuple,     // items
    List,      // items
    Set,       // items
    Dict,      // items: keys, values: values
    Ext,       // s: a dotted name outside the files read ("torch.library.impl", "typing.Optional")
    Module,    // mod: a module of the files read
    Func,      // fn
    Lambda,    // a lambda (its body is not read)
    Lib,       // lib: a torch.library.Library
    Op,        // op: a CustomOpDef (custom_op, triton_op)
    Partial,   // functools.partial: target, items (positional), names / values (keywords)
    Deco,      // a torch.library API called without its function: s (the API), args as Partial
    Class,     // cls
    Instance,  // inst
    Method,    // a bound method: s (its name), target (the object)
    Builtin,   // s: a Python builtin (str, hasattr, staticmethod, ...)
  };
  Kind kind = Unknown;
  bool b = false;
  long long i = 0;
  double d = 0;
  std::string s;
  Location at;  // where the value was written (a string's first character)
  std::vector<PyVal> items;
  std::vector<std::string> names;
  std::vector<PyVal> values;
  std::shared_ptr<const PyFunc> fn;
  std::shared_ptr<const PyLib> lib;
  std::shared_ptr<const PyOpDef> op;
  std::shared_ptr<PyModule> mod;
  std::shared_ptr<const PyClass> cls;
  std::shared_ptr<PyInstance> inst;
  std::shared_ptr<const PyVal> target;

  static PyVal unknown(std::string why, Location at = {}) {
    PyVal v;
    v.s = std::move(why);
    v.at = at;
    return v;
  }
  // A decorator that hands its function back unchanged (`functools.wraps`, a
  // registration whose result is the function itself).
  static PyVal identity(Location at = {}) {
    PyVal v;
    v.kind = Builtin;
    v.s = "__identity__";
    v.at = at;
    return v;
  }
  static PyVal none(Location at = {}) {
    PyVal v;
    v.kind = None;
    v.at = at;
    return v;
  }
  static PyVal boolean(bool b, Location at = {}) {
    PyVal v;
    v.kind = Bool;
    v.b = b;
    v.at = at;
    return v;
  }
  static PyVal integer(long long i, Location at = {}) {
    PyVal v;
    v.kind = Int;
    v.i = i;
    v.at = at;
    return v;
  }
  static PyVal str(std::string s, Location at = {}) {
    PyVal v;
    v.kind = Str;
    v.s = std::move(s);
    v.at = at;
    return v;
  }
  static PyVal ext(std::string dotted, Location at = {}) {
    PyVal v;
    v.kind = Ext;
    v.s = std::move(dotted);
    v.at = at;
    return v;
  }
  static PyVal seq(Kind k, std::vector<PyVal> items, Location at = {}) {
    PyVal v;
    v.kind = k;
    v.items = std::move(items);
    v.at = at;
    return v;
  }

  [[nodiscard]] bool known() const { return kind != Unknown; }
  [[nodiscard]] bool is_str() const { return kind == Str; }
  [[nodiscard]] bool is_none() const { return kind == None; }
  [[nodiscard]] bool is_ext(std::string_view dotted) const { return kind == Ext && s == dotted; }
  [[nodiscard]] bool is_sequence() const { return kind == Tuple || kind == List || kind == Set; }
  [[nodiscard]] bool callable() const {
    return kind == Func || kind == Lambda || kind == Partial || kind == Ext || kind == Deco || kind == Class ||
           kind == Method || kind == Builtin || kind == Op;
  }
};

// Python's truth value, where it is known.
std::optional<bool> truth(const PyVal& v);
// Whether two values are the same (identity for functions, Libraries, ...);
// nullopt where it cannot be told.
std::optional<bool> same(const PyVal& a, const PyVal& b);
// str(v) where it is known ("1e-05", "True", "None", a string itself).
std::optional<std::string> py_str(const PyVal& v);
// What a value is, for messages ("a string", "an unknown value (why)").
std::string describe(const PyVal& v);

// Names and their values: a function call's locals (parent: the enclosing
// function's, for closures), or a class body's.
struct PyScope {
  std::map<std::string, PyVal> vars;
  std::shared_ptr<PyScope> parent;
  std::vector<std::string> globals;  // names declared `global`
};

// A module of the files read: its globals, and the text its functions' bodies
// are lexed from when they are called.
struct PyModule {
  FileName file;
  std::string name;  // dotted, as imported ("pkg.mod"); "" when not known
  std::string path;  // as given on the command line
  std::string_view text;
  std::shared_ptr<const std::string> owned;  // keeps `text` alive (the project's copy)
  std::map<std::string, PyVal> globals;
  const void* owner = nullptr;  // the reader that may write its globals
  bool loading = false;
  // It imports torch (or a module of the files read that does): what it does
  // may register. A module that does not is never warned about.
  bool uses_torch = false;
};

// A `def`: its signature, defaults (evaluated where it was defined), the
// module and scope it closes over, and where its body is.
struct PyFunc {
  PyFunction sig;
  std::vector<std::optional<PyVal>> defaults;  // per parameter
  std::shared_ptr<PyModule> module;
  std::shared_ptr<PyScope> closure;  // nullptr for a module-level function
  std::size_t begin = 0, end = 0;    // its lines (from the `def`'s line start) in module->text
  std::uint32_t first_line = 1;
  std::vector<std::string> decorators;  // what it was decorated with (staticmethod, property, ...)
};

// A torch.library.Library: its arguments, and the debug string the release
// gives what is registered through it.
struct PyLib {
  std::string ns, kind, key;
  Location at;        // the Library(...) call
  Location ns_at, kind_at, key_at;
  std::string debug;  // "registered at ..."
  const void* owner = nullptr;  // the reader that made it (others replicate it in a block of their own)
};

// A custom op (torch.library.custom_op / triton_op).
struct PyOpDef {
  std::string qualname;
  std::string schema;
  std::shared_ptr<const PyFunc> fn;
  const void* owner = nullptr;  // the reader whose [[custom_op]] entry it is
  std::size_t block = 0, entry = 0;
};

struct PyClass {
  std::string name;
  std::map<std::string, PyVal> attrs;
  std::vector<PyVal> bases;
};

struct PyInstance {
  std::shared_ptr<const PyClass> cls;
  std::map<std::string, PyVal> attrs;
  const void* owner = nullptr;
};

// Every module, scope and instance one reading makes (a file alone, or the
// files of a PyProject). Python's values form reference cycles (a module's
// function holds its module, a nested function the scope that holds it, an
// instance its bound methods); clear(), called by the heap's owner when the
// reading ends, empties them all so that the shared pointers free them.
class PyHeap {
 public:
  PyHeap() = default;
  PyHeap(const PyHeap&) = delete;
  PyHeap& operator=(const PyHeap&) = delete;
  ~PyHeap() { clear(); }

  void add(const std::shared_ptr<PyModule>& m);
  void add(const std::shared_ptr<PyScope>& s);
  void add(const std::shared_ptr<PyInstance>& i);
  void clear();

 private:
  std::mutex mu_;  // readers of a project's files may run on several threads
  std::vector<std::weak_ptr<PyModule>> modules_;
  std::vector<std::weak_ptr<PyScope>> scopes_;
  std::vector<std::weak_ptr<PyInstance>> instances_;
};

}  // namespace dt::pyread
