// The key universe against the expectations written in the semantics spec
// (A.4 row order, B.1 autogradother_backends, B.2 alias expansions, B.3).
#include <algorithm>
#include <sstream>

#include "helpers.hpp"

namespace dt::test {

namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::stringstream ss(read_text(path));
  std::vector<std::string> out;
  for (std::string l; std::getline(ss, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

std::vector<std::string> names(const Profile& p, const std::vector<KeyId>& ks) {
  std::vector<std::string> out;
  for (KeyId k : ks) out.push_back(p.name_of(k));
  return out;
}

// A built-in profile, and the suffix of the spec's data files for it. (Not a
// pair taken apart by a structured binding: clang before 16 cannot CAPTURE one.)
struct Version {
  const char* profile;
  const char* suffix;
};
constexpr Version kVersions[] = {{"torch-1.13", "1.13"}, {"torch-main", "main"}};

}  // namespace

TEST_CASE("runtime keys come in the spec's A.4 table order") {
  for (const Version& v : kVersions) {
    CAPTURE(v.profile);
    const Profile& p = profile(v.profile);
    const auto expected = lines_of(std::string(DT_TEST_DATA_DIR) + "/spec-A4-runtime-keys-" + v.suffix + ".txt");
    CHECK(names(p, p.runtime_keys()) == expected);
  }
  CHECK(profile("torch-1.13").runtime_keys().size() == 106);
  CHECK(profile("torch-main").runtime_keys().size() == 138);
}

TEST_CASE("alias keys expand to the spec's B.2 lists") {
  for (const Version& v : kVersions) {
    CAPTURE(v.profile);
    const Profile& p = profile(v.profile);
    const auto lines = lines_of(std::string(DT_TEST_DATA_DIR) + "/spec-B2-aliases-" + v.suffix + ".txt");
    REQUIRE(lines.size() == p.alias_keys().size());
    for (const auto& line : lines) {
      const std::string alias = line.substr(0, line.find(':'));
      CAPTURE(alias);
      std::stringstream ss(line.substr(line.find(':') + 1));
      std::vector<std::string> expected;
      for (std::string k; ss >> k;) expected.push_back(k);
      auto id = p.find(alias);
      REQUIRE(id.has_value());
      CHECK(p.is_alias(*id));
      CHECK(names(p, p.alias_members(*id)) == expected);
    }
  }
}

TEST_CASE("autogradother_backends matches spec B.1") {
  for (const Version& v : kVersions) {
    CAPTURE(v.profile);
    const Profile& p = profile(v.profile);
    const auto expected = lines_of(std::string(DT_TEST_DATA_DIR) + "/spec-B1-autogradother-" + v.suffix + ".txt");
    CHECK(names(p, p.iterate(p.autogradother_backends())) == expected);
  }
}

TEST_CASE("getBackendKeySetFromAutograd (spec B.3)") {
  const Profile& p = profile("torch-1.13");
  auto of = [&](const char* k) { return names(p, p.iterate(p.backend_keyset_from_autograd(*p.find(k)))); };
  CHECK(of("AutogradCPU") == std::vector<std::string>{"CPU"});
  CHECK(of("AutogradXLA") == std::vector<std::string>{"XLA"});
  CHECK(of("AutogradHIP").empty());
  CHECK(of("AutogradVE").empty());
  CHECK(of("CPU").empty());
  CHECK(of("AutogradNestedTensor").size() == 14);
  CHECK(of("AutogradOther").size() == 36);
  const Profile& m = profile("torch-main");
  auto ofm = [&](const char* k) { return names(m, m.iterate(m.backend_keyset_from_autograd(*m.find(k)))); };
  CHECK(ofm("AutogradMAIA") == std::vector<std::string>{"MAIA"});
  CHECK(ofm("AutogradMTIA").empty());
}

TEST_CASE("keysets use subset semantics (spec A.1, B.5)") {
  const Profile& p = profile("torch-1.13");
  const KeyId cpu = *p.find("CPU"), dense = *p.find("Dense"), sparse_cpu = *p.find("SparseCPU");
  CHECK(Profile::has(p.key(cpu).bits, p.key(dense).bits));  // {CPU} contains Dense
  CHECK_FALSE(Profile::has(p.key(dense).bits, p.key(cpu).bits));
  CHECK(p.is_backend_dispatch_key(dense));
  CHECK(p.is_backend_dispatch_key(sparse_cpu));
  CHECK_FALSE(p.is_backend_dispatch_key(*p.find("NestedTensorCPU")));
  CHECK(p.name_of(p.autograd_key_for_backend_of(sparse_cpu)) == "AutogradCPU");
  CHECK(p.name_of(p.autograd_key_for_backend_of(*p.find("FPGA"))) == "AutogradOther");
  CHECK(p.name_of(p.autograd_key_for_backend_of(*p.find("HIP"))) == "AutogradOther");
}

TEST_CASE("enum values of 1.13 (spec A.2)") {
  const Profile& p = profile("torch-1.13");
  CHECK(*p.find("CPU") == 43);
  CHECK(*p.find("PrivateUse3") == 56);
  CHECK(*p.find("QuantizedCPU") == 58);
  CHECK(*p.find("AutogradCPU") == 103);
  CHECK(*p.find("Autograd") == 117);
  CHECK(*p.find("CompositeExplicitAutogradNonFunctional") == 121);
  CHECK(*p.find("PythonDispatcher") == 40);
  const Profile& m = profile("torch-main");
  CHECK(*m.find("CPU") == 50);
  CHECK(*m.find("Meta") == 65);
  CHECK(*m.find("FuncTorchBatchedDecomposition") == 153);
  CHECK(*m.find("CompositeExplicitAutogradNonFunctional") == 156);
}

TEST_CASE("building_block_members: a building block's per-backend runtime keys, in table order") {
  const Profile& p = profile("torch-1.13");
  const auto sparse = names(p, p.building_block_members(*p.find("Sparse")));
  REQUIRE(sparse.size() == p.backends().size());
  CHECK(sparse.front() == "SparseCPU");
  CHECK(sparse[1] == "SparseCUDA");
  for (const auto& n : sparse) CHECK(n.rfind("Sparse", 0) == 0);
  CHECK(std::find(sparse.begin(), sparse.end(), "SparseCsrCPU") == sparse.end());
  CHECK(p.building_block_members(*p.find("CPU")).empty());
  CHECK(p.building_block_members(*p.find("Autograd")).empty());
}

TEST_CASE("display_name and find_renamed: PrivateUse1 under its torch.utils.rename_privateuse1_backend name") {
  const Profile& p = profile("torch-main");
  const KeyId pu1 = *p.find("PrivateUse1");
  const KeyId ag = *p.find("AutogradPrivateUse1");
  CHECK(p.display_name(pu1, "npu") == "npu");
  CHECK(p.display_name(ag, "npu") == "AutogradNpu");
  CHECK(p.display_name(ag, "") == "AutogradPrivateUse1");
  CHECK(p.display_name(*p.find("CPU"), "npu") == "CPU");
  CHECK(p.find_renamed("npu", "npu") == pu1);
  CHECK(p.find_renamed("AutogradNpu", "npu") == ag);
  CHECK(p.find_renamed("AutogradNPU", "npu") == ag);  // PyTorch main's upper-cased spelling
  CHECK_FALSE(p.find_renamed("AutogradNpu", "").has_value());
  CHECK_FALSE(p.find_renamed("AutogradXyz", "npu").has_value());
}

TEST_CASE("python_dispatcher_keys: PythonDispatcher.keys(), its runtime keys then its alias keys") {
  CHECK(profile("torch-1.13").python_dispatcher_keys() ==
        std::vector<std::string>{"CPU", "AutogradCPU", "FPGA", "AutogradOther", "XLA", "AutogradXLA", "Lazy",
                                 "AutogradLazy", "CompositeExplicitAutograd", "Autograd", "CompositeImplicitAutograd"});
}

TEST_CASE("suggest_key: misspelt keys, a backend's own name, a renamed PrivateUse1") {
  const Profile& main = profile("torch-main");
  const Profile& old = profile("torch-1.13");
  const std::vector<std::string_view> names = main.key_names();
  CHECK(main.suggest_key("AutogradCUDAA", names, "") == " (did you mean 'AutogradCUDA'?)");
  CHECK(main.suggest_key("cpu", names, "") == " (did you mean 'CPU'?)");  // a key in the wrong case
  const std::string npu_main = main.suggest_key("npu", names, "");
  CHECK(npu_main.find("privateuse1_backend = \"npu\"") != std::string::npos);
  CHECK(npu_main.find("did you mean") == std::string::npos);
  const std::string npu_old = old.suggest_key("npu", old.key_names(), "");
  CHECK(npu_old.find("cannot rename it") != std::string::npos);
  CHECK(npu_old.find("did you mean") == std::string::npos);
  // Once PrivateUse1 is renamed, a lower-case name is an ordinary typo.
  CHECK(main.suggest_key("np", {"npu", "CPU"}, "npu") == " (did you mean 'npu'?)");
}

TEST_CASE("tags: the release's vocabulary, and the registry's answer for an unknown tag") {
  const Profile& p = profile("torch-1.13");
  REQUIRE(p.tags().size() == 7);
  CHECK(p.tags().front().name == "inplace_view");
  CHECK(p.tags().front().description == "This tag indicates if an operator *only* modifies the tensor metadata");
  CHECK(p.check_tag("view_copy").has_value());
  CHECK(p.check_tag("view_cpy").error().message ==
        "unknown tag 'view_cpy' (did you mean 'view_copy'?); the tags of torch-1.13: inplace_view, view_copy, "
        "dynamic_output_shape, data_dependent_output, generated, nondeterministic_seeded, nondeterministic_bitwise");
  CHECK_FALSE(p.check_tag("core").has_value());  // main's, not 1.13's
  CHECK(profile("torch-main").check_tag("core").has_value());
  CHECK(profile("torch-main").tags().size() == 12);
}

}  // namespace dt::test
