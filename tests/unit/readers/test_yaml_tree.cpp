// parse_yaml: libyaml's events as a located tree, hostile input bounded.
#include "readers/yaml_tree.hpp"

#include <optional>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace dt::test {

TEST_CASE("parse_yaml: nodes with their line and column") {
  auto d = parse_yaml("n.yaml", "- func: add(Tensor self) -> Tensor\n  dispatch:\n    CPU, CUDA: add_impl\n");
  REQUIRE(d);
  const YamlNode& root = d->root();
  REQUIRE(root.kind == YamlNode::Kind::Sequence);
  REQUIRE(root.items.size() == 1);
  const YamlNode& e = d->at(root.items[0]);
  const YamlNode* func = d->get(e, "func");
  REQUIRE(func);
  CHECK(func->value == "add(Tensor self) -> Tensor");
  CHECK(func->line == 1);
  CHECK(func->column == 9);
  const YamlNode* disp = d->get(e, "dispatch");
  REQUIRE(disp);
  REQUIRE(disp->kind == YamlNode::Kind::Mapping);
  CHECK(d->at(disp->items[0]).value == "CPU, CUDA");
  CHECK(d->at(disp->items[0]).line == 3);
  CHECK(d->at(disp->items[0]).column == 5);
  CHECK(d->get(e, "nothing") == nullptr);
}

TEST_CASE("YamlArena: copies that stay where they are") {
  YamlArena arena;
  CHECK(arena.copy(std::string_view{}).empty());
  CHECK(arena.copy(std::span<const std::uint32_t>{}).empty());
  const std::string_view a = arena.copy(std::string_view("abc"));
  const std::vector<std::uint32_t> ids = {1, 2, 3};
  const std::span<const std::uint32_t> s = arena.copy(std::span<const std::uint32_t>(ids));
  CHECK(reinterpret_cast<std::uintptr_t>(s.data()) % alignof(std::uint32_t) == 0);  // after "abc"
  const std::string big(200'000, 'x');  // more than a chunk: a chunk of its own
  const std::string_view b = arena.copy(std::string_view(big));
  std::vector<std::string_view> many;
  for (int i = 0; i < 5000; ++i) many.push_back(arena.copy(std::string_view("0123456789abcdef0123456789")));
  CHECK(a == "abc");
  CHECK(std::vector<std::uint32_t>(s.begin(), s.end()) == ids);
  CHECK(b == big);
  CHECK(many.front() == many.back());
  CHECK(many.front().data() != many.back().data());
}

TEST_CASE("parse_yaml: the nodes' text and children stay valid when the document moves") {
  std::optional<YamlDoc> kept;
  {
    std::string text = "a: [x, 'y z', {b: c}]\nd: e\n";
    auto d = parse_yaml("n.yaml", text);
    REQUIRE(d);
    kept.emplace(std::move(*d));
    text.assign(text.size(), '#');  // the text read is not referred to
  }
  const YamlNode* a = kept->get(kept->root(), "a");
  REQUIRE(a);
  REQUIRE(a->items.size() == 3);
  CHECK(kept->at(a->items[1]).value == "y z");
  CHECK(kept->get(kept->at(a->items[2]), "b")->value == "c");
  CHECK(kept->get(kept->root(), "d")->value == "e");
}

TEST_CASE("parse_yaml: YAML 1.1 scalars as PyYAML resolves them") {
  auto d = parse_yaml("n.yaml", "a: True\nb: 'True'\nc: off\nd: ~\ne: y\n");
  REQUIRE(d);
  const YamlNode& r = d->root();
  CHECK(YamlDoc::as_bool(*d->get(r, "a")) == true);
  CHECK(!YamlDoc::as_bool(*d->get(r, "b")));  // quoted: a string
  CHECK(YamlDoc::as_bool(*d->get(r, "c")) == false);
  CHECK(YamlDoc::is_null(*d->get(r, "d")));
  CHECK(!YamlDoc::as_bool(*d->get(r, "e")));  // y is no YAML 1.1 bool for PyYAML
}

TEST_CASE("parse_yaml: errors are located") {
  auto d = parse_yaml("n.yaml", "- func: x\n  dispatch: [a\n");
  REQUIRE(!d);
  CHECK(d.error().where.line >= 2);
  CHECK(d.error().message.starts_with("yaml: "));
  auto bad = parse_yaml("n.yaml", "a: \xff\xfe\n");
  REQUIRE(!bad);
  CHECK(bad.error().where.line == 1);
  auto alias = parse_yaml("n.yaml", "a: *nope\n");
  REQUIRE(!alias);
  CHECK(alias.error().message.find("undefined alias") != std::string::npos);
}

TEST_CASE("parse_yaml: depth and alias expansion are bounded") {
  std::string deep(200, '[');
  deep += std::string(200, ']');
  auto d = parse_yaml("n.yaml", deep);
  REQUIRE(!d);
  CHECK(d.error().message.find("nested too deeply") != std::string::npos);
  CHECK(d.error().where.line == 1);
  CHECK(d.error().where.column == 65);
  // A billion laughs: 9 levels of 10 aliases each would be 10^9 nodes.
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; ++i) {
    bomb += fmt::format("a{}: &a{} [", i, i);
    for (int j = 0; j < 10; ++j) bomb += fmt::format("{}*a{}", j ? ", " : "", i - 1);
    bomb += "]\n";
  }
  auto b = parse_yaml("n.yaml", bomb);
  REQUIRE(!b);
  CHECK(b.error().message.find("too many nodes") != std::string::npos);
  auto small = parse_yaml("n.yaml", "a: &x [1, 2]\nb: *x\n");
  REQUIRE(small);
  CHECK(small->get(small->root(), "b")->items.size() == 2);
}

TEST_CASE("parse_yaml: empty document") {
  auto d = parse_yaml("n.yaml", "");
  REQUIRE(d);
  CHECK(YamlDoc::is_null(d->root()));
}

namespace dt::test {

TEST_CASE("parse_yaml: an error at the end of the input is located inside it") {
  // libyaml puts it on line 6 of this 5-line text (found by fuzz_native_yaml).
  auto d = parse_yaml("n.yaml", "backend: XLA\ncpp_namespace: x\nsupported:\nace: x\nsupported");
  REQUIRE(!d);
  CHECK(d.error().where.line == 5);
  CHECK(d.error().where.column == 10);
}

}  // namespace dt::test

namespace dt::test {

TEST_CASE("parse_yaml: a node at the end of the input is located inside it") {
  // "---" alone: the empty document's null scalar, which libyaml puts on
  // line 2 of this 1-line text (found by fuzz_native_yaml).
  auto d = parse_yaml("n.yaml", "---");
  REQUIRE(d);
  CHECK(YamlDoc::is_null(d->root()));
  CHECK(d->root().line == 1);
  CHECK(d->root().column == 4);
  // The same after a byte-order mark: libyaml's index counts characters.
  auto bom = parse_yaml("n.yaml", "\xef\xbb\xbf---");
  REQUIRE(bom);
  CHECK(bom->root().line == 1);
  auto e = parse_yaml("n.yaml", "a: 1\nb:");
  REQUIRE(e);
  const YamlNode* b = e->get(e->root(), "b");
  REQUIRE(b != nullptr);
  CHECK(b->line == 2);
  CHECK(b->column == 3);
}

}  // namespace dt::test

TEST_CASE("yaml_difference: the first node that differs, or nothing") {
  auto a = parse_yaml_libyaml("n.yaml", "a: [b, c]\n");
  auto same = parse_yaml_libyaml("n.yaml", "a: [b, c]\n");
  auto text = parse_yaml_libyaml("n.yaml", "a: [b, d]\n");
  auto moved = parse_yaml_libyaml("n.yaml", "a:  [b, c]\n");
  auto quoted = parse_yaml_libyaml("n.yaml", "a: [b, 'c']\n");
  auto longer = parse_yaml_libyaml("n.yaml", "a: [b, c, d]\n");
  REQUIRE((a && same && text && moved && quoted && longer));
  CHECK(yaml_difference(*a, *same).empty());
  CHECK(yaml_difference(*a, *text) ==
        "/1/1: kind 0 plain true at 1:8 'c' (0 items) / kind 0 plain true at 1:8 'd' (0 items)");
  CHECK(yaml_difference(*a, *moved).starts_with("/1: kind 1 plain false at 1:4"));
  CHECK(yaml_difference(*a, *quoted).starts_with("/1/1: kind 0 plain true"));
  CHECK(yaml_difference(*a, *longer).starts_with("/1: "));
}

}  // namespace dt::test
