// The views of a simulated call (dispatchtool trace): a readable trace that
// teaches each step, and the JSON document (docs/json.md "trace",
// docs/schema/trace.schema.json); and the exact error texts PyTorch raises.
#pragma once

#include <string>

#include "resolve/chain.hpp"

namespace dt {

struct TraceView {
  const RuntimeTable* table = nullptr;
  const KeysetAlgebra* ks = nullptr;
  const BoundCall* call = nullptr;
  KeySet extra = 0;      // --keyset
  ThreadLocalState tls;  // the state the call starts with
  const CallTrace* trace = nullptr;
  std::string profile_label;  // the built-in name or the path given to --profile
  bool color = false;
};

// The text the call raises (NotImplementedError / RuntimeError), exactly as
// PyTorch words it where the profile knows the words; a description otherwise.
std::string call_error_message(const TraceView& v);
void render_trace_human(const TraceView& v, std::string& out);
void render_trace_json(const TraceView& v, std::string& out);

}  // namespace dt
