// `ddpsim expect`'s outputs (issue 20): the expectation table, the graded log, and both as JSON.
// The numbers come from calibrate/expect.hpp.
#pragma once

#include <string>
#include <vector>

#include "calibrate/expect.hpp"

namespace ddpsim::app {

std::string expect_table(const calibrate::Expectation& e);
std::string expect_json(const calibrate::Expectation& e, const std::vector<calibrate::CheckRow>* check);
std::string check_table(const calibrate::Expectation& e, const std::vector<calibrate::CheckRow>& rows,
                        const std::string& log_file);

}  // namespace ddpsim::app
