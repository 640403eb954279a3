// build_source_registrations: what --build-source adds from a release's own
// source tree (checked on PyTorch 2.6.0's real tree against a real CUDA
// build by tests/oracle/cuda_build.py).
#include <map>

#include "helpers.hpp"
#include "readers/release_sources.hpp"

namespace dt::test {

namespace {

// The CPU library: quantized::add defined, with a CPU kernel; c10d::send with a SparseCUDA one.
bool in_library(std::string_view op, std::string_view key) {
  if (op == "quantized::add" || op == "c10d::send") return key.empty() || key == "CPU" || op == "c10d::send";
  return false;
}

std::map<std::string, std::string> pytorch_tree() {
  return {
      {"pt/version.txt", "2.14.1\n"},
      // cuDNN-only: the build's macros compile it.
      {"pt/aten/src/ATen/native/quantized/cudnn/BinaryOps.cpp",
       "#ifdef USE_CUDA\n#include <ATen/cuda/CUDAConfig.h>\n#if AT_CUDNN_ENABLED()\n"
       "at::Tensor add(at::Tensor a, at::Tensor b, double s, int64_t z);\n"
       "TORCH_LIBRARY_IMPL(quantized, QuantizedCUDA, m) {\n  m.impl(TORCH_SELECTIVE_NAME(\"quantized::add\"), "
       "TORCH_FN(add));\n}\n#endif\n#endif\n"},
      // A CUDA-only namespace of its own: the definition too (the CPU library lacks it).
      {"pt/torch/csrc/distributed/c10d/symm_mem/Ops.cu",
       "TORCH_LIBRARY_FRAGMENT(symm_mem, m) {\n  m.def(\"one_shot(Tensor x) -> Tensor\");\n}\n"
       "at::Tensor one_shot(const at::Tensor& x);\n"
       "TORCH_LIBRARY_IMPL(symm_mem, CUDA, m) {\n  m.impl(\"one_shot\", one_shot);\n"
       "  m.impl(\"two_shot\", make_kernel(2) + 1);\n}\n"},
      // Compiled in CPU builds too: what the library has already is left out.
      {"pt/torch/csrc/distributed/c10d/Ops.cpp",
       "at::Tensor send(const at::Tensor& x);\n"
       "TORCH_LIBRARY_IMPL(c10d, SparseCUDA, m) {\n  m.impl(\"send\", send);\n}\n"
       "TORCH_LIBRARY_IMPL(c10d, CPU, m) {\n  m.impl(\"send\", send);\n}\n"},
      // Tests, headers and files naming no key of the build are not read.
      {"pt/aten/src/ATen/test/cuda_test.cpp", "TORCH_LIBRARY_IMPL(t, CUDA, m) { m.impl(\"x\", x); }\n"},
      {"pt/aten/src/ATen/native/cuda/Ops.cuh", "TORCH_LIBRARY_IMPL(h, CUDA, m) { m.impl(\"x\", x); }\n"},
      {"pt/aten/src/ATen/native/mps/Ops.mm", "TORCH_LIBRARY_IMPL(mps_only, MPS, m) { m.impl(\"x\", x); }\n"},
  };
}

}  // namespace

TEST_CASE("build_source_registrations: the build's hand-written registrations the CPU library lacks") {
  auto files = pytorch_tree();
  const FileSystem fs = tree_filesystem(files);
  auto read = build_source_registrations(profile("torch-2.14"), "cuda", "pt", fs, in_library);
  REQUIRE_MESSAGE(read, (read ? "" : format(read.error())));
  CHECK(read->files_read == 3);  // BinaryOps.cpp, symm_mem/Ops.cu, c10d/Ops.cpp
  CHECK(read->warnings == 1);    // two_shot's kernel expression: counted, not read
  const std::string text = render_toml(read->blocks.blocks, "cuda");
  CHECK(text.find("op = \"quantized::add\"") != std::string::npos);
  CHECK(text.find("dispatch_key = \"QuantizedCUDA\"") != std::string::npos);
  CHECK(text.find("registered at aten/src/ATen/native/quantized/cudnn/BinaryOps.cpp:5") != std::string::npos);
  CHECK(text.find("schema = \"one_shot(Tensor x) -> Tensor\"") != std::string::npos);
  CHECK(text.find("op = \"one_shot\"") != std::string::npos);
  CHECK(text.find("registered at torch/csrc/distributed/c10d/symm_mem/Ops.cu:5") != std::string::npos);
  CHECK(text.find("send") == std::string::npos);  // the library's own (SparseCUDA), and CPU's key
  CHECK(text.find("mps_only") == std::string::npos);
  CHECK(text.find("test") == std::string::npos);
  // The mps build reads its own keys' file.
  auto mps = build_source_registrations(profile("torch-2.14"), "mps", "pt/", fs, in_library);
  REQUIRE(mps);
  CHECK(render_toml(mps->blocks.blocks, "mps").find("namespace = \"mps_only\"") != std::string::npos);
}

TEST_CASE("build_source_registrations: what it refuses") {
  auto files = pytorch_tree();
  const FileSystem fs = tree_filesystem(files);
  auto cpu = build_source_registrations(profile("torch-2.14"), "cpu", "pt", fs, in_library);
  REQUIRE(!cpu);
  CHECK(cpu.error().message.find("the build is 'cpu'") != std::string::npos);
  auto not_tree = build_source_registrations(profile("torch-2.14"), "cuda", "elsewhere", fs, in_library);
  REQUIRE(!not_tree);
  CHECK(format(not_tree.error()) ==
        "elsewhere: error: not a PyTorch source tree: it has neither aten/src/ATen nor torch/csrc\n");
  // A checkout of another release: located at its version.txt.
  auto other = build_source_registrations(profile("torch-2.6"), "cuda", "pt", fs, in_library);
  REQUIRE(!other);
  CHECK(format(other.error())
            .find("pt/version.txt:1:1: error: this tree is torch 2.14.1, and profile torch-2.6 is "
                  "torch 2.6.0+debian") == 0);
  files["pt/version.txt"] = "2.6.0a0";
  CHECK(build_source_registrations(profile("torch-2.6"), "cuda", "pt", fs, in_library).has_value());
}

TEST_CASE("build_source_defines: a CUDA build's macros, none for a CPU one") {
  const auto& cuda = build_source_defines("cuda");
  CHECK(std::find(cuda.begin(), cuda.end(), std::pair<std::string_view, std::string_view>{"USE_CUDA", "1"}) !=
        cuda.end());
  CHECK(std::find(cuda.begin(), cuda.end(), std::pair<std::string_view, std::string_view>{"AT_CUDNN_ENABLED()", "1"}) !=
        cuda.end());
  CHECK(build_source_defines("cpu").empty());
  CHECK(build_source_defines("mtia").empty());
}

}  // namespace dt::test
