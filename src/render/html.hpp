// dispatchtool html: the operator × key matrix as one self-contained page
// (docs/html/README.md). The page is docs/html/matrix_template.html, embedded
// at build time (cmake/embed_html.cmake), with the data object of
// docs/schema/html.schema.json in place of its one placeholder.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "registry/model.hpp"
#include "registry/select.hpp"
#include "resolve/resolver.hpp"

namespace dt {

struct HtmlDocument {
  std::string_view tool_version;
  std::string_view profile;  // the built-in profile's name or the --profile path
  std::string_view title;    // the page's title and heading
};

// Counts of what was written (the command reports them).
struct HtmlStats {
  std::size_t operators = 0;
  std::size_t keys = 0;
  std::size_t cells = 0;    // distinct cells
  std::size_t strings = 0;  // distinct strings
};

// The data object, compact JSON: columns (runtime keys but Undefined, `f`
// applied), alias bands, one row per operator (in the order given), the
// distinct cells with explain's steps (one Explainer replay per cell) and the
// interned strings. A cell's texts say "{op}", "{available}" and "{key}"
// where explain names the operator, its keys with an entry and the key
// explained; the page fills them in from the row (its name and `available`)
// and the column, so that equal cells of different operators and keys are
// written once.
HtmlStats render_html_data(const Resolver& r, const std::vector<const Operator*>& ops, const KeyFilter& f,
                           const HtmlDocument& doc, std::string& out);

// The template with `data` in place of its placeholder, every '<' of the data
// written as \u003c (no text from the input closes the script element).
void render_html_page(std::string_view page_template, std::string_view data, std::string& out);
// The same in `data`'s own buffer (a large registry's data is hundreds of MB:
// one copy of it, not two).
void render_html_page_in_place(std::string_view page_template, std::string& data);

// The embedded template (generated from docs/html/matrix_template.html).
std::string_view html_template();
inline constexpr std::string_view kHtmlPlaceholder = "{{DISPATCHTOOL_DATA}}";

}  // namespace dt
