// dispatchtool ops: the operator registry as users query it — one line (or
// JSON object) per operator with its schema, tags and the keys it has kernels
// for, or counts per namespace and tag.
#pragma once

#include <string>
#include <vector>

#include "registry/model.hpp"

namespace dt {

struct OpsView {
  const Registry* registry = nullptr;
  std::string tool_version;  // for the JSON envelope
};

// "SCHEMA  tags: a,b  kernels: CPU,Meta,Autograd" per operator ("-" for none;
// a dangling impl shows its name and "(no schema)").
void render_ops_text(const std::vector<const Operator*>& ops, const OpsView& v, std::string& out);
// docs/json.md "ops": the envelope, then "operators": [{"name", "namespace",
// "schema", "tags", "kernels", "pytorch"}].
void render_ops_json(const std::vector<const Operator*>& ops, const OpsView& v, std::string& out);
// --count: operators per namespace and per tag (and without a tag).
void render_ops_count_text(const std::vector<const Operator*>& ops, const OpsView& v, std::string& out);
// docs/json.md "ops --count": "namespaces": [{"namespace", "operators"}], "tags": [{"tag", "operators"}].
void render_ops_count_json(const std::vector<const Operator*>& ops, const OpsView& v, std::string& out);

}  // namespace dt
