// The inputs of a simulated call (resolve/call.hpp): tensor words and their
// key sets, schema binding, thread-local state.
#include <fstream>
#include <sstream>

#include "base/text.hpp"
#include "helpers.hpp"
#include "registry/schema.hpp"
#include "resolve/call.hpp"

namespace dt::test {

namespace {

// The key set of one tensor, as torch prints a DispatchKeySet's keys.
std::string keyset(const std::string& prof, const std::string& words, const std::string& pu1 = "") {
  const KeysetAlgebra ks(profile(prof));
  auto t = parse_tensor_words(profile(prof), pu1, words);
  REQUIRE_MESSAGE(t.has_value(), (t ? "" : t.error().message));
  auto bits = tensor_keyset(ks, *t);
  REQUIRE_MESSAGE(bits.has_value(), (bits ? "" : bits.error().message));
  return join(ks.names(*bits, pu1), ", ");
}

std::string word_error(const std::string& words, const std::string& prof = "torch-1.13") {
  auto t = parse_tensor_words(profile(prof), "", words);
  if (!t) return t.error().message;
  auto bits = tensor_keyset(KeysetAlgebra(profile(prof)), *t);
  REQUIRE_FALSE(bits.has_value());
  return bits.error().message;
}

Expected<BoundCall, Diagnostic> bind(const std::string& schema, const std::vector<std::string>& values,
                                      bool allow_missing = false) {
  auto s = parse_schema(schema);
  REQUIRE(s.has_value());
  return bind_arguments(KeysetAlgebra(profile("torch-1.13")), "", &*s, values, allow_missing);
}

}  // namespace

// tests/unit/data/keysets-1.13.txt: torch._C._dispatch_keys of real tensors of
// torch 1.13 (and wrapper subclasses for devices the build lacks; they carry
// Python and PythonTLSSnapshot), measured by /work/notes/trace/keyset_table.py.
TEST_CASE("tensor key sets equal the ones measured in torch 1.13, for all 36 kinds") {
  std::ifstream in(std::string(DT_TEST_DATA_DIR) + "/keysets-1.13.txt");
  std::string line;
  int rows_checked = 0;
  while (std::getline(in, line)) {
    if (!line.starts_with("| `")) continue;
    const auto cells = split(line, " | ");
    std::string kind(trim(cells[0], "| `"));
    const std::string measured(cells[2]);
    // The tool's words for the measured kinds.
    if (kind == "functional_cpu") kind = "cpu,functional";
    if (kind == "meta,wrapper") kind = "meta";
    if (cells[1] == "wrapper") kind += ",python";
    CAPTURE(kind);
    CHECK(keyset("torch-1.13", kind) == measured);
    ++rows_checked;
  }
  CHECK(rows_checked == 36);
}

TEST_CASE("key sets derived from the profile: torch-main's per-backend SparseCsr, autocast keys, renamed PrivateUse1") {
  CHECK(keyset("torch-main", "sparse_csr_cuda") == "SparseCsrCUDA, ADInplaceOrView, AutogradCUDA, AutocastCUDA");
  CHECK(keyset("torch-main", "xla") == "XLA, ADInplaceOrView, AutogradXLA, AutocastXLA");
  CHECK(keyset("torch-main", "npu,requires_grad", "npu") == "npu, ADInplaceOrView, AutogradNpu, AutocastPrivateUse1");
  CHECK(keyset("torch-1.13", "privateuseone,conj") == "PrivateUse1, Conjugate, ADInplaceOrView, AutogradPrivateUse1");
  CHECK(keyset("torch-1.13", "cpu,named,zerotensor,neg") ==
        "CPU, Named, Negative, ZeroTensor, ADInplaceOrView, AutogradCPU, AutocastCPU");
  CHECK(keyset("torch-1.13", "nested_cuda") ==
        "NestedTensorCUDA, ADInplaceOrView, AutogradCUDA, AutogradNestedTensor, AutocastCUDA");
}

TEST_CASE("tensor words: errors name the problem") {
  CHECK(word_error("cpux") ==
        "unknown word 'cpux' in 'cpux' (did you mean 'cpu'?); a tensor is [LAYOUT_]DEVICE[,MODIFIER...], e.g. cpu, "
        "cuda,requires_grad, sparse_cpu, nested_cuda,inference");
  CHECK(word_error("cpu,cuda") == "'cpu,cuda' names two devices or layouts; one tensor has one");
  CHECK(word_error("requires_grad") == "'requires_grad' names no device (cpu, cuda, meta, sparse_cpu, ...)");
  CHECK(word_error("cpu,,conj") == "empty word in 'cpu,,conj'");
  CHECK(word_error("mkldnn_cuda") ==
        "profile torch-1.13 has no dispatch key MkldnnCUDA: it has no such tensor ('mkldnn_cuda')");
  CHECK(word_error("sparse_csr_xla") ==
        "profile torch-1.13 has no dispatch key SparseCsrXLA: it has no such tensor ('sparse_csr_xla')");
  CHECK(word_error("npu").find("unknown word 'npu'") == 0);  // 1.13 cannot rename PrivateUse1
}

TEST_CASE("which schema arguments dispatch (makeBitsetForDispatchArgs)") {
  CHECK(dispatch_arg_kind("Tensor") == DispatchArgKind::Tensor);
  CHECK(dispatch_arg_kind("Tensor(a!)") == DispatchArgKind::Tensor);
  CHECK(dispatch_arg_kind("Tensor?") == DispatchArgKind::OptionalTensor);
  CHECK(dispatch_arg_kind("Tensor(a)?") == DispatchArgKind::OptionalTensor);
  CHECK(dispatch_arg_kind("Tensor[]") == DispatchArgKind::TensorList);
  CHECK(dispatch_arg_kind("Tensor(a!)[]") == DispatchArgKind::TensorList);
  CHECK(dispatch_arg_kind("Tensor?[]") == DispatchArgKind::OptionalTensorList);
  for (const char* other : {"Scalar", "int", "Generator?", "Tensor[][]", "TensorList", "str", "Dict(str, Tensor)"})
    CHECK_FALSE(dispatch_arg_kind(other).has_value());
}

TEST_CASE("--arg values bind to the dispatch arguments in schema order") {
  auto c = bind("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", {"cpu,requires_grad", "meta"});
  REQUIRE(c.has_value());
  REQUIRE(c->args.size() == 2);
  CHECK(c->args[0].name == "self");
  CHECK(c->args[1].items[0]->backend == 10);
  REQUIRE(c->ignored.size() == 1);
  CHECK(c->ignored[0].type == "Scalar");
  // Lists: 'a;b', [] and none elements of Tensor?[].
  auto l = bind("f(Tensor[] xs, Tensor?[] ys, Generator? g) -> Tensor", {"cpu;meta", "none;cpu"});
  REQUIRE(l.has_value());
  CHECK(l->args[0].items.size() == 2);
  CHECK_FALSE(l->args[1].items[0].has_value());
  CHECK(l->ignored[0].name == "g");  // a Generator does not dispatch in a boxed call
  auto empty = bind("f(Tensor[] xs) -> Tensor", {"[]"});
  REQUIRE(empty.has_value());
  CHECK(empty->args[0].items.empty());
  // A Tensor? without a value is None.
  auto opt = bind("f(Tensor x, Tensor? y=None) -> Tensor", {"cpu"});
  REQUIRE(opt.has_value());
  CHECK_FALSE(opt->args[1].items.front().has_value());
}

TEST_CASE("--arg values: too many, too few, wrong shapes") {
  const std::string add = "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
  CHECK(bind(add, {"cpu", "cpu", "cpu"}).error().message ==
        "3 values for 2 tensor arguments (self: Tensor, other: Tensor)");
  CHECK(bind(add, {"cpu"}).error().message ==
        "argument 'other' (Tensor) has no value: give one per tensor argument, in schema order (2 needed, 1 given)");
  CHECK(bind(add, {"cpu"}, true).has_value());  // --keyset given
  CHECK(bind("f(Scalar s) -> Tensor", {"cpu"}).error().message ==
        "1 value for 0 tensor arguments (the schema has none)");
  CHECK(bind(add, {"none", "cpu"}).error().message == "argument 'self' (Tensor): 'none' is not allowed here (not optional)");
  CHECK(bind(add, {"cpu;cpu", "cpu"}).error().message == "argument 'self' (Tensor) is a Tensor, not a list: 'cpu;cpu'");
  CHECK(bind("f(Tensor[] xs) -> Tensor", {"cpu;none"}).error().message ==
        "argument 'xs' (Tensor[]): 'none' is not allowed here (not optional)");
  CHECK(bind(add, {"cpu", "cuda,sideways"}).error().message.starts_with("argument 'other' (Tensor): unknown word 'sideways'"));
  // Without a schema every value is one Tensor (a list when it has ';' or is []).
  auto none = bind_arguments(KeysetAlgebra(profile("torch-1.13")), "", nullptr, {"cpu", "[]"}, false);
  REQUIRE(none.has_value());
  CHECK(none->args[0].name == "#1");
  CHECK(none->args[1].type == "Tensor?[]");
}

TEST_CASE("thread-local state: c10's defaults and the contexts") {
  const KeysetAlgebra ks(profile("torch-1.13"));
  auto fn = [&](KeySet s) { return join(ks.functionality_names(s), ","); };
  auto tls = [&](const TlsOptions& o) {
    auto t = make_tls(ks, "", o);
    REQUIRE_MESSAGE(t.has_value(), (t ? "" : t.error().diagnostic.message));
    return *t;
  };
  const ThreadLocalState d = tls({});
  CHECK(fn(d.included) == "BackendSelect,ADInplaceOrView");
  CHECK(fn(d.excluded) == "AutocastCPU,AutocastXPU,AutocastCUDA");
  CHECK(d.grad_mode);
  TlsOptions o;
  o.no_grad = true;
  CHECK(tls(o).included == d.included);
  CHECK_FALSE(tls(o).grad_mode);
  o = {};
  o.inference_mode = true;  // InferenceMode.h:53-72
  CHECK(fn(tls(o).included) == "BackendSelect");
  CHECK(fn(tls(o).excluded) ==
        "AutogradOther,AutogradFunctionality,AutogradNestedTensor,AutocastCPU,AutocastXPU,AutocastCUDA");
  o = {};
  o.autocast = {"cpu"};
  CHECK(fn(tls(o).excluded) == "AutocastXPU,AutocastCUDA");
  o = {};
  o.include = {"Meta"};  // _add_meta_to_tls_dispatch_include: Dense and the Meta bit
  CHECK(fn(tls(o).included) == "Dense,BackendSelect,ADInplaceOrView");
  CHECK(join(ks.backend_names(tls(o).included), ",") == "Meta");
  o = {};
  o.exclude = {"Autograd", "Python,PythonTLSSnapshot"};
  CHECK(fn(tls(o).excluded) ==
        "Python,AutogradOther,AutogradFunctionality,AutogradNestedTensor,AutocastCPU,AutocastXPU,AutocastCUDA,"
        "PythonTLSSnapshot");
  o = {};
  o.python_mode = true;
  CHECK(fn(tls(o).included) == "BackendSelect,Python,ADInplaceOrView,PythonTLSSnapshot");
  CHECK(tls(o).python_mode);
  o = {};
  o.autocast = {"mps"};
  // The error says which field; the front end names it (--autocast, autocast).
  CHECK(make_tls(ks, "", o).error().field == TlsError::Field::Autocast);
  CHECK(make_tls(ks, "", o).error().diagnostic.message ==
        "profile torch-1.13 has no autocast key for 'mps' (devices: cpu, xpu, cuda, xla)");
  o = {};
  o.include = {"Nope"};
  CHECK(make_tls(ks, "", o).error().field == TlsError::Field::Include);
  CHECK(make_tls(ks, "", o).error().diagnostic.message.starts_with("could not parse dispatch key: Nope"));
  o = {};
  o.exclude = {"CPU", "Nope"};
  CHECK(make_tls(ks, "", o).error().field == TlsError::Field::Exclude);
}

}  // namespace dt::test
