// coverage statuses (one per way a key resolves) and the keys --backend names.
#include "helpers.hpp"
#include "resolve/coverage.hpp"

namespace dt::test {

namespace {

// One operator per status on CPU / AutogradCPU (torch-1.13).
const Files kOps = {
    {"ops.toml",
     "namespace = \"c\"\n"
     "[[def]]\nschema = \"direct(Tensor x) -> Tensor\"\n"
     "dispatch = { CPU = \"direct_cpu\", Autograd = \"direct_ag\" }\n"
     "[[def]]\nschema = \"cea(Tensor x) -> Tensor\"\ndispatch = { CompositeExplicitAutograd = \"cea_k\" }\n"
     "[[def]]\nschema = \"ceanf(Tensor x) -> Tensor\"\n"
     "dispatch = { CompositeExplicitAutogradNonFunctional = \"ceanf_k\" }\n"
     "[[def]]\nschema = \"cia(Tensor x) -> Tensor\"\ndispatch = { CompositeImplicitAutograd = \"cia_k\" }\n"
     "[[def]]\nschema = \"nested(Tensor x) -> Tensor\"\n"
     "dispatch = { CompositeImplicitAutogradNestedTensor = \"nested_k\" }\n"
     "[[def]]\nschema = \"ft(Tensor x) -> Tensor\"\n"
     "[[impl]]\nop = \"ft\"\nkey = \"CPU\"\nfallthrough = true\n"
     "[[def]]\nschema = \"ambig(Tensor x) -> Tensor\"\n"
     "dispatch = { CompositeImplicitAutograd = \"ambig_math\", SparseCPU = \"ambig_sparse\" }\n"
     "[[def]]\nschema = \"none(Tensor x) -> Tensor\"\n"}};

std::map<std::string, std::pair<std::string, std::string>> statuses(const Registry& reg, const CoverageKeys& keys) {
  const Resolver r(reg);
  std::map<std::string, std::pair<std::string, std::string>> out;  // op -> (backend, autograd)
  for (const auto& row : compute_coverage(r, reg.sorted_operators(), keys)) {
    auto& slot = out[row.op->name];
    (row.key == keys.backend ? slot.first : slot.second) = std::string(to_string(row.status));
  }
  return out;
}

}  // namespace

TEST_CASE("coverage: the status of every way a key resolves") {
  const LoadResult l = must_load("torch-1.13", kOps);
  const auto cpu = coverage_keys(l.registry, "CPU");
  REQUIRE(cpu.has_value());
  CHECK(l.registry.profile().name_of(cpu->autograd) == "AutogradCPU");
  const auto s = statuses(l.registry, *cpu);
  using P = std::pair<std::string, std::string>;
  CHECK(s.at("c::direct") == P{"kernel", "autograd"});
  CHECK(s.at("c::cea") == P{"composite-explicit", "fallthrough"});  // AutogradCPU: PyTorch's fallthrough fallback
  CHECK(s.at("c::ceanf") == P{"composite-explicit", "fallthrough"});
  CHECK(s.at("c::cia") == P{"composite-implicit", "composite-implicit"});
  CHECK(s.at("c::nested") == P{"missing", "fallthrough"});  // NestedTensor keys only
  CHECK(s.at("c::ft") == P{"fallthrough", "fallthrough"});
  CHECK(s.at("c::none") == P{"missing", "fallthrough"});

  const auto nested = statuses(l.registry, *coverage_keys(l.registry, "NestedTensorCPU"));
  CHECK(nested.at("c::nested").first == "composite-implicit");
  // SparseCPU's autograd key is AutogradCPU; AutogradOther is where the ambiguity shows.
  const auto sparse = coverage_keys(l.registry, "SparseCPU");
  REQUIRE(sparse.has_value());
  CHECK(l.registry.profile().name_of(sparse->autograd) == "AutogradCPU");
  const auto fpga = coverage_keys(l.registry, "FPGA");
  REQUIRE(fpga.has_value());
  CHECK(l.registry.profile().name_of(fpga->autograd) == "AutogradOther");
  CHECK(statuses(l.registry, *fpga).at("c::ambig") ==
        std::pair<std::string, std::string>{"composite-implicit", "ambiguous"});
}

TEST_CASE("coverage: a user fallback, and a renamed PrivateUse1") {
  const LoadResult l =
      must_load("torch-main", {{"npu.toml",
                                "privateuse1_backend = \"npu\"\nnamespace = \"c\"\n"
                                "[[def]]\nschema = \"f(Tensor x) -> Tensor\"\n"
                                "[[impl]]\nop = \"f\"\nkey = \"npu\"\nkernel = \"f_npu\"\n"
                                "[[def]]\nschema = \"g(Tensor x) -> Tensor\"\n"},
                               {"fb.toml", "[[fallback]]\nkey = \"PrivateUse1\"\nkernel = \"npu_fallback\"\n"}});
  const auto keys = coverage_keys(l.registry, "npu");
  REQUIRE(keys.has_value());
  CHECK(l.registry.profile().name_of(keys->backend) == "PrivateUse1");
  CHECK(l.registry.profile().name_of(keys->autograd) == "AutogradPrivateUse1");
  const auto s = statuses(l.registry, *keys);
  CHECK(s.at("c::f").first == "kernel");
  CHECK(s.at("c::g").first == "fallback");
  CHECK(coverage_keys(l.registry, "PrivateUse1").has_value());
}

TEST_CASE("coverage: a fallback declared as raising, and PyTorch 2.x's own Meta fallback") {
  const Files files = {{"ops.toml", "namespace = \"c\"\n[[def]]\nschema = \"f(Tensor x) -> Tensor\"\n"
                                    "[[def]]\nschema = \"g(Tensor x) -> Tensor\"\n"
                                    "[[impl]]\nop = \"g\"\nkey = \"XPU\"\nkernel = \"g_xpu\"\n"
                                    "[[impl]]\nop = \"dangling\"\nkey = \"XPU\"\nkernel = \"d_xpu\"\n"},
                       {"fb.toml", "[[fallback]]\nkey = \"XPU\"\nkernel = \"xpu_fallback\"\nraises = true\n"
                                   "message = \"not currently implemented for the XPU device\"\n"}};
  const LoadResult l = must_load("torch-2.14", files);
  const auto xpu = coverage_keys(l.registry, "XPU");
  REQUIRE(xpu.has_value());
  const auto s = statuses(l.registry, *xpu);
  CHECK(s.at("c::f").first == "raising-fallback");
  CHECK(s.at("c::g").first == "kernel");
  CHECK(call_raises(CoverageStatus::RaisingFallback));
  CHECK_FALSE(call_raises(CoverageStatus::Fallback));
  const Fallback* fb = l.registry.fallback_for(xpu->backend);
  REQUIRE(fb != nullptr);
  CHECK(fb->message == "not currently implemented for the XPU device");
  // A dangling impl is marked: not an operator.
  const Resolver r(l.registry);
  for (const auto& row : compute_coverage(r, l.registry.sorted_operators(), *xpu))
    CHECK(row.dangling == (row.op->name == "c::dangling"));
  // Meta: PyTorch's own fallback raises in 2.x (meta_fallback_error measured), serves nothing in 1.13.
  CHECK(statuses(l.registry, *coverage_keys(l.registry, "Meta")).at("c::f").first == "raising-fallback");
  const LoadResult old = must_load("torch-1.13", files);
  CHECK(statuses(old.registry, *coverage_keys(old.registry, "Meta")).at("c::f").first == "missing");
}

TEST_CASE("coverage --against: the operators whose status changes between two releases") {
  const Files files = {{"ops.toml", "namespace = \"c\"\n[[def]]\nschema = \"f(Tensor x) -> Tensor\"\n"
                                    "[[def]]\nschema = \"g(Tensor x) -> Tensor\"\n"
                                    "dispatch = { CompositeExplicitAutograd = \"g_k\" }\n"}};
  const LoadResult a = must_load("torch-1.13", files), b = must_load("torch-2.14", files);
  const Resolver ra(a.registry), rb(b.registry);
  const auto rows_a = compute_coverage(ra, a.registry.sorted_operators(), *coverage_keys(a.registry, "Meta"));
  const auto rows_b = compute_coverage(rb, b.registry.sorted_operators(), *coverage_keys(b.registry, "Meta"));
  const auto changes = compare_coverage(rows_a, rows_b);
  REQUIRE(!changes.empty());
  CHECK(changes[0].op == "c::f");
  CHECK(changes[0].old_status[0] == CoverageStatus::Missing);
  CHECK(changes[0].new_status[0] == CoverageStatus::RaisingFallback);
  // c::g is composite-explicit on Meta in both releases (its autograd key may change).
  for (const auto& c : changes)
    if (c.op == "c::g") CHECK(c.old_status[0] == c.new_status[0]);
}

TEST_CASE("coverage: the backend parameter names a backend, or says what it names instead") {
  const LoadResult l = must_load("torch-1.13", kOps);
  auto error = [&](std::string_view name) {
    auto k = coverage_keys(l.registry, name);
    REQUIRE_FALSE(k.has_value());
    return k.error().message;
  };
  CHECK(error("CPUU") == "could not parse dispatch key: CPUU (did you mean 'CPU'?)");
  CHECK(error("Autograd") == "Autograd is an alias key; give one backend it covers (e.g. CPU)");
  CHECK(error("AutogradCPU") ==
        "AutogradCPU is an autograd key; give the backend it serves (coverage reports the backend's "
        "autograd key with it)");
  CHECK(error("Sparse") == "Sparse is a building block, not a backend; give one of its runtime keys (e.g. SparseCPU)");
  CHECK(error("Undefined") == "Undefined has no row in the dispatch table");
}

TEST_CASE("coverage: status names") {
  for (CoverageStatus s : kCoverageStatuses) CHECK(parse_coverage_status(to_string(s)) == s);
  CHECK_FALSE(parse_coverage_status("Missing").has_value());
  CHECK(to_string(CoverageStatus::CompositeExplicit) == "composite-explicit");
}

}  // namespace dt::test
