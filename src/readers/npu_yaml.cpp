// read_npu_yaml (npu_yaml.hpp). torch_npu's torchnpugen (gen_backend_stubs.py
// parse_backend_yaml, custom_functions.py, utils.py), as it registers:
//   - keys: backend, cpp_namespace (required), supported, autograd, custom,
//     custom_autograd, symint, quant, nestedtensor; custom_supported is
//     ignored; any other key is refused (a KeyError there);
//   - `supported`: an operator name, or a mapping whose `func` is a name or a
//     schema (the text before "(" names it), counted only with one of
//     impl_ns, op_api, device_check (others are not registered): an impl on
//     aten / PrivateUse1 (RegisterNPU.cpp); a mapping's `sparse` adds one on
//     SparsePrivateUse1 (RegisterSparseNPU.cpp);
//   - `autograd`, and every supported operator that is
//     CompositeImplicitAutograd in the release but isclose and isfinite: an
//     impl on aten / AutogradPrivateUse1 (RegisterAutogradNPU.cpp);
//   - `custom`, `custom_autograd`: a def in namespace npu (TORCH_LIBRARY(npu)),
//     its schema rewritten (npu_custom_schema); with `dispatch:
//     CompositeExplicitAutograd` the def carries its kernel (m.def(schema,
//     fn): a catch-all, CompositeImplicitAutograd); otherwise an impl on npu /
//     PrivateUse1, and one on npu / AutogradPrivateUse1 when its dispatch
//     names AutogradPrivateUse1 (CustomRegisterSchema.cpp);
//   - `quant`: aten / QuantizedPrivateUse1, with the seven impls
//     QuantizedRegister.cpp always has; `nestedtensor`: aten /
//     NestedTensorPrivateUse1, with NestedTensorRegister.cpp's three;
//   - `symint` changes C++ kernel names only: no registration.
#include "readers/npu_yaml.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "base/text.hpp"

namespace dt {

namespace {


Diagnostic warning(Location at, std::string msg) {
  Diagnostic d = make_error(std::move(at), std::move(msg));
  d.severity = Severity::Warning;
  return d;
}

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The top-level, comma-separated pieces of `s` (brackets and parentheses nest), trimmed.
std::vector<std::string> top_level_args(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    const char c = i < s.size() ? s[i] : ',';
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth <= 0) {
      const std::string piece(trim(s.substr(start, i - start)));
      if (!piece.empty()) out.push_back(piece);
      start = i + 1;
    }
  }
  return out;
}

// The text before '(' of a `func:` value: the operator's name.
std::string op_name_of(std::string_view func) { return std::string(trim(func.substr(0, func.find('(')))); }

struct Item {
  std::string name;  // name[.overload]
  std::string func;  // the `func` text (a schema for custom operators)
  const YamlNode* node = nullptr;
  Location at;
  bool counted = true;          // supported: registered at all
  bool sparse = false;          // supported: SparsePrivateUse1 too
  bool cea = false;             // custom: dispatch names CompositeExplicitAutograd
  bool autograd_key = false;    // custom: dispatch names AutogradPrivateUse1
  std::vector<std::string> tags;
};

class NpuReader {
 public:
  NpuReader(const Profile& p, const YamlDoc& doc, const std::vector<NativeFunctionInfo>& fns)
      : p_(p), doc_(doc), fns_(fns) {
    for (std::size_t i = 0; i < fns.size(); ++i) by_name_.emplace(fns[i].s.name, i);
  }

  Expected<Blocks, Diagnostic> read() {
    const YamlNode& root = doc_.root();
    static const std::set<std::string_view> kKeys = {"backend", "cpp_namespace", "supported", "autograd",
                                                     "custom",  "custom_autograd", "symint", "quant",
                                                     "nestedtensor", "custom_supported"};
    for (std::size_t i = 0; i < root.items.size(); i += 2) {
      const YamlNode& k = doc_.at(root.items[i]);
      if (k.kind != YamlNode::Kind::Scalar || kKeys.count(k.value) == 0)
        return fail(doc_.where(k), fmt::format("unexpected key '{}': torch_npu's gen_backend_stubs.py (backend: NPU) "
                                               "reads backend, cpp_namespace, supported, autograd, custom, "
                                               "custom_autograd, symint, quant, nestedtensor and custom_supported",
                                               k.kind == YamlNode::Kind::Scalar ? k.value : std::string_view("?")));
    }
    const YamlNode* ns = doc_.get(root, "cpp_namespace");
    if (ns == nullptr || YamlDoc::is_null(*ns))
      return fail(doc_.where(root), "You must provide a value for \"cpp_namespace\"");
    backend_at_ = doc_.where(*doc_.get(root, "backend"));
    for (const char* key : {"supported", "autograd", "custom", "custom_autograd", "quant", "nestedtensor"}) {
      DT_TRY(items, list(key));
      lists_[key] = std::move(items);
    }
    for (const char* key : {"custom", "custom_autograd"})
      for (const Item& c : lists_[key]) custom_.insert(c.name);
    DT_TRY_VOID(check_names());

    Blocks out;
    custom_blocks(out);
    aten_blocks(out);
    return out;
  }

 private:
  // The entries of a list: a scalar name, or a mapping with `func`.
  Expected<std::vector<Item>, Diagnostic> list(std::string_view key) {
    std::vector<Item> out;
    const YamlNode* n = doc_.get(doc_.root(), key);
    if (n == nullptr || YamlDoc::is_null(*n)) return out;
    if (n->kind != YamlNode::Kind::Sequence)
      return fail(doc_.where(*n), fmt::format("expected \"{}\" to be a list", key));
    const bool custom = key == "custom" || key == "custom_autograd";
    for (std::uint32_t i : n->items) {
      const YamlNode& e = doc_.at(i);
      Item it;
      it.node = &e;
      it.at = doc_.where(e);
      if (e.kind == YamlNode::Kind::Scalar && !custom) {
        it.name = std::string(trim(e.value));
        out.push_back(std::move(it));
        continue;
      }
      const YamlNode* func = e.kind == YamlNode::Kind::Mapping ? doc_.get(e, "func") : nullptr;
      if (func == nullptr || func->kind != YamlNode::Kind::Scalar)
        return fail(it.at, fmt::format("an entry of \"{}\" must be {}a mapping with 'func'", key,
                                       custom ? "" : "an operator name or "));
      it.func = std::string(trim(func->value));
      it.name = op_name_of(it.func);
      it.at = doc_.where(*func);
      if (custom && it.func.find('(') == std::string::npos)
        return fail(it.at, fmt::format("a \"{}\" entry's func must be a schema, like "
                                       "\"npu_op(Tensor self) -> Tensor\"", key));
      if (key == "supported")
        it.counted = doc_.get(e, "impl_ns") != nullptr || doc_.get(e, "op_api") != nullptr ||
                     doc_.get(e, "device_check") != nullptr;
      if (const YamlNode* s = doc_.get(e, "sparse"); s != nullptr && !YamlDoc::is_null(*s)) it.sparse = true;
      if (const YamlNode* d = doc_.get(e, "dispatch"); d != nullptr && d->kind == YamlNode::Kind::Mapping)
        for (std::size_t j = 0; j < d->items.size(); j += 2) {
          const std::string_view k = doc_.at(d->items[j]).value;
          it.cea = it.cea || k == "CompositeExplicitAutograd";
          it.autograd_key = it.autograd_key || k == "AutogradPrivateUse1";
        }
      if (const YamlNode* t = doc_.get(e, "tags"); t != nullptr) {
        if (t->kind == YamlNode::Kind::Scalar)
          for (std::string_view s : split(t->value, ",")) it.tags.emplace_back(trim(s));
        else
          for (std::uint32_t j : t->items) it.tags.emplace_back(trim(doc_.at(j).value));
      }
      out.push_back(std::move(it));
    }
    return out;
  }

  // torchnpugen: every name listed is a native function of the release or a custom operator.
  Expected<Ok, Diagnostic> check_names() {
    for (const char* key : {"supported", "autograd", "quant", "nestedtensor"})
      for (const Item& it : lists_[key])
        if (it.counted && by_name_.count(it.name) == 0 && custom_.count(it.name) == 0)
          return fail(it.at, fmt::format("Found an invalid operator name: {}", it.name));
    return Ok{};
  }

  TomlBlock block(const std::string& ns, const char* kind, const std::string& key) {
    TomlBlock b;
    b.at = backend_at_;
    b.add("namespace", ns, backend_at_);
    b.add("kind", kind, backend_at_);
    if (!key.empty()) b.add("dispatch_key", key, backend_at_);
    return b;
  }

  // A block with entries, on a key the profile has (a located warning otherwise).
  void push(Blocks& out, TomlBlock& b) {
    if (b.entries.empty()) return;
    for (const auto& f : b.header)
      if (f.key == "dispatch_key")
        if (const auto* key = std::get_if<std::string>(&f.value); key != nullptr && !p_.find(*key)) {
          out.warnings.push_back(warning(b.entries.front().at,
                                         fmt::format("profile {} has no dispatch key {}: {} registration(s) on it "
                                                     "not read",
                                                     p_.name(), *key, b.entries.size())));
          return;
        }
    out.blocks.push_back(std::move(b));
  }

  static void impl(TomlBlock& b, const std::string& op, const Location& at, std::string note = {}) {
    TomlEntry e{"impl", {}, at, std::move(note)};
    e.add("op", op, at);
    e.add("kernel", "", at);  // "registered at FILE:LINE" of the entry
    b.entries.push_back(std::move(e));
  }

  void custom_blocks(Blocks& out) {
    std::vector<const Item*> customs;
    for (const char* key : {"custom", "custom_autograd"})
      for (const Item& it : lists_[key]) customs.push_back(&it);
    if (customs.empty()) return;
    TomlBlock def = block("npu", "DEF", "");
    TomlBlock backend = block("npu", "IMPL", "PrivateUse1");
    TomlBlock autograd = block("npu", "IMPL", "AutogradPrivateUse1");
    for (const Item* c : customs) {
      TomlEntry e{"def", {}, c->at, {}};
      e.add("schema", npu_custom_schema(c->func), c->at);
      if (!c->tags.empty()) e.add("tags", c->tags, c->at);
      def.entries.push_back(std::move(e));
      if (c->cea) {  // m.def(schema, TORCH_FN(...)): a catch-all kernel
        impl(def, c->name, c->at, "m.def(schema, fn): the kernel of dispatch: CompositeExplicitAutograd, a catch-all");
        continue;
      }
      impl(backend, c->name, c->at);
      if (c->autograd_key) impl(autograd, c->name, c->at);
    }
    for (TomlBlock* b : {&def, &backend, &autograd}) push(out, *b);
  }

  void aten_blocks(Blocks& out) {
    TomlBlock backend = block("aten", "IMPL", "PrivateUse1");
    TomlBlock autograd = block("aten", "IMPL", "AutogradPrivateUse1");
    TomlBlock sparse = block("aten", "IMPL", "SparsePrivateUse1");
    std::set<std::string> done, done_autograd;
    for (const Item& it : lists_["supported"]) {
      if (!it.counted || !done.insert(it.name).second) continue;
      if (custom_.count(it.name) != 0) {
        // CustomRegisterSchema.cpp registers it in npu; what RegisterNPU.cpp
        // makes of the name in aten is not known for certain: said, not guessed.
        out.warnings.push_back(warning(it.at, fmt::format("'{}' is a custom operator (npu::{}): its npu kernels are "
                                                          "read; an aten::{} impl torch_npu's RegisterNPU.cpp may "
                                                          "also make is not read",
                                                          it.name, it.name, it.name)));
        continue;
      }
      impl(backend, "aten::" + it.name, it.at);
      if (it.sparse) impl(sparse, "aten::" + it.name, it.at);
    }
    for (const Item& it : lists_["autograd"])
      if (custom_.count(it.name) == 0 && done_autograd.insert(it.name).second)
        impl(autograd, "aten::" + it.name, it.at);
    // Supported operators that are CompositeImplicitAutograd in the release
    // get an AutogradPrivateUse1 kernel too (utils.py: the running torch's
    // _dispatch_dump has CompositeImplicitAutograd[alias] and no Autograd[alias]).
    for (const Item& it : lists_["supported"]) {
      if (!it.counted || custom_.count(it.name) != 0 || it.name == "isclose" || it.name == "isfinite") continue;
      const auto f = by_name_.find(it.name);
      if (f != by_name_.end() && fns_[f->second].cia && done_autograd.insert(it.name).second)
        impl(autograd, "aten::" + it.name, it.at,
             "CompositeImplicitAutograd in the release: RegisterAutogradNPU.cpp registers it on AutogradPrivateUse1");
    }
    TomlBlock quant = fixed_block("QuantizedPrivateUse1", "quant",
                                  {"flip", "q_scale", "q_per_channel_scales", "q_zero_point",
                                   "q_per_channel_zero_points", "q_per_channel_axis", "qscheme"},
                                  "QuantizedRegister.cpp");
    TomlBlock nested = fixed_block("NestedTensorPrivateUse1", "nestedtensor",
                                   {"unbind.int", "values", "_nested_tensor_size"}, "NestedTensorRegister.cpp");
    for (TomlBlock* b : {&backend, &autograd, &quant, &nested, &sparse}) push(out, *b);
  }

  // The listed operators, then those torch_npu's file registers whatever the yaml says.
  TomlBlock fixed_block(const std::string& key, const char* list_key, std::initializer_list<const char*> fixed,
                        const char* file) {
    TomlBlock b = block("aten", "IMPL", key);
    std::set<std::string> done;
    for (const Item& it : lists_[list_key])
      if (custom_.count(it.name) == 0 && done.insert(it.name).second) impl(b, "aten::" + it.name, it.at);
    for (const char* op : fixed)
      if (by_name_.count(op) != 0 && done.insert(op).second)
        impl(b, std::string("aten::") + op, backend_at_, fmt::format("{} registers it for every yaml", file));
    return b;
  }

  const Profile& p_;
  const YamlDoc& doc_;
  const std::vector<NativeFunctionInfo>& fns_;
  std::map<std::string, std::size_t, std::less<>> by_name_;
  std::map<std::string, std::vector<Item>, std::less<>> lists_;
  std::set<std::string, std::less<>> custom_;
  Location backend_at_;
};

}  // namespace

std::string npu_custom_schema(std::string_view schema) {
  std::string s(schema);
  const std::size_t open = s.find('('), arrow = s.rfind(") -> ");
  if (open != std::string::npos && arrow != std::string::npos && arrow > open) {
    const auto args = top_level_args(std::string_view(s).substr(open + 1, arrow - open - 1));
    // torchgen: the out= arguments are the keyword-only ones that are written to.
    std::size_t outs = 0;
    bool kwarg = false;
    for (const auto& a : args) {
      if (a == "*") kwarg = true;
      else if (kwarg && a.find('!') != std::string::npos) ++outs;
    }
    std::string normal = s.substr(0, open) + '(' + join(args, ", ") + ") -> " + s.substr(arrow + 5);
    if (outs > 1) {
      // custom_functions.py: ','.join(args.split(',')[:-out_num]) + ', Tensor[] out) -> (Tensor, ...)'
      const std::string joined = join(args, ", ");
      const auto pieces = split(joined, ",");
      std::vector<std::string> kept;
      for (std::size_t i = 0; i + outs < pieces.size(); ++i) kept.emplace_back(pieces[i]);
      std::vector<std::string> rets(outs, "Tensor");
      normal = s.substr(0, open) + '(' + join(kept, ",") + ", Tensor[] out) -> (" + join(rets, ", ") + ')';
    }
    s = std::move(normal);
  }
  // re.sub(r'\bself\b(?=[,\)])', 'input', ...)
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 4, "self") == 0 && (i == 0 || !ident_char(s[i - 1])) && i + 4 < s.size() &&
        (s[i + 4] == ',' || s[i + 4] == ')')) {
      out += "input";
      i += 4;
    } else {
      out += s[i++];
    }
  }
  return out;
}

Expected<Blocks, Diagnostic> read_npu_yaml(const Profile& profile, const YamlDoc& doc,
                                           const std::vector<NativeFunctionInfo>& fns) {
  return NpuReader(profile, doc, fns).read();
}

}  // namespace dt
