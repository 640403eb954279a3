// FileLoader (file_loader.hpp): [[def]] entries, torch.library.define and
// TORCH_LIBRARY's m.def(), with the dispatch = { ... } shorthand.
#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "base/limits.hpp"
#include "base/operator_name.hpp"
#include "base/text.hpp"
#include "registry/file_loader.hpp"

namespace dt {

Step FileLoader::load_def(const TomlEntry& t) {
  TableReader r = reader(t, "a [[def]] entry");
  r.allow_only({"schema", "name", "alias_analysis", "tags", "debug", "dispatch", "differentiable"});
  auto schema_text = r.str("schema");
  auto name = r.name("name");
  auto alias = r.name("alias_analysis");
  auto tags = r.name_array("tags");
  auto debug = r.name("debug");
  auto differentiable = r.boolean("differentiable");
  const TomlTable* dispatch = r.field_table("dispatch");
  if (r.failed()) return Step::Stop;
  const Location where = r.self();
  if (!schema_text) return set_error(where, "a [[def]] entry needs a 'schema'");
  if (lib_->kind == LibraryKind::Impl) {
    std::string shown = name ? name->value : schema_text->value.substr(0, schema_text->value.find('('));
    return refuse(where,
                  fmt::format("def(\"{}\"): Cannot define an operator inside of a TORCH_LIBRARY_IMPL block.  "
                              "All def()s should be placed in the (unique) TORCH_LIBRARY block for their "
                              "namespace.  {}",
                              shown, context()),
                  // lint keys baselines on the qualified name, like every other finding
                  shown.find("::") == std::string::npos && lib_->ns != "_" ? lib_->ns + "::" + shown : shown);
  }
  auto schema = schema_at(*schema_text);
  if (!schema) return Step::Stop;
  auto named = def_name(*schema, *schema_text, name);
  if (!named) return Step::Stop;
  auto qualified = qualify(*named, name ? name->where : schema_text->where, true);
  if (!qualified) return step();
  OperatorName on = *OperatorName::parse(*qualified);  // qualify() checked it
  schema->ns = std::move(on.ns);
  schema->name = std::move(on.name);
  schema->overload = std::move(on.overload);

  Definition def;
  def.printed = print_schema(*schema, SchemaPrintOptions{p_.quirks().dimname_prints_as_str});
  def.schema = std::move(*schema);
  def.debug = debug ? debug->value : registered_at(where);
  def.where = where;
  def.differentiable = !differentiable || differentiable->value;
  if (alias && read_alias_analysis(*alias, def.alias) == Step::Stop) return Step::Stop;
  if (tags)
    for (auto& tg : *tags) {
      // torchgen refuses a tag tags.yaml does not list.
      if (auto known = p_.check_tag(tg.value); !known) return set_error(tg.where, known.error().message);
      def.tags.push_back(tg.value);
    }
  out_.stmts.emplace_back(std::make_unique<Definition>(std::move(def)));
  return dispatch != nullptr ? load_dispatch_shorthand(*dispatch, *qualified) : Step::Go;
}

std::optional<std::string> FileLoader::def_name(const Schema& schema, const Located<std::string>& schema_text,
                                                const std::optional<Located<std::string>>& name) {
  if (name) {
    if (!schema.name.empty()) {
      set_error(schema_text.where, "with 'name' given, 'schema' must be nameless, like \"(Tensor x) -> Tensor\"");
      return std::nullopt;
    }
    return name->value;
  }
  if (schema.name.empty()) {
    set_error(schema_text.where,
              "a nameless schema \"(...) -> ...\" needs a 'name' field (torch.library.define(qualname, schema))");
    return std::nullopt;
  }
  return operator_name(schema).qualified();
}

Step FileLoader::read_alias_analysis(const Located<std::string>& alias, AliasAnalysis& out) {
  const std::string& a = alias.value;
  if (a.empty() || a == "FROM_SCHEMA")
    out = AliasAnalysis::FromSchema;
  else if (a == "CONSERVATIVE")
    out = AliasAnalysis::Conservative;
  else if (a == "PURE_FUNCTION")
    out = AliasAnalysis::PureFunction;
  else if (a == "CONSERVATIVE (default)")
    out = AliasAnalysis::ConservativeDefault;
  else
    return set_error(alias.where, fmt::format("Invalid alias_analysis type {}{}; expected \"\", \"FROM_SCHEMA\", "
                                              "\"CONSERVATIVE\" or \"PURE_FUNCTION\"",
                                              a, did_you_mean(a, {"FROM_SCHEMA", "CONSERVATIVE", "PURE_FUNCTION"})));
  return Step::Go;
}

Step FileLoader::load_dispatch_shorthand(const TomlTable& dispatch, const std::string& op) {
  // A parsed TOML table is sorted by key; register in document order, as written.
  std::vector<const TomlField*> entries;
  entries.reserve(dispatch.fields.size());
  for (const TomlField& f : dispatch.fields) entries.push_back(&f);
  std::sort(entries.begin(), entries.end(), [](const TomlField* a, const TomlField* b) {
    const Location x = a->key_at(), y = b->key_at();
    return std::tie(x.line, x.column) < std::tie(y.line, y.column);
  });
  for (const TomlField* f : entries) {
    const Location kwhere = f->key_at();
    const auto* name = std::get_if<std::string>(&f->value);
    if (name == nullptr)
      return set_error(f->at, fmt::format("dispatch entry '{}' must map to a kernel name (a string)", f->key));
    const std::string kernel = debug_or_default(*name, f->at);
    std::string_view keys = f->key;
    if (keys.find_first_not_of(" \t,") == std::string_view::npos)
      return set_error(kwhere, fmt::format("dispatch entry '{}' names no dispatch key", f->key));
    if (const std::size_t n = static_cast<std::size_t>(std::count(keys.begin(), keys.end(), ',')) + 1;
        n > limits::kKeysPerEntry)
      return set_error(kwhere, too_many_keys("dispatch entry", n));
    while (!keys.empty()) {
      const auto comma = keys.find(',');
      const std::string one(trim(keys.substr(0, comma), " \t"));
      keys = comma == std::string_view::npos ? std::string_view{} : keys.substr(comma + 1);
      auto kid = key(one, kwhere);
      if (!kid) return Step::Stop;
      Kernel kern;
      kern.debug = kernel;
      kern.where = f->at;
      register_impl(op, *kid, std::move(kern));
    }
  }
  return Step::Go;
}

}  // namespace dt
