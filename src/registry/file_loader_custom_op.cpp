// FileLoader (file_loader.hpp): [[custom_op]] entries, torch.library.custom_op
// with register_kernel / register_fake / register_autograd / register_vmap /
// register_autocast, expanded into exactly the definition and kernels the
// profile's release registers (its [torch_library] table, measured by
// tools/gen_torch_library.py; docs/input-format.md).
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "base/operator_name.hpp"
#include "base/suggest.hpp"
#include "base/text.hpp"
#include "registry/file_loader.hpp"

namespace dt {

namespace {

bool is_tensor_type(std::string_view type) { return type.starts_with("Tensor"); }
// An alias annotation that writes ("Tensor(a!)") / only aliases ("Tensor(a)").
bool writes(std::string_view type) { return type.find("!)") != std::string_view::npos; }
bool aliases(std::string_view type) { return type.find('(') != std::string_view::npos && !writes(type); }

}  // namespace

Step FileLoader::require_api(std::string_view api, const Location& where) {
  const TorchLibraryInfo& tl = p_.torch_library();
  if (tl.has(api)) return Step::Go;
  // By release ("torch-2.6" before "torch-2.14"); the embedded profiles are sorted by name.
  std::vector<std::pair<std::vector<int>, std::string>> found;
  for (const auto& e : embedded_profiles()) {
    auto other = Profile::parse(e.text, e.path);
    if (!other || !other->torch_library().has(api)) continue;
    std::vector<int> version;
    for (std::string_view v = other->torch_version(); !v.empty() && v[0] >= '0' && v[0] <= '9';) {
      std::size_t n = 0;
      int x = 0;
      while (n < v.size() && v[n] >= '0' && v[n] <= '9') x = x * 10 + (v[n++] - '0');
      version.push_back(x);
      v = n < v.size() && v[n] == '.' ? v.substr(n + 1) : std::string_view{};
    }
    found.emplace_back(std::move(version), e.name);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> having;
  for (auto& f : found) having.push_back(std::move(f.second));
  const std::string where_it_is =
      having.empty() ? std::string("no built-in profile has it")
                     : fmt::format("among the built-in profiles it first appears in {} (profiles that have it: {})",
                                   having.front(), join(having, ", "));
  if (!tl.measured)
    return set_error(where, fmt::format("torch.library.{}: profile {} has no measured torch.library data (no "
                                        "[torch_library] table: it is not generated from a real build); {}",
                                        api, p_.name(), where_it_is));
  return set_error(where, fmt::format("torch.library.{} does not exist in torch {} (profile {}); {}", api,
                                      p_.torch_version(), p_.name(), where_it_is));
}

std::optional<Schema> FileLoader::custom_op_schema(const Located<std::string>& text,
                                                   const std::optional<std::vector<Located<std::string>>>& mutates) {
  auto schema = schema_at(text);
  if (!schema) return std::nullopt;
  if (!schema->name.empty()) {
    set_error(text.where, "a custom_op's 'schema' is nameless, like \"(Tensor x) -> Tensor\"; the name goes in 'name'");
    return std::nullopt;
  }
  std::set<std::string> written;
  for (const auto& a : schema->arguments)
    if (writes(a.type)) written.insert(a.name);
  std::set<std::string> wanted;
  if (mutates)
    for (const auto& m : *mutates) {
      auto arg = std::find_if(schema->arguments.begin(), schema->arguments.end(),
                              [&](const SchemaArgument& a) { return a.name == m.value; });
      if (arg == schema->arguments.end()) {
        std::vector<std::string_view> names;
        for (const auto& a : schema->arguments) names.emplace_back(a.name);
        set_error(m.where, fmt::format("mutates_args names '{}', which is not an argument of the schema{}", m.value,
                                       did_you_mean(m.value, names)));
        return std::nullopt;
      }
      if (!is_tensor_type(arg->type)) {
        set_error(m.where, fmt::format("mutates_args names '{}', a {}: only Tensor arguments can be mutated", m.value,
                                       arg->type));
        return std::nullopt;
      }
      wanted.insert(m.value);
    }
  if (!written.empty()) {
    // schema= given with its alias annotations: torch checks mutates_args against them.
    if (written != wanted) {
      set_error(mutates ? mutates->front().where : text.where,
                fmt::format("the schema mutates {{{}}} but mutates_args is [{}]; make them consistent (or leave "
                            "the annotations out of the schema and let mutates_args add them)",
                            join(std::vector<std::string>(written.begin(), written.end()), ", "),
                            join(std::vector<std::string>(wanted.begin(), wanted.end()), ", ")));
      return std::nullopt;
    }
    return schema;
  }
  // As torch.library.infer_schema writes them: Tensor(aI!), Tensor(aI!)?, Tensor(aI!)[] for argument I.
  for (std::size_t i = 0; i < schema->arguments.size(); ++i) {
    SchemaArgument& a = schema->arguments[i];
    if (!wanted.contains(a.name)) continue;
    if (aliases(a.type)) {
      set_error(text.where, fmt::format("argument '{}' has an alias annotation and is in mutates_args", a.name));
      return std::nullopt;
    }
    a.type = fmt::format("Tensor(a{}!){}", i, a.type.substr(6));
  }
  return schema;
}

Step FileLoader::load_custom_op(const EntryRef& t) {
  TableReader r = reader(t, "a [[custom_op]] entry");
  r.allow_only({"name", "schema", "mutates_args", "device_types", "tags", "register_kernel", "register_fake",
                "register_autograd", "register_vmap", "register_autocast", "function"});
  auto name = r.name("name");
  auto function = r.name("function");
  auto schema_text = r.str("schema");
  auto mutates = r.name_array("mutates_args");
  auto devices = r.name_or_names("device_types");
  auto tags = r.name_array("tags");
  auto kernel_devices = r.name_or_names("register_kernel");
  auto fake = r.boolean("register_fake");
  auto autograd = r.boolean("register_autograd");
  auto vmap = r.boolean("register_vmap");
  auto autocast = r.name_or_names("register_autocast");
  if (r.failed()) return Step::Stop;
  const Location where = r.self();
  if (require_api("custom_op", where) == Step::Stop) return Step::Stop;
  if (!name) return set_error(where, "a [[custom_op]] entry needs a 'name' (\"namespace::name\")");
  if (!schema_text)
    return set_error(where, "a [[custom_op]] entry needs a 'schema', like \"(Tensor x) -> Tensor\"");
  const TorchLibraryInfo& tl = p_.torch_library();
  if (tags && !tl.custom_op_user_tags)
    return set_error(r.where("tags"), fmt::format("torch.library.custom_op takes no tags= in torch {} (profile {}); "
                                                  "its definitions get {}",
                                                  p_.torch_version(), p_.name(), join(tl.custom_op_tags, ", ")));
  for (auto [field, api, given] : {std::tuple{"register_kernel", "register_kernel", kernel_devices.has_value()},
                                   std::tuple{"register_fake", "register_fake", fake && fake->value},
                                   std::tuple{"register_autograd", "register_autograd", autograd && autograd->value},
                                   std::tuple{"register_vmap", "register_vmap", vmap && vmap->value},
                                   std::tuple{"register_autocast", "register_autocast", autocast.has_value()}})
    if (given && require_api(api, r.where(field)) == Step::Stop) return Step::Stop;

  // The operator: "ns::name"; an unqualified name takes the file's namespace.
  auto parsed = OperatorName::parse(name->value);
  if (!parsed) return set_error(name->where, std::move(parsed.error().message));
  OperatorName on = *parsed;
  if (!on.overload.empty())
    return set_error(name->where, "a custom_op's name is \"namespace::name\", without an overload");
  if (on.ns.empty()) {
    if (!ns_given_ || lib_->ns == "_")
      return set_error(name->where, fmt::format("custom_op name '{}' has no namespace and the file sets none; write "
                                                "'ns::{}'",
                                                name->value, name->value));
    on.ns = lib_->ns;
  }
  auto schema = custom_op_schema(*schema_text, mutates);
  if (!schema) return Step::Stop;
  schema->ns = on.ns;
  schema->name = on.name;
  const std::string op = on.qualified();

  // The definition (Library.define with the release's tags).
  Definition def;
  def.printed = print_schema(*schema, SchemaPrintOptions{p_.quirks().dimname_prints_as_str});
  def.schema = *schema;
  def.debug = tl.debug_of("def");
  def.where = where;
  def.custom_op_function = function ? function->value : on.name;
  if (tags)
    for (const auto& tg : *tags) {
      if (auto known = p_.check_tag(tg.value); !known) return set_error(tg.where, known.error().message);
      if (std::find(def.tags.begin(), def.tags.end(), tg.value) == def.tags.end()) def.tags.push_back(tg.value);
    }
  for (const auto& tg : tl.custom_op_tags)
    if (std::find(def.tags.begin(), def.tags.end(), tg) == def.tags.end()) def.tags.push_back(tg);
  out_.stmts.emplace_back(std::make_unique<Definition>(std::move(def)));

  // Python kernels: where the release forbids one to replace another (no
  // allow_override), a second one on a key is torch's RuntimeError.
  std::vector<KeyId> python_keys;
  auto add = [&](std::string_view key_name, std::string_view role, const Location& at,
                 CustomOpKernel custom_op_role = CustomOpKernel::None) -> Step {
    const KeyId k = *p_.find(key_name);
    if (std::find(python_keys.begin(), python_keys.end(), k) != python_keys.end() && !tl.python_override)
      return set_error(at, fmt::format("This is not allowed since there's already a kernel registered from python "
                                       "overriding {}'s behavior for {} dispatch key and {} namespace. (torch {} "
                                       "does not let a Python kernel replace another)",
                                       on.name, key_name, on.ns, p_.torch_version()));
    python_keys.push_back(k);
    Kernel kern;
    kern.debug = tl.debug_of(role);
    kern.boxed_only = true;
    kern.where = at;
    kern.custom_op = custom_op_role;
    register_impl(op, k, std::move(kern));
    return Step::Go;
  };
  bool mutable_op = false, view_op = false, tensor_arg = false, device_arg = false;
  for (const auto& a : schema->arguments) {
    mutable_op = mutable_op || writes(a.type);
    view_op = view_op || aliases(a.type);
    tensor_arg = tensor_arg || is_tensor_type(a.type);
    device_arg = device_arg || a.type == "Device";
  }
  // What custom_op registers when it is created: the fake (Meta) and autograd
  // kernels, then the ADInplaceOrView ones of a mutable or view operator.
  // Without register_fake, the fake kernel raises when called -- except for a
  // mutable operator that returns nothing, whose fake impl is trivial
  // (can_generate_trivial_fake_impl, where the release has it). Neither is
  // modelled where the profile has not measured what they raise.
  const bool trivial_fake = tl.trivial_fake && schema->returns.empty() && mutable_op;
  add("Meta", "fake", where,
      tl.no_fake_error.empty()                ? CustomOpKernel::None
      : (fake && fake->value) || trivial_fake ? CustomOpKernel::Fake
                                              : CustomOpKernel::FakeUnset);
  add("Autograd", "autograd", where,
      tl.no_autograd_error.empty()  ? CustomOpKernel::None
      : autograd && autograd->value ? CustomOpKernel::Autograd
                                    : CustomOpKernel::AutogradUnset);
  const int inplace =
      mutable_op ? (view_op ? tl.inplace_mutable_view : tl.inplace_mutable) : (view_op ? tl.inplace_view : 0);
  for (int i = 0; i < inplace; ++i) {
    Kernel kern;  // the C++ ADInplaceOrView fallback kernel and/or the Python version bump
    kern.debug = tl.debug_of("inplace");
    kern.boxed_only = true;
    kern.where = where;
    // custom_ops.py registers the Python one under warnings.filterwarnings("ignore",
    // "Warning only once for all operators"): the warning is spent, not shown.
    kern.warning_filtered = i > 0;
    register_impl(op, *p_.find("ADInplaceOrView"), std::move(kern));
  }

  // register_kernel(device_types): custom_op's own call, then the entry's.
  std::vector<KeyId> backend_keys;
  auto register_kernel = [&](const std::optional<std::vector<Located<std::string>>>& devs, std::string_view role,
                             const Location& at) -> Step {
    std::vector<std::pair<KeyId, Location>> keys;
    if (!devs) {
      keys.emplace_back(*p_.find("CompositeExplicitAutograd"), at);
    } else {
      for (const auto& d : *devs)
        if (d.value == "default")
          return set_error(d.where,
                           "custom_op and register_kernel take device types (\"cpu\", \"cuda\", ...); "
                           "leave device_types out for the CompositeExplicitAutograd kernel (None)");
      if (impl_keys(r, std::nullopt, std::nullopt, devs, at, keys) == Step::Stop) return Step::Stop;
    }
    for (const auto& [k, kat] : keys) {
      if (std::find(backend_keys.begin(), backend_keys.end(), k) != backend_keys.end()) continue;
      backend_keys.push_back(k);
      if (add(p_.name_of(k), devs ? role : std::string_view("default"), kat) == Step::Stop) return Step::Stop;
    }
    if (devs && !tensor_arg) {
      if (!device_arg)
        return set_error(at,
                         "Functions without tensor inputs are required to have a `device: torch.device` "
                         "argument (custom_op with device types and no Tensor argument)");
      // register_kernel registers it again at each call.
      if (add("BackendSelect", "backend_select", at) == Step::Stop) return Step::Stop;
    }
    return Step::Go;
  };
  if (register_kernel(devices, "device", devices ? r.where("device_types") : where) == Step::Stop) return Step::Stop;
  if (kernel_devices && register_kernel(kernel_devices, "kernel", r.where("register_kernel")) == Step::Stop) return Step::Stop;
  // register_fake / register_autograd replace the functions behind the
  // kernels above: no new registration. register_autograd needs a functional
  // operator (a view with one Tensor in and out too, where the release allows).
  if (autograd && autograd->value && !register_autograd_takes(*schema, tl.autograd_views))
    return set_error(r.where("register_autograd"),
                     fmt::format("Cannot register autograd formula for non-functional operator <CustomOpDef({})> "
                                 "with schema {}. Please create a functional operator and register an autograd "
                                 "formula for that.",
                                 op, print_schema(*schema, SchemaPrintOptions{p_.quirks().dimname_prints_as_str})));
  if (vmap && vmap->value && add("FuncTorchBatched", "vmap", r.where("register_vmap")) == Step::Stop) return Step::Stop;
  if (autocast) {
    std::vector<std::pair<KeyId, Location>> keys;
    if (impl_keys(r, std::nullopt, std::nullopt, autocast, r.where("register_autocast"), keys) == Step::Stop) return Step::Stop;
    for (const auto& [k, kat] : keys) {
      const std::string key_name = "Autocast" + p_.name_of(k);
      if (!p_.find(key_name))
        return set_error(kat, fmt::format("register_autocast: torch {} has no autocast key for device type {} "
                                          "(no {})",
                                          p_.torch_version(), p_.name_of(k), key_name));
      if (add(key_name, "autocast", kat) == Step::Stop) return Step::Stop;
    }
  }
  return step();
}

}  // namespace dt
