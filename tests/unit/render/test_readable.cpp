// The readable views: runs of equal rows, and escaped names.
#include <algorithm>

#include "base/text.hpp"
#include "helpers.hpp"
#include "registry/python_dispatcher.hpp"
#include "registry/select.hpp"
#include "render/readable.hpp"

namespace dt::test {

namespace {

KeySelection keys_ok(const Registry& reg, std::string_view spec) {
  auto r = parse_key_filter(reg, spec);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error().message));
  return std::move(*r);
}

// The readable table of PythonDispatcher's demo operator.
std::string human_table(const Registry& reg, const KeyFilter& f, const HumanStyle& s) {
  std::string out;
  render_table_human(Resolver(reg), *reg.find(kPythonDispatcherOp), f, s, out);
  return out;
}

// Every run the readable view shows ("A … B (N keys)" or "A, B, C") must be
// N consecutive rows of the full table: every runtime key in table order,
// including those without an entry (missing), which the raw dump omits.
void check_runs_are_contiguous(const Registry& reg, const KeyFilter& f, const HumanStyle& s) {
  std::vector<std::string> rows;
  for (KeyId k : reg.profile().runtime_keys()) rows.push_back(reg.profile().display_name(k, reg.privateuse1_name));
  const auto index = [&](const std::string& k) {
    const auto it = std::find(rows.begin(), rows.end(), k);
    REQUIRE_MESSAGE(it != rows.end(), k);
    return static_cast<std::size_t>(it - rows.begin());
  };
  const std::string text = human_table(reg, f, s);
  std::size_t start = text.find('\n') + 1;  // past the schema
  start = text.find('\n', start) + 1;       // past the column header
  int runs = 0;
  for (; start < text.size(); start = text.find('\n', start) + 1) {
    std::string line = text.substr(start, text.find('\n', start) - start);
    if (line.rfind("  + ", 0) == 0) continue;
    const std::string label = line.substr(2, line.find("  ", 2) - 2);
    std::vector<std::string> keys;
    std::size_t n = 0;
    if (const auto dots = label.find(" \u2026 "); dots != std::string::npos) {
      const auto paren = label.find(" (");
      keys = {label.substr(0, dots), label.substr(dots + 5, paren - dots - 5)};
      n = std::stoul(label.substr(paren + 2));
    } else {
      for (std::size_t p = 0;;) {
        const auto comma = label.find(", ", p);
        keys.push_back(label.substr(p, comma - p));
        if (comma == std::string::npos) break;
        p = comma + 2;
      }
      n = keys.size();
    }
    ++runs;
    INFO(line);
    CHECK(index(keys.back()) - index(keys.front()) + 1 == n);
  }
  CHECK(runs > 0);
}
}  // namespace

TEST_CASE("readable table: runs break at hidden rows") {
  Registry reg = python_dispatcher_registry(profile("torch-1.13"));
  REQUIRE(python_dispatcher_register(reg, {"CPU", "CompositeImplicitAutograd"}).has_value());
  // AutogradCPU gets the fallthrough backend fallback (hidden): the math-kernel
  // rows around it are two runs, not "CUDA … AutogradNestedTensor (78 keys)".
  const std::string t = human_table(reg, KeyFilter{}, HumanStyle{});
  CHECK(t.find("  CUDA \u2026 AutogradNestedTensor") == std::string::npos);
  CHECK(t.find("  CUDA \u2026 NestedTensorPrivateUse3 (63 keys)  ") != std::string::npos);
  CHECK(t.find("\n  AutogradOther    ") != std::string::npos);
  CHECK(t.find("  AutogradCUDA \u2026 AutogradNestedTensor (14 keys)  ") != std::string::npos);
  CHECK(t.find("+ 21 keys served by PyTorch's own backend fallbacks") != std::string::npos);
}

TEST_CASE("readable table: --all-keys shows every row, each with why") {
  Registry reg = python_dispatcher_registry(profile("torch-1.13"));
  REQUIRE(python_dispatcher_register(reg, {"CPU", "CompositeImplicitAutograd"}).has_value());
  const std::string t = human_table(reg, KeyFilter{}, HumanStyle{false, false, true, true});
  // One line per row (--expand): the schema, the column header, then every runtime key.
  CHECK(static_cast<std::size_t>(std::count(t.begin(), t.end(), '\n')) == 2 + reg.profile().runtime_keys().size());
  CHECK(t.find("\n  AutogradCPU ") != std::string::npos);  // PyTorch's fallthrough fallback
  CHECK(t.find("backend fallback") != std::string::npos);
  CHECK(t.find("CompositeImplicitAutograd kernel (alias key)") != std::string::npos);
  CHECK(t.find("+ ") == std::string::npos);  // nothing hidden
  // The default view hides both kinds, and says so for the fallbacks.
  const std::string d = human_table(reg, KeyFilter{}, HumanStyle{});
  CHECK(d.find("\n  AutogradCPU ") == std::string::npos);
}

TEST_CASE("readable table: a key given to --keys shows even when it is missing") {
  Registry reg = python_dispatcher_registry(profile("torch-1.13"));
  REQUIRE(python_dispatcher_register(reg, {"CPU"}).has_value());
  const std::string t = human_table(reg, keys_ok(reg, "XLA").table, HumanStyle{});
  CHECK(t.find("\n  XLA  -       missing: no kernel") != std::string::npos);
  CHECK(t.find("(no rows)") == std::string::npos);
}

TEST_CASE("readable table: runs break at rows --keys leaves out") {
  Registry reg = python_dispatcher_registry(profile("torch-main"));
  REQUIRE(python_dispatcher_register(reg, {"CPU", "CompositeImplicitAutograd"}).has_value());
  const KeySelection sel = keys_ok(reg, "CUDA,XLA,MPS");  // HIP (between CUDA and XLA) is left out
  const std::string t = human_table(reg, sel.table, HumanStyle{});
  CHECK(t.find("\n  CUDA    ") != std::string::npos);
  CHECK(t.find("\n  XLA, MPS  ") != std::string::npos);
  CHECK(t.find("CUDA, XLA") == std::string::npos);
}

TEST_CASE("readable table: runs break at missing rows") {
  // k on CPU and on XLA, nothing on CUDA and HIP between them: two lines, not "CPU, XLA".
  const auto l = must_load("torch-main", {{"a.toml",
                                           "namespace = \"t\"\n[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n"
                                           "dispatch = { \"CPU, XLA\" = \"k\", Autograd = \"ag\" }\n"}});
  std::string t;
  render_table_human(Resolver(l.registry), *l.registry.find("t::foo"), KeyFilter{}, HumanStyle{}, t);
  CHECK(t.find("\n  CPU ") != std::string::npos);
  CHECK(t.find("\n  XLA ") != std::string::npos);
  CHECK(t.find("CPU, XLA") == std::string::npos);
}

TEST_CASE("readable table: every run is a range of consecutive table rows") {
  const std::vector<std::vector<std::string>> registrations = {
      {"CPU", "CompositeImplicitAutograd"}, {"CompositeImplicitAutograd"}, {"CPU", "XLA", "CompositeImplicitAutograd"},
      {"CompositeExplicitAutograd"},        {"CPU", "Autograd"},           {"CPU"}};
  for (const char* prof : {"torch-1.13", "torch-main"}) {
    for (const auto& keys : registrations) {
      Registry reg = python_dispatcher_registry(profile(prof));
      REQUIRE(python_dispatcher_register(reg, keys).has_value());
      INFO(prof << " " << join(keys, ","));
      check_runs_are_contiguous(reg, KeyFilter{}, HumanStyle{});
      check_runs_are_contiguous(reg, KeyFilter{}, HumanStyle{false, true, false, false});
      check_runs_are_contiguous(reg, KeyFilter{}, HumanStyle{false, false, false, true});
      check_runs_are_contiguous(reg, keys_ok(reg, "Dense,Autograd").table, HumanStyle{});
      check_runs_are_contiguous(reg, keys_ok(reg, "CUDA,XLA,MPS,AutogradOther,AutogradCUDA").table, HumanStyle{});
    }
  }
}

TEST_CASE("readable views escape control characters in names") {
  const auto l = must_load("torch-main", {{"a.toml",
                                           "namespace = \"t\"\n[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n"
                                           "dispatch = { CPU = \"k\\u001b[31m\\r\\nX\" }\n"}});
  const Operator& op = *l.registry.find("t::foo");
  std::string table, regs;
  render_table_human(Resolver(l.registry), op, KeyFilter{}, HumanStyle{}, table);
  render_registrations_human(l.registry, op, KeyFilter{}, HumanStyle{}, regs);
  for (const std::string* out : {&table, &regs}) {
    CHECK(out->find("k\\x1b[31m\\x0d\\x0aX") != std::string::npos);
    CHECK(out->find('\x1b') == std::string::npos);
    CHECK(out->find('\r') == std::string::npos);
  }
}

TEST_CASE("readable registrations: 'defined at', aligned columns, the files' fallbacks listed and counted") {
  const LoadResult l = must_load("torch-1.13", {{"a.toml",
                                                 "namespace = \"t\"\n[[def]]\nschema = \"foo(Tensor x) -> Tensor\"\n"
                                                 "dispatch = { CPU = \"c\", CUDA = \"a_long_kernel_name\" }\n"
                                                 "[[fallback]]\nkey = \"XLA\"\nkernel = \"xla_fb\"\n"}});
  std::string out;
  render_registrations_human(l.registry, *l.registry.find("t::foo"), KeyFilter{}, HumanStyle{}, out);
  CHECK(out ==
        "t::foo(Tensor x) -> Tensor\n"
        "  defined at a.toml:2:1\n"
        "  CPU   c                   a.toml:4:20\n"
        "  CUDA  a_long_kernel_name  a.toml:4:32\n");
  out.clear();
  render_fallbacks_human(l.registry, KeyFilter{}, HumanStyle{}, out);
  CHECK(out ==
        "backend fallbacks the files register (each serves every operator without a kernel for its key):\n"
        "  XLA  xla_fb  a.toml:6:7\n");
  out.clear();
  render_fallback_count(l.registry, KeyFilter{}, HumanStyle{}, out);
  CHECK(out ==
        "backend fallbacks registered by the files: 1 (XLA: xla_fb); each serves every operator without a kernel for "
        "its key ('registrations' lists them)\n");
  // --keys leaves the fallback out; PyTorch's own fallbacks are never listed here.
  KeyFilter cpu_only;
  cpu_only.active = true;
  cpu_only.keys = {*l.registry.profile().find("CPU")};
  out.clear();
  render_fallbacks_human(l.registry, cpu_only, HumanStyle{}, out);
  render_fallback_count(l.registry, cpu_only, HumanStyle{}, out);
  CHECK(out.empty());
  out.clear();
  render_no_operators(l.registry, out);
  CHECK(out == "no operators: the files define none and register no kernels\n");
}

}  // namespace dt::test

namespace dt::test {

TEST_CASE("key_run_label: one key, up to three listed, longer runs by their ends") {
  CHECK(key_run_label({"CPU"}) == "CPU");
  CHECK(key_run_label({"CPU", "CUDA", "HIP"}) == "CPU, CUDA, HIP");
  CHECK(key_run_label({"CPU", "CUDA", "HIP", "XLA"}) == "CPU \u2026 XLA (4 keys)");
}

}  // namespace dt::test
