// A validated scenario (built from YAML in app/, never here) and its prediction: for each node
// count, one iteration is simulated on a representative GPU, then multiplied out to epochs.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "algorithms/aws_ofi_tuner.hpp"
#include "sim/network/backends.hpp"
#include "sim/network/profile.hpp"
#include "sim/study/compiler.hpp"
#include "sim/step/compute.hpp"
#include "sim/step/frameworks.hpp"
#include "sim/step/memory.hpp"
#include "sim/step/model.hpp"
#include "sim/study/whatifs/whatif.hpp"
#include "sim/study/observation.hpp"
#include "sim/step/overheads.hpp"
#include "sim/engine/timeline.hpp"
#include "topology/instance.hpp"
#include "topology/topology.hpp"

namespace ddpsim::sim {

struct ClusterSpec {
  InstanceSpec instance;
  std::vector<int> nodes;         // one configuration per entry; the first is the baseline
  int gpus_per_node = 0;          // 0 = all of the instance's
  std::vector<int> gpus_per_node_each;  // when not empty: one per entry of `nodes` (GPU-count scaling)
  FabricSpec fabric;
  Time startup{0};                // job start-up (provisioning, container, process group)
  bool software_stated = false;   // the scenario names software.nccl or software.as_of (else the current stack is assumed)
  // What the transport resolved to, one report note each (app/input: as_of_note, pod_network_note).
  std::vector<std::string> software_notes;
};

struct TrainingSpec {
  Framework framework = Framework::pytorch_ddp;
  std::vector<Framework> compare;  // more frameworks to run on every node count (after `framework`)
  int grad_accum_steps = 1;       // micro-steps per optimizer step; all-reduce on the last only
  std::optional<std::uint64_t> global_batch;  // fixed samples per step: accumulation per row (global_batch.hpp)
  bool fp16_compress = false;     // DDP fp16/bf16_compress_hook (Horovod: hvd.Compression.fp16): 2 B on the wire
  Time lightning_overhead{0};     // Lightning's own cost per optimizer step (docs/model.md)
  bool gradient_as_bucket_view = false;  // DDP's knob (PyTorch default False): no copies into buckets
  bool find_unused_parameters = false;   // DDP's knob (PyTorch default False; Hugging Face's Trainer True)
  // apex-ddp (apex.parallel.DistributedDataParallel): message_size (elements, apex's default 1e7)
  // and whether gradient_predivide_factor is not 1 (a pass over each bucket before its collective).
  std::uint64_t apex_message_size = 10'000'000;
  bool apex_predivide = false;
  bool channels_last = false;     // memory_format: channels_last (model.to(memory_format=...))
  HorovodDefaults horovod = HorovodDefaults::post_2020;
  std::optional<Bytes> fusion_threshold;
  std::optional<Time> cycle_time;
  Bytes smddp_fusion_threshold{0};
  Time gloo_step_overhead = Time::from_us(20);  // TCP per ring step (docs/model.md)
  int batch_per_gpu = 32;
  Precision precision = Precision::fp32;
  // precision amp-fp16 / amp-bf16 (issue 19): autocast computes in `precision`, parameters,
  // gradients (so DDP's buckets) and optimizer state stay fp32 (sim/step/precision.hpp).
  bool amp = false;
  bool activation_checkpointing = false;  // keep activations at block boundaries, recompute forward in backward
  Bytes bucket_cap{25 * MiB};
  Bytes first_bucket_cap{1 * MiB};
  std::uint64_t samples = 0;      // per epoch
  int epochs = 1;
  std::optional<std::uint64_t> steps;  // overrides samples x epochs
  Optimizer optimizer = Optimizer::sgd;
};

struct DataSpec {
  int workers = 0;                // data-loader worker processes per GPU (0: loading not modelled)
  double per_sample_cpu_s = 0;    // CPU seconds to load and preprocess one sample
};

struct CommunicationSpec {
  std::string algorithm = "auto";  // NCCL's choice per bucket size, or a registered name
  std::optional<algo::Protocol> protocol;       // communication.nccl_proto (NCCL_PROTO), or NCCL's choice
  algo::Tuner tuner = algo::Tuner::aws_ofi;     // communication.tuner: who chooses (aws_ofi_tuner.hpp)
  Profile profile;                 // applied by the CollectiveModel; default: the catalog alone
  std::string profile_path;        // the file asked for ("" for none, "none" for the catalog alone)
  std::string profile_source;      // what was applied, for the outputs (app/input/profile_io.hpp)
};

struct JobProfile;  // sim/study/knobs.hpp

// A catalog value marked [assume] with a stated range (instances.yaml `assumed_ranges`): one
// dimension of the prediction intervals (sim/study/twin.hpp).
struct AssumedRange {
  std::string field;                   // e.g. "nic.latency"
  std::string knob;                    // the sim/study/knobs.hpp knob that sets it
  std::vector<std::string> instances;  // whose value is an assumption
  double low = 1, high = 1;            // factors on the instance's value
  std::string why;
};

struct ScenarioSpec {
  std::string name;
  std::string description;
  ClusterSpec cluster;
  ModelSpec model;
  TrainingSpec training;
  ComputeParams compute;          // batch and precision are copied from training
  DataSpec data;
  CommunicationSpec communication;
  std::map<int, double> observed_minutes;  // nodes -> measured total minutes, for comparison
  std::map<int, double> observed_step_s, observed_samples_per_s;  // nodes -> measured (issue 20)
  std::optional<CompilerSpec> compiler;      // what-if: extra compiled rows (issue 12)
  WhatIfs whatifs;                           // the what-ifs of sim/study/whatifs/ the file asks for (issue 17)
  std::vector<Observation> observations;   // every observed row (app/input/observed_loader.hpp)
  std::string calibration;                 // job profile to apply (`calibration:`), "" for none
  std::shared_ptr<const JobProfile> job_profile;  // that profile as loaded (app/input); applied by sim/study/twin
  std::vector<AssumedRange> assumed;       // the catalog's [assume] ranges for this instance (twin intervals)
  std::string engine;                      // `engine:` (analytical, flow, ...); "" = not given; --engine wins
  Time extra_step_overhead{0};             // fitted per-step overhead, any framework (sim/study/knobs.hpp)
  OverheadSpec overheads;                  // what real jobs pay per step (issue 9, `overheads:`)
};

// One gradient reduction of a configuration's step, as the CollectiveModel priced it.
struct BucketResult {
  std::uint64_t bytes = 0;
  std::string algorithm;
  std::string protocol;  // NCCL's protocol; "" for algorithms NCCL does not run
  int channels = 1;
  double ready_s = 0, start_s = 0, end_s = 0;  // within the iteration
  double time_s() const { return end_s - start_s; }
};

struct ConfigResult {
  std::string instance;
  int nodes = 0;
  int gpus = 0;
  std::string framework;
  std::string backend;      // gradient reduction library: "nccl", "smddp", "gloo", "ps"
  std::string algorithm;
  double step_time_s = 0;
  double samples_per_s = 0;
  std::uint64_t steps = 0;  // total optimizer steps
  double total_time_s = 0;
  double speedup = 1;
  double scaling_efficiency = 1;
  double compute_s = 0;         // forward + backward per step
  double comm_s = 0;            // all-reduce time per step (overlapped or not)
  double exposed_comm_s = 0;    // all-reduce time not hidden behind backward
  double optimizer_s = 0;
  double loader_wait_s = 0;
  double overhead_s = 0;        // framework per-step overhead (Lightning)
  int grad_accum_steps = 1;
  double startup_s = 0;
  double price_usd_per_hour = 0;  // per instance
  std::string bound;            // what dominates the step: compute, communication, input
  std::vector<std::uint64_t> bucket_bytes;  // == buckets[i].bytes (the pinned JSON field)
  std::vector<BucketResult> buckets;
  double cost_usd = 0;
  std::optional<double> observed_minutes;
  std::optional<double> observed_step_s, observed_samples_per_s;  // issue 20: `observed:` step_time, samples_per_s
  std::vector<std::string> warnings;  // e.g. SMDDP on an instance outside its supported list
  // Flow engine only: "symmetric" when one symmetry period (a node or a leaf) stood for all,
  // "per-rank" when the ranks differ and every one was simulated; empty for analytical.
  std::string simulated;
  // Memory per GPU (sim/step/memory.hpp). A row that does not fit still carries the step it
  // would take, but reporters print no total time or cost for it: it cannot run as configured.
  MemoryBreakdown memory;
  bool fits = true;
  // Sharded frameworks (sim/step/sharded.hpp): parameter all-gathers per step, included in
  // comm_s and, where not hidden, in exposed_comm_s and step_time_s.
  double gather_s = 0;
  // Issue 9 (sim/step/overheads.hpp): backward lengthened by overlapping collectives, DDP's
  // bucket copies (in backward and before the optimizer), all collectives' launch cost and
  // Horovod's negotiation (the last two are part of exposed_comm_s where not hidden).
  double interference_s = 0, bucket_copy_s = 0, launch_s = 0, negotiation_s = 0;
  // Issue 19: model FLOPs utilisation (forward + backward of the model, recomputation not
  // counted, over the GPUs' dense peak in the compute precision) and tokens per second (sequence
  // models; 0 otherwise).
  double mfu = 0, tokens_per_s = 0;
  std::vector<std::string> degraded;           // what-if: the degraded links of this configuration
  std::string compiler;                        // what-if: the compiler of a compiled row, else empty
  double compiler_compute_scale = 1, compiler_memory_scale = 1;
  std::vector<WhatIfResult> whatifs;           // the results of spec.whatifs (sim/study/whatifs/whatif.hpp)
  const WhatIfResult* whatif(std::string_view name) const { return find_whatif(whatifs, name); }
  // [p10, p90] of the sampled predictions (sim/study/uncertainty.hpp); `set` false when not sampled.
  struct Band {
    bool set = false;
    double p10 = 0, p90 = 0;
  };
  Band step_band, samples_band, total_band, speedup_band, cost_band;
  std::optional<double> uncalibrated_step_s, uncalibrated_total_s;  // when a calibration is applied
  std::string fit_role;  // issue 20: "fitted" or "held back" per the job profile's rows; "" otherwise
};

// The one field list of a result, for the child-process codec (sim/study/sweep.cpp): a field
// added to ConfigResult or BucketResult is one line here.
template <class T, class F>
requires std::is_same_v<std::remove_const_t<T>, BucketResult> void fields(T& b, F& f)
{
  f(b.bytes), f(b.algorithm), f(b.protocol), f(b.channels), f(b.ready_s), f(b.start_s), f(b.end_s);
}

template <class T, class F>
requires std::is_same_v<std::remove_const_t<T>, WhatIfField> void fields(T& x, F& f)
{
  f(x.name), f(x.value);
}

template <class T, class F>
requires std::is_same_v<std::remove_const_t<T>, WhatIfResult> void fields(T& x, F& f)
{
  f(x.name), f(x.fields);
}

template <class T, class F>
requires std::is_same_v<std::remove_const_t<T>, ConfigResult> void fields(T& r, F& f)
{
  f(r.instance), f(r.nodes), f(r.gpus), f(r.framework), f(r.backend), f(r.algorithm);
  f(r.step_time_s), f(r.samples_per_s), f(r.steps), f(r.total_time_s), f(r.speedup), f(r.scaling_efficiency);
  f(r.compute_s), f(r.comm_s), f(r.exposed_comm_s), f(r.optimizer_s), f(r.loader_wait_s), f(r.overhead_s);
  f(r.grad_accum_steps), f(r.startup_s), f(r.price_usd_per_hour), f(r.bound), f(r.bucket_bytes), f(r.buckets);
  f(r.cost_usd), f(r.observed_minutes), f(r.warnings), f(r.simulated);
  f(r.memory), f(r.fits), f(r.gather_s);  // [issue 11]
  f(r.interference_s), f(r.bucket_copy_s), f(r.launch_s), f(r.negotiation_s);  // issue 9
  f(r.mfu), f(r.tokens_per_s);  // issue 19
  f(r.observed_step_s), f(r.observed_samples_per_s);  // issue 20
  f(r.whatifs);  // issue 17: those run with the step (run_config); the after_run ones are added in the parent
}

struct ScenarioReport {
  std::string scenario;
  std::string description;
  std::string engine;
  std::string model;
  std::uint64_t parameters = 0;
  std::vector<ConfigResult> results;
  std::string profile_source;  // the calibration profile applied (communication.profile_source)
  std::string price_source;  // where the instance prices come from (catalog)
  std::vector<std::string> notes;  // calibration and uncertainty notes, printed under the table
  std::string granularity = "coarse";  // issue 21: "step" with --granularity step
};

// How to run a scenario (from the command line, not the scenario file).
class ShapeCache;  // sim/network/shape_cache.hpp

struct RunOptions {
  EngineKind engine = EngineKind::analytical;
  Timeline* timeline = nullptr;  // when given, receives the last configuration's iteration
  // ... or that of the first configuration with this many nodes (and this framework, when set).
  int trace_nodes = 0;
  std::optional<Framework> trace_framework;
  int jobs = 1;                  // > 1: configurations run in up to this many processes at once
  // [issue 11] A shard (app/output/shards.hpp) simulates only configurations i with i % shard_count ==
  // shard_index, plus the first (the base of speedup and efficiency); the other rows are copies
  // of the first, to be dropped by the caller.
  std::size_t shard_index = 0, shard_count = 1;
  // [issue 11] Called in this process after each configuration finished: (done, to do).
  std::function<void(std::size_t, std::size_t)> progress;
  // Issue 12 (several jobs on one fabric, multijob.hpp): when set, builds each configuration's
  // network backend instead of `engine`'s (the shared fabric's recording backend).
  std::function<std::unique_ptr<NetworkBackend>(const Topology&)> make_network;
  // Issue 21 (`ddpsim scenario --granularity step`, `--per-rank`): each reduction timed from its
  // step-level schedule (sim/step/step_level.hpp); every rank its own rank class, and the flow
  // engine's symmetry folding off.
  bool step_level = false;
  bool per_rank = false;
  // Issue 21: NCCL schedules shared by runs of one scenario that differ only in knob values (the
  // reported run and its interval samples: sim/network/shape_cache.hpp); null: none kept.
  std::shared_ptr<ShapeCache> shapes{};
};

// The first row of `r`'s framework: its speedup and efficiency base.
const ConfigResult& block_base(const std::vector<ConfigResult>& results, const ConfigResult& r);

// The scenario's compute parameters with its training's batch, precision and checkpointing: what
// layer_times needs for one GPU of its micro-step (no per-row factors).
ComputeParams step_compute(const ScenarioSpec& spec);

// Runs every configuration of the scenario.
ScenarioReport run_scenario(const ScenarioSpec& spec, const RunOptions& options = {});

// True when the scenario's framework, or one it compares, reduces gradients with NCCL.
bool uses_nccl(const ScenarioSpec& spec);

}  // namespace ddpsim::sim
