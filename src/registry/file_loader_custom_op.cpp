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

// One [[custom_op]] entry expanded, phase by phase as torch.library.custom_op
// runs: the entry read (and the release's APIs it needs), the operator
// defined, the kernels custom_op registers when it is created, then those of
// register_kernel / register_autograd / register_vmap / register_autocast.
class CustomOpExpansion {
 public:
  CustomOpExpansion(FileLoader& fl, TableReader& r) : fl_(fl), p_(fl.p_), tl_(fl.p_.torch_library()), r_(r) {}

  Step run() {
    if (read() == Step::Stop || define() == Step::Stop || creation_kernels() == Step::Stop ||
        registrations() == Step::Stop)
      return Step::Stop;
    return fl_.step();
  }

 private:
  // Phase 1: the entry's fields; each register_* it asks for must be an API of the release.
  Step read() {
    r_.allow_only({"name", "schema", "mutates_args", "device_types", "tags", "register_kernel", "register_fake",
                   "register_autograd", "register_vmap", "register_autocast", "function"});
    name_ = r_.name("name");
    function_ = r_.name("function");
    schema_text_ = r_.str("schema");
    mutates_ = r_.name_array("mutates_args");
    devices_ = r_.name_or_names("device_types");
    tags_ = r_.name_array("tags");
    kernel_devices_ = r_.name_or_names("register_kernel");
    fake_ = r_.boolean("register_fake");
    autograd_ = r_.boolean("register_autograd");
    vmap_ = r_.boolean("register_vmap");
    autocast_ = r_.name_or_names("register_autocast");
    if (r_.failed()) return Step::Stop;
    where_ = r_.self();
    if (fl_.require_api("custom_op", where_) == Step::Stop) return Step::Stop;
    if (!name_) return fl_.set_error(where_, "a [[custom_op]] entry needs a 'name' (\"namespace::name\")");
    if (!schema_text_)
      return fl_.set_error(where_, "a [[custom_op]] entry needs a 'schema', like \"(Tensor x) -> Tensor\"");
    if (tags_ && !tl_.custom_op_user_tags)
      return fl_.set_error(r_.where("tags"),
                           fmt::format("torch.library.custom_op takes no tags= in torch {} (profile {}); its "
                                       "definitions get {}",
                                       p_.torch_version(), p_.name(), join(tl_.custom_op_tags, ", ")));
    for (auto [field, api, given] :
         {std::tuple{"register_kernel", "register_kernel", kernel_devices_.has_value()},
          std::tuple{"register_fake", "register_fake", fake_ && fake_->value},
          std::tuple{"register_autograd", "register_autograd", autograd_ && autograd_->value},
          std::tuple{"register_vmap", "register_vmap", vmap_ && vmap_->value},
          std::tuple{"register_autocast", "register_autocast", autocast_.has_value()}})
      if (given && fl_.require_api(api, r_.where(field)) == Step::Stop) return Step::Stop;
    return Step::Go;
  }

  // Phase 2: the operator, "ns::name" (an unqualified name takes the file's
  // namespace), and its definition (Library.define with the release's tags).
  Step define() {
    auto parsed = OperatorName::parse(name_->value);
    if (!parsed) return fl_.set_error(name_->where, std::move(parsed.error().message));
    on_ = *parsed;
    if (!on_.overload.empty())
      return fl_.set_error(name_->where, "a custom_op's name is \"namespace::name\", without an overload");
    if (on_.ns.empty()) {
      if (!fl_.ns_given_ || fl_.lib_->ns == "_")
        return fl_.set_error(name_->where,
                             fmt::format("custom_op name '{}' has no namespace and the file sets none; write 'ns::{}'",
                                         name_->value, name_->value));
      on_.ns = fl_.lib_->ns;
    }
    schema_ = fl_.custom_op_schema(*schema_text_, mutates_);
    if (!schema_) return Step::Stop;
    schema_->ns = on_.ns;
    schema_->name = on_.name;
    op_ = on_.qualified();
    Definition def;
    def.printed = print_schema(*schema_, SchemaPrintOptions{p_.quirks().dimname_prints_as_str});
    def.schema = *schema_;
    def.debug = tl_.debug_of("def");
    def.where = where_;
    def.custom_op_function = function_ ? function_->value : on_.name;
    if (tags_)
      for (const auto& tg : *tags_) {
        if (auto known = p_.check_tag(tg.value); !known) return fl_.set_error(tg.where, known.error().message);
        if (std::find(def.tags.begin(), def.tags.end(), tg.value) == def.tags.end()) def.tags.push_back(tg.value);
      }
    for (const auto& tg : tl_.custom_op_tags)
      if (std::find(def.tags.begin(), def.tags.end(), tg) == def.tags.end()) def.tags.push_back(tg);
    fl_.out_.stmts.emplace_back(std::make_unique<Definition>(std::move(def)));
    for (const auto& a : schema_->arguments) {
      mutable_op_ = mutable_op_ || writes(a.type);
      view_op_ = view_op_ || aliases(a.type);
      tensor_arg_ = tensor_arg_ || is_tensor_type(a.type);
      device_arg_ = device_arg_ || a.type == "Device";
    }
    return Step::Go;
  }

  // Phase 3: what custom_op registers when it is created: the fake (Meta) and
  // autograd kernels, then the ADInplaceOrView ones of a mutable or view
  // operator. Without register_fake, the fake kernel raises when called --
  // except for a mutable operator that returns nothing, whose fake impl is
  // trivial (can_generate_trivial_fake_impl, where the release has it).
  // Neither is modelled where the profile has not measured what they raise.
  Step creation_kernels() {
    const bool trivial_fake = tl_.trivial_fake && schema_->returns.empty() && mutable_op_;
    if (add("Meta", "fake", where_,
            tl_.no_fake_error.empty()                 ? CustomOpKernel::None
            : (fake_ && fake_->value) || trivial_fake ? CustomOpKernel::Fake
                                                      : CustomOpKernel::FakeUnset) == Step::Stop)
      return Step::Stop;
    if (add("Autograd", "autograd", where_,
            tl_.no_autograd_error.empty()   ? CustomOpKernel::None
            : autograd_ && autograd_->value ? CustomOpKernel::Autograd
                                            : CustomOpKernel::AutogradUnset) == Step::Stop)
      return Step::Stop;
    const int inplace =
        mutable_op_ ? (view_op_ ? tl_.inplace_mutable_view : tl_.inplace_mutable) : (view_op_ ? tl_.inplace_view : 0);
    for (int i = 0; i < inplace; ++i) {
      Kernel kern;  // the C++ ADInplaceOrView fallback kernel and/or the Python version bump
      kern.debug = tl_.debug_of("inplace");
      kern.boxed_only = true;
      kern.where = where_;
      // custom_ops.py registers the Python one under warnings.filterwarnings("ignore",
      // "Warning only once for all operators"): the warning is spent, not shown.
      kern.warning_filtered = i > 0;
      fl_.register_impl(op_, *p_.find("ADInplaceOrView"), std::move(kern));
    }
    return Step::Go;
  }

  // Phase 4: register_kernel(device_types): custom_op's own call, then the
  // entry's; register_fake / register_autograd replace the functions behind
  // the kernels above (no new registration), register_autograd needing a
  // functional operator (a view with one Tensor in and out too, where the
  // release allows); register_vmap and register_autocast.
  Step registrations() {
    if (register_kernel(devices_, "device", devices_ ? r_.where("device_types") : where_) == Step::Stop)
      return Step::Stop;
    if (kernel_devices_ && register_kernel(kernel_devices_, "kernel", r_.where("register_kernel")) == Step::Stop)
      return Step::Stop;
    if (autograd_ && autograd_->value && !register_autograd_takes(*schema_, tl_.autograd_views))
      return fl_.set_error(
          r_.where("register_autograd"),
          fmt::format("Cannot register autograd formula for non-functional operator <CustomOpDef({})> with schema "
                      "{}. Please create a functional operator and register an autograd formula for that.",
                      op_, print_schema(*schema_, SchemaPrintOptions{p_.quirks().dimname_prints_as_str})));
    if (vmap_ && vmap_->value && add("FuncTorchBatched", "vmap", r_.where("register_vmap")) == Step::Stop)
      return Step::Stop;
    if (autocast_) {
      std::vector<std::pair<KeyId, Location>> keys;
      if (fl_.impl_keys(r_, std::nullopt, std::nullopt, autocast_, r_.where("register_autocast"), keys) == Step::Stop)
        return Step::Stop;
      for (const auto& [k, kat] : keys) {
        const std::string key_name = "Autocast" + p_.name_of(k);
        if (!p_.find(key_name))
          return fl_.set_error(kat, fmt::format("register_autocast: torch {} has no autocast key for device type {} "
                                                "(no {})",
                                                p_.torch_version(), p_.name_of(k), key_name));
        if (add(key_name, "autocast", kat) == Step::Stop) return Step::Stop;
      }
    }
    return Step::Go;
  }

  // A Python kernel of `role` on `key_name`. Where the release forbids one to
  // replace another (no allow_override), a second one on a key is torch's RuntimeError.
  Step add(std::string_view key_name, std::string_view role, const Location& at,
           CustomOpKernel custom_op_role = CustomOpKernel::None) {
    const KeyId k = *p_.find(key_name);
    if (std::find(python_keys_.begin(), python_keys_.end(), k) != python_keys_.end() && !tl_.python_override)
      return fl_.set_error(at, fmt::format("This is not allowed since there's already a kernel registered from python "
                                           "overriding {}'s behavior for {} dispatch key and {} namespace. (torch {} "
                                           "does not let a Python kernel replace another)",
                                           on_.name, key_name, on_.ns, p_.torch_version()));
    python_keys_.push_back(k);
    Kernel kern;
    kern.debug = tl_.debug_of(role);
    kern.boxed_only = true;
    kern.where = at;
    kern.custom_op = custom_op_role;
    fl_.register_impl(op_, k, std::move(kern));
    return Step::Go;
  }

  // register_kernel(devs): a kernel per device type's key (each key once),
  // the CompositeExplicitAutograd one for no device types.
  Step register_kernel(const std::optional<std::vector<Located<std::string>>>& devs, std::string_view role,
                       const Location& at) {
    std::vector<std::pair<KeyId, Location>> keys;
    if (!devs) {
      keys.emplace_back(*p_.find("CompositeExplicitAutograd"), at);
    } else {
      for (const auto& d : *devs)
        if (d.value == "default")
          return fl_.set_error(d.where,
                               "custom_op and register_kernel take device types (\"cpu\", \"cuda\", ...); leave "
                               "device_types out for the CompositeExplicitAutograd kernel (None)");
      if (fl_.impl_keys(r_, std::nullopt, std::nullopt, devs, at, keys) == Step::Stop) return Step::Stop;
    }
    for (const auto& [k, kat] : keys) {
      if (std::find(backend_keys_.begin(), backend_keys_.end(), k) != backend_keys_.end()) continue;
      backend_keys_.push_back(k);
      if (add(p_.name_of(k), devs ? role : std::string_view("default"), kat) == Step::Stop) return Step::Stop;
    }
    if (devs && !tensor_arg_) {
      if (!device_arg_)
        return fl_.set_error(at,
                             "Functions without tensor inputs are required to have a `device: torch.device` "
                             "argument (custom_op with device types and no Tensor argument)");
      // register_kernel registers it again at each call.
      if (add("BackendSelect", "backend_select", at) == Step::Stop) return Step::Stop;
    }
    return Step::Go;
  }

  FileLoader& fl_;
  const Profile& p_;
  const TorchLibraryInfo& tl_;
  TableReader& r_;
  // Phase 1's fields.
  std::optional<Located<std::string>> name_, function_, schema_text_;
  std::optional<std::vector<Located<std::string>>> mutates_, devices_, tags_, kernel_devices_, autocast_;
  std::optional<Located<bool>> fake_, autograd_, vmap_;
  Location where_;
  // Phase 2's operator.
  OperatorName on_;
  std::optional<Schema> schema_;
  std::string op_;
  bool mutable_op_ = false, view_op_ = false, tensor_arg_ = false, device_arg_ = false;
  // The keys given Python kernels, and register_kernel's backend keys.
  std::vector<KeyId> python_keys_, backend_keys_;
};

Step FileLoader::load_custom_op(const TomlEntry& t) {
  TableReader r = reader(t, "a [[custom_op]] entry");
  return CustomOpExpansion(*this, r).run();
}

}  // namespace dt
