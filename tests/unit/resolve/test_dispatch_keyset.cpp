// DispatchKeySet arithmetic (resolve/dispatch_keyset.hpp), spec A.1 and G.2-G.3.
#include "base/text.hpp"
#include "helpers.hpp"
#include "resolve/dispatch_keyset.hpp"

namespace dt::test {

namespace {

KeySet bits(const KeysetAlgebra& ks, const std::string& names) {
  auto b = ks.parse(names, "");
  REQUIRE_MESSAGE(b.has_value(), (b ? "" : b.error().message));
  return *b;
}

std::string names(const KeysetAlgebra& ks, KeySet s) { return join(ks.names(s, ""), ", "); }

}  // namespace

TEST_CASE("highest priority key: functionality first, then the highest backend bit") {
  const KeysetAlgebra ks(profile("torch-1.13"));
  const HighestKey h = ks.highest(bits(ks, "CPU,CUDA,AutogradCPU"));
  CHECK(h.name == "AutogradCUDA");  // the cross product: {Dense, AutogradFunctionality} x {CPU, CUDA}
  CHECK(h.backend == 1);
  CHECK(profile("torch-1.13").name_of(h.functionality) == "AutogradFunctionality");
  CHECK(ks.highest(bits(ks, "CPU,BackendSelect")).name == "BackendSelect");
  CHECK(ks.highest(bits(ks, "Meta,SparseCPU")).name == "SparseMeta");
  const HighestKey empty = ks.highest(KeySet{});
  CHECK(empty.key == kUndefined);
  CHECK(empty.slot == 0);
  CHECK(empty.name == "Undefined");
}

TEST_CASE("a per-backend functionality without a backend bit: the first backend's slot, named Unknown") {
  const Profile& p = profile("torch-1.13");
  const KeysetAlgebra ks(p);
  const HighestKey dense = ks.highest(bits(ks, "Dense"));
  CHECK(dense.name == "Unknown");
  CHECK(dense.key == *p.find("CPU"));
  CHECK(dense.slot == static_cast<std::size_t>(p.key(*p.find("CPU")).slot));
  CHECK(ks.highest(bits(ks, "AutogradFunctionality")).name == "AutogradUnknown");
  CHECK(names(ks, bits(ks, "Dense")) == "Dense (no backend)");
}

TEST_CASE("set difference removes functionality bits only, FULL_AFTER keeps backends and PythonDispatcher") {
  const Profile& p = profile("torch-1.13");
  const KeysetAlgebra ks(p);
  // Excluding CPU excludes Dense for every backend (ExcludeDispatchKeyGuard(CPU)).
  CHECK(names(ks, ks.minus(bits(ks, "Meta,AutogradMeta"), bits(ks, "CPU"))) == "AutogradMeta");
  CHECK(ks.functionality(bits(ks, "CPU")) == bits(ks, "Dense"));
  // after_autograd_keyset = FULL_AFTER(AutogradOther) (DispatchKeySet.h:701-702).
  const KeySet after = ks.full_after(*p.find("AutogradOther"));
  CHECK(names(ks, bits(ks, "CPU,AutogradCPU,AutogradNestedTensor,AutocastCPU,ADInplaceOrView") & after) ==
        "CPU, ADInplaceOrView");
  CHECK(after.has_any(bits(ks, "PythonDispatcher")));
  CHECK((after & ks.backends()) == ks.backends());
  // FULL_AFTER(AutogradCPU) keeps AutogradOther (why autograd kernels do not use it).
  CHECK(ks.full_after(*p.find("AutogradCPU")).has_any(bits(ks, "AutogradOther")));
}

TEST_CASE("key names: runtime keys, building blocks, alias keys, renamed PrivateUse1, errors") {
  const KeysetAlgebra ks(profile("torch-1.13"));
  CHECK(names(ks, bits(ks, "Meta")) == "Meta");
  CHECK(ks.functionality_names(bits(ks, "Meta")) == std::vector<std::string>{"Dense"});
  CHECK(ks.backend_names(bits(ks, "Meta")) == std::vector<std::string>{"Meta"});
  CHECK(ks.functionality_names(bits(ks, "Autograd")) ==
        std::vector<std::string>{"AutogradOther", "AutogradFunctionality", "AutogradNestedTensor"});
  CHECK(names(ks, bits(ks, " CPU , Conjugate")) == "CPU, Conjugate");
  auto bad = ks.parse("AutogradCPUU", "");
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().message == "could not parse dispatch key: AutogradCPUU (did you mean 'AutogradCPU'?) (profile torch-1.13)");
  CHECK_FALSE(ks.parse("CPU,,Meta", "").has_value());
  CHECK_FALSE(ks.bits_of("EndOfFunctionalityKeys", "").has_value());
  const KeysetAlgebra main(profile("torch-main"));
  CHECK(main.bits_of("AutogradNpu", "npu") == main.bits_of("AutogradPrivateUse1", ""));
  CHECK(join(main.names(*main.bits_of("npu", "npu"), "npu"), ",") == "npu");
}

TEST_CASE("getBackendIndex: the highest backend bit, CPU's index when there is none") {
  const KeysetAlgebra ks(profile("torch-1.13"));
  CHECK(ks.backend_index(KeySet{}) == 0);
  CHECK(ks.backend_index(bits(ks, "CPU,Meta")) == 10);
  CHECK(ks.highest_backend(bits(ks, "BackendSelect")) == -1);
}

}  // namespace dt::test
