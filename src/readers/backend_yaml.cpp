// read_backend_yaml (backend_yaml.hpp). gen_backend_stubs.py's rules:
//   - the file is a mapping of backend, class_name, cpp_namespace,
//     extra_headers, supported, autograd, full_codegen, non_native, ir_gen,
//     symint, use_out_as_primary, device_guard; backend and cpp_namespace
//     are required; full_codegen operators are supported ones too;
//   - `supported` operators get a kernel on BACKEND, `autograd` ones on
//     Autograd<BACKEND>; every name must be a native function of the release;
//   - with use_out_as_primary False (the default), an in-place or out=
//     (or mutable) function the backend does not list gets a generated
//     wrapper when the functional one of its group is listed
//     (register_dispatch_key.py gets_generated_out_inplace_wrapper);
//   - manual_kernel_registration functions get none.
#include "readers/backend_yaml.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "readers/native_yaml.hpp"
#include "readers/npu_yaml.hpp"
#include "readers/release_yaml.hpp"
#include "readers/yaml_tree.hpp"

namespace dt {

namespace {


struct Listed {
  std::string op;
  Location at;
};

Expected<std::vector<Listed>, Diagnostic> op_list(const YamlDoc& doc, const YamlNode* n, std::string_view field) {
  std::vector<Listed> out;
  if (n == nullptr || YamlDoc::is_null(*n)) return out;
  if (n->kind != YamlNode::Kind::Sequence)
    return fail(doc.where(*n), fmt::format("expected \"{}\" to be a list", field));
  for (std::uint32_t i : n->items) {
    const YamlNode& item = doc.at(i);
    if (item.kind != YamlNode::Kind::Scalar)
      return fail(doc.where(item), fmt::format("an entry of \"{}\" must be an operator name", field));
    out.push_back(Listed{std::string(item.value), doc.where(item)});
  }
  return out;
}

// The release's native functions: `native`, or the profile's embedded native_functions.yaml.
Expected<std::vector<NativeFunctionInfo>, Diagnostic> release_functions(const Profile& profile, const YamlDoc& doc,
                                                                        std::string_view native) {
  FileName native_file = "native_functions.yaml";
  if (native.empty()) {
    for (const EmbeddedYaml& y : embedded_yaml())
      if (y.profile == profile.name()) native = y.text, native_file = y.path;
    if (native.empty())
      return fail(doc.where(doc.root()), fmt::format("a backend yaml names the operators of its release's "
                                                     "native_functions.yaml, which profile {} does not have "
                                                     "(configs/yaml/ has those of torch-2.6 and torch-2.14)",
                                                     profile.name()));
  }
  return read_native_functions(profile, native_file, native);
}

}  // namespace

Expected<Blocks, Diagnostic> read_backend_yaml(const Profile& profile, FileName file, std::string_view text,
                                               std::string_view native) {
  DT_TRY(doc, parse_yaml(file, text));
  const YamlNode& root = doc.root();
  if (root.kind != YamlNode::Kind::Mapping)
    return fail(doc.where(root),
                "a backend yaml must be a mapping (backend: ..., cpp_namespace: ..., supported: [...])");
  // torch_npu's dialect: its gen_backend_stubs.py maps NPU to PrivateUse1
  // (torchgen's refuses NPU, which no DispatchKey is called).
  if (const YamlNode* b = doc.get(root, "backend");
      b != nullptr && b->kind == YamlNode::Kind::Scalar && b->value == "NPU") {
    DT_TRY(fns, release_functions(profile, doc, native));
    return read_npu_yaml(profile, doc, fns);
  }
  static const std::set<std::string_view> kKeys = {"backend", "class_name", "cpp_namespace", "extra_headers",
                                                   "supported", "autograd", "full_codegen", "non_native",
                                                   "ir_gen", "symint", "use_out_as_primary", "device_guard"};
  for (std::size_t i = 0; i < root.items.size(); i += 2) {
    const YamlNode& k = doc.at(root.items[i]);
    if (k.kind != YamlNode::Kind::Scalar || kKeys.count(k.value) == 0)
      return fail(doc.where(k), fmt::format("unexpected key '{}': only the following keys are supported: backend, "
                                            "class_name, cpp_namespace, extra_headers, supported, autograd, "
                                            "full_codegen, non_native, ir_gen, symint (gen_backend_stubs.py)",
                                            k.kind == YamlNode::Kind::Scalar ? k.value : std::string_view("?")));
  }
  const YamlNode* backend = doc.get(root, "backend");
  if (backend == nullptr || backend->kind != YamlNode::Kind::Scalar || YamlDoc::is_null(*backend))
    return fail(doc.where(root), "You must provide a value for \"backend\"");
  const YamlNode* ns = doc.get(root, "cpp_namespace");
  if (ns == nullptr || YamlDoc::is_null(*ns))
    return fail(doc.where(root), "You must provide a value for \"cpp_namespace\"");
  bool out_primary = false;
  if (const YamlNode* u = doc.get(root, "use_out_as_primary")) {
    auto b = YamlDoc::as_bool(*u);
    if (!b) return fail(doc.where(*u), "You must provide either True or False for use_out_as_primary");
    out_primary = *b;
  }
  DT_TRY(supported, op_list(doc, doc.get(root, "supported"), "supported"));
  DT_TRY(full, op_list(doc, doc.get(root, "full_codegen"), "full_codegen"));
  for (Listed& l : full) supported.push_back(std::move(l));
  DT_TRY(autograd, op_list(doc, doc.get(root, "autograd"), "autograd"));

  DT_TRY(fns, release_functions(profile, doc, native));
  std::map<std::string, std::size_t, std::less<>> by_name;
  std::map<std::string, std::vector<std::size_t>, std::less<>> groups;  // signature -> functions
  for (std::size_t i = 0; i < fns.size(); ++i) {
    by_name.emplace(fns[i].s.name, i);
    groups[fns[i].s.signature].push_back(i);
  }

  // gen_backend_stubs.py: the functions of one group (or one ungrouped
  // function) are all on the backend key or all on the autograd key.
  {
    std::map<std::string, std::size_t, std::less<>> fwd, bwd;  // group -> first listed
    auto group_key = [&](std::size_t i) {
      const auto& g = groups[fns[i].s.signature];
      bool functional = false, out_fn = false;
      for (std::size_t j : g) {
        functional = functional || fns[j].s.kind == SchemaKind::Functional;
        out_fn = out_fn || fns[j].s.kind == SchemaKind::Out;
      }
      return functional && out_fn ? fns[i].s.signature : "#" + fns[i].s.name;
    };
    auto kernel = [&](std::size_t i) {
      const std::string& n = fns[i].s.name;
      return n.substr(0, n.find('.')) + (fns[i].s.kind == SchemaKind::Out ? "_out" : "");
    };
    for (const Listed& l : supported)
      if (auto it = by_name.find(l.op); it != by_name.end()) fwd.emplace(group_key(it->second), it->second);
    for (const Listed& l : autograd) {
      auto it = by_name.find(l.op);
      if (it == by_name.end()) continue;
      auto f = fwd.find(group_key(it->second));
      if (f != fwd.end())
        return fail(l.at, fmt::format("Currently, all variants of an op must either be registered to a backend key, "
                                      "or to a backend's autograd key. They cannot be mix and matched. If this is "
                                      "something you need, feel free to create an issue! {} is listed under "
                                      "\"supported\", but {} is listed under \"autograd\".",
                                      kernel(f->second), kernel(it->second)));
    }
  }
  Blocks out;
  auto block_for = [&](const std::string& key, const YamlNode& key_at, const std::vector<Listed>& ops)
      -> Expected<Ok, Diagnostic> {
    if (ops.empty()) return Ok{};
    if (!profile.find(key))
      return fail(doc.where(key_at), key.starts_with("Autograd")
                                         ? fmt::format("The \"autograd\" key was specified, which indicates that you "
                                                       "would like to override the behavior of autograd for some "
                                                       "operators on your backend. However \"{}\" is not a valid "
                                                       "DispatchKey.",
                                                       key)
                                         : fmt::format("The provided value for \"backend\" must be a valid "
                                                       "DispatchKey, but got {}.",
                                                       backend->value));
    std::map<std::size_t, Location> listed;  // function -> where listed
    for (const Listed& l : ops) {
      auto it = by_name.find(l.op);
      if (it == by_name.end()) return fail(l.at, fmt::format("Found an invalid operator name: {}", l.op));
      listed.emplace(it->second, l.at);
    }
    TomlBlock b;
    b.at = doc.where(key_at);
    b.add("namespace", "aten", b.at);
    b.add("kind", "IMPL", b.at);
    b.add("dispatch_key", key, doc.where(*backend));
    std::set<std::size_t> done;
    auto emit = [&](std::size_t i, const Location& at, std::string note) {
      if (!done.insert(i).second || fns[i].manual) return;
      TomlEntry e{"impl", {}, at, std::move(note)};
      e.add("op", "aten::" + fns[i].s.name, at);
      // Empty: the contract's default, "registered at FILE:LINE" of this
      // entry, which the loader maps back to the yaml line.
      e.add("kernel", "", at);
      b.entries.push_back(std::move(e));
    };
    for (const Listed& l : ops) {
      const std::size_t i = by_name.find(l.op)->second;
      emit(i, l.at, {});
      if (out_primary || fns[i].s.kind != SchemaKind::Functional) continue;
      // The group's other functions the backend does not list (in-place,
      // out=, mutable) get generated wrappers over this functional kernel: a
      // registration each (register_dispatch_key.py gen_unstructured).
      const auto& group = groups[fns[i].s.signature];
      bool has_out = false;
      for (std::size_t j : group) has_out = has_out || fns[j].s.kind == SchemaKind::Out;
      if (!has_out) continue;  // no NativeFunctionsGroup without an out= function
      for (std::size_t j : group)
        if (j != i && listed.count(j) == 0 && fns[j].s.kind != SchemaKind::Functional)
          emit(j, l.at, fmt::format("generated wrapper of {}", l.op));
    }
    out.blocks.push_back(std::move(b));
    return Ok{};
  };
  DT_TRY_VOID(block_for(std::string(backend->value), *backend, supported));
  if (const YamlNode* a = doc.get(root, "autograd"))
    DT_TRY_VOID(block_for("Autograd" + std::string(backend->value), *a, autograd));
  return out;
}

}  // namespace dt
