// libFuzzer harness: the profile loader (Profile::parse) and what `keys` and
// `table` do with a profile.
#include "fuzz_common.hpp"
#include "registry/loader.hpp"
#include "render/keys.hpp"
#include "render/raw.hpp"
#include "render/readable.hpp"
#include "resolve/resolver.hpp"

using namespace dt;

namespace {
// A small registration file that uses keys every profile is likely to define.
constexpr std::string_view kInput = R"(namespace = "fz"
kind = "DEF"
[[def]]
schema = "f(Tensor x) -> Tensor"
dispatch = { Autograd = "f_ag", CompositeImplicitAutograd = "f_cia", CompositeExplicitAutograd = "f_cea" }
[[def]]
schema = "g(Tensor x) -> Tensor"
dispatch = { AutogradOther = "g_ao", CPU = "g_cpu" }
)";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > fuzz::kMaxInput) return -1;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto p = Profile::parse(text, "p.toml");
  if (!p) {
    if (p.error().where.file.view() != "p.toml") fuzz::fail();
    return 0;
  }
  const Profile& prof = *p;
  // `keys`: every key, runtime rows, alias members.
  std::string out;
  render_key_names(prof, out);
  for (KeyId k : prof.runtime_keys())
    if (!prof.is_runtime(k)) fuzz::fail();
  for (KeyId a : prof.alias_keys())
    for (KeyId m : prof.alias_members(a)) out += prof.name_of(m);
  // Every name a user may write finds its key again.
  for (std::string_view n : prof.key_names())
    if (!prof.find(n)) fuzz::fail();

  auto files = std::make_shared<std::map<std::string, std::string>>();
  (*files)["in.toml"] = std::string(kInput);
  LoadOptions lo;
  lo.threads = 1;
  lo.on_refusal = OnRefusal::Record;
  auto loaded = load(prof, {"in.toml"}, fuzz::memory_reader(files), lo);
  if (!loaded) return 0;
  render_keys(loaded->registry, out);
  const Resolver resolver(loaded->registry);
  for (const Operator* op : loaded->registry.sorted_operators()) {
    out.clear();
    render_table_raw(resolver, *op, KeyFilter{}, out);
    render_table_human(resolver, *op, KeyFilter{}, HumanStyle{}, out);
  }
  return 0;
}
