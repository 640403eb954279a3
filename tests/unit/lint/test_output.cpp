// Lint output: the format switch, text, GitHub workflow commands, the summary.
#include <algorithm>

#include "lint/output.hpp"
#include "lint_helpers.hpp"

namespace dt::test {

TEST_CASE("lint output: escaping") {
  CHECK(lint::github_escape_data("100% a:b,c\r\nd") == "100%25 a:b,c%0D%0Ad");
  CHECK(lint::github_escape_property("100% a:b,c\r\nd") == "100%25 a%3Ab%2Cc%0D%0Ad");
}

TEST_CASE("lint output: text cannot be forged by kernel names") {
  // A newline in a kernel name must not start a line that reads like a
  // finding of its own; other control characters are written as \xNN.
  const auto f =
      lint_files({{"a.toml", kDef + "dispatch = { CPU = \"k1\\nfake.toml:1:1: error: forged [x]\\r\\u001b[2K\" }\n" +
                                 impl("CPU", "k2") + impl("Autograd", "ag")}});
  REQUIRE(f.size() == 1);
  std::string out;
  lint::render_text(f, out);
  std::size_t headlines = 0;
  for (std::size_t start = 0; start < out.size();) {
    const std::size_t end = out.find('\n', start);
    const std::string line = out.substr(start, end - start);
    if (line.rfind("    ", 0) != 0) {
      ++headlines;
      CHECK(line.rfind("a.toml:7:7: error: ", 0) == 0);
    }
    start = end + 1;
  }
  CHECK(headlines == 1);
  // Lines at the notes' indent are notes and hints the tool wrote, never text
  // from a name (a message's further lines go deeper).
  const auto forged =
      lint_files({{"a.toml", kDef + "dispatch = { CPU = \"k1\" }\n" +
                                 impl("CPU", "k2\\n    f.toml:1:1: note: all good") + impl("Autograd", "ag")}});
  REQUIRE(forged.size() == 1);
  std::string text;
  lint::render_text(forged, text);
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    if (line.rfind("    ", 0) == 0 && line[4] != ' ')
      CHECK_MESSAGE((line.rfind("    a.toml:", 0) == 0 || line.rfind("    help: ", 0) == 0), line);
    start = end + 1;
  }
  CHECK(contains(text, "\n          f.toml:1:1: note: all good"));
  CHECK(contains(out, "\n        fake.toml:1:1: error: forged [x]\\x0d\\x1b[2K' is registered here\n"));
  CHECK(out.find('\r') == std::string::npos);
  CHECK(out.find('\x1b') == std::string::npos);
}

TEST_CASE("lint output: text, json, sarif and github formats") {
  const auto findings = lint_files({{"a.toml", kDef + impl("CPU", "k1") + impl("CPU", "k\\\"2")}});
  const auto dup = of_rule(findings, "duplicate-registration");
  REQUIRE(dup.size() == 1);
  const lint::OutputInfo info{"9.9.9", "torch-main", ""};
  const auto summary = lint::summarize(dup, {2, 0});
  CHECK(lint::summary_line(summary) == "1 finding (1 error, 0 warnings, 0 info); 2 accepted by the baseline");
  CHECK(lint::summary_line(lint::summarize({})) == "no findings");

  std::string text;
  lint::render_text(dup, text);
  CHECK(text.rfind("a.toml:10:7: error: Overriding a previously registered kernel", 0) == 0);
  CHECK(contains(text,
                 " [duplicate-registration]\n    a.toml:6:7: note: the overridden kernel 'k1' is registered here\n"
                 "    help: "));

  std::string json;
  lint::render_json(dup, info, summary, json);
  CHECK(json.rfind(
            "{\n  \"version\": 1,\n  \"tool\": {\n    \"name\": \"dispatchtool\",\n    \"version\": \"9.9.9\"\n  },",
            0) == 0);
  CHECK(contains(json, "kernel 'k\\\"2' replaces 'k1'"));
  CHECK(contains(
      json, "\"location\": {\n        \"file\": \"a.toml\",\n        \"line\": 10,\n        \"column\": 7\n      }"));
  CHECK(contains(json, "\"baselined\": 2"));

  std::string sarif;
  lint::render_sarif(dup, info, sarif);
  CHECK(contains(sarif, "\"version\": \"2.1.0\""));
  CHECK(contains(sarif, "\"ruleId\": \"duplicate-registration\""));
  CHECK(contains(sarif, "\"ruleIndex\": " + std::to_string(lint::rule_index("duplicate-registration"))));
  CHECK(contains(sarif, "\"startLine\": 10"));
  CHECK(contains(sarif, "\"relatedLocations\""));
  CHECK(contains(sarif, "\"dispatchtoolFinding/v1\": \"" + lint::fingerprint(dup[0], 0) + "\""));

  std::string gh;
  lint::render_github(dup, gh);
  CHECK(gh.rfind("::error file=a.toml,line=10,col=7,title=duplicate-registration::Overriding a previously registered "
                 "kernel for the same operator and the same dispatch key: t::foo on CPU: kernel 'k\"2' replaces 'k1'",
                 0) == 0);
  CHECK(contains(gh, "%0Aa.toml:6:7: note: the overridden kernel 'k1' is registered here%0Ahelp: "));
  CHECK(std::count(gh.begin(), gh.end(), '\n') == 1);
}

TEST_CASE("parse_format and render_rule_list") {
  CHECK(lint::parse_format("sarif") == lint::Format::Sarif);
  CHECK(lint::parse_format("github") == lint::Format::Github);
  CHECK_FALSE(lint::parse_format("xml").has_value());
  std::string out;
  lint::render_rule_list(out);
  CHECK(out.rfind("duplicate-def" + std::string(12, ' ') + "error" + std::string(4, ' ') +
                      "An operator is defined twice (two def()s with the same name and overload).\n",
                  0) == 0);
  CHECK(static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n')) == lint::rules().size());
}

TEST_CASE("summary_line: counts by severity, baseline and stale entries") {
  lint::Summary s;
  CHECK(lint::summary_line(s) == "no findings");
  s.errors = 2;
  s.warnings = 1;
  CHECK(lint::summary_line(s) == "3 findings (2 errors, 1 warning, 0 info)");
  s.stale = 2;
  CHECK(lint::summary_line(s) ==
        "3 findings (2 errors, 1 warning, 0 info); 2 findings the baseline accepts no longer occur (fixed? refresh it "
        "with --write-baseline)");
}

TEST_CASE("lint output: --color paints severity, rule id, note and help in text only") {
  const auto findings = lint_files({{"a.toml", kDef + impl("CPU", "k1") + impl("CPU", "k2")}});
  const auto dup = of_rule(findings, "duplicate-registration");
  REQUIRE(dup.size() == 1);
  std::string plain, colored;
  lint::render_text(dup, plain);
  lint::render_text(dup, colored, true);
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(colored.rfind("a.toml:10:7: \x1b[1;31merror\x1b[0m: Overriding a previously registered kernel", 0) == 0);
  CHECK(contains(colored, " [\x1b[1mduplicate-registration\x1b[0m]\n    a.toml:6:7: \x1b[1;36mnote:\x1b[0m the "));
  CHECK(contains(colored, "    \x1b[1;32mhelp:\x1b[0m "));
  const lint::OutputInfo info{"9.9.9", "torch-main", ""};
  for (const auto format : {lint::Format::Json, lint::Format::Sarif, lint::Format::Github}) {
    std::string out;
    lint::render(format, dup, info, lint::summarize(dup), out, true);
    CHECK(!out.empty());
    CHECK(out.find('\x1b') == std::string::npos);
  }
}

}  // namespace dt::test
