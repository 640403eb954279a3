// "Why does this key get that kernel?": the steps of
// computeDispatchTableEntryWithDebug for one operator and key, in words, with
// what the result means when the operator is called.
#pragma once

#include <string>

#include "render/readable.hpp"
#include "resolve/resolver.hpp"

namespace dt {

void render_explain(const Resolver& r, const Operator& op, KeyId key, const HumanStyle& style, std::string& out);

}  // namespace dt
