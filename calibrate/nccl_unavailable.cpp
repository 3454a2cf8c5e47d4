// Used when CUDA or NCCL was not found at build time: the runner says so instead of running.
#include "calibrate/nccl_runner.hpp"
#include "core/error.hpp"

namespace ddpsim::calibrate {

bool nccl_runner_available() { return false; }

NcclRun run_nccl_allreduce(const NcclSweep&)
{
  throw UserError("this ddpsim was built without CUDA/NCCL; rebuild on a machine with the CUDA toolkit and NCCL, "
                  "or run nccl-tests and use `ddpsim calibrate fit`");
}

}  // namespace ddpsim::calibrate
