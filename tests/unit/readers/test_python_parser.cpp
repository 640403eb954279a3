// parse_py_expr / parse_py_def: calls, dotted names, literals, annotations.
#include "helpers.hpp"
#include "readers/python_parser.hpp"

namespace dt::test {

namespace {

PyExpr expr(std::string_view text) {
  auto t = lex_python("m.py", text);
  REQUIRE(t.has_value());
  std::size_t p = 0;
  auto e = parse_py_expr("m.py", *t, p);
  REQUIRE_MESSAGE(e.has_value(), (e ? "" : format(e.error())));
  return *e;
}

}  // namespace

TEST_CASE("parse_py_expr: a call with positional and keyword arguments, implicit concatenation") {
  const PyExpr e = expr("torch.library.custom_op('ns::' 'op', mutates_args=(\"x\",), device_types=['cpu'])\n");
  REQUIRE(e.kind == PyExpr::Call);
  CHECK(e.base[0].kind == PyExpr::Name);
  CHECK(e.base[0].text == "torch.library.custom_op");
  REQUIRE(e.args.size() == 1);
  CHECK(e.args[0].text == "ns::op");
  REQUIRE(e.kwarg("mutates_args") != nullptr);
  CHECK(e.kwarg("mutates_args")->kind == PyExpr::Tuple);
  CHECK(e.kwarg("device_types")->kind == PyExpr::List);
  CHECK(e.kwarg("nope") == nullptr);
}

TEST_CASE("parse_py_expr: annotations, decorator factories, opaque values") {
  const PyExpr u = expr("Optional[Sequence[int]] | None\n");
  CHECK(u.kind == PyExpr::BitOr);
  CHECK(u.args[0].kind == PyExpr::Subscript);
  const PyExpr c = expr("op.register_kernel('cuda')(fn)\n");
  CHECK(c.kind == PyExpr::Call);
  CHECK(c.base[0].kind == PyExpr::Call);
  CHECK(expr("lambda x: x\n").kind == PyExpr::Lambda);
  CHECK(expr("[x for x in y]\n").args[0].kind == PyExpr::Opaque);
  CHECK(expr("-3\n").kind == PyExpr::Neg);
  CHECK(expr("f(x for x in y)\n").args[0].kind == PyExpr::Opaque);
}

TEST_CASE("parse_py_expr: operators with Python's precedence") {
  const PyExpr a = expr("op_name + schema if x else y\n");
  REQUIRE(a.kind == PyExpr::IfExp);
  CHECK(a.args[0].kind == PyExpr::Binary);
  CHECK(a.args[0].text == "+");
  const PyExpr b = expr("a or b and not c\n");
  REQUIRE(b.kind == PyExpr::BoolOp);
  CHECK(b.text == "or");
  CHECK(b.args[1].kind == PyExpr::BoolOp);
  CHECK(b.args[1].args[1].kind == PyExpr::Not);
  const PyExpr c = expr("x is not None and y not in z\n");
  REQUIRE(c.kind == PyExpr::BoolOp);
  CHECK(c.args[0].ops == std::vector<std::string>{"is not"});
  CHECK(c.args[1].ops == std::vector<std::string>{"not in"});
  const PyExpr d = expr("{'out'}\n");
  CHECK(d.kind == PyExpr::Set);
  CHECK(expr("{}\n").kind == PyExpr::Dict);
  const PyExpr e = expr("{'k': 1, 'j': 2}\n");
  REQUIRE(e.kind == PyExpr::Dict);
  CHECK(e.kwargs.size() == 2);
  const PyExpr s = expr("name[1:]\n");
  REQUIRE(s.kind == PyExpr::Subscript);
  CHECK(s.args[0].kind == PyExpr::Slice);
  CHECK(s.args[0].args[1].absent());
  const PyExpr k = expr("f(*args, **kwargs)\n");
  CHECK(k.star_args.size() == 1);
  CHECK(k.star_kwargs.size() == 1);
}

TEST_CASE("parse_py_def: parameters, keyword-only, annotations, defaults, return") {
  auto t = lex_python("m.py", "def f(x: Tensor, n: int = 2, *, k: float = 1e-5, **kw) -> Tuple[Tensor]:\n  pass\n");
  REQUIRE(t.has_value());
  std::size_t p = 0;
  auto f = parse_py_def("m.py", *t, p);
  REQUIRE(f.has_value());
  CHECK(f->name == "f");
  REQUIRE(f->params.size() == 4);
  CHECK(f->params[1].has_default);
  CHECK(f->params[2].kind == PyParam::KeywordOnly);
  CHECK(f->params[3].kind == PyParam::VarKw);
  CHECK(f->has_return);
  CHECK(f->returns.kind == PyExpr::Subscript);
}

TEST_CASE("parse_py_expr: nesting is bounded") {
  std::string deep(5000, '[');
  deep += std::string(5000, ']') + "\n";
  auto t = lex_python("m.py", deep);
  REQUIRE(t.has_value());
  std::size_t p = 0;
  auto e = parse_py_expr("m.py", *t, p);
  REQUIRE_FALSE(e.has_value());
  CHECK(format(e.error()).find("nested too deeply") != std::string::npos);
}

}  // namespace dt::test
