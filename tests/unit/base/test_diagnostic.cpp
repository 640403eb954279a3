// Locations and diagnostics (base/diagnostic.hpp).
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
  CHECK(Location{"a.toml", 3, 7}.known());
  CHECK_FALSE(Location{"a.toml", 0, 0}.known());
}

TEST_CASE("format: the diagnostic, then one line per note, input text made printable") {
  Diagnostic d = make_error(Location{"b.toml", 2, 1}, "defined twice\n  details",
                            {{Location{"a.toml", 2, 1}, "the original \x1b[31mhere"}});
  CHECK(format(d) == "b.toml:2:1: error: defined twice\n  details\na.toml:2:1: note: the original \\x1b[31mhere\n");
  d.severity = Severity::Warning;
  CHECK(format(d).rfind("b.toml:2:1: warning: defined twice\n", 0) == 0);
  CHECK(std::string(to_string(Severity::Info)) == "info");
  CHECK(format(make_error(Location{"c.toml", 0, 0}, "cannot read file: x")) == "c.toml: error: cannot read file: x\n");
}

TEST_CASE("make_error(message): an error without a location") {
  const Diagnostic d = make_error("no keys given");
  CHECK(d.severity == Severity::Error);
  CHECK(d.where.file.empty());
  CHECK_FALSE(d.where.known());
  CHECK(d.message == "no keys given");
  CHECK(d.notes.empty());
}

}  // namespace dt::test
