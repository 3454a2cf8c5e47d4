// NCCL's buffer steps, which the chunk fills of its Simple tree (tree_pipeline.cpp) and its NVLS
// pipeline (nvls_pipeline.cpp) both start from.
#pragma once

#include <cstdint>

#include "topology/instance.hpp"

namespace ddpsim::sim {

inline constexpr std::uint64_t kNcclSteps = 8;  // NCCL_STEPS (src/include/device.h)

// One step of the Simple protocol's buffer: NCCL_BUFFSIZE / NCCL_STEPS (buffSizes[SIMPLE] /
// NCCL_STEPS in computeCollChunkInfo, src/enqueue.cc).
inline std::uint64_t nccl_simple_step_bytes(const InstanceSpec& inst) { return inst.nccl_buffsize.n / kNcclSteps; }

}  // namespace ddpsim::sim
