// The torch.library forms of the Python reader (readers/python_reader_impl.hpp):
// Library objects and their define / impl / fallback / _register_fake,
// torch.library.define / impl, the register_* functions on operators that
// custom_op did not make, rename_privateuse1_backend. Each registers what the
// release registers, with the debug string the profile measured for the form
// ([torch_library.python]).
#include <fmt/format.h>

#include <algorithm>

#include "readers/python_reader_impl.hpp"

namespace dt::pyread {

namespace {

constexpr std::string_view kApis[] = {"Library",          "define",          "impl",
                                      "custom_op",        "triton_op",       "register_kernel",
                                      "register_fake",    "register_autograd", "register_vmap",
                                      "register_autocast", "register_torch_dispatch", "impl_abstract"};

// "ns::op", "ns::op.overload", torch.ops.ns.op.overload (an OpOverload), a
// custom op: the qualified name. torch refuses the packet torch.ops.ns.op.
std::optional<std::pair<std::string, Location>> qualname_of(const PyVal& v) {
  if (v.is_str()) {
    if (v.s.find("::") == std::string::npos) return std::nullopt;
    return std::make_pair(v.s, v.at);
  }
  if (v.kind == PyVal::Op) return std::make_pair(v.op->qualname, v.at);
  if (v.kind != PyVal::Ext || !v.s.starts_with("torch.ops.")) return std::nullopt;
  std::vector<std::string> parts;
  for (std::size_t b = 10, e = 0; b <= v.s.size(); b = e + 1) {
    e = std::min(v.s.find('.', b), v.s.size());
    parts.push_back(v.s.substr(b, e - b));
  }
  if (parts.size() != 3) return std::nullopt;
  std::string q = parts[0] + "::" + parts[1];
  if (parts[2] != "default") q += "." + parts[2];
  return std::make_pair(q, v.at);
}

std::string ns_of(const std::string& qualname) {
  const std::size_t c = qualname.find("::");
  return c == std::string::npos ? std::string() : qualname.substr(0, c);
}

}  // namespace

bool PyReader::is_api(std::string_view name) {
  if (!name.starts_with("torch.library.")) return false;
  const std::string_view api = name.substr(14);
  return std::find(std::begin(kApis), std::end(kApis), api) != std::end(kApis);
}

std::optional<std::vector<PyVal>> PyReader::strs(const PyVal& v) {
  if (v.is_str()) return std::vector<PyVal>{v};
  if (!v.is_sequence() && v.kind != PyVal::Dict) return std::nullopt;
  for (const PyVal& x : v.items)
    if (!x.is_str()) return std::nullopt;
  return v.items;
}

std::optional<std::vector<std::string>> PyReader::tags(const PyVal& v) const {
  std::vector<const PyVal*> items;
  if (v.is_sequence())
    for (const auto& a : v.items) items.push_back(&a);
  else if (!v.is_none())
    items.push_back(&v);
  std::vector<std::string> out;
  for (const PyVal* a : items) {
    if (a->kind != PyVal::Ext) return std::nullopt;
    if (a->s.starts_with("torch.Tag."))
      out.push_back(a->s.substr(10));
    else if (a->s.starts_with("torch._C.Tag."))
      out.push_back(a->s.substr(13));
    else
      return std::nullopt;
  }
  return out;
}

void PyReader::unread(Frame& f, Location at, const std::string& what, const std::string& why, const std::string& op) {
  std::string msg = fmt::format("{}: not read ({})", what, why);
  if (!op.empty()) msg += fmt::format("; it would register '{}'", op);
  warn(f, at, std::move(msg), op);
}

TomlEntry& PyReader::entry(std::size_t block, const char* kind, Location at) {
  TomlEntry en;
  en.kind = kind;
  en.at = at;
  out_.blocks[block].entries.push_back(std::move(en));
  return out_.blocks[block].entries.back();
}

void PyReader::kernel_fields(TomlEntry& en, const PyVal* fn, const std::string& debug, Location at) {
  if (fn != nullptr && fn->is_ext("torch.library.fallthrough_kernel")) {
    en.add("fallthrough", true, fn->at);
    en.add("kernel", debug, at);
  } else {
    en.add("kernel", debug, at);
    en.add("boxed_only", true, at);
  }
}

// The block a Library's registrations go to: its own (or, for a Library of
// another file read, one of this file's with the same namespace, kind and
// key), continued in a new block when others were opened since, so that
// registrations load in the order they are made.
std::optional<std::size_t> PyReader::block_of(const std::shared_ptr<const PyLib>& lib) {
  if (quiet_) return std::nullopt;
  auto it = lib_blocks_.find(lib.get());
  if (it != lib_blocks_.end() && it->second + 1 == out_.blocks.size()) return it->second;
  TomlBlock blk;
  blk.at = lib->at;
  const bool continued = it != lib_blocks_.end() || lib->owner != this;
  blk.note = fmt::format("torch.library.Library({:?}, {:?}{}){}", lib->ns, lib->kind,
                         lib->key.empty() ? "" : fmt::format(", {:?}", lib->key),
                         lib->owner != this ? fmt::format(" of {}:{}", lib->at.file.view(), lib->at.line)
                         : continued       ? " (continued)"
                                           : "");
  blk.add("namespace", lib->ns, lib->ns_at);
  // One DEF block per namespace: a continuation of a DEF Library is a FRAGMENT.
  blk.add("kind", continued && lib->kind == "DEF" ? std::string("FRAGMENT") : lib->kind, lib->kind_at);
  if (!lib->key.empty()) blk.add("dispatch_key", lib->key, lib->key_at);
  if (!privateuse1_.empty() && out_.blocks.empty()) blk.add("privateuse1_backend", privateuse1_, lib->at);
  out_.blocks.push_back(std::move(blk));
  lib_blocks_[lib.get()] = out_.blocks.size() - 1;
  lib_block_list_.emplace_back(out_.blocks.size() - 1, lib.get());
  return out_.blocks.size() - 1;
}

// A FRAGMENT Library torch.library makes for itself (define / impl without
// lib=, register_fake, register_autograd, ...).
std::size_t PyReader::fragment_block(const std::string& ns, Location at, const std::string& note) {
  const std::string key = ns + "\n" + note;
  if (auto it = fragment_blocks_.find(key); it != fragment_blocks_.end() && it->second + 1 == out_.blocks.size())
    return it->second;
  TomlBlock blk;
  blk.at = at;
  blk.note = note;
  if (!ns.empty()) blk.add("namespace", ns, at);
  blk.add("kind", "FRAGMENT", at);
  out_.blocks.push_back(std::move(blk));
  fragment_blocks_[key] = out_.blocks.size() - 1;
  return out_.blocks.size() - 1;
}

bool PyReader::record_def(Frame& f, const std::string& qualname, Location at) {
  auto [it, fresh] = defined_.emplace(qualname, Defined{site(f, at), !f.conds.empty()});
  if (fresh) return true;
  if (!it->second.conditional && f.conds.empty()) return true;  // defined twice for real: refused as torch does
  warn(f, at,
       fmt::format("a second definition of {} in another branch of a condition (or of a try block): not read; the "
                   "first one is",
                   qualname),
       qualname, {{it->second.at, "the definition read"}});
  return false;
}

PyVal PyReader::torch_library(Frame& f, const std::string& api, Args& a) {
  if (api == "Library") return library(f, a);
  if (api == "define") return define(f, a);
  if (api == "impl") return impl(f, a);
  if (api == "custom_op" || api == "triton_op") return custom_op(f, api, a);
  if (api.starts_with("register_") || api == "impl_abstract") return register_on_op(f, api, a);
  return PyVal::unknown(fmt::format("the result of torch.library.{}", api), a.at);
}

PyVal PyReader::library(Frame& f, Args& a) {
  const PyVal* ns = a.get(0, "ns");
  const PyVal* kind = a.get(1, "kind");
  const PyVal* key = a.get(2, "dispatch_key");
  if (ns == nullptr || !ns->is_str() || kind == nullptr || !kind->is_str() || (key != nullptr && !key->is_str())) {
    warn(f, a.at,
         fmt::format("torch.library.Library with arguments dispatchtool does not know ({}): not read, nor anything "
                     "registered through it",
                     describe(ns == nullptr || !ns->is_str() ? (ns ? *ns : PyVal::unknown("no namespace"))
                              : kind == nullptr || !kind->is_str() ? (kind ? *kind : PyVal::unknown("no kind"))
                                                                 : *key)));
    return PyVal::unknown("a Library whose arguments dispatchtool does not know", a.at);
  }
  auto lib = std::make_shared<PyLib>();
  lib->ns = ns->s;
  lib->kind = kind->s;
  lib->key = key != nullptr ? key->s : std::string();
  lib->at = a.at;
  lib->ns_at = ns->at;
  lib->kind_at = kind->at;
  lib->key_at = key != nullptr ? key->at : a.at;
  lib->owner = this;
  if (need_debug(a.at)) lib->debug = debug(f, "library", a.at);
  if (!quiet_) made_libs_.push_back(lib);
  if (!quiet_) (void)block_of(lib);
  PyVal v;
  v.kind = PyVal::Lib;
  v.lib = lib;
  v.at = a.at;
  return v;
}

PyVal PyReader::library_method(Frame& f, const std::shared_ptr<const PyLib>& lib, const std::string& method,
                               Args& a) {
  const Location at = a.at;
  if (quiet_) return method == "impl" && a.decorator ? PyVal::identity(at) : PyVal::none(at);
  const std::string what = fmt::format("Library({:?}).{}", lib->ns, method);
  if (method == "define") {
    const PyVal* schema = a.get(0, "schema");
    const PyVal* aa = a.get(1, "alias_analysis");
    const PyVal* tg = a.kwarg("tags");
    auto tl = tg != nullptr ? tags(*tg) : std::optional<std::vector<std::string>>(std::vector<std::string>{});
    if (schema == nullptr || !schema->is_str() || (aa != nullptr && !aa->is_str()) || !tl) {
      unread(f, at, what,
             schema == nullptr || !schema->is_str() ? fmt::format("its schema is {}", schema ? describe(*schema) : "missing")
             : !tl ? fmt::format("its tags are {}", describe(*tg))
                   : fmt::format("its alias_analysis is {}", describe(*aa)));
      return PyVal::none(at);
    }
    const std::string name = schema->s.substr(0, schema->s.find('('));
    const std::string q = name.find("::") == std::string::npos ? lib->ns + "::" + name : name;
    if (!record_def(f, q, at)) return PyVal::none(at);
    guarded(f, at, fmt::format("the definition of {}", q), q);
    auto blk = block_of(lib);
    TomlEntry& en = entry(*blk, "def", site(f, at));
    en.add("schema", schema->s, schema->at);
    if (aa != nullptr && !aa->s.empty()) en.add("alias_analysis", aa->s, aa->at);
    if (!tl->empty()) en.add("tags", *tl, tg->at);
    en.add("debug", lib->debug, at);
    return PyVal::none(at);
  }
  if (method == "impl") {
    const PyVal* op = a.get(0, "op_name");
    const PyVal* fn = a.decorated ? &*a.decorated : a.get(1, "fn");
    const PyVal* key = a.get(2, "dispatch_key");
    std::optional<std::pair<std::string, Location>> name;
    if (op != nullptr && op->is_str()) name = std::make_pair(op->s, op->at);
    if (op != nullptr && !name) name = qualname_of(*op);
    if (!name || fn == nullptr || (key != nullptr && !key->is_str())) {
      unread(f, at, what,
             !name ? fmt::format("its operator is {}", op ? describe(*op) : "missing")
             : fn == nullptr ? std::string("no kernel function")
                             : fmt::format("its dispatch key is {}", describe(*key)),
             name ? name->first : std::string());
      return PyVal::none(at);
    }
    guarded(f, at, fmt::format("the kernel of {}", name->first), name->first);
    auto blk = block_of(lib);
    TomlEntry& en = entry(*blk, "impl", site(f, at));
    en.add("op", name->first, field_site(f, name->second));
    if (key != nullptr && !key->s.empty()) en.add("key", key->s, field_site(f, key->at));
    kernel_fields(en, fn, lib->debug, at);
    if ((key != nullptr && !key->s.empty() ? key->s : lib->key) == "Meta") en.add("python_api", "impl", at);
    return PyVal::none(at);
  }
  if (method == "_register_fake") {
    const PyVal* op = a.get(0, "op_name");
    if (op == nullptr || !op->is_str()) {
      unread(f, at, what, fmt::format("its operator is {}", op ? describe(*op) : "missing"));
      return PyVal::none(at);
    }
    const std::string q = op->s.find("::") == std::string::npos ? lib->ns + "::" + op->s : op->s;
    if (!need_debug(at)) return PyVal::none(at);
    guarded(f, at, fmt::format("the fake (Meta) kernel of {}", q), q);
    const std::string debug_string = debug(f, "lib_fake", at, lib->debug);
    const std::size_t blk = debug_string == lib->debug
                                ? *block_of(lib)
                                : fragment_block(lib->ns, at, "the Library torch._library.fake_impl makes");
    TomlEntry& en = entry(blk, "impl", site(f, at));
    en.add("op", op->s, field_site(f, op->at));
    en.add("key", "Meta", site(f, at));
    kernel_fields(en, nullptr, debug_string, at);
    en.add("python_api", "register_fake", at);
    return PyVal::none(at);
  }
  if (method == "fallback") {
    const PyVal* fn = a.get(0, "fn");
    const PyVal* key = a.get(1, "dispatch_key");
    if (fn == nullptr || (key != nullptr && !key->is_str())) {
      unread(f, at, what, key ? fmt::format("its dispatch key is {}", describe(*key)) : "no kernel function");
      return PyVal::none(at);
    }
    guarded(f, at, "the fallback");
    auto blk = block_of(lib);
    TomlEntry& en = entry(*blk, "fallback", site(f, at));
    if (key != nullptr && !key->s.empty()) en.add("key", key->s, field_site(f, key->at));
    if (fn->is_ext("torch.library.fallthrough_kernel")) en.add("fallthrough", true, fn->at);
    en.add("kernel", lib->debug, at);
    return PyVal::none(at);
  }
  // Registrations that make no dispatcher kernel.
  if (method == "_register_torch_dispatch_rule" || method == "_register_effectful_op" || method == "_destroy")
    return PyVal::none(at);
  warn(f, at, fmt::format("{}: a Library method dispatchtool does not read: not read", what));
  return PyVal::none(at);
}

PyVal PyReader::define(Frame& f, Args& a) {
  const Location at = a.at;
  if (quiet_) return PyVal::none(at);
  const PyVal* q = a.get(0, "qualname");
  const PyVal* schema = a.get(1, "schema");
  const PyVal* lib = a.kwarg("lib");
  const PyVal* tg = a.kwarg("tags");
  auto tl = tg != nullptr ? tags(*tg) : std::optional<std::vector<std::string>>(std::vector<std::string>{});
  const bool has_lib = lib != nullptr && !lib->is_none();
  if (q == nullptr || !q->is_str() || schema == nullptr || !schema->is_str() || !tl ||
      (has_lib && lib->kind != PyVal::Lib)) {
    unread(f, at, "torch.library.define",
           q == nullptr || !q->is_str()        ? fmt::format("its name is {}", q ? describe(*q) : "missing")
           : schema == nullptr || !schema->is_str() ? fmt::format("its schema is {}", schema ? describe(*schema) : "missing")
           : !tl                                ? fmt::format("its tags are {}", describe(*tg))
                                                : fmt::format("its lib= is {}", describe(*lib)),
           q != nullptr && q->is_str() ? q->s : std::string());
    return PyVal::none(at);
  }
  if (!need_debug(at) || !record_def(f, q->s, at)) return PyVal::none(at);
  guarded(f, at, fmt::format("the definition of {}", q->s), q->s);
  std::size_t blk = 0;
  std::string debug_string;
  if (has_lib) {
    blk = *block_of(lib->lib);
    debug_string = debug(f, "define_lib", at, lib->lib->debug);
  } else {
    blk = fragment_block(ns_of(q->s), at, "a Library torch.library makes");
    debug_string = debug(f, "define", at);
  }
  TomlEntry& en = entry(blk, "def", site(f, at));
  en.add("name", q->s, q->at);
  en.add("schema", schema->s, schema->at);
  if (!tl->empty()) en.add("tags", *tl, tg->at);
  en.add("debug", debug_string, at);
  return PyVal::none(at);
}

PyVal PyReader::impl(Frame& f, Args& a) {
  const Location at = a.at;
  const PyVal* first = a.get(0, "qualname");
  if (first != nullptr && first->kind == PyVal::Lib) {  // impl(lib, name, dispatch_key): a decorator
    const PyVal* name = a.get(1, "name");
    const PyVal* key = a.get(2, "dispatch_key");
    Args m;
    m.at = at;
    m.decorator = true;
    m.pos = {name != nullptr ? *name : PyVal::unknown("no operator name", at), PyVal::identity(at)};
    if (key != nullptr) m.pos.push_back(*key);
    (void)library_method(f, first->lib, "impl", m);
    return PyVal::identity(at);
  }
  const PyVal* fn = a.decorated ? &*a.decorated : a.get(2, "func");
  const bool decorator = fn == nullptr;
  if (quiet_) return decorator ? PyVal::identity(at) : PyVal::none(at);
  const PyVal* types = a.get(1, "types");
  const PyVal* lib = a.kwarg("lib");
  const bool has_lib = lib != nullptr && !lib->is_none();
  auto q = first != nullptr ? qualname_of(*first) : std::nullopt;
  auto ts = types != nullptr ? strs(*types) : std::nullopt;
  if (!q || !ts || (has_lib && lib->kind != PyVal::Lib)) {
    unread(f, at, "torch.library.impl",
           !q    ? fmt::format("its operator is {}", first ? describe(*first) : "missing")
           : !ts ? fmt::format("its types are {}", types ? describe(*types) : "missing")
                 : fmt::format("its lib= is {}", describe(*lib)),
           q ? q->first : std::string());
    return decorator ? PyVal::identity(at) : PyVal::none(at);
  }
  if (!need_debug(at)) return PyVal::none(at);
  guarded(f, at, fmt::format("the kernel of {}", q->first), q->first);
  std::size_t blk = 0;
  std::string debug_string;
  if (has_lib) {
    blk = *block_of(lib->lib);
    debug_string = debug(f, "impl_lib", at, lib->lib->debug);
  } else {
    blk = fragment_block(ns_of(q->first), at, "a Library torch.library makes");
    debug_string = debug(f, decorator ? "impl_decorator" : "impl", at);
  }
  TomlEntry& en = entry(blk, "impl", site(f, at));
  en.add("op", q->first, field_site(f, q->second));
  std::vector<std::string> names;
  for (const PyVal& t : *ts) names.push_back(t.s);
  en.add("device_types", names, field_site(f, types->at));
  kernel_fields(en, fn, debug_string, at);
  if (std::find(names.begin(), names.end(), "meta") != names.end() ||
      std::find(names.begin(), names.end(), "Meta") != names.end())
    en.add("python_api", "impl", at);
  return decorator ? PyVal::identity(at) : PyVal::none(at);
}

// register_<api>(op, ...) where op is "ns::op", an OpOverload or a custom op.
PyVal PyReader::register_on_op(Frame& f, const std::string& api, Args& a) {
  const Location at = a.at;
  const PyVal* op = a.get(0, "op");
  if (op != nullptr && op->kind == PyVal::Op) return op_method(f, op->op, api == "impl_abstract" ? "register_fake" : api, a, 1);
  auto q = op != nullptr ? qualname_of(*op) : std::nullopt;
  if (q)
    if (auto it = custom_ops_.find(q->first); it != custom_ops_.end())
      return op_method(f, it->second, api == "impl_abstract" ? "register_fake" : api, a, 1);
  if (!q) {
    const bool takes_fn = api != "register_autograd" && api != "register_autocast";
    if (!quiet_)
      unread(f, at, "torch.library." + api, fmt::format("its operator is {}", op ? describe(*op) : "missing"));
    return takes_fn && a.get(api == "register_kernel" || api == "register_torch_dispatch" ? 2 : 1, "func") == nullptr
               ? PyVal::identity(at)
               : PyVal::none(at);
  }
  return kernel_on_op(f, api, q->first, q->second, a);
}

// A register_* on an operator custom_op did not make (a Library.define, a C++
// TORCH_LIBRARY one): the kernel the release registers, on the key it uses.
PyVal PyReader::kernel_on_op(Frame& f, const std::string& api, const std::string& q, Location qat, Args& a) {
  const Location at = a.at;
  struct Form {
    std::string_view api, form, key;
    std::size_t fn_pos;
  };
  static constexpr Form kForms[] = {{"register_fake", "fake", "Meta", 1},
                                    {"impl_abstract", "abstract", "Meta", 1},
                                    {"register_autograd", "autograd", "Autograd", 1},
                                    {"register_kernel", "kernel", "", 2},
                                    {"register_vmap", "vmap", "FuncTorchBatched", 1},
                                    {"register_autocast", "autocast", "", 99},
                                    {"register_torch_dispatch", "", "", 2}};
  const Form* form = nullptr;
  for (const Form& fm : kForms)
    if (fm.api == api) form = &fm;
  if (form == nullptr) {
    if (!quiet_) unread(f, at, "torch.library." + api, "an API dispatchtool does not read", q);
    return PyVal::none(at);
  }
  const PyVal* fn = a.decorated ? &*a.decorated : a.get(form->fn_pos, "func");
  const bool decorator = fn == nullptr && form->fn_pos != 99 && api != "register_autograd";
  const PyVal result = decorator ? PyVal::identity(at) : PyVal::none(at);
  if (quiet_ || form->form.empty()) return result;  // register_torch_dispatch: a Python rule, no kernel
  const PyVal* lib = a.kwarg("lib");
  const bool has_lib = lib != nullptr && !lib->is_none();
  if (has_lib && lib->kind != PyVal::Lib) {
    unread(f, at, "torch.library." + api, fmt::format("its lib= is {}", describe(*lib)), q);
    return result;
  }
  std::vector<std::string> keys;
  const PyVal* types = nullptr;
  if (api == "register_kernel") {
    types = a.get(1, "device_types");
    if (types != nullptr && types->is_none()) {
      keys.push_back("CompositeExplicitAutograd");  // device_types=None: every device
    } else if (auto ts = types != nullptr ? strs(*types) : std::nullopt) {
      for (const PyVal& t : *ts) keys.push_back(t.s);
    } else {
      unread(f, at, "torch.library.register_kernel",
             fmt::format("its device types are {}", types ? describe(*types) : "missing"), q);
      return result;
    }
  } else if (api == "register_autocast") {
    const PyVal* dev = a.get(1, "device_type");
    if (dev == nullptr || !dev->is_str()) {
      unread(f, at, "torch.library.register_autocast",
             fmt::format("its device type is {}", dev ? describe(*dev) : "missing"), q);
      return result;
    }
    types = dev;
    keys.push_back(dev->s);
  } else {
    keys.push_back(std::string(form->key));
  }
  if (!profile_.torch_library().python_measured || !dbg_.has(form->form)) {
    if (!need_debug(at)) return result;
    fail(at, fmt::format("module 'torch.library' has no attribute '{}' in torch {} (profile {})", api,
                         profile_.torch_version(), profile_.name()));
    return result;
  }
  guarded(f, at, fmt::format("torch.library.{} on {}", api, q), q);
  std::size_t blk = 0;
  std::string debug_string;
  const std::string lib_form = std::string(form->form) + "_lib";
  if (has_lib && dbg_.has(lib_form) && debug(f, lib_form, at, lib->lib->debug) == lib->lib->debug) {
    blk = *block_of(lib->lib);
    debug_string = lib->lib->debug;
  } else {
    debug_string = has_lib && dbg_.has(lib_form)
                       ? debug(f, lib_form, at, lib->lib->debug)
                       : debug(f, decorator && dbg_.has(std::string(form->form) + "_decorator")
                                      ? std::string(form->form) + "_decorator"
                                      : std::string(form->form),
                               at);
    blk = fragment_block(ns_of(q), at,
                         api == "register_fake" || api == "impl_abstract"
                             ? "the Library torch.library (or torch._library.fake_impl) makes"
                             : "a Library torch.library makes");
  }
  TomlEntry& en = entry(blk, "impl", site(f, at));
  en.add("op", q, field_site(f, qat));
  if (api == "register_kernel" && !(types != nullptr && types->is_none()))
    en.add("device_types", keys, field_site(f, types->at));
  else if (api == "register_autocast") {
    // "Autocast" + torch._C._dispatch_key_for_device(device_type)
    std::string key;
    for (const auto& [device, k] : profile_.device_types())
      if (device == keys[0]) key = "Autocast" + profile_.name_of(k);
    if (key.empty() || profile_.find(key) == std::nullopt) {
      fail(types->at, fmt::format("register_autocast: no autocast key for device type '{}' in torch {}", keys[0],
                                  profile_.torch_version()));
      return result;
    }
    en.add("key", key, field_site(f, types->at));
  } else
    en.add("key", keys[0], site(f, at));
  kernel_fields(en, nullptr, debug_string, at);
  if (api == "register_fake" || api == "impl_abstract")
    en.add("python_api", "register_fake", at);
  else if (api == "register_kernel" && std::find(keys.begin(), keys.end(), "meta") != keys.end())
    en.add("python_api", "impl", at);
  else if (api == "register_autograd" || api == "register_vmap" || api == "register_autocast")
    en.add("python_api", api, at);
  return result;
}

void PyReader::rename_privateuse1(Frame& f, Args& a) {
  const PyVal* name = a.get(0, "backend_name");
  if (quiet_) return;
  if (name == nullptr || !name->is_str()) {
    warn(f, a.at,
         fmt::format("rename_privateuse1_backend with a name dispatchtool does not know ({}): not read; device types "
                     "named after it are unknown",
                     name ? describe(*name) : "missing"));
    return;
  }
  guarded(f, a.at, "the PrivateUse1 rename");
  privateuse1_ = name->s;
  TomlBlock blk;
  blk.at = a.at;
  blk.note = fmt::format("torch.utils.rename_privateuse1_backend({:?})", name->s);
  blk.add("kind", "FRAGMENT", a.at);
  blk.add("privateuse1_backend", name->s, name->at);
  out_.blocks.push_back(std::move(blk));
}

}  // namespace dt::pyread
