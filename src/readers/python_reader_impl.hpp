// The Python reader's state and forms (readers/python_reader.hpp), shared by
// python_reader.cpp (statements, imports, names, decorators) and
// python_torch_library.cpp (Library objects, torch.library.define / impl,
// custom_op and the register_* functions). Internal to the readers layer.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "keys/profile.hpp"
#include "readers/python_lexer.hpp"
#include "readers/python_parser.hpp"
#include "readers/readers.hpp"

namespace dt::pyread {

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
//  - register_fake on an operator custom_op did not make registers a Meta
//    kernel: in torch 2.6 through a Library of torch._library.fake_impl's own
//    (the profile's custom_op "fake" debug string; lib= only keeps it alive),
//    in torch 2.14 through the lib= Library (its debug string) or, without
//    one, a Library made in torch/library.py.
struct DebugTable {
  std::string library, impl_decorator, impl_call, define, fake;
  bool fake_in_lib = false;  // 2.14: the Meta kernel goes to the lib= Library
};

std::optional<DebugTable> debug_table(const Profile& p);

// Whether `n` is a torch.library API name (for warnings about forms not read).
bool is_reg_name(std::string_view n);

struct OpRef {
  std::size_t block, entry;
};

class PyReader {
 public:
  PyReader(const Profile& p, FileName f) : profile_(p), file_(f), dbg_(debug_table(p)) {}

  Expected<Blocks, Diagnostic> run(std::string_view text);

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

  std::string canonical(const std::string& dotted) const;
  std::string callee(const PyExpr& call) const;

  void warn(Location at, std::string what);
  dispatchtool::Unexpected<Diagnostic> error(Location at, std::string what) const;

  // Whether tokens [b, e) name a torch.library registration (for warnings).
  bool mentions_registration(std::size_t b, std::size_t e) const;

  // torch.__version__ OP "X.Y.Z" with the profile's version (TorchVersion
  // compares as versions); nullopt when the condition is anything else.
  std::optional<bool> version_condition(std::size_t b, std::size_t e) const;

  Expected<bool, Diagnostic> statement(std::size_t b, std::size_t e, std::vector<PyExpr>& decorators);

  Expected<bool, Diagnostic> module_statement(std::size_t b, std::size_t e, std::vector<PyExpr>& decorators);

  Expected<bool, Diagnostic> parse_failed(std::size_t b, std::size_t e);

  bool is_registration_expr(const PyExpr& d) const;

  // import a.b [as c], ... / from a.b import c [as d], ... / from a import (c, d)
  Expected<bool, Diagnostic> import(std::size_t b, std::size_t e);

  std::optional<std::pair<std::string, Location>> str_of(const PyExpr& x) const;
  // A string or a tuple/list of strings.
  std::optional<std::vector<std::string>> strs_of(const PyExpr& x) const;
  std::optional<std::vector<std::string>> tags_of(const PyExpr& x) const;
  // An argument by position or keyword.
  static const PyExpr* arg(const PyExpr& call, std::size_t pos, std::string_view kw);

  std::string fill(const std::string& pattern, std::uint32_t line) const;
  Expected<bool, Diagnostic> need_debug(Location at) const;

  std::size_t new_block(const std::string& ns, const char* kind, const std::string& key, Location at, std::string note);
  static std::string ns_of(const std::string& qualname);
  TomlEntry& entry(std::size_t block, const char* kind, Location at);

  // ---- assignments and expression statements ------------------------------
  Expected<bool, Diagnostic> assign(const PyExpr& lhs, const PyExpr& rhs, std::size_t b, std::size_t e);

  Expected<bool, Diagnostic> expression(const PyExpr& x, std::size_t b, std::size_t e);

  // ---- decorators -----------------------------------------------------------
  Expected<bool, Diagnostic> decorate(const PyExpr& d, const std::string& fname, Location at, bool decorator = true);

  // ---- Library objects --------------------------------------------------------
  Expected<bool, Diagnostic> library(const std::string& name, const PyExpr& call);
  std::string lib_debug(const std::string& name) const { return fill(dbg_->library, lib_line_.at(name)); }

  bool is_fallthrough(const PyExpr* fn) const;
  void kernel_fields(TomlEntry& en, const PyExpr* fn, const std::string& debug, Location at);

  Expected<bool, Diagnostic> library_method(const std::string& obj, const std::string& method, const PyExpr& x);

  Expected<bool, Diagnostic> unread(const PyExpr& x, const std::string& what);

  // ---- torch.library.define / impl ------------------------------------------
  // The block a lib= argument names (or a new FRAGMENT block, as torch.library
  // makes its own Library), and the debug string.
  std::optional<std::pair<std::size_t, std::string>> target_block(const PyExpr& x, const std::string& qualname,
                                                                  const std::string& own_debug);

  Expected<bool, Diagnostic> define(const PyExpr& x);

  Expected<bool, Diagnostic> impl_qualname(const PyExpr& x, bool decorator);

  // ---- custom_op and the register_* functions -----------------------------------
  Expected<bool, Diagnostic> custom_op(const PyExpr& x, const std::string& fname, const std::string& bind);
  // Whether the schema's parameter `name` is a Tensor type ("Tensor(a0!)[] x" too).
  static bool param_is_tensor(const std::string& schema, const std::string& name);

  TomlField* field(TomlEntry& en, std::string_view key);
  void append(TomlEntry& en, const char* key, const std::vector<std::string>& v, Location at);

  // register_<api> on a custom op: `x` is the call (op.register_kernel("cuda"),
  // torch.library.register_kernel(op, "cuda", fn)); its arguments start at `first`.
  Expected<bool, Diagnostic> op_register(OpRef ref, const std::string& api, const PyExpr& x, std::size_t first,
                                         bool decorator);

  Expected<bool, Diagnostic> register_by_target(const std::string& api, const PyExpr& x, bool decorator);

  // The operator a register_* call names ("ns::op", "ns::op.overload", or
  // torch.ops.ns.op.overload): its qualified name, or nullopt.
  std::optional<std::pair<std::string, Location>> op_qualname(const PyExpr& op) const;
  // torch.library.register_fake on an operator custom_op did not make (in
  // this file): a Meta kernel, as the release registers it.
  Expected<bool, Diagnostic> register_fake_kernel(const PyExpr& x);
};

}  // namespace dt::pyread
