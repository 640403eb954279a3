// static_init_head (cpp_reader_impl.hpp): TORCH_LIBRARY's expansion written
// out by a project's own macro, read as the library block it registers.
#include <fmt/format.h>

#include "readers/cpp_reader_impl.hpp"

namespace dt::cppread {

std::optional<StaticInitBlock> static_init_head(const CppScan& s, const CppTokens& tk, std::size_t i, Blocks& out,
                                                std::size_t& next) {
  const std::vector<CppToken>& t = tk.t;
  next = i;
  if (i + 2 >= t.size() || t[i + 1].kind != Kind::Ident || !t[i + 2].is("(")) return std::nullopt;
  const std::size_t pclose = tk.close(i + 2);
  if (pclose == std::string::npos) return std::nullopt;
  const auto a = tk.args(i + 2);
  const auto last_ident = [&](TokenRange r) -> const CppToken* {
    for (std::size_t j = r.e; j > r.b; --j)
      if (t[j - 1].kind == Kind::Ident) return &t[j - 1];
    return nullptr;
  };
  const auto not_read = [&](std::string_view why) -> std::optional<StaticInitBlock> {
    warn(out, s, t[i],
         fmt::format("a torch::detail::TorchLibraryInit written out ({}): {}: its registrations are not read",
                     text(t, {i + 3, pclose}), why));
    next = pclose;
    return std::nullopt;
  };
  if (a.size() < 4) return not_read("not the six arguments of TORCH_LIBRARY's expansion");
  const CppToken* kind = last_ident(a[0]);
  if (kind == nullptr || !(kind->is("DEF") || kind->is("FRAGMENT") || kind->is("IMPL")))
    return not_read("its first argument is not torch::Library::DEF, FRAGMENT or IMPL");
  // &INIT, or 2.6's (dispatch_key_allowlist_check(...) ? &INIT : [](torch::Library&) -> void {}).
  const CppToken* init = nullptr;
  for (std::size_t j = a[1].b; j + 1 < a[1].e && init == nullptr; ++j)
    if (t[j].is("&") && t[j + 1].kind == Kind::Ident) init = &t[j + 1];
  if (init == nullptr) return not_read("its second argument is not &FUNCTION");
  const CppToken& ns = t[a[2].b];
  if (a[2].e != a[2].b + 1 || (ns.kind != Kind::String && ns.kind != Kind::Ident))
    return not_read("its namespace is not a string literal");
  const std::string_view ns_name = ns.kind == Kind::String ? std::string_view(ns.value) : ns.text;
  const CppToken* key = nullptr;
  if (kind->is("IMPL")) {
    for (std::size_t j = a[3].b; j + 2 < a[3].e; ++j)
      if (t[j].is("DispatchKey") && t[j + 1].is("::")) key = &t[j + 2];
    if (key == nullptr) return not_read("its dispatch key is not std::make_optional(c10::DispatchKey::KEY)");
  }
  // The definition of INIT: void INIT(torch::Library& m) { ... } after the initializer.
  std::size_t j = pclose + 1;
  if (j < t.size() && t[j].is(";")) ++j;
  if (!(j + 2 < t.size() && t[j].is("void") && t[j + 1].text == init->text && t[j + 2].is("(")))
    return not_read(fmt::format("the definition of {} does not follow it", init->text));
  const std::size_t params_close = tk.close(j + 2);
  if (params_close == std::string::npos || params_close + 1 >= t.size() || !t[params_close + 1].is("{"))
    return not_read(fmt::format("the definition of {} does not follow it", init->text));
  const std::size_t body = params_close + 1, body_end = tk.close(body);
  const CppToken* handle = last_ident({j + 3, params_close});
  if (body_end == std::string::npos || handle == nullptr)
    return not_read(fmt::format("{}'s body has no closing brace or its parameter no name", init->text));
  next = body_end;
  return StaticInitBlock{{t[i], "TORCH_LIBRARY's expansion (torch::detail::TorchLibraryInit)", kind->text, ns,
                          ns_name, key, key == nullptr ? std::string() : cpp_key_name(key->text),
                          std::string(handle->text), false},
                         body, body_end};
}

}  // namespace dt::cppread
