// torch::RegisterOperators, c10's registration API before torch::Library
// (ATen/core/op_registration/op_registration.h), as IPEX and older
// extensions still use it. What torch 2.14 makes of it (measured with
// tests/oracle/cpp_ext/legacy_forms.cpp): every op() is a def of its own,
// outside any library block (so it never clashes with a TORCH_LIBRARY of
// the namespace), whose debug string and every kernel's are "registered by
// RegisterOperators"; alias analysis "CONSERVATIVE (default)" unless
// aliasAnalysis(...) says; a kernel on options().kernel<...>(KEY) goes to
// KEY, one given without a key (op(schema, fn), catchAllKernel) is a
// catch-all (CompositeImplicitAutograd); a name without a schema takes the
// schema c10 infers from the first kernel.
#include <fmt/format.h>

#include "readers/cpp_reader_impl.hpp"

namespace dt::cppread {

namespace {

constexpr std::string_view kDebug = "registered by RegisterOperators";

struct Kernel {
  CppKernel k;
  TokenRange range;
  std::optional<std::string> key;  // nullopt: catch-all
  Location key_at;
};

struct Op {
  std::optional<Literal> schema;
  TokenRange schema_range;
  std::string alias;
  std::vector<Kernel> kernels;
  const CppToken* at = nullptr;  // the op( or RegisterOperators( that makes it
};

class Legacy {
 public:
  Legacy(const CppScan& s, const CppTokens& tk, Blocks& out) : s_(s), tk_(tk), t_(s.tokens), out_(out) {}

  std::size_t run(std::size_t i) {
    std::size_t j = i + 1;
    if (j < t_.size() && t_[j].kind == Kind::Ident) {
      // `torch::RegisterOperators reg(...)` / `reg{...}`; a type before `x = ...` is read at its value.
      if (j + 1 < t_.size() && (t_[j + 1].is("(") || t_[j + 1].is("{"))) {
        const std::size_t close = tk_.close(j + 1);
        if (close == std::string::npos) return i;
        op(t_[i], j + 1, /*constructor=*/true);
        return close;
      }
      return i;
    }
    if (j >= t_.size() || !t_[j].is("(")) return i;
    std::size_t close = tk_.close(j);
    if (close == std::string::npos) return i;
    if (close > j + 1) op(t_[i], j, true);
    // .op(...) calls chained after it.
    std::size_t k = close + 1;
    while (k + 2 < t_.size() && t_[k].is(".") && t_[k + 1].is("op") && t_[k + 2].is("(")) {
      const std::size_t c = tk_.close(k + 2);
      if (c == std::string::npos) break;
      op(t_[k + 1], k + 2, false);
      k = c + 1;
    }
    if (k + 1 < t_.size() && t_[k].is(".") && t_[k + 1].kind == Kind::Ident)
      warn(t_[k + 1], fmt::format("RegisterOperators().{}(...) is not read (only op(...) registers)", t_[k + 1].text));
    return k > 0 ? k - 1 : k;
  }

 private:
  void warn(const CppToken& t, std::string msg, std::string op = {}) {
    cppread::warn(out_, s_, t, std::move(msg), std::move(op));
  }

  // Whether r starts RegisterOperators::options() (then its chain follows).
  [[nodiscard]] bool is_options(TokenRange r) const {
    for (std::size_t j = r.b; j + 2 < r.e; ++j)
      if (t_[j].is("RegisterOperators") && t_[j + 1].is("::") && t_[j + 2].is("options")) return true;
    return false;
  }

  // op(schema, options) | op(options) | op(schema, fn[, options]); the same for the constructor.
  void op(const CppToken& where, std::size_t open, bool constructor) {
    const auto a = tk_.args(open);
    Op o;
    o.at = &where;
    std::size_t next = 0;
    if (!a.empty() && !is_options(a[0])) {
      o.schema = literal(s_, a[0]);
      o.schema_range = a[0];
      if (!o.schema) {
        warn(t_[a[0].b], fmt::format("RegisterOperators {}({}, ...): the schema is not a string literal: not read",
                                     constructor ? "" : ".op", text(t_, a[0])));
        return;
      }
      next = 1;
    }
    for (std::size_t k = next; k < a.size(); ++k) {
      if (a[k].empty()) continue;
      if (is_options(a[k])) {
        if (!options(a[k], o)) return;
      } else {
        Kernel kern;
        kern.range = a[k];
        kern.k = read_kernel(tk_, s_.files, a[k], false);
        o.kernels.push_back(std::move(kern));
      }
    }
    emit(o);
  }

  // RegisterOperators::options().schema(...).kernel<...>(KEY).catchAllKernel<...>().aliasAnalysis(...)
  bool options(TokenRange r, Op& o) {
    std::size_t j = r.b;
    while (j < r.e && !t_[j].is("options")) ++j;
    if (j + 2 >= r.e || !t_[j + 1].is("(")) return true;
    j = tk_.close(j + 1) + 1;
    while (j + 1 < r.e && t_[j].is(".") && t_[j + 1].kind == Kind::Ident) {
      const CppToken& m = t_[j + 1];
      std::size_t k = j + 2;
      TokenRange targs;
      if (k < r.e && t_[k].is("<")) {
        const std::size_t gt = tk_.match_angle(k, r.e);
        if (gt == std::string::npos) break;
        targs = {k + 1, gt};
        k = gt + 1;
      }
      if (k >= r.e || !t_[k].is("(") || tk_.close(k) == std::string::npos) break;
      const auto args = tk_.args(k);
      if (m.is("schema") && args.size() == 1) {
        o.schema = literal(s_, args[0]);
        o.schema_range = args[0];
        if (!o.schema) return warn(m, "RegisterOperators::options().schema(...): not a string literal: not read"), false;
      } else if (m.is("aliasAnalysis") && args.size() == 1 && !args[0].empty()) {
        o.alias = std::string(t_[args[0].e - 1].text);
      } else if (m.is("kernel") || m.is("catchAllKernel")) {
        Kernel kern;
        const bool catch_all = m.is("catchAllKernel");
        // kernel<decltype(f), &f>(KEY) / catchAllKernel<decltype(f), &f>(): the function is the last template
        // argument; kernel(KEY, fn) / catchAllKernel(fn): the last argument.
        if (targs.b < targs.e && args.size() == (catch_all ? 0U : 1U)) {
          TokenRange fn{targs.b, targs.e};
          for (std::size_t q = targs.b; q < targs.e; ++q) {
            const std::size_t c = tk_.close(q);
            if (c != std::string::npos && c < targs.e) q = c;
            else if (t_[q].is(",")) fn.b = q + 1;
          }
          kern.range = fn;
          kern.k = fn.b == targs.b ? CppKernel{} : read_kernel(tk_, s_.files, fn, false);
          if (fn.b == targs.b) kern.k.unknown = "a functor kernel (kernel<Functor>) is not read";
        } else if (!args.empty()) {
          kern.range = args.back();
          kern.k = read_kernel(tk_, s_.files, args.back(), false);
        } else {
          return warn(m, fmt::format("RegisterOperators::options().{}(): not read", m.text)), false;
        }
        if (!catch_all && !args.empty() && !args[0].empty() && (targs.b < targs.e || args.size() == 2)) {
          const CppToken& kt = t_[args[0].e - 1];
          kern.key = cpp_key_name(kt.text);
          kern.key_at = s_.at(kt);
          if (kern.key->empty()) kern.key.reset();  // CatchAll
        }
        o.kernels.push_back(std::move(kern));
      } else {
        warn(m, fmt::format("RegisterOperators::options().{}(...) is not read", m.text));
      }
      j = tk_.close(k) + 1;
    }
    return true;
  }

  void emit(const Op& o) {
    if (!o.schema) return warn(*o.at, "RegisterOperators: an operator without a schema or name: not read");
    const std::string& schema = o.schema->value;
    const std::string name = schema.substr(0, schema.find('('));
    const std::size_t colons = name.find("::");
    if (colons == std::string::npos)
      return warn(*o.at, fmt::format("RegisterOperators: '{}' has no namespace (ns::name): not read", name));
    for (const Kernel& k : o.kernels)
      if (k.k.what == CppKernel::What::Unknown)
        return warn(t_[k.range.b < t_.size() ? k.range.b : 0],
                    fmt::format("RegisterOperators: the kernel of '{}' is not read ({}): the operator is not read", name,
                                k.k.unknown),
                    name);
    TomlBlock blk;
    blk.at = o.schema->at;
    blk.note = fmt::format("torch::RegisterOperators at line {} (no library block: c10's legacy registration)",
                           o.at->line);
    blk.add("namespace", name.substr(0, colons), o.schema->at);
    blk.add("kind", "FRAGMENT", s_.at(*o.at));
    TomlEntry d;
    d.kind = "def";
    d.at = s_.at(*o.at);
    if (schema.find('(') != std::string::npos) {
      d.add("schema", schema, o.schema->at, o.schema->span);
    } else {
      // A name: the schema c10 infers from the first kernel.
      if (o.kernels.empty() || !o.kernels.front().k.signature)
        return warn(*o.at, fmt::format("RegisterOperators: '{}' has no schema, and its kernel's C++ signature is not "
                                       "known{}: not read",
                                       name,
                                       o.kernels.empty() || o.kernels.front().k.unknown.empty()
                                           ? std::string()
                                           : " (" + o.kernels.front().k.unknown + ")"),
                    name);
      d.add("schema", name + *o.kernels.front().k.signature, o.schema->at, o.schema->span);
    }
    d.add("alias_analysis", o.alias.empty() ? std::string("CONSERVATIVE (default)") : o.alias, o.schema->at);
    d.add("debug", std::string(kDebug), s_.at(*o.at));
    blk.entries.push_back(std::move(d));
    for (const Kernel& k : o.kernels) {
      TomlEntry e;
      e.kind = "impl";
      const CppToken& kt = t_[k.range.b];
      e.at = s_.at(kt);
      e.add("op", name, o.schema->at, o.schema->span);
      if (k.key) e.add("key", *k.key, k.key_at);
      e.add("kernel", std::string(kDebug), s_.at(kt));
      if (k.k.what == CppKernel::What::Fallthrough) {
        e.add("fallthrough", true, s_.at(kt));
      } else {
        if (k.k.signature) e.add("signature", *k.k.signature, s_.at(kt));
        if (k.k.what == CppKernel::What::Boxed || k.k.symint) e.add("boxed_only", true, s_.at(kt));
        if (k.k.what == CppKernel::What::Function && !k.k.signature)
          warn(kt, fmt::format("RegisterOperators: the C++ signature of the kernel of '{}' is not known ({}): its "
                               "inferred schema is left out",
                               name, k.k.unknown));
      }
      blk.entries.push_back(std::move(e));
    }
    out_.blocks.push_back(std::move(blk));
  }

  const CppScan& s_;
  const CppTokens& tk_;
  const std::vector<CppToken>& t_;
  Blocks& out_;
};

}  // namespace

std::size_t register_operators(const CppScan& s, const CppTokens& tk, std::size_t i, Blocks& out) {
  return Legacy(s, tk, out).run(i);
}

}  // namespace dt::cppread
