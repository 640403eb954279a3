#include "registry/python_dispatcher.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "base/text.hpp"

namespace dt {

namespace {
std::string python_str_repr(const std::string& s) {
  // repr() prefers single quotes unless the string contains ' and no ".
  const bool has_single = s.find('\'') != std::string::npos;
  const bool has_double = s.find('"') != std::string::npos;
  const char q = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, q);
  for (char c : s) {
    if (c == q || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '\t') {
      out += "\\t";
      continue;
    }
    out += c;
  }
  out += q;
  return out;
}
}  // namespace

std::string python_list_repr(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += python_str_repr(items[i]);
  }
  return out + "]";
}

std::vector<std::string> register_call_keys(std::string_view call) {
  std::vector<std::string> keys;
  if (!call.empty())
    for (const std::string_view k : split(call, ",")) keys.emplace_back(trim(k));
  return keys;
}

Registry python_dispatcher_registry(const Profile& profile) {
  Registry reg(profile);
  Library lib;
  lib.ns = "__test__";
  lib.kind = LibraryKind::Fragment;
  lib.where = Location{"<PythonDispatcher>", 0, 0};
  reg.add_library(lib);
  Definition def;
  def.schema = *parse_schema("__test__::foo(Tensor x) -> Tensor");
  def.printed = print_schema(def.schema);
  def.debug = "registered at /dev/null:0";
  def.where = lib.where;
  (void)reg.define(std::move(def));
  return reg;
}

Expected<Ok, Diagnostic> python_dispatcher_register(Registry& reg, const std::vector<std::string>& keys,
                                                    FileName origin) {
  const std::set<std::string> unique(keys.begin(), keys.end());
  if (unique.size() != keys.size()) {
    std::string text = reg.profile().python_dispatcher_duplicates_error();
    const std::size_t at = text.find("{keys}");  // the profile builder requires it
    text.replace(at, 6, python_list_repr(keys));
    return unexpected(make_error(std::move(text)));
  }
  if (unique.count("CompositeImplicitAutograd") && unique.count("CompositeExplicitAutograd"))
    return unexpected(
        make_error("Registration to both CompositeImplicitAutograd and CompositeExplicitAutograd is not allowed."));
  const auto supported = reg.profile().python_dispatcher_keys();
  for (const auto& k : keys) {
    if (std::find(supported.begin(), supported.end(), k) == supported.end())
      return unexpected(make_error(
          fmt::format("{} is not supported, please select a dispatch key in {}.", k, python_list_repr(supported))));
    Kernel kern;
    kern.debug = "fn_" + k;
    kern.signature = std::make_shared<const std::string>("(Tensor _0) -> Tensor _0");
    kern.where = Location{origin, 0, 0};
    (void)reg.impl(kPythonDispatcherOp, *reg.profile().find(k), std::move(kern));
  }
  return Ok{};
}

}  // namespace dt
