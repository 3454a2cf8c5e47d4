#include "sim/network/guards.hpp"

#include <cmath>

#include "core/error.hpp"

namespace ddpsim::sim {
namespace {

// Peak RSS measured with `/usr/bin/time -f %M` (docs/reliability.md has the table): a fixed
// base, a cost per simulated GPU (topology, ring orders, per-rank schedules), and for all-to-all
// frameworks a cost per pair of nodes. Each coefficient is rounded up from the measurements so
// the guard does not let through what then dies:
//   ring, analytical: 131,072 GPUs 204 MiB -> 1.3 KiB/GPU; flow (per rank unfolded) 10 KiB/GPU;
//   all-to-all, analytical: 512/1024/2048 nodes of 8 GPUs 58/112/319 MiB -> ~73 B per node pair;
//   collective sweep: 1,024 GPUs 39 MiB; 16,384 GPUs more than 1.05 GiB (stopped at 300 s).
constexpr double kBaseBytes = 48.0 * (1 << 20);
constexpr double kBytesPerGpuAnalytical = 2.0 * 1024;
constexpr double kBytesPerGpuFlow = 12.0 * 1024;
constexpr double kBytesPerNodePairAnalytical = 96;
constexpr double kBytesPerNodePairFlow = 1024;
constexpr double kBytesPerGpuSquaredCollective = 5;
// Per collective of a step (issue 21): zero-2 on GPT-2 XL with bucket_cap_mb 1 and 0.1 (2,971 and
// 29,710 parameter gathers): 64 GPUs 49 -> 137 MiB, 512 GPUs 112 -> 762 MiB, so about
// 0.3 KiB + 47 B per GPU per collective; rounded up.
constexpr double kBytesPerCollective = 512;
constexpr double kBytesPerCollectivePerGpu = 64;

std::string gib(double bytes)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / static_cast<double>(GiB));
  return buf;
}

}  // namespace

ResourceEstimate estimate_resources(std::int64_t nodes, std::int64_t gpus_per_node, EngineKind engine, Workload workload)
{
  ResourceEstimate e;
  const double n = static_cast<double>(nodes), gpus = n * static_cast<double>(gpus_per_node);
  e.gpus = nodes * gpus_per_node;
  const bool flow = engine == EngineKind::flow;
  double bytes = kBaseBytes + gpus * (flow ? kBytesPerGpuFlow : kBytesPerGpuAnalytical);
  if (workload == Workload::all_to_all) bytes += n * n * (flow ? kBytesPerNodePairFlow : kBytesPerNodePairAnalytical);
  if (workload == Workload::collective) bytes += gpus * gpus * kBytesPerGpuSquaredCollective;
  // One flow per rank per ring step; all-to-all adds one per node pair.
  if (flow) e.flows = static_cast<std::int64_t>(2 * gpus + (workload == Workload::all_to_all ? n * n : 0));
  e.memory = Bytes{static_cast<std::uint64_t>(std::min(bytes, 1.8e19))};
  return e;
}

void check_resources(std::int64_t nodes, std::int64_t gpus_per_node, EngineKind engine, Workload workload,
                     const ResourceLimits& limits, const std::string& field)
{
  if (nodes < 1 || gpus_per_node < 1) return;  // the loaders refuse these with their own messages
  if (nodes > kMaxSimulatedGpus || nodes * gpus_per_node > kMaxSimulatedGpus)
    throw UserError(SourceLocation{}, field,
                    std::to_string(nodes) + " nodes x " + std::to_string(gpus_per_node) + " GPUs = " +
                        std::to_string(nodes * gpus_per_node) + " GPUs, more than the " +
                        std::to_string(kMaxSimulatedGpus) + " ddpsim simulates");
  const ResourceEstimate e = estimate_resources(nodes, gpus_per_node, engine, workload);
  if (e.memory > limits.max_memory)
    throw UserError(SourceLocation{}, field,
                    std::to_string(e.gpus) + " GPUs on the " + std::string(to_string(engine)) + " engine need about " +
                        gib(e.memory.as_double()) + ", more than --max-memory " + gib(limits.max_memory.as_double()) +
                        (engine == EngineKind::flow ? " (try --engine analytical, or raise --max-memory)"
                                                    : " (use fewer nodes, or raise --max-memory)"));
}

void check_collectives(std::uint64_t collectives, std::int64_t gpus, const ResourceLimits& limits,
                       const std::string& field)
{
  const double bytes = kBaseBytes + static_cast<double>(collectives) *
                                        (kBytesPerCollective + kBytesPerCollectivePerGpu * static_cast<double>(gpus));
  if (bytes > limits.max_memory.as_double())
    throw UserError(SourceLocation{}, field,
                    std::to_string(collectives) + " collectives per step on " + std::to_string(gpus) +
                        " GPUs need about " + gib(bytes) + ", more than --max-memory " +
                        gib(limits.max_memory.as_double()) + " (use larger buckets)");
}

Bytes parse_max_memory(const std::string& text)
{
  try {
    const Bytes b = parse_bytes(text);
    if (b.n < (64u << 20)) throw ValueError("must be at least 64MiB, got \"" + text + "\"");
    return b;
  } catch (const ValueError& e) {
    throw UserError(SourceLocation{}, "--max-memory", e.what());
  }
}

}  // namespace ddpsim::sim
