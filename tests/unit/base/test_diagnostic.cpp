// Locations and diagnostics (base/diagnostic.hpp).
#include <algorithm>

#include <doctest/doctest.h>

#include <string>

#include "base/diagnostic.hpp"

namespace dt::test {

TEST_CASE("FileName: equal names share one interned string") {
  const FileName a(std::string("ops/a.toml"));
  const FileName b("ops/a.toml");
  CHECK(a == b);
  CHECK(a.view().data() == b.view().data());
  CHECK(a == "ops/a.toml");
  CHECK(a < FileName("ops/b.toml"));
  CHECK(FileName().empty());
  CHECK(fmt::format("{}", a) == "ops/a.toml");
}

TEST_CASE("to_string(Location): FILE:LINE:COL, or the file alone when the position is unknown") {
  CHECK(to_string(Location{"a.toml", 3, 7}) == "a.toml:3:7");
  CHECK(to_string(Location{"a.toml", 0, 0}) == "a.toml");
  CHECK(to_string(Location{}).empty());
  CHECK(to_string(Location{"\x1b]0;x\x07\n.toml", 1, 2}) == "\\x1b]0;x\\x07\\x0a.toml:1:2");
  CHECK(Location{"a.toml", 3, 7}.known());
  CHECK_FALSE(Location{"a.toml", 0, 0}.known());
}

TEST_CASE("format: the diagnostic, then one line per note, input text made printable") {
  Diagnostic d = make_error(Location{"b.toml", 2, 1}, "defined twice\n  details",
                            {{Location{"a.toml", 2, 1}, "the original \x1b[31mhere"}});
  d.multi_line = true;  // PyTorch's multi-line texts keep their lines
  CHECK(format(d) == "b.toml:2:1: error: defined twice\n  details\na.toml:2:1: note: the original \\x1b[31mhere\n");
  d.severity = Severity::Warning;
  CHECK(format(d).rfind("b.toml:2:1: warning: defined twice\n", 0) == 0);
  CHECK(std::string(to_string(Severity::Info)) == "info");
  CHECK(format(make_error(Location{"c.toml", 0, 0}, "cannot read file: x")) == "c.toml: error: cannot read file: x\n");
}

TEST_CASE("format: no line of its own from the input (issue 11: a newline in a value forged a diagnostic)") {
  // A value with a line break in a one-line message, a note or a file name.
  const Diagnostic d =
      make_error(Location{"a\n.toml\x1b", 1, 8}, "unknown library kind 'DEF\nx.toml:1:1: error: forged'",
                 {{Location{"b.toml", 2, 1}, "kernel 'k\nx.toml:1:1: error: forged' is registered here"}});
  CHECK(format(d) ==
        "a\\x0a.toml\\x1b:1:8: error: unknown library kind 'DEF\\x0ax.toml:1:1: error: forged'\n"
        "b.toml:2:1: note: kernel 'k\\x0ax.toml:1:1: error: forged' is registered here\n");
  // NUL does not cut the text short.
  CHECK(format(make_error(Location{"c.toml", 1, 1}, std::string("a\0b", 3))) == "c.toml:1:1: error: a\\x00b\n");
}

TEST_CASE("format: an error without a location names the program (never ': error:')") {
  CHECK(format(make_error("no keys given")) == "dispatchtool: error: no keys given\n");
}

TEST_CASE("make_error(message): an error without a location") {
  const Diagnostic d = make_error("no keys given");
  CHECK(d.severity == Severity::Error);
  CHECK(d.where.file.empty());
  CHECK_FALSE(d.where.known());
  CHECK(d.message == "no keys given");
  CHECK(d.notes.empty());
}

TEST_CASE("add_error: the first error carries the others, flat and in order, and format prints them all") {
  std::optional<Diagnostic> all;
  add_error(all, make_error(Location{"a.toml", 1, 2}, "one", {{Location{"a.toml", 3, 4}, "here"}}));
  Diagnostic two = make_error(Location{"b.toml", 5, 6}, "two");
  two.more.push_back(make_error("three"));
  add_error(all, std::move(two));
  REQUIRE(all.has_value());
  REQUIRE(all->more.size() == 2);
  CHECK(all->more[0].more.empty());  // flattened
  CHECK(format(*all) ==
        "a.toml:1:2: error: one\na.toml:3:4: note: here\nb.toml:5:6: error: two\ndispatchtool: error: three\n");
}

TEST_CASE("add_error: at the limit the last error says so (code too-many-errors), and a full part fills the run") {
  std::optional<Diagnostic> file;
  bool room = true;
  for (std::uint32_t i = 0; room; ++i) room = add_error(file, make_error(Location{"a.toml", i + 1, 1}, "e"), 3);
  REQUIRE(file.has_value());
  // Three errors read, and kept, then "too many".
  REQUIRE(file->more.size() == 3);
  CHECK(file->more[1].where.line == 3);
  CHECK(file->more[2].code == kTooManyErrors);
  CHECK(format(file->more[2]) == "dispatchtool: error: too many errors (3): the rest of the input is not read\n");
  // The file's errors, full, added to a run: the run is full too, with one "too many" line.
  std::optional<Diagnostic> run;
  CHECK_FALSE(add_error(run, std::move(*file), 3));
  REQUIRE(run->more.size() == 3);
  CHECK(run->more[2].code == kTooManyErrors);
  CHECK(std::count_if(run->more.begin(), run->more.end(),
                      [](const Diagnostic& d) { return d.code == kTooManyErrors; }) == 1);
  // Without a limit, nothing is dropped.
  std::optional<Diagnostic> all;
  for (int i = 0; i < 100; ++i) CHECK(add_error(all, make_error("e")));
  CHECK(all->more.size() == 99);
}

}  // namespace dt::test
