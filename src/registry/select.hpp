// What a view shows: the operators named by --op and the dispatch keys named
// by --keys, and the KeyFilter the renderers take. Errors have no location
// (their message does not name the option); the front end prints them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "registry/model.hpp"

namespace dt {

// Restricts the rows/lines a view shows; empty = everything.
struct KeyFilter {
  bool active = false;
  std::vector<KeyId> keys;  // runtime keys (aliases already expanded) or registered keys
  [[nodiscard]] bool empty() const { return !active; }
  [[nodiscard]] bool allows(KeyId k) const;
};

// --keys K1,K2,...
struct KeySelection {
  // Runtime keys (table rows), each once, in the order given: an alias key
  // stands for its runtime keys, a building block (Dense, Sparse, ...) for its
  // per-backend runtime keys, both in table order.
  KeyFilter table;
  // Registered keys: the keys given and the runtime keys they stand for, so
  // `Autograd` shows kernels registered on Autograd and on AutogradCPU.
  KeyFilter registrations;
};

// Parses a comma-separated list of key names (spaces around names ignored;
// PrivateUse1 keys also under the registry's renamed backend). Errors: an
// unknown key ("could not parse dispatch key: X (did you mean 'Y'?)"), or a list
// without any name ("no keys given").
Expected<KeySelection, Diagnostic> parse_key_filter(const Registry& reg, std::string_view spec);

// The operators named by `wanted` (each `ns::name.overload`, or an unqualified
// `name.overload` that exactly one namespace has), sorted by qualified name,
// each once; every operator of the registry when `wanted` is empty. Names are
// looked up among the registrations and the profile's operator library (an
// operator found there is materialized). Errors: an ambiguous unqualified name
// (listing the candidates), an unknown name (with a suggestion, see
// suggest_operator).
Expected<std::vector<const Operator*>, Diagnostic> select_ops(Registry& reg, const std::vector<std::string>& wanted);

// Which operators a listing keeps (ops, table --tag, coverage --tag).
struct OpFilter {
  std::vector<std::string> namespaces;    // any of these (empty: every namespace)
  std::vector<std::string> tags;          // every one of these
  std::vector<std::string> exclude_tags;  // none of these
  std::string pattern;                    // glob over the qualified name (base/text.hpp); "" = any
  [[nodiscard]] bool empty() const {
    return namespaces.empty() && tags.empty() && exclude_tags.empty() && pattern.empty();
  }
};

// Checks a filter against the registry before it is used, with the registry's
// answer for what is unknown: a tag the profile does not list (did-you-mean
// and the profile's tags), a namespace no operator has (did-you-mean), a name
// without wildcards that names no operator (suggest_operator). The error
// names the filter's field; its message does not (the front end names it as
// its users write it: --tag on the command line).
enum class FilterField : std::uint8_t { Tags, ExcludeTags, Namespaces, Pattern };
struct FilterError {
  FilterField field;
  Diagnostic diagnostic;
};
Expected<Ok, FilterError> check_filter(const Registry& reg, const OpFilter& f);
// The operators of `ops` that the filter keeps, in order.
std::vector<const Operator*> filter_ops(const std::vector<const Operator*>& ops, const OpFilter& f);
// Whether one operator passes (tags are its definition's; a dangling impl has none).
bool passes(const Operator& op, const OpFilter& f);

// " (did you mean 'X'?)", " (did you mean one of 'X', 'Y'?)" or "" for an
// operator name `word` that is not in `reg` (nor in its library). Compares qualified names, and
// for an unqualified `word` unqualified names too, each with and without the
// overload name; a name that matches an operator without its overload name
// suggests that operator's overloads (every one, sorted).
std::string suggest_operator(const Registry& reg, std::string_view word);

}  // namespace dt
