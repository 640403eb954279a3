// FileLoader (file_loader.hpp): [[impl]] entries, TORCH_LIBRARY_IMPL's
// m.impl() and torch.library.impl, on a key, several keys or device types.
#include <fmt/format.h>

#include <algorithm>

#include "base/limits.hpp"
#include "base/text.hpp"
#include "registry/file_loader.hpp"

namespace dt {

namespace {

// torch.library device_types: the profile's table, plus the renamed
// PrivateUse1 backend (torch.utils.rename_privateuse1_backend makes its name
// a device type).
std::optional<KeyId> device_key(std::string_view device, const Profile& p, const std::string& pu1_name) {
  if (!pu1_name.empty() && device == pu1_name) return p.find("PrivateUse1");
  for (const auto& [name, key] : p.device_types())
    if (name == device) return key;
  return std::nullopt;
}

std::vector<std::string> device_names(const Registry& reg) {
  std::vector<std::string> out;
  for (const auto& entry : reg.profile().device_types()) out.push_back(entry.first);
  if (!reg.privateuse1_name.empty()) out.push_back(reg.privateuse1_name);
  return out;
}

}  // namespace

Step FileLoader::load_impl(const TomlEntry& t) {
  TableReader r = reader(t, "an [[impl]] entry");
  r.allow_only({"op", "key", "keys", "device_types", "kernel", "fallthrough", "signature", "boxed_only",
                "redispatches", "op_signature", "python_api"});
  auto op = r.name("op");
  auto k1 = r.name("key");
  auto ks = r.name_array("keys");
  auto devs = r.name_array("device_types");
  auto kernel = r.name("kernel");
  auto ft = r.boolean("fallthrough");
  auto sig = r.str("signature");
  auto boxed = r.boolean("boxed_only");
  auto redispatches = r.boolean("redispatches");
  auto op_sig = r.boolean("op_signature");
  auto py_api = r.str("python_api");
  if (r.failed()) return Step::Stop;
  const Location where = r.self();
  if (!op) return set_error(where, "an [[impl]] entry needs an 'op'");
  const int given = (k1 ? 1 : 0) + (ks ? 1 : 0) + (devs ? 1 : 0);
  if (given > 1) {
    const Location second = devs ? r.where("device_types") : r.where("keys");
    return set_error(second, "give at most one of 'key', 'keys' and 'device_types'");
  }
  const bool fallthrough = ft && ft->value;
  if (!kernel && !fallthrough)
    return set_error(where, "an [[impl]] entry needs a 'kernel' (or fallthrough = true)");
  if (redispatches && redispatches->value && fallthrough)
    return set_error(redispatches->where, "a fallthrough kernel runs nothing: it cannot redispatch");
  // CppFunction::makeFallthrough() carries no schema (boxed-only C++
  // kernels may: torch 1.13's Tracer kernels print "[ boxed ]" with one).
  if (sig && fallthrough)
    return set_error(sig->where,
                     "'signature' is the schema inferred from a C++ kernel; a fallthrough kernel has none "
                     "(_dispatch_dump prints \"(none)\")");

  PythonApi python_api = PythonApi::None;
  if (py_api) {
    const std::string& v = py_api->value;
    if (v == "register_fake")
      python_api = PythonApi::RegisterFake;
    else if (v == "impl")
      python_api = op->value.find("::") == std::string::npos ? PythonApi::Impl : PythonApi::ImplQualified;
    else if (v == "register_autograd" || v == "register_vmap" || v == "register_autocast")
      python_api = PythonApi::LooksUp;
    else
      return set_error(py_api->where,
                       fmt::format("python_api is \"impl\" (Library.impl, torch.library.impl, register_kernel), "
                                   "\"register_fake\" (register_fake, impl_abstract), \"register_autograd\", "
                                   "\"register_vmap\" or \"register_autocast\", not {:?}",
                                   v));
  }

  const bool op_signature = op_sig && op_sig->value;
  if (op_signature && (sig || fallthrough))
    return set_error(op_sig->where,
                     "op_signature = true says the kernel's inferred schema is the operator's own C++ function's; "
                     "it takes no 'signature' and no fallthrough");

  // Which keys: as written (for the IMPL-block consistency check) and resolved.
  std::vector<std::pair<KeyId, Location>> keys;
  if (impl_keys(r, k1, ks, devs, where, keys, true) == Step::Stop) return Step::Stop;
  auto qualified = qualify(op->value, op->where, false);
  if (!qualified) return step();
  std::shared_ptr<const std::string> signature;
  if (sig && !(signature = impl_signature(*sig))) return Step::Stop;

  for (auto [k, kwhere] : keys) {
    // torch::dispatch(CatchAll, f) means "no key": the block's key applies.
    if (k == kUndefined && lib_->key) k = *lib_->key;
    if (lib_->kind == LibraryKind::Impl && lib_->key && k != *lib_->key) {
      if (refuse(kwhere,
                 fmt::format("impl(\"{}\", ...): Explicitly provided dispatch key ({}) is inconsistent with the "
                             "dispatch key of the enclosing TORCH_LIBRARY_IMPL block ({}).  Please declare a "
                             "separate TORCH_LIBRARY_IMPL block for this dispatch key and move your impl() "
                             "there.  {}",
                             op->value, p_.name_of(k), p_.name_of(*lib_->key), context()),
                 *qualified, p_.name_of(k)) == Step::Stop)
        return Step::Stop;
      continue;
    }
    Kernel kern;
    kern.debug = debug_or_default(kernel ? kernel->value : std::string_view{}, where);
    kern.signature = signature;
    kern.fallthrough = fallthrough;
    kern.boxed_only = boxed && boxed->value;
    kern.redispatches = redispatches && redispatches->value;
    kern.python_api = python_api;
    // Located at its key when the entry names one, else at its operator.
    kern.where = k1 || ks || devs ? kwhere : op->where;
    register_impl(*qualified, k, std::move(kern), op_signature);
  }
  return Step::Go;
}

Step FileLoader::impl_keys(TableReader& r, const std::optional<Located<std::string>>& key1,
                           const std::optional<std::vector<Located<std::string>>>& keys,
                           const std::optional<std::vector<Located<std::string>>>& devices, const Location& where,
                           std::vector<std::pair<KeyId, Location>>& out, bool key_names) {
  if (key1) {
    auto k = key(key1->value, key1->where);
    if (!k) return Step::Stop;
    out.emplace_back(*k, key1->where);
  } else if (keys) {
    if (keys->empty()) return set_error(r.where("keys"), "'keys' must not be empty");
    if (keys->size() > limits::kKeysPerEntry) return set_error(r.where("keys"), too_many_keys("'keys'", keys->size()));
    for (const auto& n : *keys) {
      auto k = key(n.value, n.where);
      if (!k) return Step::Stop;
      out.emplace_back(*k, n.where);
    }
  } else if (devices) {
    if (devices->empty()) return set_error(r.where("device_types"), "'device_types' must not be empty");
    if (devices->size() > limits::kKeysPerEntry)
      return set_error(r.where("device_types"), too_many_keys("'device_types'", devices->size()));
    for (const auto& d : *devices) {
      // torch.library.impl tries parseDispatchKey first (torch._C._parse_dispatch_key).
      if (auto k = key_names ? p_.find(d.value) : std::nullopt; k && p_.key(*k).parseable) {
        out.emplace_back(*k, d.where);
        continue;
      }
      // The renamed PrivateUse1 device comes first (even "cpu"): without the
      // registry, only the names no rename can change are resolved here.
      if (reg_ == nullptr && p_.quirks().privateuse1_rename && d.value != "default" && d.value != "privateuseone")
        return defer();
      auto name = device_key(d.value, p_, reg_ != nullptr ? reg_->privateuse1_name : std::string());
      if (!name) {
        if (reg_ == nullptr) return defer();
        std::vector<std::string> names = device_names(*reg_);
        std::vector<std::string_view> views(names.begin(), names.end());
        // torch users who write "gpu" mean CUDA's device type, which no edit distance finds.
        const bool gpu = d.value == "gpu" && std::find(views.begin(), views.end(), "cuda") != views.end();
        return set_error(d.where,
                         fmt::format("unknown device type '{}'{}", d.value,
                                     gpu ? std::string(" (did you mean 'cuda'? PyTorch's GPU device type is cuda)")
                                         : did_you_mean(d.value, views)));
      }
      out.emplace_back(*name, d.where);
    }
  } else if (lib_->key) {
    out.emplace_back(*lib_->key, where);
  } else {
    out.emplace_back(kUndefined, where);  // catch-all
  }
  return Step::Go;
}

std::shared_ptr<const std::string> FileLoader::impl_signature(const Located<std::string>& sig) {
  // Kernels of one operator nearly always share their signature text.
  auto cached = signatures_.find(sig.value);
  if (cached == signatures_.end()) {
    auto s = schema_at(sig);
    if (!s) return nullptr;
    cached = signatures_
                 .emplace(sig.value, std::make_shared<const std::string>(print_arguments_and_returns(
                                         *s, SchemaPrintOptions{p_.quirks().dimname_prints_as_str})))
                 .first;
  }
  return cached->second;
}

}  // namespace dt
