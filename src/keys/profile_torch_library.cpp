// The profile's [torch_library] table (keys/profile_torch_library.hpp) and
// TorchLibraryInfo's lookups.
#include "keys/profile_torch_library.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "base/toml_reader.hpp"

namespace dt {

namespace {

constexpr std::array<std::string_view, 6> kApis = {"custom_op",         "register_kernel", "register_fake",
                                                   "register_autograd", "register_vmap",   "register_autocast"};
constexpr std::array<std::string_view, 10> kRoles = {"def",     "fake",           "autograd", "default", "device",
                                                     "inplace", "backend_select", "kernel",   "vmap",    "autocast"};

// [torch_library.python]: the Python reader's data.
bool read_python(const toml::table& t, FileName file, std::optional<Diagnostic>* error, TorchLibraryInfo& out) {
  TableReader r(t, file, "[torch_library.python]", error);
  r.allow_only({"builtin_generics", "one_tuple_kept", "library_names", "debug", "dtypes"});
  out.python_measured = true;
  if (auto b = r.boolean("builtin_generics")) out.infer_builtin_generics = b->value;
  if (auto b = r.boolean("one_tuple_kept")) out.infer_one_tuple_kept = b->value;
  if (auto names = r.str_array("library_names"))
    for (const auto& n : *names) out.library_names.push_back(n.value);
  for (auto [key, dest] : {std::pair{"debug", &out.python_debug}, std::pair{"dtypes", &out.dtype_names}}) {
    const toml::table* sub = r.table(key);
    if (sub == nullptr) continue;
    for (const auto& [k, v] : *sub) {
      const auto* str = v.as_string();
      if (str == nullptr) {
        r.fail(location_of(v.source(), file), fmt::format("[torch_library.python.{}] values are strings", key));
        return false;
      }
      dest->emplace_back(std::string(k.str()), str->get());
    }
    std::sort(dest->begin(), dest->end());
  }
  return !r.failed();
}

}  // namespace

bool TorchLibraryInfo::has(std::string_view api) const {
  return std::find(apis.begin(), apis.end(), api) != apis.end();
}

std::string TorchLibraryInfo::debug_of(std::string_view role) const {
  for (const auto& [r, d] : debug)
    if (r == role) return d;
  return {};
}

std::string TorchLibraryInfo::python_debug_of(std::string_view form) const {
  for (const auto& [f, d] : python_debug)
    if (f == form) return d;
  return {};
}

std::string TorchLibraryInfo::dtype_name(std::string_view attr) const {
  auto it = std::lower_bound(dtype_names.begin(), dtype_names.end(), attr,
                             [](const auto& e, std::string_view a) { return e.first < a; });
  return it != dtype_names.end() && it->first == attr ? it->second : std::string();
}

bool read_torch_library(const toml::table& t, FileName file, std::optional<Diagnostic>* error, TorchLibraryInfo& out) {
  TableReader r(t, file, "the [torch_library] table", error);
  r.allow_only({"apis", "custom_op_tags", "custom_op_user_tags", "python_override", "autograd_views", "inplace_kernels",
                "no_fake_error", "no_autograd_error", "trivial_fake", "meta_on_composite_error",
                "fake_on_composite_error", "undefined_op_error", "undefined_attr_error", "debug", "python"});
  out.measured = true;
  if (auto apis = r.str_array("apis"))
    for (const auto& a : *apis) {
      if (std::find(kApis.begin(), kApis.end(), a.value) == kApis.end()) {
        r.fail(a.where, fmt::format("unknown torch.library API '{}'", a.value));
        return false;
      }
      out.apis.push_back(a.value);
    }
  if (auto tags = r.str_array("custom_op_tags"))
    for (const auto& tg : *tags) out.custom_op_tags.push_back(tg.value);
  if (auto b = r.boolean("custom_op_user_tags")) out.custom_op_user_tags = b->value;
  if (auto b = r.boolean("python_override")) out.python_override = b->value;
  if (auto b = r.boolean("autograd_views")) out.autograd_views = b->value;
  if (auto b = r.boolean("trivial_fake")) out.trivial_fake = b->value;
  if (auto s = r.str("no_fake_error")) out.no_fake_error = s->value;
  if (auto s = r.str("meta_on_composite_error")) out.meta_on_composite_error = s->value;
  if (auto s = r.str("fake_on_composite_error")) out.fake_on_composite_error = s->value;
  if (auto s = r.str("undefined_op_error")) out.undefined_op_error = s->value;
  if (auto s = r.str("undefined_attr_error")) out.undefined_attr_error = s->value;
  if (auto s = r.str("no_autograd_error")) out.no_autograd_error = s->value;
  if (const toml::table* ik = r.table("inplace_kernels")) {
    TableReader ir(*ik, file, "[torch_library] inplace_kernels", error);
    ir.allow_only({"mutable", "view", "mutable_view"});
    for (auto [name, field] : {std::pair{"mutable", &out.inplace_mutable}, std::pair{"view", &out.inplace_view},
                               std::pair{"mutable_view", &out.inplace_mutable_view}}) {
      const toml::node* n = ik->get(name);
      if (n == nullptr) continue;
      const auto v = n->value<std::int64_t>();
      if (!v || *v < 0 || *v > 8) {
        ir.fail(location_of(n->source(), file), fmt::format("inplace_kernels.{} must be an integer 0..8", name));
        return false;
      }
      *field = static_cast<int>(*v);
    }
    if (ir.failed()) return false;
  }
  if (const toml::table* dbg = r.table("debug")) {
    TableReader dr(*dbg, file, "[torch_library.debug]", error);
    dr.allow_only(
        {"def", "fake", "autograd", "default", "device", "inplace", "backend_select", "kernel", "vmap", "autocast"});
    for (std::string_view role : kRoles)
      if (auto s = dr.str(role)) out.debug.emplace_back(std::string(role), s->value);
    if (dr.failed()) return false;
  }
  if (const toml::table* py = r.table("python"); py != nullptr && !read_python(*py, file, error, out)) return false;
  if (out.has("custom_op"))
    for (std::string_view role : kRoles)
      if ((role != "autocast" || out.has("register_autocast")) && out.debug_of(role).empty()) {
        r.fail(r.self(), fmt::format("[torch_library.debug] has no '{}' (every custom_op role needs one)", role));
        return false;
      }
  return !r.failed();
}

}  // namespace dt
