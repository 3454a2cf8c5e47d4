// How each training framework turns a step's gradients into communication jobs. Given when each
// layer's gradients become ready in backward, a framework says which gradient buffers it reduces,
// how many bytes each holds and when each may start; the collective algorithm and the network
// backend then say how long each takes. docs/model.md has the rules and their sources.
//   pytorch-ddp, lightning: DDP buckets (sim/buckets.hpp), launched when their last gradient is
//     ready; Lightning's DDPStrategy wraps the same DistributedDataParallel, plus a per-step overhead.
//   horovod: Tensor Fusion: every cycle_time the background thread fuses the gradients that are
//     ready into buffers of at most fusion_threshold bytes (horovod/common/operations.cc,
//     controller.cc); defaults 64 MiB / 5 ms before Nov 2020 and 128 MiB / 1 ms after (FACTS.md).
//   smddp: SMDDP is a c10d process-group backend ("smddp"), so DDP's Reducer forms the same
//     buckets; SMDDP's balanced fusion buffer holds them until it exceeds its threshold, then
//     reduces the buffer with Herring (algorithms/herring.hpp), sharded evenly over the servers.
//   parameter-server, gloo: DDP buckets, reduced with the classic parameter server or a CPU ring.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.hpp"
#include "sim/step/buckets.hpp"
#include "sim/step/model.hpp"

namespace ddpsim::sim {

//   zero-1, zero-2, zero-3, fsdp: sharded data parallel (sim/step/sharded.hpp): DDP-style
//     gradient buckets reduce-scattered, parameters all-gathered.
enum class Framework { pytorch_ddp, lightning, horovod, smddp, parameter_server, gloo, apex_ddp, zero1, zero2, zero3, fsdp };
std::string_view to_string(Framework f);
std::vector<std::string> framework_names();
std::optional<Framework> parse_framework(std::string_view name);

// What a framework shards across the data-parallel ranks (sim/step/sharded.hpp): nothing, the
// optimizer state (ZeRO-1), also the gradients (ZeRO-2), also the parameters (ZeRO-3, FSDP).
enum class ShardStage { none = 0, optimizer = 1, gradients = 2, parameters = 3 };

// How a step's ready gradients become reductions (sim/step/reducers.hpp) and which buffer holds
// them (sim/step/memory.hpp): DDP's Reducer buckets (gradients copied in and out, a flat copy of
// the gradients in memory), Horovod's fusion cycles (its fusion buffer), or the sharded
// frameworks' reduce-scatter buckets (sharded.hpp).
enum class GradientPath { ddp_buckets, horovod_fusion, sharded };

// A framework is a row of traits (frameworks.cpp); the step and the studies read these, so a
// framework that differs from the others only in them is one enum value and one row.
struct FrameworkTraits {
  Framework id;
  std::string_view name;       // as users write it in training.framework
  std::string_view backend;    // the gradient-reduction library: "nccl", "smddp", "gloo", "ps"
  std::string_view algorithm;  // the algorithm it forces (herring, parameter-server), or empty
  GradientPath path;
  ShardStage shard;
  bool host_all_to_all;  // reduces through host servers: every node pair exchanges (guards' workload)
  bool compiler;         // the compiler what-if applies (PyTorch modules under DDP: sim/study/compiler.hpp)
};
const FrameworkTraits& traits(Framework f);

// The gradient-reduction library each framework uses ("nccl", "smddp", "gloo", "ps").
std::string_view backend_of(Framework f);
// The collective algorithm a framework forces (herring, parameter-server), or empty: use
// communication.algorithm.
std::string_view forced_algorithm(Framework f);

enum class HorovodDefaults { pre_2020, post_2020 };

struct FrameworkOptions {
  Framework framework = Framework::pytorch_ddp;
  Bytes bucket_cap{25 * MiB};       // DDP bucket_cap_mb
  Bytes first_bucket_cap{1 * MiB};  // DDP _DEFAULT_FIRST_BUCKET_BYTES
  int bytes_per_element = 4;        // of the gradients as computed (fp32 4, fp16/bf16 2)
  bool fp16_compress = false;       // DDP fp16_compress_hook / hvd.Compression.fp16: 2 bytes on the wire
  HorovodDefaults horovod = HorovodDefaults::post_2020;
  std::optional<Bytes> fusion_threshold;  // HOROVOD_FUSION_THRESHOLD (default from `horovod`)
  std::optional<Time> cycle_time;         // HOROVOD_CYCLE_TIME (default from `horovod`)
  // SMDDP's balanced fusion buffer: DDP buckets are held until the buffer exceeds this many bytes,
  // then reduced together (FACTS.md). No public default: 0 sends every bucket as its own buffer.
  Bytes smddp_fusion_threshold{0};
  // DDP(find_unused_parameters=True): once the last bucket is launched, DDP's Reducer all-reduces
  // its map of which parameters this rank used (reducer.cpp mark_variable_ready ->
  // all_reduce_local_used_map: one int32 per parameter tensor, on the process group after the
  // buckets), and finalize_backward waits for it before the optimizer. Frameworks on DDP's Reducer.
  bool find_unused_parameters = false;
  // Horovod's negotiation per cycle (response cache: two bit-vector all-reduces on the host,
  // sim/step/overheads.hpp): a cycle's fused buffers are released this much after it wakes.
  Time horovod_negotiation{0};
  // Horovod's background thread runs free of the training loop: its cycles tick at
  // cycle_phase + k x cycle_time. Unset, the iteration places them so that the step's last
  // gradient waits half a cycle, the mean over the phases (iteration.cpp horovod_phase); set
  // (tests, hand timelines), it is used as given; plan_communication takes unset as 0.
  std::optional<Time> cycle_phase;
};

Bytes horovod_fusion_threshold(const FrameworkOptions& o);
Time horovod_cycle_time(const FrameworkOptions& o);

// One gradient reduction of a step: the tensors it carries, its bytes on the wire, and when it may start.
struct CommJob {
  std::vector<TensorRef> tensors;
  Bytes bytes;
  Time ready{0};
};

// The reductions of one step, in launch order, when layer l's gradients are ready at
// grad_ready[l] (registration order): the framework's reducer (sim/step/reducers.hpp) run on
// an engine of its own. Bytes are on the wire: halved by fp16 compression of 4-byte gradients.
std::vector<CommJob> plan_communication(const ModelSpec& model, const std::vector<Time>& grad_ready,
                                        const FrameworkOptions& options);

}  // namespace ddpsim::sim
