// The profile's [schema] table (keys/profile_schema.hpp) and SchemaGrammar's
// lookups (keys/schema_grammar.hpp).
#include "keys/profile_schema.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/toml_reader.hpp"

namespace dt {

bool SchemaGrammar::has_type(std::string_view name) const {
  return !measured || std::find(types.begin(), types.end(), name) != types.end();
}

namespace {

// An inline table of names and integers ({ float32 = 6, ... }).
bool read_values(TableReader& r, std::string_view key, std::vector<std::pair<std::string, std::int64_t>>& out) {
  const toml::table* values = r.table(key);
  if (values == nullptr) return !r.failed();
  for (auto&& [name, value] : *values) {
    const auto v = value.value<std::int64_t>();
    if (!v || !value.is_integer()) {
      r.fail(location_of(value.source(), r.file()),
             fmt::format("[schema] {}.{} must be an integer (the value the name stands for)", key, name.str()));
      return false;
    }
    out.emplace_back(std::string(name.str()), *v);
  }
  return true;
}

}  // namespace

bool read_schema_grammar(const toml::table& t, FileName file, std::optional<Diagnostic>* error, SchemaGrammar& out) {
  TableReader r(t, file, "the [schema] table", error);
  r.allow_only({"types", "type_variables", "unknown_type", "double_type", "int64_type", "default_words",
                "dtype_defaults", "device_types"});
  out.measured = true;
  if (auto types = r.str_array("types"))
    for (const auto& ty : *types) out.types.push_back(ty.value);
  if (auto tv = r.str("type_variables")) {
    if (tv->value != "always" && tv->value != "aten_prim") {
      r.fail(tv->where, fmt::format("type_variables must be \"always\" or \"aten_prim\", not '{}'", tv->value));
      return false;
    }
    out.type_variables_everywhere = tv->value == "always";
  }
  for (auto [key, field] : {std::pair{"unknown_type", &out.unknown_type}, std::pair{"double_type", &out.double_type},
                            std::pair{"int64_type", &out.int64_type}})
    if (auto s = r.str(key)) *field = s->value;
  if (!read_values(r, "default_words", out.default_words) || !read_values(r, "dtype_defaults", out.dtype_defaults))
    return false;
  if (auto devices = r.str_array("device_types"))
    for (const auto& d : *devices) out.device_types.push_back(d.value);
  return !r.failed();
}

}  // namespace dt
