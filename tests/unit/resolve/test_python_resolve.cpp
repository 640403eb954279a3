// The Python dispatcher's resolve_key (resolve/python_resolve.hpp), as torch/_ops.py 1.13 writes it.
#include "call_helpers.hpp"
#include "resolve/python_resolve.hpp"

namespace dt::test {

namespace {

struct Resolved {
  PyResolveError error;
  std::string key;  // the key resolve_key returns
  std::string ran;  // the kernel or fallback callBoxedForDispatchKey runs
};

Resolved resolve(const std::vector<std::string>& regs, const std::string& key) {
  const LoadResult l = must_load("torch-1.13", {{"t.toml", op_file("f(Tensor x) -> Tensor", regs)}});
  const Profile& p = profile("torch-1.13");
  const PyResolved r = python_resolve_key(l.registry, *l.registry.find("t::f"), *p.find(key));
  std::string ran = r.kernel != nullptr ? r.kernel->debug : r.fallback != nullptr ? r.fallback->debug : "";
  return {r.error, r.error == PyResolveError::None ? p.name_of(r.key) : "", ran};
}

}  // namespace

TEST_CASE("resolve_key: a kernel on the key, then the composite keys, Autograd, the fallback") {
  CHECK(resolve({"CPU"}, "CPU").ran == "py:CPU");
  CHECK(resolve({"CompositeExplicitAutograd"}, "XLA").key == "CompositeExplicitAutograd");
  CHECK(resolve({"CompositeImplicitAutograd"}, "AutogradCPU").key == "CompositeImplicitAutograd");
  CHECK(resolve({"CompositeImplicitAutograd", "CPU"}, "AutogradCPU").ran ==
        "registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39");  // has_backend_kernel
  CHECK(resolve({"CompositeImplicitAutograd", "Autograd", "CPU"}, "AutogradCPU").key == "Autograd");
  CHECK(resolve({"CatchAll"}, "Undefined").key == "CompositeImplicitAutograd");
  CHECK(resolve({"CPU"}, "Conjugate").ran == "registered at ./aten/src/ATen/ConjugateFallback.cpp:18");
}

TEST_CASE("resolve_key: the nested step needs no backend kernel (unlike C++)") {
  CHECK(resolve({"CompositeImplicitAutogradNestedTensor"}, "AutogradNestedTensor").key ==
        "CompositeImplicitAutogradNestedTensor");
  CHECK(resolve({"CompositeImplicitAutogradNestedTensor", "NestedTensorCPU"}, "AutogradNestedTensor").error ==
        PyResolveError::NoKernel);
}

TEST_CASE("resolve_key: its errors") {
  CHECK(resolve({"CPU"}, "Meta").error == PyResolveError::NoKernel);
  CHECK(resolve({"CompositeImplicitAutograd", "SparseCPU"}, "AutogradOther").error == PyResolveError::Ambiguous);
  CHECK(resolve({"CPU"}, "QuantizedMeta").error == PyResolveError::AttributeError);
}

}  // namespace dt::test
