// The schema grammar of one PyTorch release, as its def (torch.library's
// define, C++'s m.def) parses a schema: the profile's [schema] table
// (docs/profile-format.md), measured by tools/gen_profile_schema.py. The
// schema parser (registry/schema.hpp) reads it; a profile without the table
// (one not generated from a build) gets the defaults below, the grammar the
// tool knew before releases were measured.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dt {

struct SchemaGrammar {
  bool measured = false;  // read from a [schema] table
  // The type names SchemaTypeParser accepts ("Tensor", "SymBool", "Await",
  // ...); every name the tool knows when not measured.
  std::vector<std::string> types;
  // Whether a lower-case unknown word is a type variable in every schema
  // (1.13), or only in a schema whose text starts with aten:: or prim:: (2.x).
  bool type_variables_everywhere = true;
  // The words of torch's refusals: an unknown type; the C++ names double and
  // int64_t where they are no type variables (empty: no such refusal).
  std::string unknown_type = "unknown type specifier";
  std::string double_type, int64_type;
  // Words a default of any type may be (parseSingleConstant: float, long,
  // complex, strided, Mean, contiguous_format) and their values; when not
  // measured, the parser's own list.
  std::vector<std::pair<std::string, std::int64_t>> default_words;
  // dtype names a ScalarType or ScalarType? default may be (2.x's
  // c10::getStringToDtypeMap): "bfloat16" = 15, "float8_e4m3fn" = 24, ...
  std::vector<std::pair<std::string, std::int64_t>> dtype_defaults;
  // c10::Device's device type names in DeviceType order; when not measured,
  // the parser's own list (1.13's).
  std::vector<std::string> device_types;

  // Whether `name` is a type of this grammar (any known name when not measured).
  [[nodiscard]] bool has_type(std::string_view name) const;
};

}  // namespace dt
