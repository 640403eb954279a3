// What a step of a simulated call does, in words: the sentence for each of
// the resolver's tags (resolve/chain.hpp: Does), for trace's readable view
// and its JSON "does" member.
#pragma once

#include <string>

#include "resolve/chain.hpp"

namespace dt {

std::string does_text(const StepDoes& d);

}  // namespace dt
