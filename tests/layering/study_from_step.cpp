// Must NOT compile with sim/step's include root: studies (the scenario runner, plans, what-ifs)
// run steps and sit above them; a step cannot see a study.
#include "sim/step/iteration.hpp"
#include "sim/study/scenario.hpp"
