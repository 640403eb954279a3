// --format json of table, registrations, keys and explain (docs/json.md,
// docs/schema/*.schema.json): the envelope, then the command's payload; every
// member always present (null when there is nothing), members in the
// schema's order, exact texts (as --raw prints them), no colour. Keys are
// spelled as the files name them (a renamed PrivateUse1 as its new name).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "registry/model.hpp"
#include "registry/select.hpp"
#include "resolve/resolver.hpp"

namespace dt {

// What every document's envelope says: the tool's version and the profile
// (its built-in name or the path given to --profile).
struct JsonDocument {
  std::string_view tool_version;
  std::string_view profile;
  // Called after each operator, so that the caller can write the text out as it grows.
  std::function<void()> flush;
  // table, registrations, explain: what the library's rows are when it is
  // --build's estimate (render/build_note.hpp); written only when not empty.
  std::string_view library_note;
};

// table --format json: every valid entry of each operator, in table order.
void render_table_json(const Resolver& r, const std::vector<const Operator*>& ops, const KeyFilter& f,
                       const JsonDocument& doc, std::string& out);
// registrations --format json: what _dispatch_dump lists per operator, and the backend fallbacks.
void render_registrations_json(const Registry& reg, const std::vector<const Operator*>& ops, const KeyFilter& f,
                               const JsonDocument& doc, std::string& out);
// keys --format json: runtime keys, building blocks and alias keys; the
// fallbacks and PrivateUse1 name of the registry's files.
void render_keys_json(const Registry& reg, const JsonDocument& doc, std::string& out);
// explain --format json: one explanation per key (runtime keys), in the order given.
void render_explain_json(const Resolver& r, const Operator& op, const std::vector<KeyId>& keys, const JsonDocument& doc,
                         std::string& out);

}  // namespace dt
