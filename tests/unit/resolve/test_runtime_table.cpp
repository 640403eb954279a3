// The incrementally maintained runtime table and fallthrough masks
// (resolve/runtime_table.hpp), spec G.2 and G.5.
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
  CHECK((rt.mask(*t.ks.bits_of("CPU", "")) & autograd) == 0);
  CHECK((rt.mask(*t.ks.bits_of("Meta", "")) & autograd) != 0);
  CHECK((rt.mask(0) & autograd) == 0);  // no backend bit: CPU's mask
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
