// The incrementally maintained runtime table and fallthrough masks
// (resolve/runtime_table.hpp), spec G.2 and G.5.
#include <random>

#include "call_helpers.hpp"

namespace dt::test {

namespace {

struct Table {
  explicit Table(LoadResult l, const std::string& prof = "torch-1.13")
      : loaded(std::move(l)), ks(profile(prof)), r(loaded.registry) {}
  LoadResult loaded;
  KeysetAlgebra ks;
  Resolver r;

  [[nodiscard]] RuntimeTable of(const std::string& op) const {
    const Operator* o = loaded.registry.find(op);
    REQUIRE(o != nullptr);
    return RuntimeTable(r, ks, *o);
  }
  [[nodiscard]] std::size_t slot(const std::string& key) const {
    return static_cast<std::size_t>(ks.profile().key(*ks.profile().find(key)).slot);
  }
};

std::string debug(const Entry& e) { return e.valid() ? std::string(e.debug()) : std::string("missing"); }


// The replay as first written, kept as the reference the table must agree
// with: every registration of the inputs in order (the operator's kernels and
// every fallback), each kernel copied into an operator rebuilt from scratch
// and prepare()d again, every row refreshed the way OperatorEntry refreshes it.
struct Reference {
  std::vector<Entry> table;
  KeySet global;
  std::vector<KeySet> masks;
  std::size_t replayed = 0;

  Reference(const Resolver& r, const KeysetAlgebra& ks, const Operator& op) : r_(r), ks_(ks), op_(op) {
    const Registry& reg = r.registry();
    const Profile& p = r.profile();
    const std::uint32_t user = reg.library() != nullptr ? reg.library()->kernel_count() : 0;
    const std::size_t n = p.runtime_keys().size();
    for (const auto& f : p.fallbacks()) core_.push_back(Fallback{f.key, f.debug, f.fallthrough, true, f.where, {}, 0, false, {}});
    fallbacks_.assign(n, nullptr);
    for (const Fallback& f : core_) fallbacks_[static_cast<std::size_t>(p.key(f.key).slot)] = &f;
    partial_.name = op.name;
    for (const auto& kk : op.kernels) {
      KeyKernels mine{kk.key, {}};
      std::vector<const Kernel*> newest_first;
      for (const Kernel& k : kk.kernels)
        if (k.seq < user) newest_first.push_back(&k);
      for (auto it = newest_first.rbegin(); it != newest_first.rend(); ++it) mine.kernels.push_newest(**it);
      if (!mine.kernels.empty()) partial_.kernels.push_back(std::move(mine));
    }
    view_.fallbacks = &fallbacks_;
    r.prepare(partial_, view_);
    table.assign(n, Entry{});
    global = ks.full();
    masks.assign(p.backends().size(), ks.full());
    refresh(0);
    for (std::size_t slot = 1; slot < n; ++slot) update(p.runtime_keys()[slot]);
    struct Event {
      std::uint32_t seq;
      KeyId key;
      const Kernel* kernel;
      const Fallback* fallback;
    };
    std::vector<Event> events;
    for (const auto& kk : op.kernels)
      for (const Kernel& k : kk.kernels)
        if (k.seq >= user) events.push_back(Event{k.seq, kk.key, &k, nullptr});
    for (const Fallback& f : reg.user_fallbacks())
      if (p.is_runtime(f.key)) events.push_back(Event{f.seq, f.key, nullptr, &f});
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.seq < b.seq; });
    for (const Event& e : events) {
      ++replayed;
      if (e.fallback != nullptr) {
        fallbacks_[static_cast<std::size_t>(p.key(e.key).slot)] = e.fallback;
        refresh(static_cast<std::size_t>(p.key(e.key).slot));
        continue;
      }
      auto it = std::lower_bound(partial_.kernels.begin(), partial_.kernels.end(), e.key,
                                 [](const KeyKernels& kk, KeyId k) { return kk.key < k; });
      if (it == partial_.kernels.end() || it->key != e.key) it = partial_.kernels.insert(it, KeyKernels{e.key, {}});
      it->kernels.push_newest(*e.kernel);
      r.prepare(partial_, view_);
      if (e.kernel->catch_all) {
        refresh(0);
        for (std::size_t slot = 1; slot < n; ++slot) update(p.runtime_keys()[slot]);
      } else {
        update(e.key);
      }
    }
  }

 private:
  void update(KeyId key) {
    const Profile& p = r_.profile();
    if (key == kUndefined) return refresh(0);
    if (p.is_alias(key)) {
      for (KeyId k : p.alias_members(key)) refresh(static_cast<std::size_t>(p.key(k).slot));
    } else if (p.is_runtime(key)) {
      refresh(static_cast<std::size_t>(p.key(key).slot));
    }
    const AliasRule a = p.key(key).alias;
    if (a == AliasRule::CIA || a == AliasRule::CEA || a == AliasRule::CEANF) refresh(0);
    if (p.is_backend_dispatch_key(key)) refresh(static_cast<std::size_t>(p.key(p.autograd_key_for_backend_of(key)).slot));
  }
  void refresh(std::size_t slot) {
    Entry e = r_.compute(view_, slot);
    if (e.kernel != nullptr) {  // the registry's kernel, not the copy
      const Kernel* real = nullptr;
      for (const Kernel& k : *op_.all(e.source))
        if (k.seq == e.kernel->seq) real = &k;
      e.kernel = real;
    }
    table[slot] = e;
    const KeyInfo& info = r_.profile().key(r_.profile().runtime_keys()[slot]);
    const bool fallthrough = e.valid() && e.fallthrough();
    auto apply = [&](KeySet& mask) { mask = fallthrough ? ks_.minus(mask, info.bits) : (mask | info.bits); };
    apply(global);
    if (info.kind == KeyKind::PerBackend) {
      apply(masks[static_cast<std::size_t>(info.backend)]);
    } else {
      for (KeySet& m : masks) apply(m);
    }
  }

  const Resolver& r_;
  const KeysetAlgebra& ks_;
  const Operator& op_;
  std::vector<Fallback> core_;
  std::vector<const Fallback*> fallbacks_;
  Operator partial_;
  Resolver::OpView view_;
};

bool same(const Entry& a, const Entry& b) {
  if (a.why != b.why || a.kernel != b.kernel || a.source != b.source) return false;
  if ((a.fallback == nullptr) != (b.fallback == nullptr)) return false;
  return a.fallback == nullptr || (a.fallback->key == b.fallback->key && a.fallback->debug == b.fallback->debug &&
                                   a.fallback->fallthrough == b.fallback->fallthrough && a.fallback->core == b.fallback->core);
}

// Random registrations: files of kernels on random keys (aliases and
// catch-alls among them, runs of overrides) of three operators, interleaved with files of
// fallbacks (alias fallbacks, fallthroughs, many on a key that allows many).
Files random_files(std::mt19937& rng, const std::vector<std::string>& keys, const std::vector<std::string>& fallback_keys) {
  Files files;
  auto pick = [&](const std::vector<std::string>& from) { return from[rng() % from.size()]; };
  std::string defs = "namespace = \"t\"\nkind = \"FRAGMENT\"\n";
  for (int o = 0; o < 3; ++o) defs += "[[def]]\nschema = \"f" + std::to_string(o) + "(Tensor x) -> Tensor\"\n";
  files.emplace_back("defs.toml", defs);
  const int n_files = 2 + static_cast<int>(rng() % 8);
  for (int i = 0; i < n_files; ++i) {
    std::string text;
    if (rng() % 3 == 0) {
      text = "namespace = \"_\"\nkind = \"IMPL\"\n";
      for (int j = 0, m = 1 + static_cast<int>(rng() % 4); j < m; ++j) {
        text += "[[fallback]]\nkey = \"" + pick(fallback_keys) + "\"\n";
        text += rng() % 3 == 0 ? std::string("fallthrough = true\n") : "kernel = \"fb" + std::to_string(rng() % 4) + "\"\n";
      }
    } else {
      text = "namespace = \"t\"\nkind = \"FRAGMENT\"\n";
      std::string key = pick(keys);
      auto op = rng() % 3;
      for (int j = 0, m = 1 + static_cast<int>(rng() % 12); j < m; ++j) {
        if (rng() % 3 != 0) {  // else: the same operator and key again (runs of overrides)
          key = pick(keys);
          op = rng() % 3;
        }
        text += "[[impl]]\nop = \"f" + std::to_string(op) + "\"\n";
        if (key != "CatchAll") text += "key = \"" + key + "\"\n";
        if (rng() % 5 == 0) {
          text += "fallthrough = true\n";
        } else {
          text += "kernel = \"k" + std::to_string(rng() % 6) + "\"\nboxed_only = true\n";
        }
      }
    }
    files.emplace_back("f" + std::to_string(i) + ".toml", text);
  }
  return files;
}

}  // namespace

TEST_CASE("PyTorch's own operators: the runtime table is the computed one") {
  Table t(load_with_library("torch-1.13", {}));
  REQUIRE(t.loaded.registry.materialize("aten::add.Tensor") != nullptr);
  const RuntimeTable rt = t.of("aten::add.Tensor");
  CHECK(rt.stale().empty());
  CHECK(rt.replayed() == 0);
  CHECK(debug(rt.entry(t.slot("CPU"))) == "registered at ./build/aten/src/ATen/RegisterCPU.cpp:30798");
  CHECK(rt.from_pytorch(rt.entry(t.slot("CPU"))));
  // The Autograd kernel covers every autograd key: one mask serves every backend.
  CHECK_FALSE(rt.per_backend());
}

TEST_CASE("an operator of the inputs without autograd kernels needs per-backend masks") {
  Table t(must_load("torch-1.13", {{"t.toml", op_file("f(Tensor x) -> Tensor", {"CPU"})}}));
  const RuntimeTable rt = t.of("t::f");
  // AutogradCPU is a fallthrough (masked out), AutogradMeta missing (kept): the masks differ.
  CHECK(rt.per_backend());
  const KeySet autograd = t.ks.named("AutogradFunctionality");
  CHECK_FALSE(rt.mask(*t.ks.bits_of("CPU", "")).has_any(autograd));
  CHECK(rt.mask(*t.ks.bits_of("Meta", "")).has_any(autograd));
  CHECK_FALSE(rt.mask(KeySet{}).has_any(autograd));  // no backend bit: CPU's mask
  CHECK_FALSE(rt.from_pytorch(rt.entry(t.slot("CPU"))));
  CHECK(rt.replayed() == 1);
}

TEST_CASE("G.5: CompositeExplicitAutograd after CompositeImplicitAutograd leaves the autograd rows stale") {
  Table t(must_load("torch-1.13",
                    {{"t.toml", op_file("f(Tensor x) -> Tensor",
                                        {"CompositeImplicitAutograd", "CompositeExplicitAutograd"}, false)}}));
  const RuntimeTable rt = t.of("t::f");
  CHECK(debug(rt.entry(t.slot("AutogradCPU"))) == "py:CompositeImplicitAutograd");
  CHECK(debug(rt.fresh(t.slot("AutogradCPU"))) == "registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39");
  CHECK(rt.visibly_stale());
  CHECK(debug(rt.entry(t.slot("CPU"))) == "py:CompositeExplicitAutograd");  // refreshed
  // The other order leaves nothing stale.
  Table u(must_load("torch-1.13",
                    {{"t.toml", op_file("f(Tensor x) -> Tensor",
                                        {"CompositeExplicitAutograd", "CompositeImplicitAutograd"}, false)}}));
  CHECK(u.of("t::f").stale().empty());
}

TEST_CASE("G.5: a SparseCPU kernel after CompositeImplicitAutograd refreshes AutogradCPU, not AutogradOther") {
  Table t(must_load("torch-1.13",
                    {{"t.toml", op_file("f(Tensor x) -> Tensor", {"CompositeImplicitAutograd", "SparseCPU"})}}));
  const RuntimeTable rt = t.of("t::f");
  REQUIRE(rt.stale().size() == 1);
  CHECK(rt.stale()[0].slot == t.slot("AutogradOther"));
  CHECK(debug(rt.entry(t.slot("AutogradOther"))) == "py:CompositeImplicitAutograd");
  CHECK(rt.fresh(t.slot("AutogradOther")).why == Provenance::AmbiguousAutogradOther);
  CHECK(rt.visibly_stale());
  CHECK(debug(rt.entry(t.slot("AutogradCPU"))) == debug(rt.fresh(t.slot("AutogradCPU"))));
}

// Measured in torch 1.13 (Python kernels on a fresh operator, called with a CPU
// tensor, then torch._C._dispatch_check_invariants): CIA,AutogradCPU,CPU -> the
// AutogradCPU kernel runs, invariants hold; CIA,CEA,Autograd -> Autograd runs,
// the check asserts; CIA,Autograd,CEA -> CompositeImplicitAutograd runs (stale
// AutogradCPU), the check asserts.
TEST_CASE("stale rows of the runtime table: which kernel runs, and what checkInvariants sees") {
  Table t(must_load("torch-1.13", {{"t.toml", op_file("f(Tensor x) -> Tensor",
                                                      {"CompositeImplicitAutograd", "AutogradCPU", "CPU"})}}));
  const RuntimeTable rt = t.of("t::f");
  CHECK(rt.stale().empty());
  Table u(must_load("torch-1.13",
                    {{"t.toml", op_file("f(Tensor x) -> Tensor",
                                        {"CompositeImplicitAutograd", "CompositeExplicitAutograd", "Autograd"})}}));
  const RuntimeTable ru = u.of("t::f");
  CHECK(debug(ru.entry(u.slot("AutogradCPU"))) == "py:Autograd");
  CHECK_FALSE(ru.stale().empty());
  CHECK(ru.visibly_stale());
  // CIA, Autograd, CEA: AutogradCPU keeps the math kernel where the fresh
  // computation finds the Autograd kernel (two Python kernels: one function for
  // the check), but other rows differ visibly.
  Table w(must_load("torch-1.13", {{"t.toml", op_file("f(Tensor x) -> Tensor", {"CompositeImplicitAutograd", "Autograd",
                                                                                "CompositeExplicitAutograd"})}}));
  const RuntimeTable rw = w.of("t::f");
  CHECK(debug(rw.entry(w.slot("AutogradCPU"))) == "py:CompositeImplicitAutograd");
  CHECK(debug(rw.fresh(w.slot("AutogradCPU"))) == "py:Autograd");
  CHECK(rw.visibly_stale());
}

TEST_CASE("a catch-all kernel refreshes every row, a later fallback refreshes its key") {
  const std::string fb = "namespace = \"_\"\nkind = \"IMPL\"\n[[fallback]]\nkey = \"XLA\"\nkernel = \"xla_fallback\"\n";
  Table t(must_load(
      "torch-1.13",
      {{"t.toml", op_file("f(Tensor x) -> Tensor", {"CompositeExplicitAutograd", "CatchAll"})}, {"fb.toml", fb}}));
  const RuntimeTable rt = t.of("t::f");
  CHECK(rt.stale().empty());
  CHECK(debug(rt.entry(t.slot("XLA"))) == "py:CompositeExplicitAutograd");
  CHECK(debug(rt.entry(t.slot("AutogradCPU"))) == "registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39");
  Table u(must_load("torch-1.13", {{"fb.toml", fb}, {"t.toml", op_file("f(Tensor x) -> Tensor", {"CPU"})}}));
  const RuntimeTable ru = u.of("t::f");
  CHECK(debug(ru.entry(u.slot("XLA"))) == "xla_fallback");
  CHECK_FALSE(ru.from_pytorch(ru.entry(u.slot("XLA"))));
}

TEST_CASE("the replay agrees with the plain replay of every registration in order, on random registrations") {
  struct Release {
    std::string prof;
    std::vector<std::string> keys, fallback_keys;
  };
  const std::vector<std::string> common = {"CPU", "CUDA", "XLA", "Meta", "SparseCPU", "QuantizedCPU", "AutogradCPU",
                                            "AutogradCUDA", "AutogradXLA", "AutogradOther", "Autograd", "BackendSelect",
                                            "CompositeImplicitAutograd", "CompositeExplicitAutograd", "CatchAll",
                                            "PrivateUse1", "AutogradPrivateUse1", "MkldnnCPU"};
  const std::vector<std::string> fallback_common = {"CPU", "XLA", "AutogradCPU", "AutogradXLA", "AutogradOther",
                                                     "Autograd", "BackendSelect", "PrivateUse1", "AutogradPrivateUse1",
                                                     "SparseCPU", "Meta"};
  std::vector<std::string> keys2 = common;
  for (const char* k : {"CompositeExplicitAutogradNonFunctional", "CompositeImplicitAutogradNestedTensor",
                        "FuncTorchBatchedDecomposition", "NestedTensorCPU", "AutogradNestedTensor"})
    keys2.emplace_back(k);
  // AutogradPrivateUse1 takes any number of fallbacks in 2.14: weighted to get many.
  std::vector<std::string> fallback2 = fallback_common;
  for (int i = 0; i < 8; ++i) fallback2.emplace_back("AutogradPrivateUse1");
  const std::vector<Release> releases = {{"torch-1.13", common, fallback_common}, {"torch-2.14", keys2, fallback2}};
  std::size_t compared = 0, with_fallbacks = 0, stale = 0;
  for (const Release& rel : releases) {
    std::mt19937 rng(20261201);
    for (int round = 0; round < 150; ++round) {
      const Files files = random_files(rng, rel.keys, rel.fallback_keys);
      auto loaded = load_files(rel.prof, files, OnRefusal::Record);
      REQUIRE_MESSAGE(loaded.has_value(), (loaded ? "" : format(loaded.error())));
      const KeysetAlgebra ks(profile(rel.prof));
      const Resolver r(loaded->registry);
      const auto start = runtime_start(r, ks);
      for (const Operator& op : loaded->registry.operators()) {
        const RuntimeTable t(r, ks, op, start);
        const Reference ref(r, ks, op);
        INFO(rel.prof << " round " << round << " " << op.name);
        CHECK(t.replayed() == ref.replayed);
        for (std::size_t slot = 0; slot < ref.table.size(); ++slot) {
          INFO("slot " << slot << ": " << ks.profile().name_of(ks.profile().runtime_keys()[slot]));
          CHECK(same(t.entry(slot), ref.table[slot]));
        }
        const bool per_backend =
            std::adjacent_find(ref.masks.begin(), ref.masks.end(), std::not_equal_to<>()) != ref.masks.end();
        CHECK(t.per_backend() == per_backend);
        for (const KeyInfo& k : ks.profile().keys())  // a call on each backend's keys uses that backend's mask
          if (k.kind == KeyKind::PerBackend)
            CHECK(t.mask(k.bits) == (per_backend ? ref.masks[static_cast<std::size_t>(k.backend)] : ref.global));
        ++compared;
        if (loaded->registry.user_fallbacks().size() > 4) ++with_fallbacks;
        if (!t.stale().empty()) ++stale;
      }
    }
  }
  // The scenarios reach what they are meant to: many fallbacks, stale rows.
  CHECK(compared >= 900);
  CHECK(with_fallbacks >= 100);
  CHECK(stale >= 50);
}

TEST_CASE("same_function: what checkInvariants can tell apart") {
  auto kernel = [](std::string debug, bool boxed_only) {
    Kernel k;
    k.debug = std::move(debug);
    k.boxed_only = boxed_only;
    return k;
  };
  const Kernel a = kernel("a", true), b = kernel("b", true), c = kernel("c", false);
  CHECK(same_function(Entry{Provenance::Kernel, &a, nullptr, 0}, Entry{Provenance::Math, &b, nullptr, 0}));
  CHECK_FALSE(same_function(Entry{Provenance::Kernel, &a, nullptr, 0}, Entry{Provenance::Kernel, &c, nullptr, 0}));
  CHECK_FALSE(same_function(Entry{}, Entry{Provenance::Kernel, &c, nullptr, 0}));
  CHECK(same_function(Entry{}, Entry{}));
}

}  // namespace dt::test
