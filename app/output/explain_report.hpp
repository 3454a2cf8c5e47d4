// `ddpsim collective --explain`'s outputs: for each size, every (algorithm, protocol) NCCL's choice
// weighs, NCCL's estimate beside ddpsim's time, the chosen one marked with who chose it. The
// numbers come from calibrate/collective_sweep.hpp explain_sweep.
#pragma once

#include <string>
#include <vector>

#include "calibrate/collective_sweep.hpp"

namespace ddpsim::app {

// `format`: nccl-tests (a commented text table), json or csv; `title` heads the text and JSON.
std::string explain_report(const std::vector<calibrate::CandidateRow>& rows, const std::string& format,
                           const std::string& title);

}  // namespace ddpsim::app
