// custom_op and triton_op, and the register_* methods of a custom op, in the
// Python reader (readers/python_reader_impl.hpp): one [[custom_op]] entry
// (docs/input-format.md) per custom op, its schema inferred as the release's
// infer_schema does (the profile's traits and dtype names).
#include <fmt/format.h>

#include <algorithm>

#include "readers/python_infer_schema.hpp"
#include "readers/python_reader_impl.hpp"

namespace dt::pyread {

namespace {

TomlField* field(TomlEntry& en, std::string_view key) {
  for (TomlField& f : en.fields)
    if (f.key == key) return &f;
  return nullptr;
}

void append(TomlEntry& en, const char* key, const std::vector<std::string>& v, Location at) {
  TomlField* f = field(en, key);
  if (f == nullptr) {
    en.add(key, v, at);
    return;
  }
  std::vector<std::string> all;
  if (auto* s = std::get_if<std::string>(&f->value)) all.push_back(*s);
  if (auto* a = std::get_if<TomlArray>(&f->value))
    for (const TomlField& e : a->items)
      if (auto* s = std::get_if<std::string>(&e.value)) all.push_back(*s);
  for (const auto& d : v)
    if (std::find(all.begin(), all.end(), d) == all.end()) all.push_back(d);
  f->value = string_array(std::move(all), f->at);
}

}  // namespace

// Whether the schema's parameter `name` is a Tensor type ("Tensor(a0!)[] x" too).
bool PyReader::param_is_tensor(const std::string& schema, const std::string& name) {
  const std::string needle = " " + name;
  std::size_t at = 0;
  while ((at = schema.find(needle, at)) != std::string::npos) {
    const std::size_t end = at + needle.size();
    if (end < schema.size() && (schema[end] == ',' || schema[end] == ')' || schema[end] == '=')) {
      const std::size_t comma = schema.rfind(", ", at);
      const std::size_t start = comma == std::string::npos ? 1 : comma + 2;
      return schema.compare(start, 6, "Tensor") == 0;
    }
    at = end;
  }
  return false;
}

std::optional<std::string> PyReader::infer(Frame& f, const PyVal& fn, const PyVal* mutates, Location at,
                                           bool check_kwarg_only, const std::string& qualname) {
  const std::string what = qualname.empty() ? std::string("infer_schema") : qualname;
  if (fn.kind != PyVal::Func) {
    unread(f, at, what,
           fmt::format("infer_schema needs the function's annotations, and the function is {}", describe(fn)),
           qualname);
    return std::nullopt;
  }
  MutatesArgs m;
  m.at = mutates != nullptr ? mutates->at : at;
  if (mutates == nullptr) {
    fail(at, "custom_op() missing 1 required keyword-only argument: 'mutates_args'");
    return std::nullopt;
  }
  if (mutates->is_str()) {
    if (mutates->s != "unknown") {
      fail(mutates->at,
           "mutates_args must either be a sequence of the names of the arguments that are mutated or the string "
           "'unknown'. ");
      return std::nullopt;
    }
    m.unknown = true;
  } else if (mutates->is_none()) {
    fail(mutates->at, "TypeError: 'NoneType' object is not iterable (mutates_args=None)");
    return std::nullopt;
  } else if (auto v = strs(*mutates)) {
    for (const PyVal& x : *v) m.names.push_back(x.s);
  } else {
    unread(f, at, what, fmt::format("its mutates_args are {}", describe(*mutates)), qualname);
    return std::nullopt;
  }
  const PyFunc& func = *fn.fn;
  Frame scope;
  scope.module = func.module;
  scope.locals = func.closure;
  auto canonical = [&](const std::string& name) -> std::optional<std::string> {
    PyExpr x;
    x.kind = PyExpr::Name;
    x.text = name;
    const PyVal v = eval(scope, x);
    if (v.kind == PyVal::Ext) return v.s;
    if (v.kind == PyVal::Builtin) return v.s;
    if (v.kind == PyVal::None) return std::string("None");
    return std::nullopt;
  };
  const TorchLibraryInfo& tl = profile_.torch_library();
  auto default_repr = [&](std::size_t k) -> Expected<std::string, InferError> {
    const PyVal& d = *func.defaults[k];
    const PyParam& q = func.sig.params[k];
    auto cannot = [&](std::string why) {
      return unexpected(InferError{
          make_error(q.default_value.at, fmt::format("the default of parameter {} is {}", q.name, std::move(why))),
          false});
    };
    switch (d.kind) {
      case PyVal::None:
      case PyVal::Bool:
      case PyVal::Int:
      case PyVal::Float:
        return *py_str(d);
      case PyVal::Str:
        return "\"" + d.s + "\"";
      case PyVal::Ext:
        if (d.s.starts_with("torch.device:")) return "\"" + d.s.substr(13) + "\"";
        if (d.s.starts_with("torch.") && !tl.dtype_name(d.s.substr(6)).empty()) return tl.dtype_name(d.s.substr(6));
        return cannot(fmt::format("{}, which dispatchtool does not know as a torch.dtype of torch {}", d.s,
                                  profile_.torch_version()));
      case PyVal::Unknown:
        return cannot(describe(d));
      default:
        return unexpected(InferError{
            make_error(q.default_value.at, fmt::format("infer_schema(func): Parameter {} has an unsupported default "
                                                       "value type {}.",
                                                       q.name, describe(d))),
            true});
    }
  };
  InferSchemaRelease rel;
  rel.builtin_generics = tl.infer_builtin_generics;
  rel.one_tuple_kept = tl.infer_one_tuple_kept;
  auto s = infer_schema(func.sig, m, rel, canonical, default_repr);
  if (!s) {
    if (s.error().refused) {
      fail(s.error().diag.where, s.error().diag.message);
    } else {
      std::vector<Note> notes{{s.error().diag.where, s.error().diag.message}};
      warn(f, at,
           fmt::format("{}: not read (dispatchtool cannot infer its schema statically: {})", what,
                       s.error().diag.message),
           qualname, std::move(notes));
    }
    return std::nullopt;
  }
  if (check_kwarg_only)
    for (const PyParam& p : func.sig.params)  // CustomOpDef._validate_schema
      if (p.kind == PyParam::KeywordOnly && param_is_tensor(*s, p.name)) {
        fail(at, fmt::format("custom_op with kwarg-only Tensor args. Please make your tensors not kwarg-only. Got: {}{}",
                             qualname.substr(qualname.find("::") + 2), *s));
        return std::nullopt;
      }
  return *s;
}

PyVal PyReader::custom_op(Frame& f, const std::string& api, Args& a) {
  const Location at = a.at;
  const PyVal* name = a.get(0, "name");
  const PyVal* fn = a.decorated ? &*a.decorated : a.get(1, "fn");
  if (fn == nullptr || fn->is_none()) {  // a decorator: the function comes when it is applied
    PyVal d;
    d.kind = PyVal::Deco;
    d.s = "torch.library." + api;
    d.at = at;
    d.items = a.pos;
    d.names = a.names;
    d.values = a.kw;
    return d;
  }
  const std::string q = name != nullptr && name->is_str() ? name->s : std::string();
  auto op = std::make_shared<PyOpDef>();
  op->qualname = q;
  if (fn->kind == PyVal::Func) op->fn = fn->fn;
  PyVal result;
  result.kind = PyVal::Op;
  result.at = at;
  if (quiet_) {
    result.op = op;
    return result;
  }
  if (q.empty() || q.find("::") == std::string::npos) {
    unread(f, at, "torch.library." + api, fmt::format("its name is {}", name ? describe(*name) : "missing"));
    return PyVal::unknown("a custom op dispatchtool could not read", at);
  }
  const PyVal* mut = a.kwarg("mutates_args");
  const PyVal* dev = a.kwarg("device_types");
  const PyVal* sch = a.kwarg("schema");
  const PyVal* tg = a.kwarg("tags");
  const bool dev_none = dev == nullptr || dev->is_none();
  const bool tags_none = tg == nullptr || tg->is_none();
  const bool sch_none = sch == nullptr || sch->is_none();
  auto devs = dev_none ? std::nullopt : strs(*dev);
  auto tl = tags_none ? std::nullopt : tags(*tg);
  if ((!dev_none && !devs) || (!tags_none && !tl) || (!sch_none && !sch->is_str())) {
    unread(f, at, q,
           !dev_none && !devs ? fmt::format("its device_types are {}", describe(*dev))
           : !tags_none && !tl ? fmt::format("its tags are {}", describe(*tg))
                              : fmt::format("its schema is {}", describe(*sch)),
           q);
    return PyVal::unknown("a custom op dispatchtool could not read", at);
  }
  if (api == "triton_op" && !tags_none) {
    fail(tg->at, "triton_op() got an unexpected keyword argument 'tags'");
    return PyVal::none(at);
  }
  std::string schema;
  Location schema_at = at;
  if (!sch_none) {
    schema = sch->s;
    schema_at = sch->at;
    if (mut == nullptr) {
      fail(at, fmt::format("{}() missing 1 required keyword-only argument: 'mutates_args'", api));
      return PyVal::none(at);
    }
  } else {
    auto s = infer(f, *fn, mut, at, true, q);
    if (!s) return PyVal::unknown("a custom op dispatchtool could not read", at);
    schema = *s;
    schema_at = fn->fn->sig.at;
  }
  if (!need_debug(at) || !record_def(f, q, at)) return PyVal::unknown("a custom op not read", at);
  guarded(f, at, fmt::format("torch.library.{} {}", api, q), q);
  TomlBlock blk;
  blk.at = at;
  blk.note = "torch.library." + api;
  const std::size_t ns_end = q.find("::");
  blk.add("namespace", q.substr(0, ns_end), name->at);
  blk.add("kind", "FRAGMENT", at);
  out_.blocks.push_back(std::move(blk));
  const std::size_t b = out_.blocks.size() - 1;
  TomlEntry& en = entry(b, "custom_op", site(f, at));
  en.note = sch_none ? "schema inferred from " + fn->fn->sig.name + "'s annotations (torch.library.infer_schema)" : "";
  if (!f.chain.empty()) en.note += (en.note.empty() ? "" : "; ") + f.chain.back().message;
  en.add("name", q, name->at);
  // The function custom_op wraps: its errors name it (custom_op's default is the operator's name).
  if (fn->kind == PyVal::Func && fn->fn->sig.name != q.substr(ns_end + 2))
    en.add("function", fn->fn->sig.name, fn->fn->sig.at);
  en.add("schema", schema, schema_at);
  std::vector<std::string> muts;
  if (mut != nullptr && mut->is_str()) {  // "unknown": every Tensor argument
    if (fn->kind == PyVal::Func)
      for (const PyParam& p : fn->fn->sig.params)
        if (param_is_tensor(schema, p.name)) muts.push_back(p.name);
  } else if (mut != nullptr) {
    if (auto v = strs(*mut))
      for (const PyVal& x : *v) muts.push_back(x.s);
  }
  if (!muts.empty()) en.add("mutates_args", muts, mut->at);
  if (devs) {
    std::vector<std::string> names;
    for (const PyVal& d : *devs) names.push_back(d.s);
    if (dev->is_str())
      en.add("device_types", names.front(), dev->at);
    else
      en.add("device_types", names, dev->at);
  }
  if (tl) en.add("tags", *tl, tg->at);
  op->schema = schema;
  op->owner = this;
  op->block = b;
  op->entry = out_.blocks[b].entries.size() - 1;
  custom_ops_[q] = op;
  result.op = op;
  return result;
}

// register_<api> on a custom op: `a` is the call (op.register_kernel("cuda"),
// torch.library.register_kernel(op, "cuda", fn)); its arguments start at `first`.
PyVal PyReader::op_method(Frame& f, const std::shared_ptr<const PyOpDef>& op, const std::string& api, Args& a,
                          std::size_t first) {
  const Location at = a.at;
  const bool with_types = api == "register_kernel" || api == "register_autocast";
  const std::size_t fn_pos = first + (api == "register_kernel" || api == "register_torch_dispatch" ? 1 : 0);
  const bool decorator = !a.decorated && a.get(fn_pos, "func") == nullptr && api != "register_autograd" &&
                         api != "register_autocast";
  const PyVal result = decorator ? PyVal::identity(at) : PyVal::none(at);
  if (quiet_ || api == "register_torch_dispatch" || api == "register_effect") return result;
  if (op->owner != this) {
    // A custom op of another file read: register_fake / register_autograd replace
    // the functions behind kernels it has; the others add kernels this file cannot.
    if (api == "register_fake" || api == "register_autograd" || api == "_register_fake") return result;
    warn(f, at,
         fmt::format("{}.{} on a custom op made in another file read: not read (dispatchtool adds these to the "
                     "file that makes the custom op)",
                     op->qualname, api),
         op->qualname);
    return result;
  }
  TomlEntry& en = out_.blocks[op->block].entries[op->entry];
  if (with_types) {
    const PyVal* d = a.get(first, api == "register_kernel" ? "device_types" : "device_type");
    auto devs = d != nullptr ? strs(*d) : std::nullopt;
    if (!devs) {
      unread(f, at, fmt::format("{}.{}", op->qualname, api),
             fmt::format("its device types are {}", d ? describe(*d) : "missing"), op->qualname);
      return result;
    }
    guarded(f, at, fmt::format("{}.{}", op->qualname, api), op->qualname);
    std::vector<std::string> names;
    for (const PyVal& x : *devs) names.push_back(x.s);
    append(en, api.c_str(), names, d->at);
  } else if (api == "register_fake" || api == "register_autograd" || api == "register_vmap") {
    guarded(f, at, fmt::format("{}.{}", op->qualname, api), op->qualname);
    if (field(en, api) == nullptr) en.add(api, true, at);
  } else {
    warn(f, at, fmt::format("{} on a custom op: dispatchtool does not read this API: not read", api), op->qualname);
  }
  return result;
}

}  // namespace dt::pyread
