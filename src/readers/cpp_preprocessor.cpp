// preprocess_cpp (cpp_preprocessor.hpp): a stack of files being read, a
// stack of #if groups, and runs of tokens between directives expanded by
// CppExpander (cpp_macros.hpp).
#include "readers/cpp_preprocessor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "base/text.hpp"
#include "readers/cpp_condition.hpp"

namespace dt {

std::vector<Note> CppScan::notes(const CppToken& t) const {
  std::vector<Note> out;
  if (t.expansion == 0 || macros == nullptr || t.expansion > macros->expansions.size()) return out;
  const CppExpansion& e = macros->expansions[t.expansion - 1];
  if (e.defined.known())
    out.push_back(Note{e.defined, fmt::format("expanded from macro '{}'", e.macro)});
  else
    out.push_back(Note{at(t), fmt::format("expanded from macro '{}' (defined on the command line)", e.macro)});
  return out;
}

namespace {

bool is_directive_start(const CppToken& t) { return t.bol && is_punct(t, "#"); }

// Headers of PyTorch: never read (the profile's prelude stands for them).
bool pytorch_header(std::string_view name) {
  for (std::string_view p : {"torch/", "ATen/", "c10/", "caffe2/", "TH/", "THC/"})
    if (name.starts_with(p)) return true;
  return false;
}

std::string dir_of(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

std::string joined(const std::string& dir, std::string_view name) {
  if (name.starts_with('/') || dir.empty()) return std::string(name);
  return dir + "/" + std::string(name);
}

// Registration macros the reader reads itself, and how many arguments each takes.
struct Kept {
  std::string_view name;
  std::size_t args;
};
constexpr Kept kKept[] = {{"TORCH_LIBRARY", 2},         {"TORCH_LIBRARY_FRAGMENT", 2},
                          {"TORCH_LIBRARY_IMPL", 3},    {"STABLE_TORCH_LIBRARY", 2},
                          {"STABLE_TORCH_LIBRARY_FRAGMENT", 2}, {"STABLE_TORCH_LIBRARY_IMPL", 3},
                          {"TORCH_SELECTIVE_NAME", 1},  {"TORCH_SELECTIVE_SCHEMA", 1},
                          {"TORCH_FN", 1}};

class Preprocessor {
 public:
  Preprocessor(const Profile& p, FileName file, std::string_view text, const CppOptions& o)
      : profile_(p), text_(text), o_(o) {
    out_.macros = std::make_shared<CppMacros>();
    out_.macros->max_produced = o.max_expanded_tokens;
    out_.files.push_back(file);
    builtin_ = [this](const CppToken& t) { return builtin(t); };
  }

  Expected<CppScan, Diagnostic> run(bool read_all) {
    DT_TRY_VOID(setup());
    const bool may_register = read_all || text_.find("TORCH_LIBRARY") != std::string_view::npos ||
                              text_.find("RegisterOperators") != std::string_view::npos ||
                              text_.find("TorchLibraryInit") != std::string_view::npos;
    directives_only_ = !may_register;
    DT_TRY(lexed, lex_cpp(out_.files[0], text_, directives_only_ ? CppKeep::Directives : CppKeep::All));
    frames_.push_back(Frame{std::move(lexed.tokens), 0, 0, 0, dir_of(out_.files[0].view())});
    for (auto it = o_.forced_includes.rbegin(); it != o_.forced_includes.rend(); ++it)
      DT_TRY_VOID(include_file(*it, Location{out_.files[0], 1, 1}, true));
    DT_TRY_VOID(loop());
    if (directives_only_) {
      // No block can start here unless a macro of the headers starts one.
      if (!user_macro_registers()) {
        out_.tokens.clear();
        return std::move(out_);
      }
      return Preprocessor(profile_, out_.files[0], text_, o_).run(true);
    }
    join_adjacent_strings(out_.tokens);
    return std::move(out_);
  }

 private:
  struct Frame {
    std::vector<CppToken> toks;
    std::size_t i = 0;
    std::uint16_t file = 0;
    std::size_t groups = 0;  // how many #if groups were open when it started
    std::string dir;
  };
  struct Group {
    bool parent_active = true;
    bool active = false;
    bool taken = false;  // a branch of the chain was taken (or the chain is inside an inactive one)
    bool after_else = false;
    std::vector<std::string> unknown;  // the names the chain's conditions rested on so far
    std::uint32_t cond = 0;            // 1 + index in CppScan::conditions of the branch now open, or the parent's
    Location at;
    bool warned = false;  // a registration inside it was reported as not read
    std::size_t warning = 0;  // that report's index in CppScan::warnings
  };

  // ---- set-up: predefined macros, the release's prelude, -D and -U, kept macros ----

  Expected<bool, Diagnostic> setup() {
    CppMacros& m = *out_.macros;
    const std::string_view name = out_.files[0].view();
    std::vector<std::pair<std::string, std::string>> predefined = {
        {"__cplusplus", "201703L"}, {"__GNUC__", "12"},  {"__GNUC_MINOR__", "2"},
        {"__linux__", "1"},         {"__x86_64__", "1"}, {"__STDC_HOSTED__", "1"}};
    if (name.ends_with(".cu") || name.ends_with(".cuh")) {
      predefined.emplace_back("__CUDACC__", "1");
      predefined.emplace_back("__NVCC__", "1");
    }
    for (auto& [n, v] : predefined) define_text(n, v, Location{});
    if (auto r = read_prelude(); !r) return r;
    for (const auto& [n, v] : o_.defines) {
      if (!v) {
        m.undefine(n);
        undefined_.insert(n);
        continue;
      }
      define_text(n, *v, Location{});
    }
    for (const Kept& k : kKept) {
      std::vector<bool> expand(k.args, true);
      // The namespace of a library block is the argument as written when the
      // release's macro stringizes it directly (#ns, torch 2.6's
      // TORCH_LIBRARY), expanded when it passes it on first (C10_STRINGIZE(ns)).
      if (k.args >= 2) {
        expand[0] = namespace_expanded(k.name);
        expand[k.args - 1] = false;  // the library handle's name
      }
      m.keep(std::string(k.name), std::move(expand));
    }
    return true;
  }

  void define_text(const std::string& name, const std::string& value, Location at) {
    if (name.find('(') != std::string::npos) {  // -D'F(x)=body': a function-like macro
      auto lexed = lex_cpp(FileName{}, out_.macros->store(name + " " + value));
      if (!lexed) return;
      std::vector<CppToken> line = std::move(lexed->tokens);
      while (!line.empty() && line.back().kind == CppToken::Kind::Eod) line.pop_back();
      if (auto m = parse_macro_definition(line, at)) out_.macros->define(std::move(*m));
      return;
    }
    CppMacro mac;
    mac.name = name;
    mac.defined = at;
    auto lexed = lex_cpp(FileName{}, out_.macros->store(value));
    if (lexed) mac.body = std::move(lexed->tokens);
    // A -D value like `1 2` is one body; a body that does not lex stays empty.
    out_.macros->define(std::move(mac));
  }

  Expected<bool, Diagnostic> read_prelude() {
    const std::string_view text = cpp_prelude(profile_);
    if (text.empty()) return true;
    const FileName name(fmt::format("<{} prelude>", profile_.name()));
    DT_TRY(lexed, lex_cpp(name, text, CppKeep::Directives));
    const std::vector<CppToken>& t = lexed.tokens;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (!is_directive_start(t[i]) || i + 1 >= t.size() || !t[i + 1].is("define")) continue;
      std::size_t e = i + 2;
      while (e < t.size() && t[e].kind != CppToken::Kind::Eod) ++e;
      std::vector<CppToken> line(t.begin() + static_cast<std::ptrdiff_t>(i) + 2, t.begin() + static_cast<std::ptrdiff_t>(e));
      for (CppToken& x : line) x.file = 0;
      if (auto m = parse_macro_definition(line, Location{})) {
        m->defined = Location{};
        prelude_names_.insert(m->name);
        prelude_defs_.push_back(*m);
        out_.macros->define(std::move(*m));
      }
      i = e;
    }
    return true;
  }

  // Whether the release's definition of a block macro stringizes its namespace after expanding it.
  bool namespace_expanded(std::string_view macro) const {
    for (const CppMacro& m : prelude_defs_) {
      if (m.name != macro || m.params.empty()) continue;
      const std::string& ns = m.params[0];
      for (std::size_t i = 0; i < m.body.size(); ++i) {
        const CppToken& t = m.body[i];
        if (t.kind != CppToken::Kind::Ident || t.text != ns) continue;
        const bool after_hash = i > 0 && is_punct(m.body[i - 1], "#");
        const bool before_hash = i + 1 < m.body.size() && is_punct(m.body[i + 1], "#");
        if (!after_hash && !before_hash) return true;
      }
      return false;
    }
    return macro != "TORCH_LIBRARY" && macro != "STABLE_TORCH_LIBRARY";  // torch 2.6's, without a prelude
  }

  // ---- builtins ----

  std::optional<CppToken> builtin(const CppToken& t) {
    if (t.text.size() < 8 || t.text[0] != '_' || t.text[1] != '_') return std::nullopt;
    CppToken out = t;
    if (t.text == "__LINE__") {
      out.kind = CppToken::Kind::Number;
      out.text = out_.macros->store(std::to_string(t.line));
      return out;
    }
    if (t.text == "__FILE__") {
      out.kind = CppToken::Kind::String;
      out.value = out_.files[t.file].str();
      out.text = out_.macros->store(json_quote(out.value));
      out.value_line = t.line;
      out.value_col = t.col;
      return out;
    }
    if (t.text == "__COUNTER__") {
      out.kind = CppToken::Kind::Number;
      out.text = out_.macros->store(std::to_string(counter_++));
      return out;
    }
    return std::nullopt;
  }

  // ---- the main loop ----

  [[nodiscard]] bool active() const { return groups_.empty() || groups_.back().active; }
  [[nodiscard]] std::uint32_t cond() const { return groups_.empty() ? 0 : groups_.back().cond; }

  Expected<bool, Diagnostic> loop() {
    while (!frames_.empty()) {
      Frame& f = frames_.back();
      if (f.i >= f.toks.size()) {
        if (auto r = end_of_file(); !r) return r;
        continue;
      }
      if (is_directive_start(f.toks[f.i])) {
        if (auto r = directive(); !r) return r;
        continue;
      }
      if (!active()) {
        skipped(f);
        continue;
      }
      // The tokens up to the next directive, expanded as they are pulled from the file (no copy of the run).
      const std::uint16_t file = f.file;
      const std::uint32_t c = cond();
      const std::uint32_t first_line = f.toks[f.i].line;
      if (directives_only_) {
        while (f.i < f.toks.size() && !is_directive_start(f.toks[f.i])) ++f.i;
        continue;
      }
      const CppExpander::More more = [&f, file, c]() -> std::optional<CppToken> {
        if (f.i >= f.toks.size() || is_directive_start(f.toks[f.i])) return std::nullopt;
        CppToken t = std::move(f.toks[f.i++]);
        t.file = file;
        t.cond = c;
        return t;
      };
      CppExpander x(*out_.macros, builtin_);
      auto r = x.run({}, out_.tokens, more);
      if (!r) return unexpected(make_error(Location{out_.files[file], first_line, 1}, std::move(r.error().message)));
      if (!x.unclosed.empty())
        // At the macro's name (a token the expansion made: where its outermost macro was invoked).
        warn(x.unclosed_line != 0 ? Location{out_.files[file], x.unclosed_line, x.unclosed_col}
                                  : Location{out_.files[file], first_line, 1},
             fmt::format("the arguments of macro '{}' go on past this preprocessor line: not expanded", x.unclosed));
    }
    groups_.clear();  // an #if left open (a fragment of a file, like libstdc++'s *_imps.hpp): what was read stands
    return true;
  }

  Expected<bool, Diagnostic> end_of_file() {
    // An #if a file leaves open ends with it (as a compiler, which reports it).
    Frame& f = frames_.back();
    if (groups_.size() > f.groups) groups_.resize(f.groups);
    frames_.pop_back();
    return true;
  }

  void warn(Location at, std::string msg) {
    Diagnostic d = make_error(std::move(at), std::move(msg));
    d.severity = Severity::Warning;
    out_.warnings.push_back(std::move(d));
  }

  // A token of a group not taken: a registration there is said not read
  // when the group was skipped for a name nothing defines.
  void skipped(Frame& f) {
    const CppToken& t = f.toks[f.i];
    std::size_t g = groups_.size();
    while (g > 0 && groups_[g - 1].unknown.empty()) --g;
    if (g > 0 && !groups_[g - 1].warned && registers_at(f.toks, f.i)) {
      Group& grp = groups_[g - 1];
      grp.warned = true;
      // At the call's object (m.impl): the statement, not its '.'.
      const CppToken& at = t.kind == CppToken::Kind::Punct && f.i > 0 && f.toks[f.i - 1].kind == CppToken::Kind::Ident
                               ? f.toks[f.i - 1]
                               : t;
      grp.warning = out_.warnings.size();
      const UnknownWhy why = unknown_why(grp.unknown);
      warn(Location{out_.files[f.file], at.line, at.col},
           fmt::format("not read: this registration is in the #if group at line {}, which is not compiled because "
                       "{}; {} to read it",
                       grp.at.line, why.why, why.fix));
    }
    // .def("name(...)": the operator a def not read names.
    if (g > 0 && groups_[g - 1].warned && (is_punct(t, ".") || is_punct(t, "->")) && f.i + 3 < f.toks.size() &&
        f.toks[f.i + 1].is("def") && is_punct(f.toks[f.i + 2], "(") &&
        f.toks[f.i + 3].kind == CppToken::Kind::String && out_.unread_defs.size() < 100000) {
      const CppToken& lit = f.toks[f.i + 3];
      std::string name = lit.value.substr(0, lit.value.find('('));
      while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
      if (!name.empty())
        out_.unread_defs.push_back(
            CppScan::UnreadDef{groups_[g - 1].warning, Location{out_.files[f.file], lit.line, lit.col}, std::move(name)});
    }
    ++f.i;
  }

  bool registers_at(const std::vector<CppToken>& t, std::size_t i) const {
    return cpp_registers_at(*out_.macros, prelude_names_, t, i);
  }

  bool user_macro_registers() {
    for (const std::string& n : defined_names_)
      if (const CppMacro* m = out_.macros->find(n); m != nullptr && !prelude_names_.contains(n)) {
        std::unordered_set<std::string> seen;
        if (cpp_macro_registers(*out_.macros, prelude_names_, *m, seen)) return true;
      }
    return false;
  }

  // ---- directives ----

  // The directive's tokens after '#' and its name, up to its Eod (consumed).
  std::vector<CppToken> rest_of_directive(Frame& f) {
    std::vector<CppToken> out;
    while (f.i < f.toks.size() && f.toks[f.i].kind != CppToken::Kind::Eod) {
      CppToken t = std::move(f.toks[f.i++]);
      t.file = f.file;
      out.push_back(std::move(t));
    }
    if (f.i < f.toks.size()) ++f.i;  // the Eod
    return out;
  }

  Expected<bool, Diagnostic> directive() {
    Frame& f = frames_.back();
    const CppToken hash = f.toks[f.i++];
    const Location at{out_.files[f.file], hash.line, hash.col};
    std::string_view name;
    if (f.i < f.toks.size() && f.toks[f.i].kind == CppToken::Kind::Ident) name = f.toks[f.i++].text;
    std::vector<CppToken> rest = rest_of_directive(f);
    if (name == "if" || name == "ifdef" || name == "ifndef") return open_group(name, rest, at);
    if (name == "elif" || name == "elifdef" || name == "elifndef") return elif(name, rest, at);
    // An #else or #endif without its #if (a fragment of a file) is left alone, as what follows is read.
    if (name == "else") {
      if (groups_.size() <= frames_.back().groups) return true;
      Group& g = groups_.back();
      g.active = g.parent_active && !g.taken;
      g.taken = true;
      g.after_else = true;
      g.cond = branch_cond(g, at);
      return true;
    }
    if (name == "endif") {
      if (groups_.size() <= frames_.back().groups) return true;
      groups_.pop_back();
      return true;
    }
    if (!active()) return true;
    if (name == "define") {
      if (auto m = parse_macro_definition(rest, at)) {
        defined_names_.push_back(m->name);
        out_.macros->define(std::move(*m));
      }
      return true;
    }
    if (name == "undef") {
      if (!rest.empty() && rest[0].kind == CppToken::Kind::Ident) out_.macros->undefine(rest[0].text);
      return true;
    }
    if (name == "include" || name == "include_next") return include(rest, at);
    if (name == "pragma" && !rest.empty() && rest[0].is("once")) {
      once_.insert(out_.files[frames_.back().file].str());
      return true;
    }
    return true;
  }

  // The condition's value: `defined`, `__has_include`, then macros expanded, then evaluated.
  Expected<CppConditionValue, Diagnostic> condition(std::vector<CppToken> t, const Location& at) {
    std::vector<std::string> queried;  // compiler queries taken as 0
    const CppConditionQueries queries{
        [this](std::string_view n) { return out_.macros->find(n) != nullptr; },
        [this](const std::string& name, bool quoted) {
          return pytorch_header(name) || resolve_include(name, quoted).has_value();
        }};
    const auto resolve = [&](std::vector<CppToken>& in) { resolve_condition_queries(in, queries, queried); };
    resolve(t);
    std::vector<CppToken> expanded;
    CppExpander x(*out_.macros, builtin_);
    if (auto r = x.run(std::move(t), expanded); !r) return unexpected(make_error(at, std::move(r.error().message)));
    resolve(expanded);
    auto v = evaluate_condition(expanded);
    if (!v) {
      // What a compiler evaluates and this cannot (1 / X where X is a name nothing here defines,
      // a type in a condition): false, resting on every name in it. Said here only when no name
      // explains it; registrations it decides are said to depend on it anyway.
      CppConditionValue none;
      for (const CppToken& e : expanded)
        if (e.kind == CppToken::Kind::Ident &&
            std::find(none.unknown.begin(), none.unknown.end(), e.text) == none.unknown.end())
          none.unknown.emplace_back(e.text);
      if (none.unknown.empty()) {
        warn(at, fmt::format("#if: {}: this condition is taken as false", v.error().message));
        none.unknown.emplace_back("(the condition)");
      }
      return none;
    }
    for (auto& q : queried) v->unknown.push_back(std::move(q));
    return std::move(*v);
  }

  // A name not defined that nothing rests on: one -U undefined, or an include
  // guard (the directive right after the condition defines it: #ifndef X_H /
  // #define X_H).
  bool settled(std::string_view name) const {
    if (undefined_.contains(name)) return true;
    const Frame& f = frames_.back();
    return f.i + 2 < f.toks.size() && is_punct(f.toks[f.i], "#") && f.toks[f.i + 1].is("define") &&
           f.toks[f.i + 2].text == name;
  }

  std::uint32_t branch_cond(Group& g, const Location& at) {
    if (g.unknown.empty()) return groups_.size() >= 2 ? groups_[groups_.size() - 2].cond : 0;
    out_.conditions.push_back(CppCondition{at, g.unknown, g.active});
    return static_cast<std::uint32_t>(out_.conditions.size());
  }

  Expected<bool, Diagnostic> open_group(std::string_view kind, std::vector<CppToken>& t, const Location& at) {
    Group g;
    g.at = at;
    g.parent_active = active();
    g.cond = cond();
    groups_.push_back(g);
    Group& ng = groups_.back();
    if (!ng.parent_active) {
      ng.taken = true;
      ng.unknown.clear();
      return true;
    }
    return branch(kind, t, at);
  }

  Expected<bool, Diagnostic> elif(std::string_view kind, std::vector<CppToken>& t, const Location& at) {
    if (groups_.size() <= frames_.back().groups) return true;
    Group& g = groups_.back();
    if (!g.parent_active || g.taken) {
      g.active = false;
      return true;
    }
    return branch(kind, t, at);
  }

  // Decides the branch now starting in the innermost group.
  Expected<bool, Diagnostic> branch(std::string_view kind, std::vector<CppToken>& t, const Location& at) {
    Group& g = groups_.back();
    g.at = at;
    bool value = false;
    if (kind == "ifdef" || kind == "ifndef" || kind == "elifdef" || kind == "elifndef") {
      // __has_include is defined for #ifdef as for defined() ([cpp.cond]).
      const bool defined =
          !t.empty() && t[0].kind == CppToken::Kind::Ident &&
          (out_.macros->find(t[0].text) != nullptr || t[0].is("__has_include") || t[0].is("__has_include_next"));
      value = (kind == "ifdef" || kind == "elifdef") ? defined : !defined;
      if (!defined && !t.empty() && t[0].kind == CppToken::Kind::Ident && !settled(t[0].text))
        if (std::find(g.unknown.begin(), g.unknown.end(), t[0].text) == g.unknown.end())
          g.unknown.emplace_back(t[0].text);
    } else {
      DT_TRY(v, condition(std::move(t), at));
      value = v.value;
      for (auto& n : v.unknown)
        if (std::find(g.unknown.begin(), g.unknown.end(), n) == g.unknown.end() && !settled(n))
          g.unknown.push_back(std::move(n));
    }
    g.active = value;
    g.taken = g.taken || value;
    g.cond = branch_cond(g, at);
    return true;
  }

  // ---- includes ----

  std::optional<std::string> resolve_include(const std::string& name, bool quoted) {
    if (o_.fs == nullptr || name.empty()) return std::nullopt;
    std::vector<std::string> candidates;
    if (name.starts_with('/')) {
      candidates.push_back(name);
    } else {
      if (quoted) {
        candidates.push_back(joined(frames_.empty() ? std::string() : frames_.back().dir, name));
        for (const auto& d : o_.quote_dirs) candidates.push_back(joined(d, name));
      }
      for (const auto& d : o_.include_dirs) candidates.push_back(joined(d, name));
    }
    for (auto& c : candidates)
      if (o_.fs->kind && o_.fs->kind(c) == FileKind::Regular) return std::move(c);
    return std::nullopt;
  }

  Expected<bool, Diagnostic> include(std::vector<CppToken>& t, const Location& at) {
    if (!t.empty() && t[0].kind != CppToken::Kind::HeaderName && t[0].kind != CppToken::Kind::String) {
      // #include MACRO: expanded first.
      std::vector<CppToken> expanded;
      CppExpander x(*out_.macros, builtin_);
      if (auto r = x.run(std::move(t), expanded); !r) return unexpected(make_error(at, std::move(r.error().message)));
      t = std::move(expanded);
    }
    if (t.empty() || (t[0].kind != CppToken::Kind::HeaderName && t[0].kind != CppToken::Kind::String)) return true;
    const bool quoted = t[0].kind == CppToken::Kind::String;
    const std::string name = t[0].value;
    if (pytorch_header(name)) return true;
    auto path = resolve_include(name, quoted);
    if (!path) {
      out_.missing_includes.push_back(CppMissingInclude{quoted ? "\"" + name + "\"" : "<" + name + ">", at});
      return true;
    }
    return include_file(*path, at, false);
  }

  Expected<bool, Diagnostic> include_file(const std::string& path, const Location& at, bool forced) {
    if (once_.contains(path)) return true;
    if (frames_.size() > static_cast<std::size_t>(kCppMaxIncludeDepth))
      return unexpected(make_error(at, fmt::format("#include nested deeper than {} files (limit: {}); an include "
                                                   "cycle without a guard?",
                                                   kCppMaxIncludeDepth, kCppMaxIncludeDepth)));
    if (o_.fs == nullptr || !o_.fs->read_inside) return true;
    auto text = o_.fs->read_inside(path, include_roots());
    if (!text) {
      if (text.error().code == kInputTooLarge) return unexpected(std::move(text.error()));
      if (text.error().code == kOutsideRoots) {  // where it may not read: as a header not found
        out_.missing_includes.push_back(CppMissingInclude{"\"" + path + "\"", at});
        return true;
      }
      warn(at, fmt::format("cannot read the included file '{}': {}", printable(path), text.error().message));
      return true;
    }
    if (out_.files.size() >= 65535) return unexpected(make_error(at, "more than 65,535 files included"));
    const auto id = static_cast<std::uint16_t>(out_.files.size());
    out_.files.emplace_back(path);
    out_.texts.push_back(std::make_unique<std::string>(std::move(*text)));
    DT_TRY(lexed, lex_cpp(out_.files[id], *out_.texts.back(), directives_only_ ? CppKeep::Directives : CppKeep::All));
    (void)forced;
    frames_.push_back(Frame{std::move(lexed.tokens), 0, id, groups_.size(), dir_of(path)});
    return true;
  }

  // Where an included file may lie (FileSystem::read_inside): below --inside's
  // directories when the front end set them (CI on a pull request), else below
  // the current directory or the source's own; and below the include
  // directories the flags name. A regular file only, never a device or FIFO.
  const Roots& include_roots() {
    if (!roots_.empty()) return roots_;
    if (o_.fs->scope != nullptr && !o_.fs->scope->inside.empty()) {
      roots_ = o_.fs->scope->inside;
    } else {
      roots_.emplace_back(".");
      std::string top = dir_of(out_.files[0].view());
      roots_.push_back(top.empty() ? std::string(".") : std::move(top));
    }
    for (const auto& d : o_.quote_dirs) roots_.push_back(d);
    for (const auto& d : o_.include_dirs) roots_.push_back(d);
    return roots_;
  }

  // ---- output ----

  const Profile& profile_;
  std::string_view text_;
  const CppOptions& o_;
  CppScan out_;
  CppExpander::Builtin builtin_;
  std::vector<Frame> frames_;
  std::vector<Group> groups_;
  std::unordered_set<std::string> once_;
  std::unordered_set<std::string> prelude_names_;
  std::unordered_set<std::string, CppNameHash, std::equal_to<>> undefined_;  // the names -U undefined
  Roots roots_;                                                              // include_roots()
  std::vector<CppMacro> prelude_defs_;
  std::vector<std::string> defined_names_;
  std::uint32_t counter_ = 0;
  bool directives_only_ = false;
};

}  // namespace

std::string_view cpp_prelude(const Profile& profile) {
  if (!profile.cpp_prelude().empty()) return profile.cpp_prelude();
  for (const auto& [name, text] : embedded_cpp_preludes())
    if (name == profile.name()) return text;
  return {};
}

Expected<CppScan, Diagnostic> preprocess_cpp(const Profile& profile, FileName file, std::string_view text,
                                             const CppOptions& options, bool read_all) {
  return Preprocessor(profile, file, text, options).run(read_all);
}

}  // namespace dt
