#include "sim/step/loader.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace ddpsim::sim {

double loader_vcpus(int workers, int vcpus, int gpus_per_node)
{
  DDPSIM_CHECK(workers > 0 && gpus_per_node > 0, "loader: workers and GPUs per node must be positive");
  if (vcpus <= 0) return workers;
  const double free = vcpus > gpus_per_node ? vcpus - gpus_per_node : vcpus;
  return std::min(static_cast<double>(workers), free / gpus_per_node);
}

Time loader_time(double samples, double per_sample_cpu_s, int workers, int vcpus, int gpus_per_node)
{
  return Time::from_seconds(per_sample_cpu_s * samples / loader_vcpus(workers, vcpus, gpus_per_node));
}

double loader_share_lost(int workers, int vcpus, int gpus_per_node, int spinning)
{
  DDPSIM_CHECK(workers > 0 && gpus_per_node > 0, "loader: workers and GPUs per node must be positive");
  if (spinning <= 0 || vcpus <= 0) return 0;
  const double free = vcpus > gpus_per_node ? vcpus - gpus_per_node : vcpus;
  const double w = static_cast<double>(workers) * gpus_per_node;
  const double before = std::min(w, free);
  const double during = std::min(w, free * w / (w + spinning));
  return 1.0 - during / before;
}

}  // namespace ddpsim::sim
