// What the tool says of --build's estimate (render/build_note.hpp), in
// table, registrations, explain and trace (checked on the CLI's outputs by
// the goldens yaml-build-cuda*.test, and trace's against a real CUDA build by
// oracle.cuda-2.11.trace_library_note).
#include "api/engine.hpp"
#include "helpers.hpp"
#include "render/build_note.hpp"
#include "render/json.hpp"

namespace dt::test {

namespace {
const std::string kOps =
    "namespace = \"myops\"\n"
    "[[def]]\n"
    "schema = \"f(Tensor x) -> Tensor\"\n"
    "dispatch = { CPU = \"f_cpu\", CUDA = \"f_cuda\", QuantizedCUDA = \"f_q\" }\n"
    "[[def]]\n"
    "schema = \"g(Tensor x) -> Tensor\"\n"
    "dispatch = { CPU = \"g_cpu\" }\n";
}  // namespace

TEST_CASE("build_estimate_sentence: where the estimate's kernels come from and what it lacks") {
  CHECK(build_estimate_sentence("PyTorch's CUDA kernels here", {"cuda", ""}) ==
        "PyTorch's CUDA kernels here are --build cuda's: what the release's native_functions.yaml registers on "
        "CUDA's keys, on top of the CPU package's library. PyTorch's hand-written CUDA registrations are not in it "
        "(--build-source DIR reads them from the release's sources); a profile exported from a cuda build "
        "(dispatchtool-export) is exact.");
  CHECK(build_estimate_sentence("the MPS kernels", {"mps", "/src/pytorch"}) ==
        "the MPS kernels are --build mps's: what the release's native_functions.yaml registers on MPS's keys, and "
        "the hand-written registrations on them read from /src/pytorch, on top of the CPU package's library. "
        "Registrations a mps build makes at run time are not in it; a profile exported from a mps build "
        "(dispatchtool-export) is exact.");
}

TEST_CASE("build_library_note: only for a GPU build, naming the build's keys the operators have kernels on") {
  const LoadResult l = must_load("torch-2.14", {{"ops.toml", kOps}});
  const Profile& p = l.registry.profile();
  const Registry& r = l.registry;
  const std::vector<const Operator*> f{l.registry.find("myops::f")};
  const std::vector<const Operator*> g{l.registry.find("myops::g")};
  const std::string note = build_library_note(r, f, {"cuda", ""});
  CHECK(note.find("the CUDA and QuantizedCUDA kernels are --build cuda's:") == 0);
  CHECK(build_library_note(r, f, {"cpu", ""}).empty());
  CHECK(build_library_note(r, f, {"", ""}).empty());
  CHECK(build_library_note(r, g, {"cuda", ""}).empty());  // no kernel on the build's keys
  CHECK(build_library_note(r, f, {"mps", ""}).empty());
  // explain: only the keys it explains.
  const std::vector<KeyId> cpu{*p.find("CPU")};
  const std::vector<KeyId> quantized{*p.find("QuantizedCUDA")};
  CHECK(build_library_note(r, f, {"cuda", ""}, &cpu).empty());
  CHECK(build_library_note(r, f, {"cuda", ""}, &quantized).find("the QuantizedCUDA kernels are") == 0);
}

TEST_CASE("build_library_note: a CPU package's library asked about a GPU build's keys says it has none of them") {
  const Profile& p = profile("torch-2.14");
  auto lib = engine::open_library(p, true, {}, real_filesystem(), embedded_libraries());
  REQUIRE(lib.has_value());
  const Files files{{"ops.toml", kOps}};
  LoadOptions o;
  o.library = *lib;
  auto l = load(p, {"ops.toml"}, memory_reader(files), o);
  REQUIRE(l.has_value());
  const std::vector<const Operator*> abs{l->registry.materialize("aten::abs.out")};
  REQUIRE(abs.front() != nullptr);
  const std::vector<KeyId> asked{*p.find("CPU"), *p.find("CUDA"), *p.find("SparseCUDA")};
  const std::string note = build_library_note(l->registry, abs, {"", ""}, &asked);
  CHECK(note.find("the CUDA and SparseCUDA rows are what PyTorch's library of this profile has, and it is a build "
                  "without CUDA kernels (") == 0);
  CHECK(note.find("For them: --build cuda (the release's native_functions.yaml registrations, an estimate), or "
                  "--profile DIR exported from a cuda build with dispatchtool-export (exact).") != std::string::npos);
  CHECK(library_has_backend(l->registry, "CPU"));
  CHECK_FALSE(library_has_backend(l->registry, "CUDA"));
  // Not asked about (the default view), or asked about CPU only: nothing to say.
  CHECK(build_library_note(l->registry, abs, {"", ""}).empty());
  const std::vector<KeyId> cpu{*p.find("CPU")};
  CHECK(build_library_note(l->registry, abs, {"", ""}, &cpu).empty());
  // No library (--no-library): nothing is claimed of PyTorch's kernels.
  CHECK(build_library_note(must_load("torch-2.14", {{"ops.toml", kOps}}).registry, abs, {"", ""}, &asked).empty());
}

TEST_CASE("build_library_note: JSON's library_note after the envelope, null when there is none") {
  const LoadResult l = must_load("torch-2.14", {{"ops.toml", kOps}});
  const std::vector<const Operator*> f{l.registry.find("myops::f")};
  const std::string note = build_library_note(l.registry, f, {"cuda", ""});
  std::string with;
  render_table_json(Resolver(l.registry), f, KeyFilter{}, JsonDocument{"9.9.9", "torch-2.14", {}, note}, with);
  CHECK(with.find("  \"profile\": \"torch-2.14\",\n  \"library_note\": \"the CUDA and QuantizedCUDA kernels are") !=
        std::string::npos);
  std::string without;
  render_table_json(Resolver(l.registry), f, KeyFilter{}, JsonDocument{"9.9.9", "torch-2.14", {}, {}}, without);
  CHECK(without.find("  \"profile\": \"torch-2.14\",\n  \"library_note\": null,\n") != std::string::npos);
}

}  // namespace dt::test
