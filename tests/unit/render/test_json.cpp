// --format json (render/json.hpp): envelope, member order, nulls, exact texts.
#include "helpers.hpp"
#include "registry/python_dispatcher.hpp"
#include "render/json.hpp"

namespace dt::test {

namespace {

const JsonDocument kDoc{"9.9.9", "torch-1.13", {}, {}};

const std::string kOps =
    "namespace = \"myops\"\n"
    "[[def]]\n"
    "schema = \"f(Tensor x) -> Tensor\"\n"
    "dispatch = { CPU = \"f_cpu\", Autograd = \"f_autograd\" }\n"
    "[[impl]]\n"
    "op = \"f\"\n"
    "key = \"CPU\"\n"
    "kernel = \"f_cpu2\"\n"
    "[[impl]]\n"
    "op = \"dangling\"\n"
    "key = \"XLA\"\n"
    "kernel = \"d_xla\"\n"
    "[[fallback]]\n"
    "key = \"XLA\"\n"
    "kernel = \"xla_fb\"\n";

KeyFilter table_keys(const Registry& reg, std::string_view spec) {
  auto r = parse_key_filter(reg, spec);
  REQUIRE(r.has_value());
  return r->table;
}

}  // namespace

TEST_CASE("table json: the envelope, valid entries only, status, source key and fallthrough") {
  const LoadResult l = must_load("torch-1.13", {{"ops.toml", kOps}});
  std::string out;
  render_table_json(Resolver(l.registry), {l.registry.find("myops::f")},
                    table_keys(l.registry, "CPU,HIP,XLA,AutogradCPU,BackendSelect"), kDoc, out);
  CHECK(out ==
        "{\n"
        "  \"version\": 1,\n"
        "  \"tool\": {\n"
        "    \"name\": \"dispatchtool\",\n"
        "    \"version\": \"9.9.9\"\n"
        "  },\n"
        "  \"profile\": \"torch-1.13\",\n"
        "  \"library_note\": null,\n"
        "  \"operators\": [\n"
        "    {\n"
        "      \"name\": \"myops::f\",\n"
        "      \"schema\": \"myops::f(Tensor x) -> Tensor\",\n"
        "      \"entries\": [\n"
        "        {\n"
        "          \"key\": \"CPU\",\n"
        "          \"kernel\": \"f_cpu2\",\n"
        "          \"provenance\": \"kernel\",\n"
        "          \"status\": \"kernel\",\n"
        "          \"fallthrough\": false,\n"
        "          \"source_key\": \"CPU\",\n"
        "          \"runtime\": null\n"
        "        },\n"
        "        {\n"
        "          \"key\": \"XLA\",\n"
        "          \"kernel\": \"xla_fb\",\n"
        "          \"provenance\": \"backend fallback\",\n"
        "          \"status\": \"fallback\",\n"
        "          \"fallthrough\": false,\n"
        "          \"source_key\": \"XLA\",\n"
        "          \"runtime\": null\n"
        "        },\n"
        "        {\n"
        "          \"key\": \"BackendSelect\",\n"
        "          \"kernel\": \"registered at ./aten/src/ATen/core/BackendSelectFallbackKernel.cpp:3\",\n"
        "          \"provenance\": \"backend fallback\",\n"
        "          \"status\": \"fallthrough\",\n"
        "          \"fallthrough\": true,\n"
        "          \"source_key\": \"BackendSelect\",\n"
        "          \"runtime\": null\n"
        "        },\n"
        "        {\n"
        "          \"key\": \"AutogradCPU\",\n"
        "          \"kernel\": \"f_autograd\",\n"
        "          \"provenance\": \"autograd kernel\",\n"
        "          \"status\": \"autograd\",\n"
        "          \"fallthrough\": false,\n"
        "          \"source_key\": \"Autograd\",\n"
        "          \"runtime\": null\n"
        "        }\n"
        "      ]\n"
        "    }\n"
        "  ]\n"
        "}\n");
}

TEST_CASE("registrations json: overridden kernels inactive, a dangling impl's nulls, the files' fallbacks") {
  const LoadResult l = must_load("torch-1.13", {{"ops.toml", kOps}});
  std::string out;
  render_registrations_json(l.registry, l.registry.sorted_operators(), KeyFilter{}, kDoc, out);
  CHECK(out.find("      \"name\": \"myops::dangling\",\n"
                 "      \"schema\": null,\n"
                 "      \"debug\": null,\n"
                 "      \"alias_analysis\": null,\n"
                 "      \"tags\": [],\n"
                 "      \"location\": null,\n") != std::string::npos);
  CHECK(out.find("          \"key\": \"CPU\",\n"
                 "          \"alias\": false,\n"
                 "          \"active\": true,\n"
                 "          \"kernel\": \"f_cpu2\",\n"
                 "          \"signature\": null,\n"
                 "          \"fallthrough\": false,\n"
                 "          \"boxed_only\": false,\n"
                 "          \"location\": {\n"
                 "            \"file\": \"ops.toml\",\n"
                 "            \"line\": 7,\n"
                 "            \"column\": 7\n") != std::string::npos);
  CHECK(out.find("\"active\": false,\n          \"kernel\": \"f_cpu\",") != std::string::npos);
  CHECK(out.find("\"key\": \"Autograd\",\n          \"alias\": true,") != std::string::npos);
  // Fallbacks in table order: the file's on XLA first, PyTorch's own without a location.
  const auto fallbacks = out.find("  \"fallbacks\": [\n    {\n      \"key\": \"XLA\",\n      \"kernel\": \"xla_fb\",\n"
                                  "      \"fallthrough\": false,\n      \"pytorch\": false,\n      \"location\": {\n");
  CHECK(fallbacks != std::string::npos);
  CHECK(out.find("\"key\": \"BackendSelect\",\n      \"kernel\": \"registered at "
                 "./aten/src/ATen/core/BackendSelectFallbackKernel.cpp:3\",\n      \"fallthrough\": true,\n"
                 "      \"pytorch\": true,\n      \"location\": null\n",
                 fallbacks) != std::string::npos);
}

TEST_CASE("registrations json: --register kernels have no location") {
  Registry reg = python_dispatcher_registry(profile("torch-1.13"));
  REQUIRE(python_dispatcher_register(reg, {"CPU"}).has_value());
  std::string out;
  render_registrations_json(reg, {reg.find(kPythonDispatcherOp)}, KeyFilter{}, kDoc, out);
  CHECK(out.find("\"kernel\": \"fn_CPU\",") != std::string::npos);
  CHECK(out.find("\"boxed_only\": false,\n          \"location\": null\n") != std::string::npos);
  CHECK(out.find("      \"tags\": [],\n      \"location\": null,\n") != std::string::npos);
}

TEST_CASE("keys json: rows, values, kinds, fallbacks, a renamed PrivateUse1") {
  std::string out;
  render_keys_json(Registry(profile("torch-1.13")), kDoc, out);
  CHECK(out.find("  \"privateuse1_backend\": null,\n  \"runtime_keys\": [\n    {\n      \"name\": \"Undefined\",\n"
                 "      \"row\": 0,\n      \"value\": 0,\n      \"kind\": \"undefined\",\n      \"parseable\": true,\n"
                 "      \"fallback\": null\n    },\n") != std::string::npos);
  CHECK(out.find("      \"name\": \"AutogradCPU\",\n      \"row\": 76,\n      \"value\": 103,\n"
                 "      \"kind\": \"per-backend\",\n      \"parseable\": true,\n      \"fallback\": {\n"
                 "        \"kernel\": \"registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39\",\n"
                 "        \"fallthrough\": true,\n        \"pytorch\": true\n      }\n") != std::string::npos);
  CHECK(out.find("  \"building_blocks\": [\n    {\n      \"name\": \"Dense\",\n      \"value\": 1\n    },") !=
        std::string::npos);
  CHECK(out.find("  \"aliases\": [\n    {\n      \"name\": \"Autograd\",\n") != std::string::npos);

  const LoadResult l = must_load("torch-main", {{"npu.toml",
                                                "privateuse1_backend = \"npu\"\n"
                                                "[[fallback]]\nkey = \"npu\"\nkernel = \"npu::cpu_fallback\"\n"}});
  out.clear();
  render_keys_json(l.registry, kDoc, out);
  CHECK(out.find("  \"privateuse1_backend\": \"npu\",\n") != std::string::npos);
  CHECK(out.find("      \"name\": \"npu\",\n") != std::string::npos);
  CHECK(out.find("\"kernel\": \"npu::cpu_fallback\",\n        \"fallthrough\": false,\n        \"pytorch\": false\n") !=
        std::string::npos);
  CHECK(out.find("\"AutogradNpu\"") != std::string::npos);
  CHECK(out.find("\"PrivateUse1\"") == std::string::npos);
  CHECK(out.find("\"AutocastPrivateUse1\"") != std::string::npos);  // not a per-backend key: not renamed
}

TEST_CASE("explain json: steps with key or alias, the kernel found, the note, the result and its meaning") {
  Registry reg = python_dispatcher_registry(profile("torch-1.13"));
  REQUIRE(python_dispatcher_register(reg, {"CPU", "CompositeImplicitAutograd"}).has_value());
  const Profile& p = reg.profile();
  std::string out;
  render_explain_json(Resolver(reg), *reg.find(kPythonDispatcherOp), {*p.find("AutogradCPU"), *p.find("XLA")}, kDoc,
                      out);
  CHECK(out.find("  \"operator\": \"__test__::foo\",\n  \"explanations\": [\n    {\n      \"key\": \"AutogradCPU\",\n"
                 "      \"steps\": [\n        {\n          \"step\": \"1\",\n"
                 "          \"question\": \"a kernel registered on AutogradCPU itself?\",\n"
                 "          \"key\": \"AutogradCPU\",\n          \"applies\": true,\n          \"kernel\": null,\n"
                 "          \"taken\": false,\n          \"note\": null\n        },\n") != std::string::npos);
  CHECK(out.find("          \"step\": \"2.3b\",\n"
                 "          \"question\": \"does CompositeImplicitAutograd cover AutogradCPU?\",\n"
                 "          \"alias\": \"CompositeImplicitAutograd\",\n          \"applies\": true,\n"
                 "          \"kernel\": \"fn_CompositeImplicitAutograd\",\n          \"taken\": false,\n"
                 "          \"note\": \"it is not used: the operator has a kernel on CPU (has_backend_kernel)\"\n") !=
        std::string::npos);
  CHECK(out.find("          \"step\": \"3\",\n"
                 "          \"question\": \"a backend fallback registered for AutogradCPU?\",\n"
                 "          \"key\": \"AutogradCPU\",\n          \"applies\": true,\n"
                 "          \"kernel\": \"registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39\",\n"
                 "          \"taken\": true,\n          \"note\": \"PyTorch's own\"\n") != std::string::npos);
  CHECK(out.find("      \"result\": {\n        \"key\": \"AutogradCPU\",\n"
                 "        \"kernel\": \"registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39\",\n"
                 "        \"provenance\": \"backend fallback\",\n        \"status\": \"fallthrough\",\n"
                 "        \"fallthrough\": true,\n        \"source_key\": \"AutogradCPU\"\n      },\n"
                 "      \"runtime\": null,\n"
                 "      \"meaning\": \"A fallthrough: at run time AutogradCPU is masked out") != std::string::npos);
  // XLA: the decomposition is taken.
  CHECK(out.find("      \"result\": {\n        \"key\": \"XLA\",\n        \"kernel\": \"fn_CompositeImplicitAutograd\",\n"
                 "        \"provenance\": \"math kernel\",\n        \"status\": \"composite-implicit\",\n"
                 "        \"fallthrough\": false,\n        \"source_key\": \"CompositeImplicitAutograd\"\n") !=
        std::string::npos);
}

TEST_CASE("explain json: a missing key has null kernel, provenance and source key") {
  Registry reg = python_dispatcher_registry(profile("torch-1.13"));
  REQUIRE(python_dispatcher_register(reg, {"CPU"}).has_value());
  std::string out;
  render_explain_json(Resolver(reg), *reg.find(kPythonDispatcherOp), {*reg.profile().find("XLA")}, kDoc, out);
  CHECK(out.find("      \"result\": {\n        \"key\": \"XLA\",\n        \"kernel\": null,\n"
                 "        \"provenance\": null,\n        \"status\": \"missing\",\n        \"fallthrough\": false,\n"
                 "        \"source_key\": null\n      },\n      \"runtime\": null,\n"
                 "      \"meaning\": \"No kernel: a call that dispatches to XLA "
                 "raises NotImplementedError") != std::string::npos);
  // A step whose alias does not cover the key finds no kernel.
  CHECK(out.find("\"alias\": \"Autograd\",\n          \"applies\": false,\n          \"kernel\": null,") !=
        std::string::npos);
}

TEST_CASE("json: the flush callback runs after each operator") {
  const LoadResult l = must_load("torch-1.13", {{"ops.toml", kOps}});
  int flushes = 0;
  const JsonDocument doc{"9.9.9", "torch-1.13", [&] { ++flushes; }, {}};
  std::string out;
  render_table_json(Resolver(l.registry), l.registry.sorted_operators(), KeyFilter{}, doc, out);
  CHECK(flushes == 2);
}

}  // namespace dt::test
