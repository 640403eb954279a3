// dispatchtool html: the operator × key matrix as one self-contained page.
#include <fmt/format.h>

#include "base/text.hpp"
#include "cli/cli.hpp"
#include "render/html.hpp"

namespace dt::cli {

namespace {

// "dispatchtool: a.toml, b.toml" (file names without their folders), and
// what else the page shows: PyTorch's own operators (--all, or no files), or
// PythonDispatcher's demo operator (--register).
std::string page_title(const InputOptions& in) {
  std::vector<std::string> names;
  for (const std::string& f : in.files) names.push_back(display_path(f.substr(f.find_last_of('/') + 1)));
  if (!in.register_calls.empty())
    names.emplace_back("PythonDispatcher's demo operator");
  else if (names.empty() || in.all)
    names.push_back(fmt::format("PyTorch's own operators ({})", in.profile));
  return "dispatchtool: " + join(names, ", ");
}

}  // namespace

Command add_html_command(CLI::App& app, const Io& io) {
  struct Options {
    InputOptions in;
    std::string output = "-";
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "html", "Write the operator × dispatch key matrix as one self-contained HTML page (docs/html/README.md)");
  add_input_options(*sub, o->in);
  sub->remove_option(sub->get_option("--color"));  // a page has its own colours
  sub->add_option("-o,--output", o->output, "write the page to this file; - (the default) writes standard output")
      ->capture_default_str();
  sub->footer(
      "Examples:\n"
      "  dispatchtool html -o matrix.html configs/examples/*.toml\n"
      "  dispatchtool html --all --profile torch-1.13 -o torch.html   # PyTorch's whole library\n"
      "  dispatchtool html --profile torch-1.13 --tag view_copy --keys CPU,CUDA,Autograd -o view_copy.html");
  return {sub, [o, &io]() -> int {
            auto s = open_session(io, o->in);
            if (!s) return kExitError;
            const Resolver resolver(s->loaded->registry);
            const std::string title = page_title(o->in);
            std::string data;
            const HtmlStats stats = render_html_data(resolver, s->ops, s->table_filter,
                                                     HtmlDocument{DT_VERSION, o->in.profile, title}, data);
            render_html_page_in_place(html_template(), data);
            const std::string& page = data;
            if (o->output == "-") {
              std::fwrite(page.data(), 1, page.size(), io.out);
              return kExitOk;
            }
            if (auto written = io.fs.write(o->output, page); !written) {
              const std::string& reason = written.error().message;
              return usage_error(io, reason.empty() ? fmt::format("html: cannot write '{}'", o->output)
                                                    : fmt::format("html: cannot write '{}': {}", o->output, reason));
            }
            const auto s_if = [](std::size_t n) { return n == 1 ? "" : "s"; };
            write_out(io.err,
                      fmt::format("dispatchtool html: wrote {}: {} operator{} × {} key{}, {} distinct cell{}\n",
                                  printable(o->output), stats.operators, s_if(stats.operators), stats.keys,
                                  s_if(stats.keys), stats.cells, s_if(stats.cells)),
                      Output::Text);
            return kExitOk;
          }};
}

}  // namespace dt::cli
