// The views of a simulated call (dispatchtool trace): a readable trace that
// teaches each step, and the JSON document (docs/json.md "trace",
// docs/schema/trace.schema.json); and the exact error texts PyTorch raises.
#pragma once

#include <string>

#include "render/build_note.hpp"
#include "resolve/chain.hpp"

namespace dt {

struct TraceView {
  const RuntimeTable* table = nullptr;
  const KeysetAlgebra* ks = nullptr;
  const BoundCall* call = nullptr;
  KeySet extra;          // --keyset
  ThreadLocalState tls;  // the state the call starts with
  const CallTrace* trace = nullptr;
  std::string profile_label;  // the built-in name or the path given to --profile
  bool color = false;
  // Where PyTorch's kernels of a step come from when that is not the build
  // asked about (a CUDA call against a CPU library, --build's estimate); empty: nothing to say.
  std::string library_note;
};

// The text the call raises (NotImplementedError / RuntimeError), exactly as
// PyTorch words it where the profile knows the words; a description otherwise.
std::string call_error_message(const TraceView& v);
void render_trace_human(const TraceView& v, std::string& out);
// TraceView::library_note: said when a step runs PyTorch's own kernel (or
// finds none) on a key a CUDA (MPS, XPU, MTIA) build registers kernels of its
// own on, and the profile's library is not such a build (or is --build's estimate).
std::string trace_library_note(const Registry& reg, const Profile& p, const CallTrace& t, BuildAsked build);
void render_trace_json(const TraceView& v, std::string& out);

}  // namespace dt
