// Must NOT compile with sim/network's include root: the training step sits above the network.
#include "sim/network/network.hpp"
#include "sim/step/iteration.hpp"
