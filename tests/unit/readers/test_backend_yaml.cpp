// read_backend_yaml: gen_backend_stubs.py's rules on small files.
#include "readers/backend_yaml.hpp"

#include "helpers.hpp"

namespace dt::test {

namespace {

inline const std::string kNative =
    "- func: abs(Tensor self) -> Tensor\n"
    "  structured_delegate: abs.out\n"
    "- func: abs_(Tensor(a!) self) -> Tensor(a!)\n"
    "  structured_delegate: abs.out\n"
    "- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  structured: True\n"
    "  dispatch:\n"
    "    CPU: abs_out\n"
    "- func: relu(Tensor self) -> Tensor\n"
    "  dispatch:\n"
    "    CPU: relu\n"
    "- func: relu_(Tensor(a!) self) -> Tensor(a!)\n"
    "  dispatch:\n"
    "    CPU: relu_\n"
    "- func: resize_(Tensor(a!) self, SymInt[] size) -> Tensor(a!)\n"
    "  manual_kernel_registration: True\n"
    "  dispatch:\n"
    "    CPU: resize_\n";

// "BLOCK_KEY op" per [[impl]].
std::vector<std::string> impls(const std::string& yaml) {
  auto b = read_backend_yaml(profile("torch-2.14"), "b.yaml", yaml, kNative);
  REQUIRE_MESSAGE(b, (b ? "" : format(b.error())));
  std::vector<std::string> out;
  for (const TomlBlock& blk : b->blocks) {
    std::string key;
    for (const TomlField& f : blk.header)
      if (f.key == "dispatch_key") key = std::get<std::string>(f.value);
    for (const TomlEntry& e : blk.entries)
      for (const TomlField& f : e.fields)
        if (f.key == "op") out.push_back(key + " " + std::get<std::string>(f.value));
  }
  return out;
}

std::string error(const std::string& yaml) {
  auto b = read_backend_yaml(profile("torch-2.14"), "b.yaml", yaml, kNative);
  REQUIRE(!b);
  std::string s = format(b.error());
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("read_backend_yaml: supported and autograd, generated in-place and out= wrappers") {
  CHECK(impls("backend: XLA\ncpp_namespace: torch_xla\nsupported:\n- abs\n- relu_\n- resize_\nautograd:\n- relu\n") ==
        V{"XLA aten::abs", "XLA aten::abs_", "XLA aten::abs.out", "XLA aten::relu_", "AutogradXLA aten::relu"});
  // use_out_as_primary: no wrappers; full_codegen ops are supported ones.
  CHECK(impls("backend: XLA\ncpp_namespace: x\nuse_out_as_primary: True\nfull_codegen:\n- abs\n") ==
        V{"XLA aten::abs"});
  CHECK(impls("backend: PrivateUse1\ncpp_namespace: x\nsupported: []\n").empty());
}

TEST_CASE("read_backend_yaml: located errors with gen_backend_stubs.py's messages") {
  CHECK(error("backend: XLA\ncpp_namespace: x\nsupported:\n- abs\n- nope.Tensor\n") ==
        "b.yaml:5:3: error: Found an invalid operator name: nope.Tensor");
  CHECK(error("cpp_namespace: x\n") == "b.yaml:1:1: error: You must provide a value for \"backend\"");
  CHECK(error("backend: XLA\nsupported: [abs]\n") == "b.yaml:1:1: error: You must provide a value for \"cpp_namespace\"");
  CHECK(error("backend: Bogus\ncpp_namespace: x\nsupported: [abs]\n") ==
        "b.yaml:1:10: error: The provided value for \"backend\" must be a valid DispatchKey, but got Bogus.");
  CHECK(error("backend: XLA\ncpp_namespace: x\ncolour: red\n").starts_with("b.yaml:3:1: error: unexpected key 'colour'"));
  CHECK(error("backend: XLA\ncpp_namespace: x\nsupported: abs\n") ==
        "b.yaml:3:12: error: expected \"supported\" to be a list");
}

TEST_CASE("read_backend_yaml: the profile's own release yaml by default") {
  auto b = read_backend_yaml(profile("torch-2.14"), "b.yaml", "backend: XPU\ncpp_namespace: at\nsupported:\n- add.Tensor\n");
  REQUIRE(b);
  REQUIRE(b->blocks.size() == 1);
  CHECK(b->blocks[0].entries.size() == 3);  // add.Tensor, add_.Tensor, add.out
  auto old = read_backend_yaml(profile("torch-1.13"), "b.yaml", "backend: XPU\ncpp_namespace: at\nsupported: [abs]\n");
  REQUIRE(!old);
}

}  // namespace dt::test

namespace dt::test {

TEST_CASE("read_backend_yaml: a group is all on the backend key or all on the autograd key") {
  auto b = read_backend_yaml(profile("torch-2.14"), "b.yaml",
                             "backend: XLA\ncpp_namespace: x\nsupported: [abs]\nautograd: [abs.out]\n", kNative);
  REQUIRE(!b);
  CHECK(b.error().where.line == 4);
  CHECK(b.error().message ==
        "Currently, all variants of an op must either be registered to a backend key, or to a backend's autograd "
        "key. They cannot be mix and matched. If this is something you need, feel free to create an issue! abs is "
        "listed under \"supported\", but abs_out is listed under \"autograd\".");
  // relu has no out= function: no group, each function on its own.
  CHECK(read_backend_yaml(profile("torch-2.14"), "b.yaml",
                          "backend: XLA\ncpp_namespace: x\nsupported: [relu]\nautograd: [relu_]\n", kNative));
}

}  // namespace dt::test
