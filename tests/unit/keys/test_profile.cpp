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
  CHECK(p.key(cpu).bits.has_all(p.key(dense).bits));  // {CPU} contains Dense
  CHECK_FALSE(p.key(dense).bits.has_all(p.key(cpu).bits));
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

// ---------------------------------------------------------------------------
// Where the measured 2.6 and 2.14 profiles (gen_profile.py on the real Debian
// builds, checked by ctest oracle.torch-2.6.profile / oracle.torch-2.14.profile)
// differ from each other and from 1.13.

namespace dt::test {

namespace {

// Position of a key in the table order (runtime keys), or -1.
int row_of(const Profile& p, std::string_view name) {
  const auto k = p.find(name);
  if (!k || !p.is_runtime(*k)) return -1;
  const auto& rt = p.runtime_keys();
  return static_cast<int>(std::find(rt.begin(), rt.end(), *k) - rt.begin());
}

const FallbackSpec* fallback_of(const Profile& p, std::string_view name) {
  for (const auto& f : p.fallbacks())
    if (p.name_of(f.key) == name) return &f;
  return nullptr;
}

bool parseable(const Profile& p, std::string_view name) {
  const auto k = p.find(name);
  return k && p.key(*k).parseable;
}

}  // namespace

TEST_CASE("releases: key order -- Python and Fake swapped, Named gone, MAIA a backend in 2.14") {
  const Profile& p26 = profile("torch-2.6");
  const Profile& p214 = profile("torch-2.14");
  CHECK(row_of(p26, "Python") < row_of(p26, "Fake"));
  CHECK(row_of(p214, "Fake") < row_of(p214, "Python"));
  CHECK(row_of(p26, "Named") > 0);
  CHECK_FALSE(p214.find("Named").has_value());
  CHECK(p26.key(*p26.find("MAIA")).kind == KeyKind::Functionality);
  CHECK(p214.key(*p214.find("MAIA")).kind == KeyKind::PerBackend);
  CHECK(std::find(p26.backends().begin(), p26.backends().end(), "MAIA") == p26.backends().end());
  CHECK(std::find(p214.backends().begin(), p214.backends().end(), "MAIA") != p214.backends().end());
  CHECK(row_of(p214, "AutogradMAIA") > 0);
  CHECK_FALSE(p26.find("AutogradMAIA").has_value());
}

TEST_CASE("releases: CompositeImplicitAutograd covers Functionalize in 2.6 only") {
  for (const char* rel : {"torch-1.13", "torch-2.6", "torch-2.14"}) {
    CAPTURE(rel);
    const Profile& p = profile(rel);
    const auto members = names(p, p.alias_members(*p.find("CompositeImplicitAutograd")));
    const bool has = std::find(members.begin(), members.end(), "Functionalize") != members.end();
    CHECK(has == (std::string(rel) == "torch-2.6"));
  }
}

TEST_CASE("releases: AutogradOther's backends hold MAIA in 2.6 (a functionality key there), not in 2.14") {
  const Profile& p26 = profile("torch-2.6");
  const Profile& p214 = profile("torch-2.14");
  CHECK(p26.autogradother_backends().has_all(p26.key(*p26.find("MAIA")).bits));
  CHECK_FALSE(p214.autogradother_backends().has_all(p214.key(*p214.find("MAIA")).bits));
  CHECK(p214.name_of(p214.autograd_key_for_backend_of(*p214.find("MAIA"))) == "AutogradMAIA");
  CHECK(p214.autogradother_backends().has_all(p214.key(*p214.find("FPGA")).bits));
}

TEST_CASE("releases: backend fallbacks -- boxed Autograd<B> in 2.x, fallthrough in 1.13, PrivateUse1/MAIA, Meta") {
  for (const char* rel : {"torch-1.13", "torch-2.6", "torch-2.14"}) {
    CAPTURE(rel);
    const Profile& p = profile(rel);
    const bool v1 = std::string(rel) == "torch-1.13";
    for (const char* k : {"AutogradOther", "AutogradCPU", "AutogradCUDA", "AutogradXLA", "AutogradLazy"}) {
      CAPTURE(k);
      const FallbackSpec* f = fallback_of(p, k);
      REQUIRE(f != nullptr);
      CHECK(f->fallthrough == v1);
    }
    CHECK((fallback_of(p, "Meta") != nullptr) == !v1);
    CHECK((fallback_of(p, "AutogradMeta") != nullptr) == !v1);
  }
  const Profile& p26 = profile("torch-2.6");
  const Profile& p214 = profile("torch-2.14");
  CHECK(fallback_of(p26, "AutogradPrivateUse1") == nullptr);
  REQUIRE(fallback_of(p214, "AutogradPrivateUse1") != nullptr);
  CHECK_FALSE(fallback_of(p214, "AutogradPrivateUse1")->fallthrough);
  REQUIRE(fallback_of(p214, "AutogradMAIA") != nullptr);
  CHECK(fallback_of(p26, "Named") != nullptr);
  CHECK(fallback_of(p214, "AutocastMTIA") != nullptr);
  CHECK(fallback_of(p26, "AutocastMTIA") == nullptr);
}

TEST_CASE("releases: the override warning -- always (1.13), once with a prefix (2.x), exempt Meta (2.6), +MTIA (2.14)") {
  const auto exempt = [](const Profile& p) { return names(p, p.quirks().override_warning_exempt); };
  CHECK_FALSE(profile("torch-1.13").quirks().override_warning_once);
  CHECK(exempt(profile("torch-1.13")).empty());
  CHECK(profile("torch-1.13").quirks().override_warning_prefix.empty());
  for (const char* rel : {"torch-2.6", "torch-2.14"}) {
    const Profile& p = profile(rel);
    CHECK(p.quirks().override_warning_once);
    CHECK(p.quirks().override_warning_prefix ==
          "Warning only once for all operators,  other operators may also be overridden.\n  ");
  }
  CHECK(exempt(profile("torch-2.6")) == std::vector<std::string>{"Meta"});
  CHECK(exempt(profile("torch-2.14")) == std::vector<std::string>{"MTIA", "Meta"});
}

TEST_CASE("releases: names Python can parse -- AutocastMTIA new in 2.14, Named gone") {
  const Profile& p26 = profile("torch-2.6");
  const Profile& p214 = profile("torch-2.14");
  CHECK_FALSE(parseable(p26, "AutocastMTIA"));
  CHECK(parseable(p214, "AutocastMTIA"));
  CHECK(parseable(p26, "Named"));
  CHECK_FALSE(parseable(p214, "Named"));
  CHECK(parseable(p214, "MAIA"));
  CHECK(parseable(p26, "MAIA"));
  CHECK_FALSE(parseable(p26, "AutogradMAIA"));
  CHECK_FALSE(parseable(p214, "AutogradMAIA"));  // a runtime key Python cannot name
  CHECK(p26.quirks().dimname_in_schemas);
  CHECK_FALSE(p214.quirks().dimname_in_schemas);
}

}  // namespace dt::test
