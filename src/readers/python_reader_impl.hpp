// The Python reader's state (readers/python_reader.hpp), internal to the
// readers layer. One PyReader reads one module; its methods live by concern:
//   python_reader.cpp          reading a file: chunks of top-level statements, warnings, debug strings
//   python_exec.cpp            statements: blocks, if / for / try / with, def, class, imports, assignments
//   python_eval.cpp            expressions: literals, names, attributes, operators, f-strings
//   python_call.cpp            calls: inlining functions of the files read, partial, classes, builtins
//   python_torch_library.cpp   torch.library: Library objects, define / impl / fallback / _register_fake
//   python_custom_op.cpp       custom_op / triton_op and the register_* functions
//   python_lifetime.cpp        Libraries torch.library frees before the module is read (temporaries, locals)
// Nothing is run: statements are interpreted over what python_value.hpp
// knows, within budgets (steps, call depth, loop iterations, cached code).
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "readers/python_lexer.hpp"
#include "readers/python_parser.hpp"
#include "readers/python_project.hpp"
#include "readers/python_value.hpp"
#include "readers/readers.hpp"

namespace dt::pyread {

// Token helpers shared by the statement files (python_exec.cpp, python_control.cpp).
bool is_op(const PyToken& t, std::string_view o);
bool is_word(const PyToken& t, std::string_view w);
// The header's ':' at bracket depth 0 from token `b` (a lambda's own ':' skipped); 0 if none.
std::size_t header_colon(const std::vector<PyToken>& t, std::size_t b);
// Whether a called name says it registers (its last part holds `register`,
// `custom_op` or `triton_op`), but for torch.nn.Module's, Tensor's and pytree's
// own register_* (buffers, parameters, submodules, hooks).
bool looks_registering(std::string_view name);
// Source-like text of tokens [b, e), for messages ("hasattr(torch.ops._C, 'x')").
std::string token_text(const std::vector<PyToken>& t, std::size_t b, std::size_t e);

// Bounds on what one reader does (hostile input stays linear).
inline constexpr std::size_t kMaxSteps = 2'000'000;        // statements executed, all inlined calls included
inline constexpr int kMaxCallDepth = 24;                   // inlined calls, nested
inline constexpr std::size_t kMaxIterations = 10'000;      // of one loop
inline constexpr std::size_t kMaxChunkTokens = 4'000'000;  // of one top-level statement
inline constexpr std::size_t kMaxCachedTokens = 2'000'000; // of function bodies lexed and kept
inline constexpr int kMaxNesting = 1'500;                  // blocks, expressions and calls, nested (the stack)

// Logical lines (each ending in a Newline token).
struct PyCode {
  std::vector<std::vector<PyToken>> lines;
};

// A guard a registration depends on: an `if` dispatchtool does not decide,
// a `try` block.
struct Cond {
  Location at;
  std::string what;
};

enum class Flow : std::uint8_t { Normal, Return, Break, Continue, Raise };

// A value bound on two paths: the same value, or Unknown (it differs between the branches of `c`).
PyVal join(const PyVal& a, const PyVal& b, const Cond& c);

// Values of names before a branch of an undecided `if` wrote them.
struct Journal {
  std::map<std::pair<const void*, std::string>, std::optional<PyVal>> old;
};

struct Frame {
  std::shared_ptr<PyModule> module;
  std::shared_ptr<PyScope> locals;  // nullptr at module level
  bool class_body = false;          // locals are a class body's
  Location caller;                  // where the running function was called (unknown at module level)
  int depth = 0;
  std::vector<Cond> conds;
  std::vector<Note> chain;  // the inlined calls that led here, outermost first
  std::vector<Journal> journals;
  std::optional<PyVal> returned;  // what `return` gave (joined over undecided branches)
  bool returned_maybe = false;    // a `return` in an undecided branch
};

// A call's arguments, evaluated.
struct Args {
  std::vector<PyVal> pos;
  std::vector<std::string> names;
  std::vector<PyVal> kw;
  Location at;  // the call
  bool decorator = false;
  std::optional<PyVal> decorated;  // the function a decorator made by the call is applied to
  bool unknown_star = false;  // *args / **kwargs that could not be expanded

  [[nodiscard]] const PyVal* get(std::size_t i, std::string_view name) const {
    if (i < pos.size()) return &pos[i];
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k] == name) return &kw[k];
    return nullptr;
  }
  [[nodiscard]] const PyVal* kwarg(std::string_view name) const { return get(SIZE_MAX, name); }
};

// The debug strings (_dispatch_dump's "registered at ...") of torch.library's
// Python forms, from the profile's [torch_library.python] table (measured by
// tools/gen_torch_library.py on the release): patterns whose {file} / {line}
// are where the form is called, {caller_line} where the function that calls
// it was called, and {library} the lib= Library's own debug string.
struct DebugTable {
  const TorchLibraryInfo* tl = nullptr;
  std::string fill(std::string_view form, const Location& call, const Location& caller,
                   const std::string& library) const;
  [[nodiscard]] bool has(std::string_view form) const;
};

class PyReader {
 public:
  PyReader(const Profile& p, FileName f, PyProject* project, bool quiet);

  // Reads a module: its registrations (quiet: none, only its names).
  Expected<Blocks, Diagnostic> run(std::string_view text, std::shared_ptr<PyModule> module);

 private:
  friend class PyProjectLoader;
  const Profile& profile_;
  FileName file_;
  PyProject* project_;
  PyHeap own_heap_;  // a file read alone: its values' cycles end with the reader
  PyHeap* heap_;     // the project's, or own_heap_
  bool quiet_;  // loading a module for its names: registrations are not made, nothing is warned
  DebugTable dbg_;
  std::shared_ptr<PyModule> module_;
  Blocks out_;
  std::optional<Diagnostic> error_;  // input real torch refuses: reading stops
  std::size_t steps_ = 0;
  int nesting_ = 0;  // blocks, expressions and calls being interpreted, nested
  // Counts one level of nesting while it lives; !ok() past kMaxNesting.
  struct Nest {
    explicit Nest(PyReader& r) : r_(r) { ++r_.nesting_; }
    ~Nest() { --r_.nesting_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
    [[nodiscard]] bool ok() const { return r_.nesting_ <= kMaxNesting; }
    PyReader& r_;
  };
  bool budget_warned_ = false;
  std::size_t cached_tokens_ = 0;
  std::map<std::pair<const char*, std::size_t>, std::shared_ptr<const PyCode>> code_cache_;
  std::map<const PyLib*, std::size_t> lib_blocks_;
  // Every Library this reader made, kept for the reading (their addresses key
  // lib_blocks_ and freed_: none is reused), the blocks block_of opened for
  // each, and those freed before the module has been read, with why.
  std::vector<std::shared_ptr<const PyLib>> made_libs_;
  std::vector<std::pair<std::size_t, const PyLib*>> lib_block_list_;
  struct Freed {
    Location at;      // the statement, or the call of the function it is a local of
    std::string why;  // "a temporary, freed once ...", "a local of setup(), freed when it returns ..."
  };
  std::map<const PyLib*, Freed> freed_;
  // The locals each Library made by this reader was bound to (bind()), by scope.
  std::map<const PyLib*, std::set<std::pair<const PyScope*, std::string>>> lib_locals_;
  std::map<std::string, std::size_t> fragment_blocks_;  // torch.library's own Libraries, by namespace
  struct Defined {
    Location at;
    bool conditional = false;
  };
  std::map<std::string, Defined> defined_;  // operators defined in this module, by qualified name
  std::map<std::string, std::shared_ptr<const PyOpDef>> custom_ops_;  // by qualified name
  std::set<std::pair<Location, std::string>> warned_;
  std::string privateuse1_;  // torch.utils.rename_privateuse1_backend's name
  // Module-level functions whose body registers, and whether they were called (in order of definition).
  struct Registering {
    std::shared_ptr<const PyFunc> fn;
    Location at;     // its first registration
    std::string op;  // the operator it defines there, when written literally
  };
  std::vector<Registering> registering_;
  std::set<const PyFunc*> called_;
  std::map<std::pair<const PyFunc*, std::string>, PyVal> memo_;  // lru_cache'd functions' results
  std::unordered_map<const PyFunc*, int> active_;  // the functions being inlined, and how many times each
  // A registration found by reaches_registration() / function_registration().
  struct RegAt {
    Location at;
    const PyFunc* in = nullptr;  // the function whose body holds it (nullptr: the tokens searched)
  };
  struct Reached : RegAt {
    std::string via;  // the function called that leads to it ("" when it is in the tokens)
  };
  // The search's state: final answers (a memo entry holds its function, so that
  // a nested def made anew cannot take a freed one's address and its answer),
  // the functions being searched (at their depth), those answered "none" only
  // for now (they reached one being searched), and whether the search was cut
  // at kMaxCallDepth.
  struct RegMemo {
    std::shared_ptr<const PyFunc> fn;
    std::optional<RegAt> at;
  };
  std::unordered_map<const PyFunc*, RegMemo> reg_memo_;
  std::unordered_map<const PyFunc*, int> reg_stack_;
  std::vector<std::shared_ptr<const PyFunc>> reg_pending_;
  bool reg_cut_ = false;
  std::optional<RegAt> search_registration(const std::shared_ptr<const PyFunc>& fn, int depth, int& low);
  void settle_registration_search(bool found);
  std::optional<Reached> called_registration(const Frame& f, const std::vector<PyToken>& t, std::size_t b,
                                             std::size_t e, int depth, int& low);
  std::shared_ptr<const PyFunc> called_function(const Frame& f, const std::vector<PyToken>& t, std::size_t i) const;
  // guarded(): one warning per site and set of conditions, listing what it read there.
  std::map<std::pair<Location, std::string>, std::pair<std::size_t, std::vector<std::string>>> guarded_;

  // ---- python_reader.cpp ------------------------------------------------------------
  Location site(const Frame& f, Location at) const { return f.chain.empty() ? at : f.chain.front().where; }
  // Where a field of a registration is shown: where its value is written when
  // that is in the module-level statement's file and line (an argument of the
  // call), else that statement (a value an inlined helper made or defaulted),
  // so that a kernel read through a helper is located at its call.
  Location field_site(const Frame& f, Location value_at) const {
    const Location s = site(f, value_at);
    return value_at.file == s.file && value_at.line == s.line ? value_at : s;
  }
  void warn(const Frame& f, Location at, std::string what, std::string op = {}, std::vector<Note> notes = {});
  void fail(Location at, std::string what);  // input real torch refuses (exit 2)
  bool failed() const { return error_.has_value(); }
  // A registration is about to be read: the guards it depends on, warned once per site.
  void guarded(const Frame& f, Location at, const std::string& what, const std::string& op = {});
  bool spend(const Frame& f, Location at, std::size_t steps = 1);
  bool need_debug(Location at);
  std::string debug(const Frame& f, std::string_view form, Location call, const std::string& library = {}) const;
  // Whether tokens [b, e) of a line name a registration (for warnings about what is not read).
  bool mentions_registration(const Frame& f, const std::vector<PyToken>& t, std::size_t b, std::size_t e) const;
  // Where code that is not run would register: a registration in tokens
  // [b, e) (mentions_registration), or the first one made by a function of
  // the files read that they call by name (`walk(c)`, `helpers.walk(c)`),
  // followed through the functions it calls in turn (a cycle, or a chain
  // deeper than kMaxCallDepth, registers nothing). Answers are memoised per
  // function: linear in the functions' bodies over a run.
  std::optional<Reached> reaches_registration(const Frame& f, const std::vector<PyToken>& t, std::size_t b,
                                              std::size_t e);
  std::optional<RegAt> function_registration(const std::shared_ptr<const PyFunc>& fn);
  std::string ops_defined_in(const std::vector<PyToken>& t, std::size_t b, std::size_t e) const;
  void warn_unread(const Frame& f, const PyCode& code, std::size_t b, std::size_t e, const std::string& why);
  void warn_uncalled();

  // ---- python_exec.cpp --------------------------------------------------------------
  Flow exec_block(Frame& f, const PyCode& code, std::size_t b, std::size_t e);
  Flow exec_line(Frame& f, const PyCode& code, std::size_t& i, std::size_t e, std::vector<PyVal>& decorators);
  Flow exec_simple(Frame& f, const std::vector<PyToken>& t, std::size_t b, std::size_t e);
  Flow exec_tokens(Frame& f, const std::vector<PyToken>& t, std::size_t b, std::size_t e);
  // The body of a compound statement at line i: lines (i+1 .. end) or the tokens after its ':'.
  std::size_t body_end(const PyCode& code, std::size_t i, std::size_t e) const;
  Flow exec_body(Frame& f, const PyCode& code, std::size_t i, std::size_t colon, std::size_t e);
  Flow exec_if(Frame& f, const PyCode& code, std::size_t& i, std::size_t e);
  Flow exec_for(Frame& f, const PyCode& code, std::size_t& i, std::size_t e);
  Flow exec_try(Frame& f, const PyCode& code, std::size_t& i, std::size_t e);
  void exec_def(Frame& f, const PyCode& code, std::size_t i, std::size_t end, std::vector<PyVal>& decorators);
  void exec_class(Frame& f, const PyCode& code, std::size_t i, std::size_t end, std::vector<PyVal>& decorators);
  void exec_import(Frame& f, const std::vector<PyToken>& t, std::size_t b, std::size_t e);
  void assign(Frame& f, const PyExpr& target, const PyVal& v);
  void bind(Frame& f, const std::string& name, PyVal v);
  void join_branches(Frame& f, std::vector<std::map<std::pair<const void*, std::string>, std::optional<PyVal>>> ends,
                     Journal& j, bool exhaustive, const Cond& c);
  std::shared_ptr<const PyCode> code_of(const PyFunc& fn);

  // ---- python_eval.cpp --------------------------------------------------------------
  PyVal eval(Frame& f, const PyExpr& x);
  PyVal lookup(Frame& f, const std::string& name, Location at);
  PyVal attribute(Frame& f, const PyVal& obj, const std::string& attr, Location at);
  PyVal binary(const std::string& op, const PyVal& a, const PyVal& b, Location at);
  PyVal compare(Frame& f, const PyExpr& x);
  PyVal subscript(const PyVal& obj, const PyVal& index, Location at);
  PyVal fstring(Frame& f, const PyExpr& x);
  PyVal literal_number(const PyExpr& x);
  // The dotted name a value is (Ext), or the builtin's name; "" otherwise.
  static std::string dotted(const PyVal& v);

  // ---- python_call.cpp --------------------------------------------------------------
  PyVal call_expr(Frame& f, const PyExpr& x);
  Args eval_args(Frame& f, const PyExpr& call);
  PyVal call(Frame& f, const PyVal& callee, Args args);
  PyVal call_function(Frame& f, const std::shared_ptr<const PyFunc>& fn, Args args, const PyVal* self);
  PyVal call_builtin(Frame& f, const std::string& name, Args& args);
  PyVal call_method(Frame& f, const PyVal& self, const std::string& name, Args& args);
  PyVal call_ext(Frame& f, const std::string& name, Args& args);
  PyVal instantiate(Frame& f, const std::shared_ptr<const PyClass>& cls, Args& args);
  PyVal decorate(Frame& f, const PyVal& decorator, PyVal fn, Location at);

  // ---- python_torch_library.cpp ------------------------------------------------------
  // Whether `name` (a canonical dotted name) is a torch.library API the reader reads.
  static bool is_api(std::string_view name);
  PyVal torch_library(Frame& f, const std::string& api, Args& args);
  PyVal library(Frame& f, Args& args);
  PyVal library_method(Frame& f, const std::shared_ptr<const PyLib>& lib, const std::string& method, Args& args);
  std::optional<std::size_t> block_of(const std::shared_ptr<const PyLib>& lib);
  std::size_t fragment_block(const std::string& ns, Location at, const std::string& note);
  TomlEntry& entry(std::size_t block, const char* kind, Location at);
  void kernel_fields(TomlEntry& en, const PyVal* fn, const std::string& debug, Location at);
  PyVal define(Frame& f, Args& args);
  PyVal impl(Frame& f, Args& args);
  PyVal register_on_op(Frame& f, const std::string& api, Args& args);
  PyVal kernel_on_op(Frame& f, const std::string& api, const std::string& qualname, Location qat, Args& args);
  void rename_privateuse1(Frame& f, Args& args);
  bool record_def(Frame& f, const std::string& qualname, Location at);
  // str / list-of-str / tags of a value; nullopt when not known.
  static std::optional<std::vector<PyVal>> strs(const PyVal& v);
  std::optional<std::vector<std::string>> tags(const PyVal& v) const;
  void unread(Frame& f, Location at, const std::string& what, const std::string& why, const std::string& op = {});

  // ---- python_lifetime.cpp ------------------------------------------------------------
  // A Library lives as long as the Python object (weakref.finalize in
  // torch/library.py removes its registrations when it is freed). What is
  // sure to be freed: a Library(...) called in an expression statement and
  // used there only as the object of its methods; a local of a function the
  // function's body uses only as the object of Library's methods (no
  // closure, generator, global or nonlocal, no other use), when it returns.
  void free_temporaries(const PyExpr& statement, std::size_t made_before, Location at);
  void free_locals(const Frame& callee, const PyCode& code, const PyFunc& fn, std::size_t made_before, Location call);
  // Drops the blocks of the Libraries freed, each said once at its Library(...).
  void drop_freed();
  // A module-level name that held a Library with registrations is deleted
  // (`next` nullptr) or bound to another value: torch frees the Library if
  // nothing else refers to it, which is not decided; said at `at`, kept.
  void unbind_library(const Frame& f, const std::string& name, const PyVal* next, Location at);

  // ---- python_custom_op.cpp ----------------------------------------------------------
  PyVal custom_op(Frame& f, const std::string& api, Args& args);
  PyVal op_method(Frame& f, const std::shared_ptr<const PyOpDef>& op, const std::string& api, Args& args,
                  std::size_t first);
  std::optional<std::string> infer(Frame& f, const PyVal& fn, const PyVal* mutates, Location at,
                                   bool check_kwarg_only, const std::string& qualname);
  static bool param_is_tensor(const std::string& schema, const std::string& name);
};

// Reads `text` as module `module` of a project quietly (its names only).
void load_module(const Profile& profile, PyProject& project, const std::shared_ptr<PyModule>& module);

}  // namespace dt::pyread
