// The Python reader (readers/python_reader.hpp): reading a file one top-level
// statement at a time, warnings, budgets and debug strings. Statements are
// in python_exec.cpp, expressions in python_eval.cpp, calls in
// python_call.cpp, the torch.library forms in python_torch_library.cpp and
// python_custom_op.cpp.
#include "readers/python_reader.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/text.hpp"
#include "readers/python_reader_impl.hpp"

namespace dt {

namespace pyread {

std::string DebugTable::fill(std::string_view form, const Location& call, const Location& caller,
                             const std::string& library) const {
  std::string pattern;
  if (caller.known()) pattern = tl->python_debug_of(std::string(form) + "_in_function");
  if (pattern.empty()) pattern = tl->python_debug_of(form);
  auto rep = [&](std::string_view key, const std::string& v) {
    for (std::size_t at = pattern.find(key); at != std::string::npos; at = pattern.find(key, at + v.size()))
      pattern.replace(at, key.size(), v);
  };
  rep("{library}", library);
  rep("{file}", call.file.str());
  rep("{line}", std::to_string(call.line));
  rep("{caller_line}", std::to_string(caller.line));
  return pattern;
}

bool DebugTable::has(std::string_view form) const { return !tl->python_debug_of(form).empty(); }

void PyHeap::add(const std::shared_ptr<PyModule>& m) {
  const std::lock_guard lock(mu_);
  modules_.push_back(m);
}
void PyHeap::add(const std::shared_ptr<PyScope>& s) {
  const std::lock_guard lock(mu_);
  scopes_.push_back(s);
}
void PyHeap::add(const std::shared_ptr<PyInstance>& i) {
  const std::lock_guard lock(mu_);
  instances_.push_back(i);
}

void PyHeap::clear() {
  const std::lock_guard lock(mu_);
  // Moved out first: what they hold is freed once the containers are gone.
  for (auto& w : modules_)
    if (auto m = w.lock()) auto gone = std::move(m->globals);
  for (auto& w : scopes_)
    if (auto sc = w.lock()) {
      auto gone = std::move(sc->vars);
      auto parent = std::move(sc->parent);
    }
  for (auto& w : instances_)
    if (auto i = w.lock()) auto gone = std::move(i->attrs);
  modules_.clear();
  scopes_.clear();
  instances_.clear();
}

PyReader::PyReader(const Profile& p, FileName f, PyProject* project, bool quiet)
    : profile_(p), file_(f), project_(project), quiet_(quiet) {
  dbg_.tl = &p.torch_library();
  heap_ = project != nullptr ? &project->heap() : &own_heap_;
}

void PyReader::warn(const Frame& f, Location at, std::string what, std::string op, std::vector<Note> notes) {
  if (quiet_ || (!module_->uses_torch && !f.module->uses_torch)) return;
  at = site(f, at);
  if (!warned_.emplace(at, what).second) return;
  Diagnostic d = make_error(at, std::move(what), std::move(notes));
  for (std::size_t i = 1; i < f.chain.size(); ++i) d.notes.push_back(f.chain[i]);
  d.severity = Severity::Warning;
  d.op = std::move(op);
  out_.warnings.push_back(std::move(d));
}

void PyReader::fail(Location at, std::string what) {
  if (!error_) error_ = make_error(at, std::move(what));
}

void PyReader::guarded(const Frame& f, Location at, const std::string& what, const std::string& op) {
  if (f.conds.empty() || quiet_ || (!module_->uses_torch && !f.module->uses_torch)) return;
  std::vector<Note> notes;
  std::string conds;
  for (const Cond& c : f.conds) {
    notes.push_back({c.at, fmt::format("it depends on this: {}", c.what)});
    conds += (conds.empty() ? "" : "; ") + c.what;
  }
  auto message = [&](const std::vector<std::string>& whats) {
    return fmt::format("{} read as if {} runs, but {} at run time on {} (dispatchtool reads every branch of a "
                       "condition it cannot decide, and a try block as if it raises nothing)",
                       dt::join(whats, ", "), whats.size() == 1 ? "it" : "each", whats.size() == 1 ? "it depends" : "they depend",
                       conds);
  };
  const Location where = site(f, at);
  auto [it, fresh] = guarded_.try_emplace({where, conds}, out_.warnings.size(), std::vector<std::string>{what});
  if (!fresh) {  // the same site and conditions: one warning that lists them all
    auto& whats = it->second.second;
    if (std::find(whats.begin(), whats.end(), what) != whats.end() || whats.size() >= 8) return;
    whats.push_back(what);
    Diagnostic& d = out_.warnings[it->second.first];
    d.message = message(whats);
    if (d.op.empty()) d.op = op;
    return;
  }
  const std::size_t before = out_.warnings.size();
  warn(f, at, message({what}), op, std::move(notes));
  if (out_.warnings.size() == before) guarded_.erase(it);
}

bool PyReader::spend(const Frame& f, Location at, std::size_t steps) {
  steps_ += steps;
  if (steps_ <= kMaxSteps) return true;
  if (!budget_warned_) {
    budget_warned_ = true;
    warn(f, at,
         fmt::format("dispatchtool stopped interpreting this module after {} statements (its inlining budget): "
                     "registrations after this point are not read",
                     kMaxSteps));
  }
  return false;
}

bool PyReader::need_debug(Location at) {
  if (profile_.torch_library().python_measured) return true;
  if (!quiet_)
    fail(at, fmt::format("the Python reader knows the debug strings torch.library registers in the releases whose "
                         "profile measured them ([torch_library.python]: torch 2.6 and 2.14 built in, or a profile "
                         "dispatchtool-export wrote); profile {} (torch {}) has none: pass --profile torch-2.6 or "
                         "torch-2.14, or export your torch",
                         profile_.name(), profile_.torch_version()));
  return false;
}

std::string PyReader::debug(const Frame& f, std::string_view form, Location call, const std::string& library) const {
  return dbg_.fill(form, call, f.caller, library);
}

namespace {

constexpr std::string_view kRegNames[] = {"Library",           "define",          "impl",
                                          "fallback",          "custom_op",       "triton_op",
                                          "register_kernel",   "register_fake",   "register_autograd",
                                          "register_autocast", "register_vmap",   "impl_abstract",
                                          "_register_fake",    "register_torch_dispatch"};

}  // namespace

bool looks_registering(std::string_view name) {
  const std::string_view last = name.substr(name.find_last_of('.') == std::string_view::npos ? 0
                                                                                             : name.find_last_of('.') + 1);
  // torch.nn.Module's and Tensor's own register_* (parameters, buffers, submodules,
  // hooks) and pytree's register nothing in the dispatcher.
  if (last == "register_buffer" || last == "register_parameter" || last == "register_module" ||
      last == "register_pytree_node" || (last.starts_with("register_") && last.find("hook") != std::string_view::npos))
    return false;
  return last.find("register") != std::string_view::npos || last.find("custom_op") != std::string_view::npos ||
         last.find("triton_op") != std::string_view::npos;
}

bool PyReader::mentions_registration(const Frame& f, const std::vector<PyToken>& t, std::size_t b,
                                     std::size_t e) const {
  (void)f;
  for (std::size_t i = b; i < e && i < t.size(); ++i) {
    if (t[i].kind != PyTok::Name) continue;
    const bool after_dot = i > b && t[i - 1].kind == PyTok::Op && t[i - 1].text == ".";
    const bool call = i + 1 < t.size() && t[i + 1].kind == PyTok::Op && t[i + 1].text == "(";
    for (std::string_view n : kRegNames)
      if (t[i].text == n && (call || after_dot || n == "Library")) return true;
    // A project's helper: a call of a name that says it registers.
    if (call && looks_registering(t[i].text)) return true;
  }
  return false;
}

// The function of the files read that token i (a name before '(') calls:
// a name bound where the tokens are, or a module's attribute (`mod.fn(`).
std::shared_ptr<const PyFunc> PyReader::called_function(const Frame& f, const std::vector<PyToken>& t,
                                                        std::size_t i) const {
  const auto bound = [&](const std::string& name) -> const PyVal* {
    for (const PyScope* s = f.locals.get(); s != nullptr; s = s->parent.get()) {
      if (std::find(s->globals.begin(), s->globals.end(), name) != s->globals.end()) break;
      if (auto it = s->vars.find(name); it != s->vars.end()) return &it->second;
    }
    auto it = f.module->globals.find(name);
    return it == f.module->globals.end() ? nullptr : &it->second;
  };
  const PyVal* v = nullptr;
  if (i > 0 && is_op(t[i - 1], ".")) {
    if (i < 2 || t[i - 2].kind != PyTok::Name || (i >= 3 && is_op(t[i - 3], "."))) return nullptr;
    const PyVal* mod = bound(t[i - 2].text);
    if (mod == nullptr || mod->kind != PyVal::Module || !mod->mod) return nullptr;
    auto it = mod->mod->globals.find(t[i].text);
    v = it == mod->mod->globals.end() ? nullptr : &it->second;
  } else {
    v = bound(t[i].text);
  }
  return v != nullptr && v->kind == PyVal::Func ? v->fn : nullptr;
}

std::optional<PyReader::Reached> PyReader::called_registration(const Frame& f, const std::vector<PyToken>& t,
                                                               std::size_t b, std::size_t e, int depth, int& low) {
  for (std::size_t i = b; i + 1 < e && i + 1 < t.size(); ++i) {
    if (t[i].kind != PyTok::Name || !is_op(t[i + 1], "(")) continue;
    if (auto g = called_function(f, t, i))
      if (auto r = search_registration(g, depth + 1, low)) return Reached{*r, g->sig.name};
  }
  return std::nullopt;
}

std::optional<PyReader::Reached> PyReader::reaches_registration(const Frame& f, const std::vector<PyToken>& t,
                                                                std::size_t b, std::size_t e) {
  if (mentions_registration(f, t, b, e) && b < t.size())
    return Reached{RegAt{Location{f.module->file, t[b].line, t[b].column}, nullptr}, {}};
  int low = 0;
  reg_cut_ = false;
  auto r = called_registration(f, t, b, e, 0, low);
  settle_registration_search(r.has_value());
  return r;
}

std::optional<PyReader::RegAt> PyReader::function_registration(const std::shared_ptr<const PyFunc>& fn) {
  int low = 0;
  reg_cut_ = false;
  auto r = search_registration(fn, 0, low);
  settle_registration_search(r.has_value());
  return r;
}

// A whole search that found no registration (and was not cut short): none of
// the functions it left undecided registers either.
void PyReader::settle_registration_search(bool found) {
  if (!found && !reg_cut_)
    for (auto& g : reg_pending_) reg_memo_.emplace(g.get(), RegMemo{g, std::nullopt});
  reg_pending_.clear();
}

// Depth-first through the calls; `low` is the smallest depth of a function
// being searched that this one reached (a cycle): a "none" is final only when
// it reached none above itself (or, in reaches_registration, when the whole
// search found none), as in Tarjan's strongly connected components.
std::optional<PyReader::RegAt> PyReader::search_registration(const std::shared_ptr<const PyFunc>& fp, int depth,
                                                             int& low) {
  const PyFunc& fn = *fp;
  if (auto it = reg_memo_.find(&fn); it != reg_memo_.end()) return it->second.at;
  if (auto it = reg_stack_.find(&fn); it != reg_stack_.end()) {
    low = std::min(low, it->second);
    return std::nullopt;
  }
  if (depth > kMaxCallDepth) {
    reg_cut_ = true;
    return std::nullopt;
  }
  auto body = code_of(fn);
  if (!body) return (reg_memo_[&fn] = RegMemo{fp, std::nullopt}).at;
  reg_stack_.emplace(&fn, depth);
  int my_low = depth;
  Frame g;
  g.module = fn.module;
  g.locals = fn.closure;
  std::optional<RegAt> found;
  for (std::size_t k = 0; k < body->lines.size() && !found; ++k) {
    const auto& line = body->lines[k];
    // The `def` line's header (its name and parameters) is no call.
    const std::size_t b = k == 0 ? header_colon(line, 1) + 1 : 0;
    if (k == 0 && b == 1) continue;
    if (mentions_registration(g, line, b, line.size()) && b < line.size())
      found = RegAt{Location{fn.module->file, line[b].line, line[b].column}, &fn};
    else if (auto r = called_registration(g, line, b, line.size(), depth, my_low))
      found = static_cast<const RegAt&>(*r);
  }
  reg_stack_.erase(&fn);
  low = std::min(low, my_low);
  if (found || (my_low >= depth && !reg_cut_))
    reg_memo_[&fn] = RegMemo{fp, found};
  else
    reg_pending_.push_back(fp);
  return found;
}

// The operators a region defines, where they are written literally
// ("ns::op" strings, lib.define("op(...)")): for a warning's `op`.
std::string PyReader::ops_defined_in(const std::vector<PyToken>& t, std::size_t b, std::size_t e) const {
  for (std::size_t i = b; i + 2 < e && i + 2 < t.size(); ++i) {
    if (t[i].kind != PyTok::Name || t[i + 1].text != "(" || t[i + 2].kind != PyTok::String || t[i + 2].fstring)
      continue;
    const std::string& s = t[i + 2].text;
    if (t[i].text == "custom_op" || t[i].text == "triton_op" || t[i].text == "define") {
      const std::size_t paren = s.find('(');
      return paren == std::string::npos ? s : s.substr(0, paren);
    }
  }
  return {};
}

void PyReader::warn_unread(const Frame& f, const PyCode& code, std::size_t b, std::size_t e, const std::string& why) {
  if (quiet_) return;
  for (std::size_t i = b; i < e && i < code.lines.size(); ++i) {
    const auto& t = code.lines[i];
    const auto reached = reaches_registration(f, t, 0, t.size());
    if (!reached) continue;
    const std::string op = ops_defined_in(t, 0, t.size());
    Location at{file_, t[0].line, t[0].column};
    std::string what = fmt::format("torch.library registration {}: not read", why);
    if (!op.empty())
      what += fmt::format(" (a definition of '{}' sits in this region, which dispatchtool does not read)", op);
    std::vector<Note> notes;
    // Said here: not again as a function no file calls.
    if (reached->in != nullptr) called_.insert(reached->in);
    if (!reached->via.empty())
      notes.push_back({reached->at, fmt::format("{}(...), called there, leads to this registration", reached->via)});
    warn(f, at, std::move(what), op, std::move(notes));
  }
}

void PyReader::warn_uncalled() {
  // Where other Python files are read, one of them may call it: they are read there.
  if (quiet_ || (project_ != nullptr && project_->size() > 1)) return;
  Frame f;
  f.module = module_;
  for (const auto& r : registering_) {
    if (called_.count(r.fn.get()) != 0) continue;
    std::string what = fmt::format(
        "torch.library registration in function '{}', which is not called at module level in this file: not read; "
        "dispatchtool reads a function's registrations where a file read calls it at module level (pass the files "
        "that call it)",
        r.fn->sig.name);
    if (!r.op.empty())
      what += fmt::format(" (a definition of '{}' sits in this region, which dispatchtool does not read)", r.op);
    warn(f, r.at, std::move(what), r.op);
  }
}

Expected<Blocks, Diagnostic> PyReader::run(std::string_view text, std::shared_ptr<PyModule> module) {
  module_ = std::move(module);
  heap_->add(module_);
  module_->text = text;
  module_->file = file_;
  module_->owner = this;
  module_->globals["__name__"] = PyVal::str(module_->name.empty() ? std::string("__dispatchtool_module__")
                                                                  : module_->name);
  Frame f;
  f.module = module_;
  // One top-level statement at a time (with its body, its elif/else/except
  // clauses and the decorators before a def): memory stays that of the
  // largest statement.
  PyLexer lex(file_, text);
  PyCode chunk;
  std::size_t tokens = 0;
  bool too_large = false;
  auto flush = [&]() {
    if (!chunk.lines.empty() && !too_large && !failed()) {
      std::vector<PyVal> decorators;
      std::size_t i = 0;
      while (i < chunk.lines.size() && !failed()) {
        const Flow flow = exec_line(f, chunk, i, chunk.lines.size(), decorators);
        if (flow == Flow::Raise) break;
      }
    }
    chunk.lines.clear();
    tokens = 0;
    too_large = false;
  };
  std::vector<PyToken> line;
  for (;;) {
    DT_TRY(more, lex.next_line(line));
    if (!more) break;
    const PyToken& first = line.front();
    const bool top = first.indent == 0;
    const bool clause = first.kind == PyTok::Name && (first.text == "elif" || first.text == "else" ||
                                                      first.text == "except" || first.text == "finally");
    const bool after_decorator =
        !chunk.lines.empty() && chunk.lines.back().front().kind == PyTok::Op && chunk.lines.back().front().text == "@" &&
        chunk.lines.back().front().indent == 0;
    if (top && !clause && !after_decorator) flush();
    if (failed()) break;
    tokens += line.size();
    if (tokens > kMaxChunkTokens) {
      if (!too_large) {
        Frame w;
        w.module = module_;
        warn(w, Location{file_, chunk.lines.empty() ? first.line : chunk.lines[0][0].line, 1},
             fmt::format("a top-level statement of more than {} tokens: not read", kMaxChunkTokens));
      }
      too_large = true;
      chunk.lines.clear();
      continue;
    }
    if (!too_large) chunk.lines.push_back(std::move(line));
  }
  flush();
  if (error_) return unexpected(std::move(*error_));
  warn_uncalled();
  drop_freed();
  return std::move(out_);
}

void load_module(const Profile& profile, PyProject& project, const std::shared_ptr<PyModule>& module) {
  PyReader r(profile, module->file, &project, true);
  (void)r.run(module->text, module);
  module->owner = nullptr;  // loaded: no reader writes its globals any more
}

}  // namespace pyread

Expected<Blocks, Diagnostic> read_python(const Profile& profile, FileName file, std::string_view text,
                                         PyProject* project) {
  auto m = std::make_shared<pyread::PyModule>();
  m->path = file.str();
  if (project != nullptr) m->name = project->module_name(m->path);
  return pyread::PyReader(profile, file, project, false).run(text, m);
}

}  // namespace dt
