// What a step of a simulated call does, in words: the sentence for each of
// the resolver's tags (resolve/chain.hpp: Does), for trace's readable view
// and its JSON "does" member; and why backward does what it does through the
// call's outputs (resolve/backward.hpp: BackwardCause), for the backward line
// and JSON's "why".
#pragma once

#include <string>

#include "resolve/backward.hpp"
#include "resolve/chain.hpp"

namespace dt {

std::string does_text(const StepDoes& d);
std::string backward_why(const BackwardResult& b);

}  // namespace dt
