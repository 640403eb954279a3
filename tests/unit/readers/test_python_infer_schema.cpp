// infer_schema over annotations read statically, per release; python_float_repr.
#include "helpers.hpp"
#include "readers/python_infer_schema.hpp"

namespace dt::test {

namespace {

Expected<std::string, Diagnostic> infer(std::string_view def, MutatesArgs m = {}, bool t214 = true,
                                        const std::vector<std::pair<std::string, std::int64_t>>* dtypes = nullptr) {
  auto t = lex_python("m.py", def);
  REQUIRE(t.has_value());
  std::size_t p = 0;
  auto f = parse_py_def("m.py", *t, p);
  REQUIRE(f.has_value());
  InferSchemaRelease rel;
  rel.builtin_generics = t214;
  rel.one_tuple_kept = t214;
  rel.dtypes = dtypes;
  auto canon = [](const std::string& n) -> std::string {
    if (n.starts_with("Optional") || n.starts_with("Sequence") || n.starts_with("List") || n.starts_with("Tuple"))
      return "typing." + n;
    if (n == "Tensor") return "torch.Tensor";
    return n;
  };
  return infer_schema(*f, m, rel, canon);
}

}  // namespace

TEST_CASE("infer_schema: types, defaults, returns") {
  CHECK(*infer("def f(x: Tensor, n: int = 2, s: str = 'a', d: torch.dtype = torch.float) -> Tensor: ...\n") ==
        "(Tensor x, SymInt n=2, str s=\"a\", ScalarType d=float32) -> Tensor");
  CHECK(*infer("def f(x: Optional[Tensor] = None, *, e: float = 1e-5, b: float = 1e16) -> None: ...\n") ==
        "(Tensor? x=None, *, float e=1e-05, float b=1e+16) -> ()");
  CHECK(*infer(
            "def f(a: Sequence[Optional[Tensor]], b: Optional[List[int]], c: Tensor | None) -> Tuple[Tensor]: ...\n") ==
        "(Tensor?[] a, SymInt[]? b, Tensor? c) -> ((Tensor))");
  CHECK(*infer("def f(a: list[int], d: torch.device = torch.device('cuda:1')) -> list[Tensor]: ...\n") ==
        "(SymInt[] a, Device d=\"cuda:1\") -> Tensor[]");
}

TEST_CASE("infer_schema: a torch.dtype default is its name, for the release's dtype attributes") {
  // A legacy name is written as the dtype's first name (str(torch.float) is
  // "torch.float32"); the release's names come from its profile, whose
  // dtype_defaults leave out "float" and "long" (default words).
  const std::vector<std::pair<std::string, std::int64_t>> dtypes = {
      {"float32", 6}, {"bit", 30}, {"uint1", 30}, {"float8_e4m3fn", 24}};
  CHECK(*infer("def f(a: torch.dtype = torch.float, b: torch.dtype = torch.float8_e4m3fn,"
               " c: Optional[torch.dtype] = torch.bit) -> None: ...\n",
               {}, true, &dtypes) == "(ScalarType a=float32, ScalarType b=float8_e4m3fn, ScalarType? c=uint1) -> ()");
  auto unknown = infer("def f(a: torch.dtype = torch.long) -> None: ...\n", {}, true, &dtypes);
  REQUIRE(!unknown);
  CHECK(unknown.error().message.find("Parameter a has an unsupported default value type") != std::string::npos);
  // Without the release's names (a profile not measured): the common ones.
  CHECK(*infer("def f(a: torch.dtype = torch.cdouble) -> None: ...\n") == "(ScalarType a=complex128) -> ()");
  CHECK(!infer("def f(a: torch.dtype = torch.float8_e4m3fn) -> None: ...\n"));
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

TEST_CASE("infer_schema: what the release refuses is a located error") {
  auto a = infer("def f(a: list[int]) -> None: ...\n", {}, false);  // torch 2.6: typing generics only
  REQUIRE_FALSE(a.has_value());
  CHECK(format(a.error()).starts_with("m.py:1:10: error: infer_schema(func): Parameter a has unsupported type"));
  auto b = infer("def f(a) -> None: ...\n");
  REQUIRE_FALSE(b.has_value());
  CHECK(format(b.error()) == "m.py:1:7: error: infer_schema(func): Parameter a must have a type annotation.\n");
  auto c = infer("def f(a: int):\n  pass\n");
  REQUIRE_FALSE(c.has_value());
  CHECK(format(c.error()).find("No return type annotation") != std::string::npos);
  MutatesArgs m;
  m.names = {"n"};
  auto d = infer("def f(n: int) -> None: ...\n", m);
  REQUIRE_FALSE(d.has_value());
  CHECK(format(d.error()).find("only Tensors or collections of Tensors can be mutated") != std::string::npos);
  auto e = infer("def f(*args: int) -> None: ...\n");
  REQUIRE_FALSE(e.has_value());
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
  CHECK(infer_schema_release("2.6.0+debian").builtin_generics == false);
  CHECK(infer_schema_release("2.14.1+debian").builtin_generics == true);
}

}  // namespace dt::test
