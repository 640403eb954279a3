// lint --context (lint/context.hpp): which files, and which findings count.
#include <map>

#include "helpers.hpp"
#include "lint/context.hpp"

namespace dt::test {

TEST_CASE("context_files: files as given, a directory as its .toml files sorted by name") {
  std::map<std::string, std::string> files{{"corpus/b.toml", ""},     {"corpus/a.toml", ""}, {"corpus/README", ""},
                                           {"corpus/sub/c.toml", ""}, {"one.toml", ""},      {"empty/notes.txt", ""}};
  const FileSystem fs = memory_filesystem(files);
  const auto found = lint::context_files(fs, {"one.toml", "corpus"}).value();
  CHECK(found.paths == std::vector<std::string>{"one.toml", "corpus/a.toml", "corpus/b.toml"});
  // A directory's entries are the directory's: read inside it.
  CHECK(found.listed == std::map<std::string, std::string>{{"corpus/a.toml", "corpus"}, {"corpus/b.toml", "corpus"}});
  // A path that is no directory is a file to load (and to report, if missing).
  CHECK(lint::context_files(fs, {"missing.toml"}).value().paths == std::vector<std::string>{"missing.toml"});
  CHECK(lint::context_files(fs, {}).value().paths.empty());
  auto empty = lint::context_files(fs, {"empty"});
  REQUIRE_FALSE(empty.has_value());
  CHECK(empty.error().message == "no .toml files in 'empty'");
  CHECK(empty.error().where.file.empty());
  FileSystem unlistable = fs;
  unlistable.list = [](const std::string& path) -> Expected<std::vector<std::string>, Diagnostic> {
    return unexpected(make_error(Location{path, 0, 0}, "Permission denied"));
  };
  CHECK(lint::context_files(unlistable, {"corpus"}).error().message == "cannot list 'corpus': Permission denied");
}

TEST_CASE("context_reader: a directory's entries are read inside it, other paths as the command line names them") {
  std::map<std::string, std::string> files{{"corpus/a.toml", "a"}, {"one.toml", "one"}};
  FileSystem fs = memory_filesystem(files);
  std::vector<std::pair<std::string, Roots>> inside;
  fs.read_inside = [&](const std::string& path, const Roots& roots) -> Expected<std::string, Diagnostic> {
    inside.emplace_back(path, roots);
    return files.at(path);
  };
  const ReadFile read = lint::context_reader(fs, lint::context_files(fs, {"corpus", "one.toml"}).value());
  CHECK(read("corpus/a.toml").value() == "a");
  CHECK(read("one.toml").value() == "one");
  CHECK(inside == std::vector<std::pair<std::string, Roots>>{{"corpus/a.toml", Roots{"corpus"}}});
}

TEST_CASE("keep_linted: only findings that involve a linted file, anchored there") {
  std::vector<lint::Finding> findings(4);
  findings[0].where = {"ctx.toml", 1, 1};  // only the context: dropped
  findings[1].where = {"ctx.toml", 2, 1};  // a note in a linted file: moved there
  findings[1].notes = {{{"ctx.toml", 9, 9}, "elsewhere"}, {{"mine.toml", 5, 3}, "a kernel"}};
  findings[2].where = {"mine.toml", 1, 1};  // in a linted file: kept as it is
  findings[3].where = {"<stdin>", 3, 1};    // standard input is linted as "-"
  lint::keep_linted(findings, {"mine.toml", "-"});
  REQUIRE(findings.size() == 3);
  CHECK(to_string(findings[0].where) == "<stdin>:3:1");  // sorted again
  CHECK(to_string(findings[1].where) == "mine.toml:1:1");
  CHECK(to_string(findings[2].where) == "mine.toml:5:3");
  CHECK(to_string(findings[2].notes[0].where) == "ctx.toml:9:9");
  CHECK(to_string(findings[2].notes[1].where) == "ctx.toml:2:1");
  CHECK(findings[2].notes[1].message == "the other side of this finding, in a --context file");
}

}  // namespace dt::test
