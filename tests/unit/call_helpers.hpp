// Test helpers for simulated calls (resolve/call, runtime_table, chain;
// render/trace): files loaded with or without the profile's operator
// library, and a traced call with everything it points into kept alive.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "registry/library.hpp"
#include "resolve/chain.hpp"

namespace dt::test {

inline LoadResult load_with_library(const std::string& prof, const Files& files) {
  LoadOptions o;
  auto lib = open_library(profile(prof), real_filesystem(), embedded_libraries());
  REQUIRE_MESSAGE(lib.has_value(), (lib ? "" : format(lib.error())));
  o.library = *lib;
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.first);
  auto r = load(profile(prof), paths, memory_reader(files), o);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : format(r.error())));
  return std::move(*r);
}

// One traced call; members point into each other, so it is never moved.
struct Traced {
  Traced(LoadResult l, const std::string& prof) : loaded(std::move(l)), ks(profile(prof)), resolver(loaded.registry) {}
  Traced(const Traced&) = delete;
  Traced& operator=(const Traced&) = delete;
  Traced(Traced&&) = delete;
  Traced& operator=(Traced&&) = delete;
  ~Traced() = default;

  LoadResult loaded;
  KeysetAlgebra ks;
  Resolver resolver;
  std::unique_ptr<RuntimeTable> table;
  BoundCall call;
  ThreadLocalState tls;
  CallTrace trace;

  // The keys of the steps, as picked ("AutogradCPU", "CPU").
  [[nodiscard]] std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const auto& s : trace.steps) out.push_back(s.picked.name);
    return out;
  }
  [[nodiscard]] const CallStep& last() const { return trace.steps.back(); }
};

struct CallSpec {
  std::string prof = "torch-1.13";
  Files files;
  bool library = false;
  std::string op;
  std::vector<std::string> args;
  TlsOptions tls;
  std::string keyset;
};

inline std::unique_ptr<Traced> traced(const CallSpec& c) {
  auto t =
      std::make_unique<Traced>(c.library ? load_with_library(c.prof, c.files) : must_load(c.prof, c.files), c.prof);
  const Operator* op = t->loaded.registry.materialize(c.op);
  REQUIRE_MESSAGE(op != nullptr, "no operator " << c.op);
  const std::string& pu1 = t->loaded.registry.privateuse1_name;
  KeySet extra;
  if (!c.keyset.empty()) {
    auto bits = t->ks.parse(c.keyset, pu1);
    REQUIRE_MESSAGE(bits.has_value(), (bits ? "" : bits.error().message));
    extra = *bits;
  }
  auto call = bind_arguments(t->ks, pu1, op->def ? &op->def->schema : nullptr, c.args, !c.keyset.empty());
  REQUIRE_MESSAGE(call.has_value(), (call ? "" : call.error().message));
  t->call = std::move(*call);
  auto tls = make_tls(t->ks, pu1, c.tls);
  REQUIRE_MESSAGE(tls.has_value(), (tls ? "" : tls.error().diagnostic.message));
  t->tls = *tls;
  t->table = std::make_unique<RuntimeTable>(t->resolver, t->ks, *op);
  t->trace = trace_call(*t->table, t->ks, CallInput{t->call.args, extra, t->tls});
  return t;
}

// A file of namespace t defining `schema` with kernels "py:KEY" on `keys`, in order.
inline std::string op_file(const std::string& schema, const std::vector<std::string>& keys, bool boxed = true) {
  std::string s = "namespace = \"t\"\n[[def]]\nschema = \"" + schema + "\"\n";
  const std::string name = schema.substr(0, schema.find('('));
  for (const auto& k : keys) {
    s += "[[impl]]\nop = \"" + name + "\"\n";
    if (k != "CatchAll") s += "key = \"" + k + "\"\n";
    s += "kernel = \"py:" + k + "\"\n";
    if (boxed) s += "boxed_only = true\n";
  }
  return s;
}

}  // namespace dt::test
