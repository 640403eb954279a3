// dispatchtool keys: the dispatch-key universe of a profile.
#include <fmt/format.h>

#include "base/text.hpp"
#include "cli/cli.hpp"

namespace dt::cli {

namespace {

std::string_view kind_name(const Profile& p, KeyId k) {
  const KeyInfo& info = p.key(k);
  switch (info.kind) {
    case KeyKind::Undefined:
      return "undefined";
    case KeyKind::PerBackend:
      return "per-backend";
    case KeyKind::Functionality:
      return "functionality";
    case KeyKind::BuildingBlock:
      return "building block";
    case KeyKind::Alias:
      return "alias";
    case KeyKind::Marker:
      break;
  }
  return "";
}

}  // namespace

Command add_keys_command(CLI::App& app, const Io& io) {
  struct Options {
    std::string profile = std::string(kDefaultProfile);
    bool names = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("keys", "List the runtime keys (table rows) and alias keys of a profile");
  add_profile_option(*sub, o->profile);
  sub->add_flag("--names", o->names,
                "only the names a registration may use, one per line (for scripts and completion)");
  sub->footer(
      "Examples:\n"
      "  dispatchtool keys\n"
      "  dispatchtool keys --profile torch-1.13\n"
      "  dispatchtool keys --names | grep Autograd");
  return {sub, [o, &io]() -> int {
            auto p = open_profile(io, o->profile);
            if (!p) return kExitError;
            const Profile& prof = **p;
            Writer w(io.out);
            std::string& out = w.buf();
            if (o->names) {
              for (KeyId k = 0; k < prof.keys().size(); ++k)
                if (prof.key(k).kind != KeyKind::Marker) out += prof.name_of(k) + "\n";
              return kExitOk;
            }
            out += fmt::format("profile {}: {}\n", prof.name(), prof.description());
            out += fmt::format("{} runtime keys (dispatch-table rows, lowest priority first):\n",
                               prof.runtime_keys().size());
            std::size_t width = 3;
            for (KeyId k : prof.runtime_keys()) width = std::max(width, prof.name_of(k).size());
            out += fmt::format("  {:>4}  {:<{}}  {:<14}  {:<9}  {}\n", "ROW", "KEY", width, "KIND", "PARSEABLE",
                               "CORE BACKEND FALLBACK");
            for (KeyId k : prof.runtime_keys()) {
              std::string fb;
              for (const auto& f : prof.fallbacks())
                if (f.key == k) fb = (f.fallthrough ? "fallthrough " : "") + f.debug;
              out += fmt::format("  {:>4}  {:<{}}  {:<14}  {:<9}  {}\n", prof.key(k).slot, prof.name_of(k), width,
                                 kind_name(prof, k), prof.key(k).parseable ? "yes" : "no", fb);
            }
            out += "\nbuilding blocks (registrable, never a table row):\n";
            for (KeyId k = 0; k < prof.keys().size(); ++k)
              if (prof.key(k).kind == KeyKind::BuildingBlock) out += "  " + prof.name_of(k) + "\n";
            out += "\nalias keys (what each covers, in table order):\n";
            for (KeyId a : prof.alias_keys()) {
              const auto members = prof.alias_members(a);
              std::vector<std::string> names;
              for (KeyId m : members) names.push_back(prof.name_of(m));
              out += fmt::format("  {} ({} keys): {}\n", prof.name_of(a), members.size(), join(names, ", "));
            }
            return kExitOk;
          }};
}

}  // namespace dt::cli
