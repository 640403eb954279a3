// The Python reader's Library lifetimes (readers/python_reader_impl.hpp): a
// torch.library.Library's registrations last as long as the Python object
// (torch/library.py: weakref.finalize(self, _del_library, ...) removes them
// when it is freed). What the reader can be sure is freed before the module
// has been imported is left out, and said at the Library(...) call:
// oracle.py_reader checks both forms against the releases.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "readers/python_reader_impl.hpp"

namespace dt::pyread {

namespace {

// Library's methods: calling one keeps no reference to the Library.
bool library_method_name(std::string_view m) {
  static constexpr std::string_view kMethods[] = {"define",
                                                  "impl",
                                                  "fallback",
                                                  "_register_fake",
                                                  "_destroy",
                                                  "_register_torch_dispatch_rule",
                                                  "_impl_with_aoti_compile"};
  return std::find(std::begin(kMethods), std::end(kMethods), m) != std::end(kMethods);
}

// Whether a function's body uses local `name` only as the object of
// Library's methods (`name.define(...)`), as an assignment's target or in
// `del`: then nothing but the frame refers to what it holds. A use inside a
// nested def, class or lambda (a closure may keep it), a generator (its frame
// lives on), global / nonlocal and the introspection builtins make it unsure.
bool local_only(const PyCode& code, std::string_view name) {
  bool nested = false;  // passing the body of a nested def / class, at nested_indent
  std::uint32_t nested_indent = 0;
  for (std::size_t l = 0; l < code.lines.size(); ++l) {
    const std::vector<PyToken>& t = code.lines[l];
    std::size_t k = 0;
    if (l == 0) {  // the header: from its ':' (a body on the same line)
      k = header_colon(t, 0);
      if (k == 0) return false;
      ++k;
    } else {
      if (nested && t[0].indent <= nested_indent) nested = false;
      if (!nested && (is_word(t[0], "def") || is_word(t[0], "class") || is_word(t[0], "async") || is_op(t[0], "@"))) {
        nested = true;
        nested_indent = t[0].indent;
      }
    }
    bool in_lambda = false;
    for (; k < t.size(); ++k) {
      if (t[k].kind != PyTok::Name) continue;
      const std::string_view w = t[k].text;
      if (w == "yield" || w == "global" || w == "nonlocal" || w == "locals" || w == "vars" || w == "exec" ||
          w == "eval" || w == "globals")
        return false;
      in_lambda = in_lambda || w == "lambda";
      if (w != name || (k > 0 && is_op(t[k - 1], "."))) continue;
      if (nested || in_lambda) return false;
      const bool target = k + 1 < t.size() && is_op(t[k + 1], "=");
      const bool deleted = is_word(t[0], "del");
      const bool method = k + 3 < t.size() && is_op(t[k + 1], ".") && t[k + 2].kind == PyTok::Name &&
                          library_method_name(t[k + 2].text) && is_op(t[k + 3], "(");
      if (!target && !deleted && !method) return false;
    }
  }
  return true;
}

}  // namespace

void PyReader::free_temporaries(const PyExpr& statement, std::size_t made_before, Location at) {
  // The object of the method chain: Library(...).define(...).impl(...) -> Library(...).
  const PyExpr* x = &statement;
  while (x->kind == PyExpr::Call && !x->base.empty() && x->base[0].kind == PyExpr::Attr && !x->base[0].base.empty())
    x = &x->base[0].base[0];
  if (x->kind != PyExpr::Call) return;
  for (std::size_t i = made_before; i < made_libs_.size(); ++i)
    if (made_libs_[i]->at == x->at)
      freed_.emplace(made_libs_[i].get(), Freed{at, "a temporary, freed once this statement has run"});
}

void PyReader::free_locals(const Frame& callee, const PyCode& code, const PyFunc& fn, std::size_t made_before,
                           Location call) {
  if (!callee.locals) return;
  // The Libraries made during the call and bound to its locals (del'd since, or not), each only there.
  std::map<std::string_view, bool> verdicts;  // local_only per name: the body is scanned once per name
  const auto only_local = [&](std::string_view name) {
    const auto [it, fresh] = verdicts.emplace(name, false);
    if (fresh) it->second = local_only(code, name);
    return it->second;
  };
  for (std::size_t i = made_before; i < made_libs_.size(); ++i) {
    const PyLib* lib = made_libs_[i].get();
    const auto names = lib_locals_.find(lib);
    if (lib->owner != this || freed_.contains(lib) || names == lib_locals_.end()) continue;
    const bool only_here = std::all_of(names->second.begin(), names->second.end(), [&](const auto& n) {
      return n.first == callee.locals.get() && only_local(n.second);
    });
    if (!only_here) continue;
    freed_.emplace(lib, Freed{call, fmt::format("a local of {}(), freed when it returns (called at {}:{})", fn.sig.name,
                                                call.file.view(), call.line)});
  }
}

void PyReader::unbind_library(const Frame& f, const std::string& name, const PyVal* next, Location at) {
  if (quiet_ || f.locals) return;
  const auto it = f.module->globals.find(name);
  if (it == f.module->globals.end() || it->second.kind != PyVal::Lib || !it->second.lib) return;
  const PyLib* lib = it->second.lib.get();
  // Its last block has entries iff it registered anything: only Library(...) itself opens one empty.
  const auto block = lib_blocks_.find(lib);
  if (lib->owner != this || block == lib_blocks_.end() || out_.blocks[block->second].entries.empty() ||
      freed_.contains(lib))
    return;
  if (next != nullptr && next->kind == PyVal::Lib && next->lib.get() == lib) return;
  Frame w;
  w.module = module_;
  warn(w, at,
       fmt::format("{} {}: torch.library removes what was registered through the torch.library.Library({:?}, {:?}) "
                   "of line {} once nothing refers to it, which dispatchtool does not decide: its registrations are "
                   "kept",
                   next == nullptr ? "del" : "rebinding", name, lib->ns, lib->kind, lib->at.line));
}

void PyReader::drop_freed() {
  if (freed_.empty() || quiet_) return;
  std::vector<bool> drop(out_.blocks.size(), false);
  struct Lost {
    std::size_t registrations = 0;
    std::vector<std::string> defined;
  };
  std::map<const PyLib*, Lost> lost;
  for (const auto& [index, lib] : lib_block_list_) {
    if (index >= drop.size() || !freed_.contains(lib)) continue;
    drop[index] = true;
    Lost& l = lost[lib];
    for (const TomlEntry& e : out_.blocks[index].entries) {
      ++l.registrations;
      if (e.kind != "def") continue;
      for (const TomlField& field : e.fields)
        if (const auto* s = std::get_if<std::string>(&field.value); s != nullptr && field.key == "schema") {
          const std::string name = s->substr(0, s->find('('));
          l.defined.push_back(name.find("::") == std::string::npos ? lib->ns + "::" + name : name);
        }
    }
  }
  Frame w;
  w.module = module_;
  for (const std::shared_ptr<const PyLib>& made : made_libs_) {  // in the order they were made
    const auto it = lost.find(made.get());
    if (it == lost.end()) continue;
    const PyLib* lib = made.get();
    const Lost& l = it->second;
    const Freed& why = freed_.at(lib);
    warn(w, lib->at,
         fmt::format("torch.library.Library({:?}, {:?}) here is {}: torch.library then removes what was registered "
                     "through it ({} registration{}{}), and dispatchtool leaves it out; keep the Library referenced "
                     "(a module-level name) to keep them",
                     lib->ns, lib->kind, why.why, l.registrations, l.registrations == 1 ? "" : "s",
                     l.defined.empty() ? std::string() : fmt::format(": {}", fmt::join(l.defined, ", "))));
  }
  // (The PrivateUse1 name has a block of its own: rename_privateuse1.)
  std::vector<TomlBlock> kept;
  kept.reserve(out_.blocks.size());
  for (std::size_t i = 0; i < out_.blocks.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(out_.blocks[i]));
  out_.blocks = std::move(kept);
}

}  // namespace dt::pyread
