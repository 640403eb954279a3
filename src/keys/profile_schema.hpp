// Internal to the profile builder: the [schema] table (docs/profile-format.md),
// read into SchemaGrammar.
#pragma once

#include <toml++/toml.h>

#include <optional>

#include "base/diagnostic.hpp"
#include "keys/schema_grammar.hpp"

namespace dt {

// False after an error, which is stored in *error (the first one counts).
bool read_schema_grammar(const toml::table& t, FileName file, std::optional<Diagnostic>* error, SchemaGrammar& out);

}  // namespace dt
