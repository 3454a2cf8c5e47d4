// Must compile with the algorithms layer's include root: the control for layering.upward, so
// that test fails for the include rule and not for a broken command line.
#include "algorithms/algorithm.hpp"
#include "core/units.hpp"
#include "topology/topology.hpp"
