// infer_schema over annotations read statically, per release; python_float_repr.
#include "helpers.hpp"
#include "readers/python_infer_schema.hpp"

namespace dt::test {

namespace {

// Defaults as a reader would give them: the written text, but a name that
// starts with "torch." as its dtype name after the prefix, and "Unknown" as a
// default the reader cannot know.
Expected<std::string, InferError> infer(std::string_view def, MutatesArgs m = {}, bool t214 = true) {
  auto t = lex_python("m.py", def);
  REQUIRE(t.has_value());
  std::size_t p = 0;
  auto f = parse_py_def("m.py", *t, p);
  REQUIRE(f.has_value());
  InferSchemaRelease rel;
  rel.builtin_generics = t214;
  rel.one_tuple_kept = t214;
  auto canon = [](const std::string& n) -> std::optional<std::string> {
    if (n.starts_with("Optional") || n.starts_with("Sequence") || n.starts_with("List") || n.starts_with("Tuple"))
      return "typing." + n;
    if (n == "Tensor") return "torch.Tensor";
    if (n == "LayerName") return std::nullopt;
    return n;
  };
  const PyFunction fn = *f;
  auto dflt = [&fn](std::size_t k) -> Expected<std::string, InferError> {
    const PyExpr& e = fn.params[k].default_value;
    if (e.kind == PyExpr::Name && e.text == "Unknown")
      return unexpected(InferError{make_error(e.at, "a default the reader cannot know"), false});
    if (e.kind == PyExpr::Name && e.text.starts_with("torch.")) return e.text.substr(6);
    if (e.kind == PyExpr::Str) return "\"" + e.text + "\"";
    return e.text;
  };
  return infer_schema(*f, m, rel, canon, dflt);
}

std::string msg(const Expected<std::string, InferError>& r) { return format(r.error().diag); }

}  // namespace

TEST_CASE("infer_schema: types, defaults, returns") {
  CHECK(*infer("def f(x: Tensor, n: int = 2, s: str = 'a', d: torch.dtype = torch.float32) -> Tensor: ...\n") ==
        "(Tensor x, SymInt n=2, str s=\"a\", ScalarType d=float32) -> Tensor");
  CHECK(*infer("def f(x: Optional[Tensor] = None, *, e: float = 1e-05) -> None: ...\n") ==
        "(Tensor? x=None, *, float e=1e-05) -> ()");
  CHECK(*infer(
            "def f(a: Sequence[Optional[Tensor]], b: Optional[List[int]], c: Tensor | None) -> Tuple[Tensor]: ...\n") ==
        "(Tensor?[] a, SymInt[]? b, Tensor? c) -> ((Tensor))");
  CHECK(*infer("def f(a: list[int], d: torch.device = 'cuda:1') -> list[Tensor]: ...\n") ==
        "(SymInt[] a, Device d=\"cuda:1\") -> Tensor[]");
}

TEST_CASE("infer_schema: mutates_args annotates Tensors by parameter index") {
  MutatesArgs m;
  m.names = {"y"};
  CHECK(*infer("def f(x: Tensor, y: List[Tensor]) -> None: ...\n", m) == "(Tensor x, Tensor(a1!)[] y) -> ()");
  MutatesArgs u;
  u.unknown = true;
  CHECK(*infer("def f(x: Tensor, n: int, y: Optional[Tensor]) -> None: ...\n", u) ==
        "(Tensor(a0!) x, SymInt n, Tensor(a2!)? y) -> ()");
}

TEST_CASE("infer_schema: what the release refuses is a located error, marked refused") {
  auto a = infer("def f(a: list[int]) -> None: ...\n", {}, false);  // torch 2.6: typing generics only
  REQUIRE_FALSE(a.has_value());
  CHECK(a.error().refused);
  CHECK(msg(a).starts_with("m.py:1:10: error: infer_schema(func): Parameter a has unsupported type"));
  auto b = infer("def f(a) -> None: ...\n");
  REQUIRE_FALSE(b.has_value());
  CHECK(msg(b) == "m.py:1:7: error: infer_schema(func): Parameter a must have a type annotation.\n");
  auto c = infer("def f(a: int):\n  pass\n");
  REQUIRE_FALSE(c.has_value());
  CHECK(msg(c).find("No return type annotation") != std::string::npos);
  MutatesArgs m;
  m.names = {"n"};
  auto d = infer("def f(n: int) -> None: ...\n", m);
  REQUIRE_FALSE(d.has_value());
  CHECK(msg(d).find("only Tensors or collections of Tensors can be mutated") != std::string::npos);
  auto e = infer("def f(*args: int) -> None: ...\n");
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error().refused);
  auto g = infer("def f(a: complex) -> None: ...\n");  // a builtin infer_schema does not take
  REQUIRE_FALSE(g.has_value());
  CHECK(g.error().refused);
}

TEST_CASE("infer_schema: what the reader cannot know is not a refusal") {
  // A name it cannot resolve, a type of another package, a string annotation, a default it cannot know.
  for (const char* def : {"def f(a: LayerName) -> None: ...\n", "def f(a: torch.distributed.GroupName) -> None: ...\n",
                          "def f(a: 'Tensor') -> None: ...\n", "def f(a: Tensor, d: torch.dtype = Unknown) -> None: ...\n",
                          "def f(a: Tensor) -> LayerName: ...\n"}) {
    auto r = infer(def);
    REQUIRE_FALSE(r.has_value());
    CHECK_MESSAGE(!r.error().refused, def);
  }
}

TEST_CASE("python_float_repr: Python's repr of floats") {
  CHECK(python_float_repr(1.0) == "1.0");
  CHECK(python_float_repr(0.5) == "0.5");
  CHECK(python_float_repr(1e-5) == "1e-05");
  CHECK(python_float_repr(0.0001) == "0.0001");
  CHECK(python_float_repr(1e16) == "1e+16");
  CHECK(python_float_repr(1e15) == "1000000000000000.0");
  CHECK(python_float_repr(-2.5e-7) == "-2.5e-07");
  CHECK(python_float_repr(123456789.125) == "123456789.125");
}

}  // namespace dt::test
