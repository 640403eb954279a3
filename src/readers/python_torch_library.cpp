// The torch.library forms of the Python reader (readers/python_reader_impl.hpp):
// Library objects and their define / impl / fallback, torch.library.define /
// impl, custom_op (its schema inferred) and the register_* functions.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "readers/python_infer_schema.hpp"
#include "readers/python_reader_impl.hpp"

namespace dt::pyread {

// ---- Library objects --------------------------------------------------------
Expected<bool, Diagnostic> PyReader::library(const std::string& name, const PyExpr& call) {
  const PyExpr* ns = arg(call, 0, "ns");
  const PyExpr* kind = arg(call, 1, "kind");
  const PyExpr* key = arg(call, 2, "dispatch_key");
  auto nss = ns ? str_of(*ns) : std::nullopt;
  auto kinds = kind ? str_of(*kind) : std::nullopt;
  auto keys = key ? str_of(*key) : std::optional<std::pair<std::string, Location>>(std::make_pair("", call.at));
  if (!nss || !kinds || !keys || name.empty()) {
    warn(call.at,
         "torch.library.Library with arguments that are not string literals (or not bound to a name): "
         "not read, nor anything registered through it");
    if (!name.empty()) libs_[name] = SIZE_MAX;
    return true;
  }
  if (auto ok = need_debug(call.at); !ok) return ok;
  TomlBlock blk;
  blk.at = call.at;
  blk.note = fmt::format("torch.library.Library({:?}, {:?}{})", nss->first, kinds->first,
                         keys->first.empty() ? "" : fmt::format(", {:?}", keys->first));
  blk.add("namespace", nss->first, nss->second);
  blk.add("kind", kinds->first, kinds->second);
  if (!keys->first.empty()) blk.add("dispatch_key", keys->first, keys->second);
  out_.blocks.push_back(std::move(blk));
  libs_[name] = out_.blocks.size() - 1;
  lib_line_[name] = call.base[0].at.line;
  return true;
}

bool PyReader::is_fallthrough(const PyExpr* fn) const {
  return fn != nullptr && fn->kind == PyExpr::Name && canonical(fn->text) == "torch.library.fallthrough_kernel";
}

void PyReader::kernel_fields(TomlEntry& en, const PyExpr* fn, const std::string& debug, Location at) {
  if (is_fallthrough(fn)) {
    en.add("fallthrough", true, fn->at);
    en.add("kernel", debug, at);
  } else {
    en.add("kernel", debug, at);
    en.add("boxed_only", true, at);
  }
}

Expected<bool, Diagnostic> PyReader::library_method(const std::string& obj, const std::string& method,
                                                    const PyExpr& x) {
  const std::size_t blk = libs_.at(obj);
  if (blk == SIZE_MAX) {
    warn(x.at, fmt::format("{}.{} on a Library dispatchtool could not read: not read", obj, method));
    return true;
  }
  if (method == "define") {
    auto schema = arg(x, 0, "schema") ? str_of(*arg(x, 0, "schema")) : std::nullopt;
    const PyExpr* aa = arg(x, 1, "alias_analysis");
    auto aas = aa ? str_of(*aa) : std::nullopt;
    const PyExpr* tg = x.kwarg("tags");
    auto tags = tg ? tags_of(*tg) : std::optional<std::vector<std::string>>(std::vector<std::string>{});
    if (!schema || (aa && !aas) || !tags) return unread(x, obj + ".define");
    TomlEntry& en = entry(blk, "def", x.at);
    en.add("schema", schema->first, schema->second);
    if (aas && !aas->first.empty()) en.add("alias_analysis", aas->first, aas->second);
    if (!tags->empty()) en.add("tags", *tags, tg->at);
    en.add("debug", lib_debug(obj), x.at);
    return true;
  }
  if (method == "impl") {
    auto op = arg(x, 0, "op_name") ? str_of(*arg(x, 0, "op_name")) : std::nullopt;
    const PyExpr* fn = arg(x, 1, "fn");
    const PyExpr* key = arg(x, 2, "dispatch_key");
    auto keys = key ? str_of(*key) : std::nullopt;
    if (!op || fn == nullptr || (key && !keys)) return unread(x, obj + ".impl");
    TomlEntry& en = entry(blk, "impl", x.at);
    en.add("op", op->first, op->second);
    if (keys && !keys->first.empty()) en.add("key", keys->first, keys->second);
    kernel_fields(en, fn, lib_debug(obj), x.at);
    return true;
  }
  if (method == "fallback") {
    const PyExpr* fn = arg(x, 0, "fn");
    const PyExpr* key = arg(x, 1, "dispatch_key");
    auto keys = key ? str_of(*key) : std::nullopt;
    if (fn == nullptr || (key && !keys)) return unread(x, obj + ".fallback");
    TomlEntry& en = entry(blk, "fallback", x.at);
    if (keys && !keys->first.empty()) en.add("key", keys->first, keys->second);
    if (is_fallthrough(fn)) en.add("fallthrough", true, fn->at);
    en.add("kernel", lib_debug(obj), x.at);
    return true;
  }
  return unread(x, obj + "." + method);
}

Expected<bool, Diagnostic> PyReader::unread(const PyExpr& x, const std::string& what) {
  warn(x.at, fmt::format("{}(...) with arguments that are not literals (or a form dispatchtool does not know): "
                         "not read",
                         what));
  return true;
}

// ---- torch.library.define / impl ------------------------------------------
// The block a lib= argument names (or a new FRAGMENT block, as torch.library
// makes its own Library), and the debug string.
std::optional<std::pair<std::size_t, std::string>> PyReader::target_block(const PyExpr& x, const std::string& qualname,
                                                                          const std::string& own_debug) {
  if (const PyExpr* lib = x.kwarg("lib"); lib != nullptr && !(lib->kind == PyExpr::Name && lib->text == "None")) {
    if (lib->kind != PyExpr::Name || libs_.count(lib->text) == 0 || libs_.at(lib->text) == SIZE_MAX)
      return std::nullopt;
    return std::make_pair(libs_.at(lib->text), lib_debug(lib->text));
  }
  return std::make_pair(new_block(ns_of(qualname), "FRAGMENT", "", x.at, "a Library torch.library makes"), own_debug);
}

Expected<bool, Diagnostic> PyReader::define(const PyExpr& x) {
  auto q = arg(x, 0, "qualname") ? str_of(*arg(x, 0, "qualname")) : std::nullopt;
  auto schema = arg(x, 1, "schema") ? str_of(*arg(x, 1, "schema")) : std::nullopt;
  const PyExpr* tg = x.kwarg("tags");
  auto tags = tg ? tags_of(*tg) : std::optional<std::vector<std::string>>(std::vector<std::string>{});
  if (!q || !schema || !tags) return unread(x, "torch.library.define");
  if (auto ok = need_debug(x.at); !ok) return ok;
  auto tb = target_block(x, q->first, fill(dbg_->define, x.at.line));
  if (!tb) return unread(x, "torch.library.define");
  TomlEntry& en = entry(tb->first, "def", x.at);
  en.add("name", q->first, q->second);
  en.add("schema", schema->first, schema->second);
  if (!tags->empty()) en.add("tags", *tags, tg->at);
  en.add("debug", tb->second, x.at);
  return true;
}

Expected<bool, Diagnostic> PyReader::impl_qualname(const PyExpr& x, bool decorator) {
  if (auto ok = need_debug(x.at); !ok) return ok;
  const PyExpr* first = arg(x, 0, "qualname");
  if (first && first->kind == PyExpr::Name && libs_.count(first->text) != 0) {  // impl(lib, name, dispatch_key)
    const std::string& obj = first->text;
    auto op = arg(x, 1, "name") ? str_of(*arg(x, 1, "name")) : std::nullopt;
    const PyExpr* key = arg(x, 2, "dispatch_key");
    auto keys = key ? str_of(*key) : std::nullopt;
    if (libs_.at(obj) == SIZE_MAX || !op || (key && !keys) || !decorator) return unread(x, "torch.library.impl");
    TomlEntry& en = entry(libs_.at(obj), "impl", x.at);
    en.add("op", op->first, op->second);
    if (keys && !keys->first.empty()) en.add("key", keys->first, keys->second);
    kernel_fields(en, nullptr, lib_debug(obj), x.at);
    return true;
  }
  auto q = first ? str_of(*first) : std::nullopt;
  auto types = arg(x, 1, "types") ? strs_of(*arg(x, 1, "types")) : std::nullopt;
  const PyExpr* fn = decorator ? nullptr : arg(x, 2, "func");
  if (!q || !types) return unread(x, "torch.library.impl");
  auto tb = target_block(x, q->first, fill(decorator ? dbg_->impl_decorator : dbg_->impl_call, x.at.line));
  if (!tb) return unread(x, "torch.library.impl");
  TomlEntry& en = entry(tb->first, "impl", x.at);
  en.add("op", q->first, q->second);
  en.add("device_types", *types, arg(x, 1, "types")->at);
  kernel_fields(en, fn, tb->second, x.at);
  return true;
}

// ---- custom_op and the register_* functions -----------------------------------
Expected<bool, Diagnostic> PyReader::custom_op(const PyExpr& x, const std::string& fname, const std::string& bind) {
  auto q = arg(x, 0, "name") ? str_of(*arg(x, 0, "name")) : std::nullopt;
  const PyExpr* mut = x.kwarg("mutates_args");
  const PyExpr* dev = x.kwarg("device_types");
  const PyExpr* sch = x.kwarg("schema");
  const PyExpr* tg = x.kwarg("tags");
  if (!q) return unread(x, "torch.library.custom_op");
  MutatesArgs m;
  if (mut == nullptr) return error(x.at, "custom_op() missing 1 required keyword-only argument: 'mutates_args'");
  m.at = mut->at;
  if (auto s = str_of(*mut)) {
    if (s->first != "unknown")
      return error(mut->at,
                   "mutates_args must either be a sequence of the names of the arguments that are "
                   "mutated or the string 'unknown'. ");
    m.unknown = true;
  } else if (auto v = strs_of(*mut)) {
    m.names = *v;
  } else {
    return unread(x, "torch.library.custom_op");
  }
  const bool dev_none = dev == nullptr || (dev->kind == PyExpr::Name && dev->text == "None");
  auto devs = dev_none ? std::nullopt : strs_of(*dev);
  const bool tags_none = tg == nullptr || (tg->kind == PyExpr::Name && tg->text == "None");
  auto tags = tags_none ? std::nullopt : tags_of(*tg);
  const bool sch_none = sch == nullptr || (sch->kind == PyExpr::Name && sch->text == "None");
  auto schema = sch_none ? std::nullopt : str_of(*sch);
  if ((!dev_none && !devs) || (!tags_none && !tags) || (!sch_none && !schema))
    return unread(x, "torch.library.custom_op");
  std::string inferred;
  Location schema_at = x.at;
  if (schema) {
    inferred = schema->first;
    schema_at = schema->second;
  } else {
    InferSchemaRelease rel = infer_schema_release(profile_.torch_version());
    rel.dtypes = &profile_.schema_grammar().dtype_defaults;
    auto s = infer_schema(defs_.at(fname), m, rel, [this](const std::string& n) { return canonical(n); });
    if (!s) return unexpected(std::move(s.error()));
    inferred = *s;
    schema_at = defs_.at(fname).at;
    for (const PyParam& p : defs_.at(fname).params)  // CustomOpDef._validate_schema
      if (p.kind == PyParam::KeywordOnly && param_is_tensor(inferred, p.name))
        return error(x.at, fmt::format("custom_op with kwarg-only Tensor args. Please make your tensors not "
                                       "kwarg-only. Got: {}{}",
                                       q->first.substr(q->first.find("::") + 2), inferred));
  }
  const std::size_t blk = new_block(ns_of(q->first), "FRAGMENT", "", x.at, "torch.library.custom_op");
  TomlEntry& en = entry(blk, "custom_op", x.at);
  en.note = schema ? "" : "schema inferred from " + fname + "'s annotations (torch.library.infer_schema)";
  en.add("name", q->first, q->second);
  en.add("schema", inferred, schema_at);
  std::vector<std::string> muts = m.names;
  if (m.unknown) {
    muts.clear();
    for (const PyParam& p : defs_.at(fname).params)
      if (auto t = param_is_tensor(inferred, p.name); t) muts.push_back(p.name);
  }
  if (!muts.empty()) en.add("mutates_args", muts, mut->at);
  if (devs) {
    if (dev->kind == PyExpr::Str || dev->kind == PyExpr::Name)
      en.add("device_types", devs->front(), dev->at);
    else
      en.add("device_types", *devs, dev->at);
  }
  if (tags) en.add("tags", *tags, tg->at);
  const OpRef ref{blk, out_.blocks[blk].entries.size() - 1};
  ops_[q->first] = ref;
  if (!bind.empty()) ops_[bind] = ref;
  return true;
}

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

TomlField* PyReader::field(TomlEntry& en, std::string_view key) {
  for (TomlField& f : en.fields)
    if (f.key == key) return &f;
  return nullptr;
}

void PyReader::append(TomlEntry& en, const char* key, const std::vector<std::string>& v, Location at) {
  TomlField* f = field(en, key);
  if (f == nullptr) {
    en.add(key, v, at);
    return;
  }
  std::vector<std::string> all;
  if (auto* s = std::get_if<std::string>(&f->value)) all.push_back(*s);
  if (auto* a = std::get_if<std::vector<std::string>>(&f->value)) all = *a;
  for (const auto& d : v)
    if (std::find(all.begin(), all.end(), d) == all.end()) all.push_back(d);
  f->value = all;
}

// register_<api> on a custom op: `x` is the call (op.register_kernel("cuda"),
// torch.library.register_kernel(op, "cuda", fn)); its arguments start at `first`.
Expected<bool, Diagnostic> PyReader::op_register(OpRef ref, const std::string& api, const PyExpr& x, std::size_t first,
                                                 bool decorator) {
  (void)decorator;
  TomlEntry& en = out_.blocks[ref.block].entries[ref.entry];
  if (api == "register_kernel") {
    const PyExpr* d = arg(x, first, "device_types");
    auto devs = d ? strs_of(*d) : std::nullopt;
    if (!devs) return unread(x, api);
    append(en, "register_kernel", *devs, d->at);
  } else if (api == "register_autocast") {
    const PyExpr* d = arg(x, first, "device_type");
    auto devs = d ? strs_of(*d) : std::nullopt;
    if (!devs) return unread(x, api);
    append(en, "register_autocast", *devs, d->at);
  } else if (api == "register_fake" || api == "register_autograd" || api == "register_vmap") {
    if (field(en, api) == nullptr) en.add(api, true, x.at);
  } else {
    warn(x.at, fmt::format("{} on a custom op: dispatchtool does not read this API: not read", api));
  }
  return true;
}

Expected<bool, Diagnostic> PyReader::register_by_target(const std::string& api, const PyExpr& x, bool decorator) {
  const PyExpr* op = arg(x, 0, "op");
  std::optional<OpRef> ref;
  if (op != nullptr && op->kind == PyExpr::Name && ops_.count(op->text) != 0)
    ref = ops_.at(op->text);
  else if (op != nullptr)
    if (auto s = str_of(*op); s && ops_.count(s->first) != 0) ref = ops_.at(s->first);
  if (!ref && api == "register_fake") return register_fake_kernel(x);
  if (!ref) {
    warn(x.at, fmt::format("torch.library.{} on an operator not made by torch.library.custom_op in this file: "
                           "not read",
                           api));
    return true;
  }
  return op_register(*ref, api, x, 1, decorator);
}

std::optional<std::pair<std::string, Location>> PyReader::op_qualname(const PyExpr& op) const {
  if (auto s = str_of(op)) {
    if (ns_of(s->first).empty()) return std::nullopt;
    return s;
  }
  if (op.kind != PyExpr::Name) return std::nullopt;
  // torch.ops.NS.NAME.OVERLOAD, an OpOverload: its _name ("NS::NAME", or
  // "NS::NAME.OVERLOAD"). The packet torch.ops.NS.NAME is refused by torch.
  const std::string c = canonical(op.text);
  if (!c.starts_with("torch.ops.")) return std::nullopt;
  std::vector<std::string> parts;
  for (std::size_t b = 10, e = 0; b <= c.size(); b = e + 1) {
    e = std::min(c.find('.', b), c.size());
    parts.push_back(c.substr(b, e - b));
  }
  if (parts.size() != 3) return std::nullopt;
  std::string q = parts[0] + "::" + parts[1];
  if (parts[2] != "default") q += "." + parts[2];
  return std::make_pair(q, op.at);
}

Expected<bool, Diagnostic> PyReader::register_fake_kernel(const PyExpr& x) {
  const PyExpr* op = arg(x, 0, "op");
  auto q = op != nullptr ? op_qualname(*op) : std::nullopt;
  if (!q) return unread(x, "torch.library.register_fake");
  if (auto ok = need_debug(x.at); !ok) return ok;
  std::size_t blk = 0;
  std::string debug;
  if (dbg_->fake_in_lib) {
    auto tb = target_block(x, q->first, dbg_->fake);
    if (!tb) return unread(x, "torch.library.register_fake");
    blk = tb->first;
    debug = tb->second;
  } else {
    blk = new_block(ns_of(q->first), "FRAGMENT", "", x.at, "the Library torch._library.fake_impl makes");
    debug = dbg_->fake;
  }
  TomlEntry& en = entry(blk, "impl", x.at);
  en.add("op", q->first, q->second);
  en.add("key", "Meta", x.at);
  kernel_fields(en, nullptr, debug, x.at);
  return true;
}

}  // namespace dt::pyread
