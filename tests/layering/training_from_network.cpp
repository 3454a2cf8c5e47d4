// Must NOT compile with sim/network's include root: the training model sits above the network.
#include "sim/network/network.hpp"
#include "sim/training/scenario.hpp"
