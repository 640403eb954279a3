// dispatchtool public API: Expected<T, E>, a value or an error, in the spirit
// of C++23 std::expected. Every fallible call of the API (and of the core
// behind it) returns Expected<T, Diagnostic>; nothing throws for bad input.
//
//   dispatchtool::Expected<int, dispatchtool::Diagnostic> r = ...;
//   if (!r) handle(r.error()); else use(*r);
#pragma once

#include <type_traits>
#include <utility>
#include <variant>

namespace dispatchtool {

// The error side, as `return unexpected(make_error(...));` builds it.
template <class E>
struct Unexpected {
  E error;
};

template <class E>
Unexpected<std::decay_t<E>> unexpected(E&& e) {
  return {std::forward<E>(e)};
}

template <class T, class E>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)
  template <class G>
  Expected(Unexpected<G> e) : v_(std::in_place_index<1>, std::move(e.error)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  // The value; only when has_value() (otherwise std::bad_variant_access).
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // The error; only when !has_value().
  E& error() & { return std::get<1>(v_); }
  const E& error() const& { return std::get<1>(v_); }
  E&& error() && { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, E> v_;
};

// Expected<Ok, E>: success without a value.
struct Ok {};

}  // namespace dispatchtool
