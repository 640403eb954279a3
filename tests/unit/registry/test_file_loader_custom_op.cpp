// FileLoader: [[custom_op]] entries (torch.library.custom_op and register_*),
// expanded from the profile's [torch_library] table. The expected debug
// strings are read from the profile (they are measured data, and the oracle
// tests/oracle/torch_library_oracle.py checks them against the real builds);
// what is tested here is which kernels each form registers.
#include "helpers.hpp"

namespace dt::test {

namespace {

std::string dbg(const std::string& prof, const char* role) { return profile(prof).torch_library().debug_of(role); }

// "KEY: DEBUG :: (none) [ boxed ]" for each (key, role).
std::string kernels(const std::string& prof, std::initializer_list<std::pair<const char*, const char*>> rows) {
  std::string out;
  for (const auto& [key, role] : rows) out += fmt::format("{}: {} :: (none) [ boxed ]\n", key, dbg(prof, role));
  return out;
}

std::string head(const std::string& prof, const std::string& schema) {
  return fmt::format("name: {}\nschema: {}\ndebug: {}\nalias analysis kind: FROM_SCHEMA\n",
                     schema.substr(0, schema.find('(')), schema, dbg(prof, "def"));
}

const std::string kOp = "[[custom_op]]\nname = \"m::f\"\nschema = \"(Tensor x) -> Tensor\"\n";

}  // namespace

TEST_CASE("[[custom_op]]: device_types None, a device type, the register_* forms") {
  for (const std::string prof : {"torch-2.6", "torch-2.14"}) {
    CAPTURE(prof);
    auto l = must_load(prof, {{"a.toml", kOp}});
    CHECK(raw_registrations(l, "m::f") ==
          head(prof, "m::f(Tensor x) -> Tensor") + kernels(prof, {{"Meta", "fake"},
                                                                  {"Autograd[alias]", "autograd"},
                                                                  {"CompositeExplicitAutograd[alias]", "default"}}));
    l = must_load(prof, {{"a.toml", kOp + "device_types = [\"cpu\", \"cuda\"]\nregister_kernel = [\"cpu\", \"xpu\"]\n"
                                          "register_fake = true\nregister_autograd = true\nregister_vmap = true\n"}});
    CHECK(raw_registrations(l, "m::f") ==
          head(prof, "m::f(Tensor x) -> Tensor") + kernels(prof, {{"FuncTorchBatched", "vmap"},
                                                                  {"CPU", "device"},
                                                                  {"CUDA", "device"},
                                                                  {"XPU", "kernel"},
                                                                  {"Meta", "fake"},
                                                                  {"Autograd[alias]", "autograd"}}));
  }
  // The definition's tags: the release's, plus the user's where custom_op takes tags=.
  auto l =
      must_load("torch-2.14", {{"a.toml", kOp + "tags = [\"pointwise\"]\nregister_autocast = [\"cpu\", \"cuda\"]\n"}});
  const Operator* op = l.registry.find("m::f");
  REQUIRE(op != nullptr);
  CHECK(op->def->tags == std::vector<std::string>{"pointwise", "pt2_compliant_tag"});
  CHECK(raw_registrations(l, "m::f").find(fmt::format("AutocastCPU: {} :: (none) [ boxed ]\nAutocastCUDA: ",
                                                      dbg("torch-2.14", "autocast"))) != std::string::npos);
  l = must_load("torch-2.6", {{"a.toml", kOp}});
  CHECK(l.registry.find("m::f")->def->tags == profile("torch-2.6").torch_library().custom_op_tags);
}

TEST_CASE("[[custom_op]]: mutable, view and no-Tensor schemas") {
  // mutates_args annotates as infer_schema does: Tensor(aI!) for argument I.
  const std::string mut =
      "[[custom_op]]\nname = \"m::g\"\nschema = \"(Tensor x, Tensor? y, Tensor[] z) -> ()\"\n"
      "mutates_args = [\"x\", \"z\"]\ndevice_types = \"cpu\"\n";
  for (const std::string prof : {"torch-2.6", "torch-2.14"}) {
    CAPTURE(prof);
    const TorchLibraryInfo& tl = profile(prof).torch_library();
    auto l = must_load(prof, {{"a.toml", mut}});
    const std::string reg = raw_registrations(l, "m::g");
    CHECK(reg.find("schema: m::g(Tensor(a0!) x, Tensor? y, Tensor(a2!)[] z) -> ()\n") != std::string::npos);
    std::string inplace = fmt::format("ADInplaceOrView: {} :: (none) [ boxed ]\n", dbg(prof, "inplace"));
    for (int i = 1; i < tl.inplace_mutable; ++i)
      inplace += fmt::format("ADInplaceOrView (inactive): {} :: (none) [ boxed ]\n", dbg(prof, "inplace"));
    CHECK(reg.find(inplace + "CPU: ") != std::string::npos);
    l = must_load(prof, {{"a.toml", "[[custom_op]]\nname = \"m::v\"\nschema = \"(Tensor(a) x) -> Tensor(a)\"\n"}});
    const std::string view = raw_registrations(l, "m::v");
    const auto n = static_cast<int>(std::count(view.begin(), view.end(), '\n'));
    CHECK(n == 7 + tl.inplace_view);  // 4 header lines, Meta, Autograd, CEA
    // No Tensor argument: BackendSelect with device types; none without.
    l = must_load(prof, {{"a.toml",
                          "[[custom_op]]\nname = \"m::z\"\nschema = \"(SymInt n, Device device) -> Tensor\"\n"
                          "device_types = \"cpu\"\n"}});
    CHECK(raw_registrations(l, "m::z").find("BackendSelect: " + dbg(prof, "backend_select")) != std::string::npos);
  }
  // A second register_kernel re-registers BackendSelect: 2.14 keeps both, 2.6 refuses the Python override.
  const std::string twice =
      "[[custom_op]]\nname = \"m::z\"\nschema = \"(SymInt n, Device device) -> Tensor\"\n"
      "device_types = \"cpu\"\nregister_kernel = \"cuda\"\n";
  CHECK(raw_registrations(must_load("torch-2.14", {{"a.toml", twice}}), "m::z").find("BackendSelect (inactive)") !=
        std::string::npos);
  CHECK(error_of({{"a.toml", twice}}, "torch-2.6")
            .find("a.toml:5:19: error: This is not allowed since there's already a kernel registered from python "
                  "overriding z's behavior for BackendSelect dispatch key and m namespace.") == 0);
}

TEST_CASE("[[custom_op]]: located errors") {
  auto err = [](const std::string& fields, const std::string& prof = "torch-2.14") {
    return error_of({{"a.toml", kOp + fields}}, prof);
  };
  // Releases without the API: the error names the profiles that have it.
  CHECK(error_of({{"a.toml", kOp}}, "torch-1.13") ==
        "a.toml:1:1: error: torch.library.custom_op does not exist in torch 1.13.0a0 (profile torch-1.13); among the "
        "built-in profiles it first appears in torch-2.6 (profiles that have it: torch-2.6, torch-2.14)\n");
  CHECK(error_of({{"a.toml", kOp}}, "torch-main").find("profile torch-main has no measured torch.library data") !=
        std::string::npos);
  CHECK(err("register_autocast = \"cpu\"\n", "torch-2.6") ==
        "a.toml:4:21: error: torch.library.register_autocast does not exist in torch 2.6.0+debian (profile "
        "torch-2.6); among the built-in profiles it first appears in torch-2.14 (profiles that have it: torch-2.14)\n");
  CHECK(
      err("tags = [\"pointwise\"]\n", "torch-2.6").find("a.toml:4:8: error: torch.library.custom_op takes no tags=") ==
      0);
  // Wrong field types, unknown fields, unknown device types and tags.
  CHECK(err("device_types = 3\n").find("a.toml:4:16: error:") == 0);
  CHECK(err("register_fake = \"yes\"\n").find("a.toml:4:17: error:") == 0);
  CHECK(err("mutates_args = \"x\"\n").find("a.toml:4:16: error:") == 0);
  CHECK(err("device_type = \"cpu\"\n").find("a.toml:4:1: error:") == 0);
  CHECK(err("device_types = [\"cpu\", \"cdua\"]\n") ==
        "a.toml:4:24: error: unknown device type 'cdua' (did you mean 'cuda'?)\n");
  CHECK(err("register_autocast = \"gpu\"\n").find("unknown device type 'gpu' (did you mean 'cuda'?") !=
        std::string::npos);
  CHECK(
      err("device_types = \"default\"\n").find("a.toml:4:16: error: custom_op and register_kernel take device types") ==
      0);
  CHECK(err("tags = [\"pointwse\"]\n").find("a.toml:4:9: error: unknown tag 'pointwse' (did you mean 'pointwise'?)") ==
        0);
  // Schemas and mutates_args.
  CHECK(error_of({{"a.toml", "[[custom_op]]\nname = \"m::f\"\nschema = \"f(Tensor x) -> Tensor\"\n"}}, "torch-2.14")
            .find("a.toml:3:10: error: a custom_op's 'schema' is nameless") == 0);
  CHECK(err("mutates_args = [\"y\"]\n") ==
        "a.toml:4:17: error: mutates_args names 'y', which is not an argument of the schema (did you mean 'x'?)\n");
  CHECK(error_of({{"a.toml",
                   "[[custom_op]]\nname = \"m::f\"\nschema = \"(Tensor x, int n) -> Tensor\"\n"
                   "mutates_args = [\"n\"]\n"}},
                 "torch-2.14")
            .find("a.toml:4:17: error: mutates_args names 'n', a int: only Tensor arguments can be mutated") == 0);
  CHECK(error_of({{"a.toml", "[[custom_op]]\nname = \"m::f\"\nschema = \"(Tensor(a!) x) -> ()\"\n"}}, "torch-2.14")
            .find("a.toml:3:10: error: the schema mutates {x} but mutates_args is []") == 0);
  CHECK(error_of({{"a.toml", "[[custom_op]]\nname = \"f\"\nschema = \"(Tensor x) -> Tensor\"\n"}}, "torch-2.14")
            .find("a.toml:2:8: error: custom_op name 'f' has no namespace") == 0);
  CHECK(error_of({{"a.toml",
                   "[[custom_op]]\nname = \"m::z\"\nschema = \"(SymInt n) -> Tensor\"\n"
                   "device_types = \"cpu\"\n"}},
                 "torch-2.14")
            .find("a.toml:4:16: error: Functions without tensor inputs are required to have a `device: torch.device` "
                  "argument") == 0);
}

TEST_CASE("[[impl]] device_types: dispatch key names, as torch.library.impl takes them") {
  auto l =
      must_load("torch-2.14", {{"a.toml", kDef + "[[impl]]\nop = \"foo\"\ndevice_types = [\"cpu\", \"AutogradCPU\", "
                                                 "\"default\"]\nkernel = \"k\"\nboxed_only = true\n"}});
  CHECK(rows(raw_table(l, "t::foo"), {"CPU", "AutogradCPU", "CUDA"}) ==
        "CPU: k [kernel]\nCUDA: k [default backend kernel]\nAutogradCPU: k [kernel]\n");
}

TEST_CASE("[[custom_op]]: the fake and autograd kernels' roles, only where the profile measured what they raise") {
  const Files co = {{"co.toml", custom_op_file("co::f", "(Tensor x) -> Tensor", "register_autograd = true\n")}};
  auto roles = [&](const Profile& p) {
    auto l = load(p, {"co.toml"}, memory_reader(co), LoadOptions{});
    REQUIRE_MESSAGE(l.has_value(), (l ? "" : format(l.error())));
    const Operator* op = l->registry.find("co::f");
    REQUIRE(op != nullptr);
    return std::pair{op->get(*p.find("Meta"))->custom_op, op->get(*p.find("Autograd"))->custom_op};
  };
  CHECK(roles(profile("torch-2.14")) == std::pair{CustomOpKernel::FakeUnset, CustomOpKernel::Autograd});
  // A profile exported before they were measured: custom_op's kernels are plain kernels.
  std::string text = read_text(std::string(DT_SOURCE_DIR) + "/configs/profiles/torch-2.14.toml");
  for (const char* field : {"no_fake_error = ", "no_autograd_error = "}) {
    const auto at = text.find(field);
    REQUIRE(at != std::string::npos);
    text.erase(at, text.find('\n', at) + 1 - at);
  }
  auto old = Profile::parse(text, "old.toml");
  REQUIRE_MESSAGE(old.has_value(), (old ? "" : format(old.error())));
  CHECK(roles(*old) == std::pair{CustomOpKernel::None, CustomOpKernel::None});
}

}  // namespace dt::test
