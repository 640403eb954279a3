// The Python reader's control flow (readers/python_reader_impl.hpp): if /
// elif / else (decided where the condition is known; where it is not, every
// branch is read, each on the names as they were before the `if`, its
// registrations warned, and the names the branches bind are joined), for
// loops over values the reader knows (unrolled), try (its body read as if
// it raises nothing, its except clauses warned, else and finally read).
#include <fmt/format.h>

#include <algorithm>

#include "readers/python_reader_impl.hpp"

namespace dt::pyread {

Flow PyReader::exec_if(Frame& f, const PyCode& code, std::size_t& i, std::size_t e) {
  struct Clause {
    std::size_t line, colon;
    bool is_else;
  };
  const std::uint32_t indent = code.lines[i][0].indent;
  std::vector<Clause> clauses;
  std::size_t j = i;
  for (;;) {
    const auto& t = code.lines[j];
    const bool is_else = is_word(t[0], "else");
    clauses.push_back({j, is_else ? 1 : header_colon(t, 1), is_else});
    j = body_end(code, j, e);
    if (j >= e || code.lines[j][0].indent != indent || is_else) break;
    if (!is_word(code.lines[j][0], "elif") && !is_word(code.lines[j][0], "else")) break;
  }
  const std::size_t end = j;
  i = end;
  // Which branches can run: conditions decided in order; from the first
  // undecided one on, every branch that is not known false.
  struct Possible {
    std::size_t clause;
    std::vector<Cond> conds;
  };
  std::vector<Possible> possible;
  std::vector<Cond> undecided;
  bool exhaustive = false;
  for (std::size_t k = 0; k < clauses.size(); ++k) {
    const Clause& c = clauses[k];
    const auto& t = code.lines[c.line];
    if (c.colon == 0) return Flow::Normal;
    bool known = true, holds = true;
    if (!c.is_else) {
      std::size_t p = 1;
      auto cond = parse_py_expr(f.module->file, t, p);
      const auto v = cond ? truth(eval(f, *cond)) : std::nullopt;
      known = v.has_value();
      holds = v.value_or(false);
    }
    const Location at{f.module->file, t[0].line, t[0].column};
    if (known && !holds) continue;
    possible.push_back({k, undecided});
    if (known) {
      exhaustive = true;
      break;
    }
    undecided.push_back({at, fmt::format("the condition `{}` ({}:{})", token_text(t, 1, c.colon), at.file.view(),
                                         at.line)});
    possible.back().conds = undecided;
  }
  if (possible.empty()) return Flow::Normal;
  if (possible.size() == 1 && exhaustive && undecided.empty())
    return exec_body(f, code, clauses[possible[0].clause].line, clauses[possible[0].clause].colon, end);
  // Undecided: every possible branch, each on the names as they were before
  // the `if`; the names they bind are joined afterwards.
  Journal j0;
  std::vector<std::map<std::pair<const void*, std::string>, std::optional<PyVal>>> ends;
  std::vector<Flow> flows;
  std::optional<PyVal> returned;
  for (const Possible& pb : possible) {
    const Clause& c = clauses[pb.clause];
    f.journals.emplace_back();
    const std::size_t nconds = f.conds.size();
    f.conds.insert(f.conds.end(), pb.conds.begin(), pb.conds.end());
    const bool was_maybe = f.returned_maybe;
    f.returned_maybe = true;
    Flow flow = exec_body(f, code, c.line, c.colon, end);
    f.returned_maybe = was_maybe || flow == Flow::Return;
    if (flow == Flow::Return && f.returned) returned = returned ? join(*returned, *f.returned, undecided[0]) : *f.returned;
    f.conds.resize(nconds);
    // What this branch bound, then the names as they were.
    Journal jb = std::move(f.journals.back());
    f.journals.pop_back();
    std::map<std::pair<const void*, std::string>, std::optional<PyVal>> end_state;
    for (auto& [key, old] : jb.old) {
      auto* map = static_cast<std::map<std::string, PyVal>*>(const_cast<void*>(key.first));
      auto it = map->find(key.second);
      end_state[key] = it == map->end() ? std::nullopt : std::optional<PyVal>(it->second);
      if (old)
        (*map)[key.second] = *old;
      else
        map->erase(key.second);
      j0.old.emplace(key, old);
    }
    ends.push_back(std::move(end_state));
    flows.push_back(flow);
  }
  join_branches(f, std::move(ends), j0, exhaustive, undecided.empty() ? Cond{} : undecided[0]);
  if (returned) f.returned = returned;
  const bool all_end = exhaustive && std::all_of(flows.begin(), flows.end(), [](Flow fl) {
                         return fl == Flow::Return || fl == Flow::Raise;
                       });
  if (all_end) return returned ? Flow::Return : Flow::Raise;
  return Flow::Normal;
}

void PyReader::join_branches(Frame& f,
                             std::vector<std::map<std::pair<const void*, std::string>, std::optional<PyVal>>> ends,
                             Journal& j, bool exhaustive, const Cond& c) {
  for (const auto& [key, old] : j.old) {
    std::vector<std::optional<PyVal>> values;
    for (auto& end : ends) {
      auto it = end.find(key);
      values.push_back(it == end.end() ? old : it->second);
    }
    if (!exhaustive) values.push_back(old);
    std::optional<PyVal> v = values[0];
    bool unbound = false;
    for (const auto& x : values) {
      if (!x) unbound = true;
      if (x && v) v = join(*v, *x, c);
    }
    auto* map = static_cast<std::map<std::string, PyVal>*>(const_cast<void*>(key.first));
    if (!v) {
      if (!old) continue;  // unbound in every path
      v = PyVal::unknown(fmt::format("bound in only some branches of {}", c.what), c.at);
    } else if (unbound) {
      v = PyVal::unknown(fmt::format("bound in only some branches of {}", c.what), c.at);
    }
    if (!f.journals.empty()) {
      auto it = map->find(key.second);
      f.journals.back().old.emplace(key, it == map->end() ? std::nullopt : std::optional<PyVal>(it->second));
    }
    (*map)[key.second] = *v;
  }
}

Flow PyReader::exec_for(Frame& f, const PyCode& code, std::size_t& i, std::size_t e) {
  const auto& t = code.lines[i];
  const std::uint32_t indent = t[0].indent;
  std::size_t end = body_end(code, i, e);
  std::size_t else_line = 0;
  if (end < e && code.lines[end][0].indent == indent && is_word(code.lines[end][0], "else")) {
    else_line = end;
    end = body_end(code, end, e);
  }
  const std::size_t header = i;
  i = end;
  const FileName file = f.module->file;
  const Location at{file, t[0].line, t[0].column};
  // for TARGET in ITER:
  std::size_t p = is_word(t[0], "async") ? 2 : 1;
  std::size_t in = p;
  int depth = 0;
  while (in < t.size() && !(depth == 0 && is_word(t[in], "in"))) {
    if (t[in].kind == PyTok::Op && (t[in].text == "(" || t[in].text == "[")) ++depth;
    if (t[in].kind == PyTok::Op && (t[in].text == ")" || t[in].text == "]")) --depth;
    ++in;
  }
  const std::size_t colon = header_colon(t, in);
  if (in >= t.size() || colon == 0) return Flow::Normal;
  // The target: names (a, b), parsed from a copy ending at `in`.
  std::vector<PyToken> tt(t.begin() + static_cast<std::ptrdiff_t>(p), t.begin() + static_cast<std::ptrdiff_t>(in));
  tt.push_back(PyToken{PyTok::Newline, "\n"});
  std::size_t tp = 0;
  auto first = parse_py_expr(file, tt, tp);
  std::optional<PyExpr> target;
  if (first) {
    if (tp < tt.size() && is_op(tt[tp], ",")) {
      PyExpr tup;
      tup.kind = PyExpr::Tuple;
      tup.args.push_back(std::move(*first));
      while (tp < tt.size() && is_op(tt[tp], ",")) {
        ++tp;
        if (tt[tp].kind == PyTok::Newline) break;
        auto more = parse_py_expr(file, tt, tp);
        if (!more) break;
        tup.args.push_back(std::move(*more));
      }
      target = std::move(tup);
    } else {
      target = std::move(*first);
    }
  }
  std::size_t ip = in + 1;
  auto iter_x = parse_py_expr(file, t, ip);
  PyVal iter = iter_x ? eval(f, *iter_x) : PyVal::unknown("an iterable dispatchtool cannot parse", at);
  std::vector<PyVal> items;
  if (iter.is_sequence() || iter.kind == PyVal::Dict) {
    items = iter.items;
  } else if (iter.kind == PyVal::Str) {
    for (char c : iter.s) items.push_back(PyVal::str(std::string(1, c), iter.at));
  }
  if (!target || (!iter.is_sequence() && iter.kind != PyVal::Dict && iter.kind != PyVal::Str)) {
    warn_unread(f, code, header, end,
                fmt::format("in a loop over {} (dispatchtool unrolls loops over values it knows)",
                            iter_x ? fmt::format("`{}`, {}", token_text(t, in + 1, colon), describe(iter))
                                   : std::string("something it cannot parse")));
    return Flow::Normal;
  }
  if (items.size() > kMaxIterations) {
    warn_unread(f, code, header, end, fmt::format("in a loop of {} iterations (dispatchtool unrolls at most {})",
                                                  items.size(), kMaxIterations));
    return Flow::Normal;
  }
  bool broke = false;
  for (const PyVal& item : items) {
    assign(f, *target, item);
    const Flow flow = exec_body(f, code, header, colon, end);
    if (flow == Flow::Break) {
      broke = true;
      break;
    }
    if (flow == Flow::Return || flow == Flow::Raise) return flow;
    if (failed()) return Flow::Normal;
  }
  if (!broke && else_line != 0) return exec_body(f, code, else_line, 1, end);
  return Flow::Normal;
}

Flow PyReader::exec_try(Frame& f, const PyCode& code, std::size_t& i, std::size_t e) {
  const std::uint32_t indent = code.lines[i][0].indent;
  const auto& t = code.lines[i];
  const Location at{f.module->file, t[0].line, t[0].column};
  const std::size_t try_line = i;
  std::size_t j = body_end(code, i, e);
  struct Clause {
    std::size_t line, end;
    std::string word;
  };
  std::vector<Clause> clauses;
  while (j < e && code.lines[j][0].indent == indent &&
         (is_word(code.lines[j][0], "except") || is_word(code.lines[j][0], "else") ||
          is_word(code.lines[j][0], "finally"))) {
    const std::size_t k = body_end(code, j, e);
    clauses.push_back({j, k, code.lines[j][0].text});
    j = k;
  }
  i = j;
  const Cond c{at, fmt::format("the try block at {}:{} raising nothing", at.file.view(), at.line)};
  f.conds.push_back(c);
  Flow flow = exec_body(f, code, try_line, 1, e);
  if (flow == Flow::Raise) flow = Flow::Normal;  // an except clause may take it
  for (const Clause& cl : clauses)
    if (cl.word == "else" && flow == Flow::Normal) flow = exec_body(f, code, cl.line, 1, e);
  f.conds.pop_back();
  for (const Clause& cl : clauses) {
    if (cl.word == "except")
      warn_unread(f, code, cl.line, cl.end, "in an except clause (it runs only if the try block raises)");
    if (cl.word == "finally") {
      const Flow fl = exec_body(f, code, cl.line, 1, e);
      if (fl != Flow::Normal) return fl;
    }
  }
  return flow == Flow::Raise ? Flow::Normal : flow;
}

}  // namespace dt::pyread
