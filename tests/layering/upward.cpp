// Must NOT compile with the algorithms layer's include root: algorithms sit below sim/, so the
// network backend's header is not on their include path (tests/CMakeLists.txt, layering.*).
#include "algorithms/algorithm.hpp"
#include "sim/network/network.hpp"
