// Must compile with sim/step's include root: the control for layering.study_from_step, so that
// test fails for the include rule and not for a broken command line.
#include "core/subprocess.hpp"
#include "sim/network/collective_model.hpp"
#include "sim/step/iteration.hpp"
