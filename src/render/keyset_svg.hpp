// A picture of the key set a call is dispatched on (`trace --format svg`):
// c10's DispatchKeySet as what it is, two bit sets. Rows are functionality
// bits (highest priority on top), columns are backend bits; a per-backend
// functionality (Dense, Sparse, AutogradFunctionality, ...) is in the set on
// every backend column that is, so its cells light up as a cross product.
// The thread-local included and excluded keys and the operator's fallthrough
// mask are marked on the rows they change, and the cell that runs (the
// highest row on the highest lit column) is outlined.
#pragma once

#include <string>

#include "render/trace.hpp"

namespace dt {

// SVG 1.1, self-contained (no script, no external reference), deterministic;
// every cell has a class naming its state (in, excluded, masked, off) and a
// data-key attribute naming the runtime key, for tests and stylesheets.
// Draws the first call of the trace (its fresh key set); false when the trace
// has no call (it stopped before any key set was formed).
bool render_keyset_svg(const TraceView& v, std::string& out);

}  // namespace dt
