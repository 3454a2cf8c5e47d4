// The input pipeline's time per optimizer step on one GPU (issue 18 item 3: input pipeline CPU
// contention inside a node).
//
// Each GPU's `workers` loader processes preprocess its samples in parallel, one vCPU each, at
// `per_sample_cpu_s` CPU seconds per sample. The node's vCPUs are shared: each GPU's training
// process keeps one busy (its main thread launches kernels and runs the framework's hooks), and
// the loader workers of all the node's GPUs time-share the rest. The OS scheduler gives runnable
// processes equal shares, so W workers on C < W vCPUs each run at C / W: a GPU's workers together
// get at most (vcpus - gpus_per_node) / gpus_per_node vCPUs. Asking for more workers than that
// adds no CPU (PyTorch's DataLoader warns when num_workers exceeds the CPUs it may use); fewer
// leave vCPUs idle. The share is what makes one GPU of a node faster than eight when the
// workers were sized for one (docs/model.md "Input pipeline").
#pragma once

#include "core/units.hpp"

namespace ddpsim::sim {

// vCPUs the loader workers of one GPU run on: min(workers, (vcpus - gpus_per_node) / gpus_per_node);
// `workers` when the node's vCPU count is unknown (0). Never below one vCPU per node's share of
// the remainder: a node with no more vCPUs than GPUs still gives each GPU's workers
// vcpus / gpus_per_node (they time-share with the training processes).
double loader_vcpus(int workers, int vcpus, int gpus_per_node);

// Loading `samples` samples (a step's micro-batches) at `per_sample_cpu_s` on `loader_vcpus`.
Time loader_time(double samples, double per_sample_cpu_s, int workers, int vcpus, int gpus_per_node);

// The share of the loader's throughput that `spinning` busy-polling threads per node take while
// they run (NCCL's socket helper threads during a collective across nodes: InstanceSpec's
// nic.spinning_threads). They share the loader's vCPUs (vcpus - gpus_per_node) with the node's
// W = workers x gpus_per_node workers in equal shares, so the workers get min(W, free x W / (W +
// spinning)) instead of min(W, free): nothing is lost while W + spinning fit in the free vCPUs.
// A loader-bound step that keeps them running for T of its period then takes L + T x share
// (the workers' CPU seconds per step are fixed; they run slower for T).
double loader_share_lost(int workers, int vcpus, int gpus_per_node, int spinning);

}  // namespace ddpsim::sim
