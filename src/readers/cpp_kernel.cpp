// read_kernel and CppTokens (cpp_kernel.hpp).
#include "readers/cpp_kernel.hpp"

#include <fmt/format.h>

#include <array>
#include <tuple>

namespace dt {

std::vector<TokenRange> CppTokens::args(std::size_t open) const {
  std::vector<TokenRange> out;
  const std::size_t end = close(open);
  std::size_t b = open + 1;
  for (std::size_t i = open + 1; i < end; ++i) {
    const std::size_t c = close(i);
    if (c != std::string::npos) {
      i = c;
      continue;
    }
    if (t[i].is("<")) {  // template arguments: up to the matching '>' (within 256 steps; else a comparison)
      const std::size_t m = match_angle(i, end, 256);
      if (m != std::string::npos) i = m;
      continue;
    }
    if (t[i].is(",")) {
      out.push_back({b, i});
      b = i + 1;
    }
  }
  if (b < end || !out.empty()) out.push_back({b, end});
  return out;
}

std::pair<std::string_view, std::size_t> CppTokens::path(std::size_t j, std::size_t e) const {
  std::string_view last;
  if (j < e && t[j].is("::")) ++j;
  while (j < e && t[j].kind == CppToken::Kind::Ident) {
    last = t[j].text;
    if (j + 2 < e && t[j + 1].is("::") && t[j + 2].kind == CppToken::Kind::Ident) {
      j += 2;
      continue;
    }
    ++j;
    break;
  }
  return {last, j};
}

bool CppTokens::declares(std::string_view name) const {
  if (!functions_) functions_ = index_functions(t, close_);
  return functions_->by_name.contains(name);
}

std::optional<CppFunctionDecl> CppTokens::function(std::size_t b, std::size_t e, std::size_t use) const {
  if (!functions_) functions_ = index_functions(t, close_);  // once per file: files with many kernels
  return functions_->find(t, b, e, use);
}

std::string cpp_key_name(std::string_view k) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kAliases = {{
      {"CatchAll", ""},
      {"DefaultBackend", "CompositeExplicitAutograd"},
      {"Autocast", "AutocastCUDA"},
      {"PrivateUse1_PreAutograd", "AutogradPrivateUse1"},
      {"PrivateUse2_PreAutograd", "AutogradPrivateUse2"},
      {"PrivateUse3_PreAutograd", "AutogradPrivateUse3"},
      {"Undefined", ""},
  }};
  for (const auto& [a, b] : kAliases)
    if (k == a) return std::string(b);
  // c10::DeviceType constants (c10/core/DeviceType.h) -> computeDispatchKey.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kDevices = {{
      {"kCPU", "CPU"}, {"kCUDA", "CUDA"}, {"kHIP", "HIP"}, {"kXLA", "XLA"}, {"kMPS", "MPS"}, {"kXPU", "XPU"},
      {"kMeta", "Meta"}, {"kHPU", "HPU"}, {"kLazy", "Lazy"}, {"kIPU", "IPU"}, {"kMTIA", "MTIA"},
      {"kPrivateUse1", "PrivateUse1"},
  }};
  for (const auto& [a, b] : kDevices)
    if (k == a) return std::string(b);
  return std::string(k);
}

namespace {

using Kind = CppToken::Kind;

class KernelReader {
 public:
  KernelReader(const CppTokens& tk, const std::vector<FileName>& files, bool stable)
      : tk_(tk), t(tk.t), files_(files), stable_(stable) {}

  CppKernel kernel(TokenRange r, int depth = 0) const {
    CppKernel k;
    if (r.empty()) {
      k.unknown = "an empty kernel expression";
      return k;
    }
    if (depth > kCppMaxDepth) {
      k.unknown = fmt::format("a kernel expression nested deeper than {}", kCppMaxDepth);
      return k;
    }
    std::size_t j = r.b;
    if (t[j].is("[")) return lambda(r);
    // (f): the parentheses a template-id with commas needs inside a macro argument.
    if (t[j].is("(") && tk_.close(j) != std::string::npos && tk_.close(j) + 1 == r.e && r.e - r.b > 2)
      return kernel(TokenRange{j + 1, r.e - 1}, depth + 1);
    const bool addr = t[j].is("&");
    if (addr) ++j;
    auto [last, after] = tk_.path(j, r.e);
    const std::size_t name_end = after;  // after the (qualified) name, before any template arguments
    if (!addr && after < r.e && t[after].is("(") && tk_.close(after) != std::string::npos && tk_.close(after) + 1 == r.e) {
      const auto inner = tk_.args(after);
      if (last == "dispatch" && inner.size() == 2 && !inner[0].empty()) {
        CppKernel in = kernel(inner[1], depth + 1);
        const CppToken& kt = t[inner[0].e - 1];
        in.key = cpp_key_name(kt.text);
        in.key_at = Location{files_[kt.file], kt.line, kt.col};
        return in;
      }
      if (last == "makeFallthrough" && inner.empty()) {
        k.what = CppKernel::What::Fallthrough;
        return k;
      }
      if ((last == "TORCH_FN" || last == "makeFromUnboxedFunction") && inner.size() == 1)
        return kernel(inner[0], depth + 1);
      if (last == "TORCH_BOX" && inner.size() == 1) {
        k.what = CppKernel::What::Boxed;
        return k;
      }
      if (last == "makeFromBoxedFunctor" || last == "makeFromBoxedKernel") {
        k.what = CppKernel::What::Boxed;
        return k;
      }
    }
    if (!addr && after < r.e && t[after].is("<") && (last == "makeFromBoxedFunction" || last == "makeFromBoxedFunctor")) {
      k.what = CppKernel::What::Boxed;
      return k;
    }
    if (after < r.e && t[after].is("<") && last == "WrapFunction") return wrap_function(after, r);
    if (after < r.e && t[after].is("<") && !last.empty()) {
      // f<A, B>: a specialization of a function template, whose signature
      // is the template's (torchvision's autocast kernels).
      const std::size_t gt = tk_.match_angle(after, r.e);
      if (gt + 1 == r.e) {
        after = r.e;
      } else if (gt != std::string::npos && gt + 2 < r.e && t[gt + 1].is("::") && !stable_ &&
                 tk_.path(gt + 2, r.e).second == r.e && !tk_.function(j, name_end, r.b)) {
        // C<A>::run: a static member of a class template's specialization
        // (PyTorch's quantized cuDNN kernels, QConvInt8<2, false>::run). A
        // function all the same; its signature is the class's, not looked up.
        k.what = CppKernel::What::Function;
        std::string written;
        for (std::size_t w = j; w < r.e; ++w) written += t[w].text;
        k.unknown = fmt::format(
            "'{}' is a member of a class template's specialization, whose signature is not "
            "looked up",
            written);
        return k;
      }
    }
    if (after == r.e && !last.empty()) {
      if (stable_) {  // StableLibrary::impl takes a boxed function
        k.what = CppKernel::What::Boxed;
        return k;
      }
      k.what = CppKernel::What::Function;
      const std::optional<CppFunctionDecl> decl = tk_.function(j, name_end, r.b);
      if (!decl) {
        std::string written;
        for (std::size_t w = j; w < name_end; ++w) written += t[w].text;
        k.unknown = tk_.declares(last) ? fmt::format("no declaration of '{}' visible where it is registered (only "
                                                     "in other namespaces or classes)",
                                                     written)
                                       : fmt::format("no declaration of '{}' in this file or the headers it includes",
                                                     last);
        return k;
      }
      std::string why;
      k.signature = infer_signature(t, decl->rb, decl->re, decl->pb, decl->pe, why, &tk_.aliases());
      k.unknown = why;
      k.symint = k.signature && has_symint_argument(*k.signature);
      return k;
    }
    k.what = stable_ ? CppKernel::What::Boxed : CppKernel::What::Function;  // StableLibrary::impl takes a boxed one
    k.opaque = true;
    k.unknown = "a kernel expression dispatchtool does not read";
    return k;
  }

  // &at::autocast::WrapFunction<POLICY, DEVICE, REGISTER_SIGNATURE, REDISPATCH_SIGNATURE, &FN>::type::call, as
  // autocast's KERNEL macros write it: the kernel's signature is REGISTER_SIGNATURE, either
  // decltype(ATEN_FN(op)) (the operator's own: computed from its schema) or a function type.
  CppKernel wrap_function(std::size_t open, TokenRange r) const {
    CppKernel k;
    const std::size_t gt = tk_.match_angle(open, r.e);
    if (gt == std::string::npos || gt + 5 != r.e || !t[gt + 1].is("::") || !t[gt + 2].is("type") ||
        !t[gt + 3].is("::") || !t[gt + 4].is("call")) {
      k.unknown = "a WrapFunction<...> kernel dispatchtool does not read";
      return k;
    }
    // The template arguments, split at top-level commas.
    std::vector<TokenRange> args;
    std::size_t b = open + 1;
    for (std::size_t q = open + 1; q < gt; ++q) {
      const std::size_t c = tk_.close(q);
      if (c != std::string::npos && c < gt) {
        q = c;
      } else if (t[q].is("<")) {
        const std::size_t m = tk_.match_angle(q, gt);
        if (m != std::string::npos) q = m;
      } else if (t[q].is(",")) {
        args.push_back({b, q});
        b = q + 1;
      }
    }
    args.push_back({b, gt});
    if (args.size() != 5 || args[2].empty()) {
      k.unknown = "a WrapFunction<...> kernel with other than five template arguments";
      return k;
    }
    k.what = CppKernel::What::Function;
    const TokenRange sig = args[2];
    if (t[sig.b].is("decltype")) {
      k.op_signature = true;
      return k;
    }
    // A function type: RETURN(PARAMS).
    std::size_t po = sig.e;
    for (std::size_t q = sig.b; q < sig.e; ++q)
      if (t[q].is("(") && tk_.close(q) + 1 == sig.e) po = q;
    if (po == sig.e) {
      k.unknown = "a WrapFunction<...> signature that is not a function type";
      return k;
    }
    std::string why;
    k.signature = infer_signature(t, sig.b, po, po + 1, sig.e - 1, why, &tk_.aliases());
    k.unknown = why;
    k.symint = k.signature && has_symint_argument(*k.signature);
    return k;
  }

  // [captures](params) [mutable] [-> ret] { body }
  CppKernel lambda(TokenRange r) const {
    CppKernel k;
    k.what = CppKernel::What::Function;
    std::size_t j = tk_.close(r.b);
    if (j == std::string::npos || j + 1 >= r.e || !t[j + 1].is("(") || tk_.close(j + 1) == std::string::npos) {
      k.unknown = "a lambda without a parameter list";
      return k;
    }
    const std::size_t po = j + 1, pc = tk_.close(po);
    std::size_t q = pc + 1;
    while (q < r.e && (t[q].is("mutable") || t[q].is("noexcept"))) ++q;
    std::size_t rb = 0, re = 0;
    if (q < r.e && t[q].is("->")) {
      rb = q + 1;
      re = rb;
      while (re < r.e && !t[re].is("{")) ++re;
    } else {
      // No trailing return type: what `return NAME;` returns when NAME is a parameter.
      const std::size_t body = q;
      if (body >= r.e || !t[body].is("{") || tk_.close(body) == std::string::npos) {
        k.unknown = "a lambda without a body";
        return k;
      }
      std::optional<std::pair<std::size_t, std::size_t>> ret;
      bool returns = false;
      for (std::size_t x = body + 1; x + 2 < tk_.close(body); ++x) {
        if (!t[x].is("return")) continue;
        returns = true;
        if (!t[x + 2].is(";")) {
          ret.reset();
          break;
        }
        // the parameter named t[x+1]
        std::size_t b = po + 1;
        for (std::size_t y = po + 1; y <= pc; ++y) {
          if (y == pc || t[y].is(",")) {
            if (y > b && t[y - 1].text == t[x + 1].text) ret = std::pair{b, y - 1};
            b = y + 1;
          }
        }
        if (!ret) break;
      }
      if (!returns) {
        // No return statement: void, "-> ()". The return type and the
        // parameters are read from one token vector: `void` then the parameters.
        std::vector<CppToken> v(1);
        v[0].kind = Kind::Ident;
        v[0].text = "void";
        v.insert(v.end(), t.begin() + static_cast<std::ptrdiff_t>(po + 1), t.begin() + static_cast<std::ptrdiff_t>(pc));
        std::string why;
        k.signature = infer_signature(v, 0, 1, 1, v.size(), why, &tk_.aliases());
        k.unknown = why;
        k.symint = k.signature && has_symint_argument(*k.signature);
        return k;
      }
      if (!ret) {
        k.unknown = "a lambda whose return type is deduced from an expression";
        return k;
      }
      std::tie(rb, re) = *ret;  // auto: the parameter's type, decayed
    }
    std::string why;
    k.signature = infer_signature(t, rb, re, po + 1, pc, why, &tk_.aliases());
    k.unknown = why;
    k.symint = k.signature && has_symint_argument(*k.signature);
    return k;
  }

 private:
  const CppTokens& tk_;
  const std::vector<CppToken>& t;
  const std::vector<FileName>& files_;
  bool stable_;
};

}  // namespace

CppKernel read_kernel(const CppTokens& toks, const std::vector<FileName>& files, TokenRange r, bool stable) {
  return KernelReader(toks, files, stable).kernel(r);
}

}  // namespace dt
