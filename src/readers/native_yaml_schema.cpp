// analyse_native_schema (native_yaml_schema.hpp), after torchgen/model.py
// FunctionSchema.parse, Arguments.parse, BaseOperatorName.parse, kind().
#include "readers/native_yaml_schema.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "base/text.hpp"

namespace dt {

namespace {

std::string_view trim_blank(std::string_view s) { return trim(s, " \t\n"); }

// The parts of `s` between top-level commas (brackets and parentheses nest), into `parts`.
void split_top(std::string_view s, std::vector<std::string_view>& parts) {
  parts.clear();
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if (c == ',' && depth == 0) parts.push_back(trim_blank(s.substr(start, i - start))), start = i + 1;
  }
  if (!trim_blank(s.substr(start)).empty() || !parts.empty()) parts.push_back(trim_blank(s.substr(start)));
}

struct Arg {
  std::string_view type;
  std::string_view name;
  std::string_view rest;  // "=default", or empty
  std::string_view annotation;  // "a!" of Tensor(a!)
  bool write = false;
};

// Appends a type without its alias annotation: Tensor(a!)[] -> Tensor[].
void append_stripped(std::string& out, std::string_view type) {
  const std::size_t open = type.find('(');
  const std::size_t close = open == std::string_view::npos ? open : type.find(')', open);
  if (close == std::string_view::npos) {
    out += type;
    return;
  }
  out += type.substr(0, open);
  out += type.substr(close + 1);
}

Arg parse_arg(std::string_view a) {
  std::string_view rest;
  int depth = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {  // drop "=default"
    if (a[i] == '(' || a[i] == '[') ++depth;
    else if (a[i] == ')' || a[i] == ']') --depth;
    else if (a[i] == '=' && depth == 0) { rest = a.substr(i); a = trim_blank(a.substr(0, i)); break; }
  }
  Arg r;
  r.rest = rest;
  const std::size_t sp = a.find_last_of(' ');
  r.type = sp == std::string_view::npos ? a : trim_blank(a.substr(0, sp));
  r.name = sp == std::string_view::npos ? std::string_view{} : trim_blank(a.substr(sp + 1));
  const std::size_t ann = r.type.find('(');
  r.write = ann != std::string_view::npos && r.type.find('!', ann) != std::string_view::npos;
  if (ann != std::string_view::npos) {
    const std::size_t close = r.type.find(')', ann);
    r.annotation = r.type.substr(ann + 1, close == std::string_view::npos ? std::string_view::npos : close - ann - 1);
  }
  return r;
}

struct Scratch {
  std::vector<std::string_view> parts;
  std::vector<Arg> kwargs, positional;
  std::vector<std::string_view> rets, ret_annotations;
  std::vector<const Arg*> mutable_inputs;
};

}  // namespace

Expected<NativeSchema, Diagnostic> analyse_native_schema(std::string_view schema) {
  NativeSchema s;
  const std::size_t open = schema.find('(');
  const std::size_t arrow = schema.rfind("->");
  if (open == std::string_view::npos || arrow == std::string_view::npos || arrow < open)
    return unexpected(make_error("expected NAME(ARGS) -> RETURNS"));
  std::string_view name = trim_blank(schema.substr(0, open));
  if (const std::size_t ns = name.find("::"); ns != std::string_view::npos) {
    s.ns = std::string(name.substr(0, ns));
    name = name.substr(ns + 2);
  }
  if (name.empty()) return unexpected(make_error("expected an operator name before '('"));
  s.name = std::string(name);
  std::string_view base = name.substr(0, name.find('.'));
  // The matching ')' of the arguments.
  int depth = 0;
  std::size_t close = std::string_view::npos;
  for (std::size_t i = open; i < arrow; ++i) {
    if (schema[i] == '(' || schema[i] == '[') ++depth;
    else if ((schema[i] == ')' || schema[i] == ']') && --depth == 0) { close = i; break; }
  }
  if (close == std::string_view::npos) return unexpected(make_error("unbalanced parentheses in the arguments"));
  bool inplace = false;
  if (base.size() > 4 && base.starts_with("__") && base.ends_with("__")) {
    std::string_view inner = base.substr(2, base.size() - 4);
    static constexpr std::array kAugmented = {"add", "sub", "mul", "div", "mod", "pow",
                                              "lshift", "rshift", "and", "xor", "or"};
    for (const char* n : kAugmented)
      if (inner.size() > 1 && inner[0] == 'i' && inner.substr(1) == n) inplace = true;
  } else if (!base.empty() && base.back() == '_') {
    inplace = true;
    base.remove_suffix(1);
  }
  s.base = std::string(base);
  std::string sig_base(base);
  const bool dunder = base.size() > 4 && base.starts_with("__") && base.ends_with("__");
  if (dunder && inplace) sig_base = "__" + std::string(base.substr(3));  // __iand__ -> __and__
  if (!dunder && sig_base.ends_with("_functional")) sig_base.resize(sig_base.size() - 11);
  bool kwarg_only = false, out = false, scratch = false, mutable_ = false;
  // Vectors kept from one call to the next (a file has thousands of schemas).
  thread_local Scratch mem;
  std::vector<std::string_view>& parts = mem.parts;
  std::vector<Arg>& kwargs = mem.kwargs;
  std::vector<Arg>& positional = mem.positional;
  std::vector<std::string_view>& rets = mem.rets;
  std::vector<std::string_view>& ret_annotations = mem.ret_annotations;
  std::vector<const Arg*>& mutable_inputs = mem.mutable_inputs;
  kwargs.clear(), positional.clear(), rets.clear(), ret_annotations.clear(), mutable_inputs.clear();
  split_top(schema.substr(open + 1, close - open - 1), parts);
  for (std::string_view a : parts) {
    if (a == "*") { kwarg_only = true; continue; }
    if (a.empty()) return unexpected(make_error("empty argument"));
    Arg arg = parse_arg(a);
    if (kwarg_only) {
      kwargs.push_back(arg);
      if (arg.write) {
        out = true;
        if (arg.name.starts_with("_scratch_")) scratch = true;
      }
    } else {
      positional.push_back(arg);
      if (arg.write && arg.name != "self") mutable_ = true;
    }
  }
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kOptions = {
      {{"dtype", "ScalarType?"}, {"layout", "Layout?"}, {"device", "Device?"}, {"pin_memory", "bool?"}}};
  std::size_t options_at = SIZE_MAX;
  for (std::size_t i = 0; i + kOptions.size() <= kwargs.size() && !s.tensor_options; ++i) {
    bool all = true;
    for (std::size_t j = 0; j < kOptions.size(); ++j)
      all = all && kwargs[i + j].name == kOptions[j].first && kwargs[i + j].type == kOptions[j].second;
    s.tensor_options = all;
    if (all) options_at = i;
  }
  // model.py FunctionSchema.signature(): bernoulli.p's "float p" reads "float p=0.5".
  const bool bernoulli_p = s.name == "bernoulli.p";
  std::string& sig = s.signature;
  sig.reserve(schema.size() + 16);
  auto append_arg = [&](const Arg& a) {
    const std::size_t start = sig.size();
    append_stripped(sig, a.type);
    sig += ' ';
    sig += a.name;
    sig += a.rest;
    if (bernoulli_p && std::string_view(sig).substr(start) == "float p") sig += "=0.5";
  };
  sig = sig_base;
  sig += '(';
  for (const Arg& a : positional) {
    append_arg(a);
    sig += ", ";
  }
  sig += '*';
  for (std::size_t i = 0; i < kwargs.size(); ++i) {
    if (kwargs[i].write || (options_at != SIZE_MAX && i >= options_at && i < options_at + kOptions.size())) continue;
    sig += ", ";
    append_arg(kwargs[i]);
  }
  s.signature += ") -> ";
  s.kind = inplace ? SchemaKind::Inplace
           : scratch ? SchemaKind::Scratch
           : out ? SchemaKind::Out
           : mutable_ ? SchemaKind::Mutable
                      : SchemaKind::Functional;
  const std::string_view ret = trim_blank(schema.substr(arrow + 2));
  if (ret.empty()) return unexpected(make_error("expected the returns after '->'"));
  if (ret.front() == '(') {
    const std::string_view inner = trim_blank(ret.substr(1, ret.size() >= 2 ? ret.size() - 2 : 0));
    if (!inner.empty()) split_top(inner, rets);
  } else {
    rets.push_back(ret);
  }
  s.returns = rets.size();
  for (std::string_view r : rets) {
    const std::size_t a = r.find('(');
    if (a != std::string_view::npos && r.find('!', a) == std::string_view::npos) s.view_return = true;
  }
  s.wildcard = schema.substr(open, close - open).find("-> *") != std::string_view::npos;
  for (std::string_view r : rets) {
    const Arg ra = parse_arg(r);
    const std::string_view type = ra.name.empty() || ra.name.find(')') != std::string_view::npos ? r : ra.type;
    append_stripped(sig, type);
    sig += ',';
    const std::size_t a = type.find('(');
    if (a != std::string_view::npos) ret_annotations.push_back(type.substr(a + 1, type.find(')', a) - a - 1));
  }
  // Mutable inputs not returned count as returns (self, out=, then the
  // positional ones after self), as FunctionSchema.signature() adds them.
  auto returned = [&](const Arg& a) {
    return std::find(ret_annotations.begin(), ret_annotations.end(), a.annotation) != ret_annotations.end();
  };
  std::size_t self_at = positional.size();
  for (std::size_t i = 0; i < positional.size(); ++i)
    if (positional[i].name == "self") self_at = i;
  if (self_at < positional.size()) mutable_inputs.push_back(&positional[self_at]);
  for (const Arg& a : kwargs)
    if (a.write) mutable_inputs.push_back(&a);
  for (std::size_t i = self_at < positional.size() ? self_at + 1 : 0; i < positional.size(); ++i)
    mutable_inputs.push_back(&positional[i]);
  for (const Arg* a : mutable_inputs)
    if (a->write && !returned(*a)) {
      append_stripped(sig, a->type);
      sig += ',';
    }
  return s;
}

}  // namespace dt
