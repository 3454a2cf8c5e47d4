#include "app/input/scenario_keys.hpp"

#include <algorithm>

#include "app/whatifs/whatif_view.hpp"
#include "core/error.hpp"

namespace ddpsim::app {

namespace {

KeyTable fixed_keys()
{
  return {
      {"", {"name", "description", "engine", "cluster", "model", "training", "compute", "data", "communication",
            "observed", "compiler", "calibration", "overheads", "software"}},
      {"cluster", {"instance", "nodes", "gpus_per_node", "overrides", "startup", "startup_s", "fabric", "degraded", "placement_group", "pod_network"}},
      {"software", {"nccl", "aws_ofi_nccl", "libfabric", "as_of", "efa_installer", "nccl_socket_nthreads", "nccl_nsocks_perthread", "nccl_min_nrings", "nccl_channels", "nccl_buffsize"}},
      {"cluster.fabric",
       {"kind", "nodes_per_leaf", "oversubscription", "switch_latency", "in_network_reduction", "spine_uplinks"}},
      // An instance's fields: the catalog's entries and a scenario's overrides share them.
      {"cluster.overrides",
       {"description", "gpu", "gpus", "smddp_supported", "intra_node", "pcie", "cpu", "nic", "efficiency",
        "price_usd_per_hour", "price_source"}},
      {"cluster.overrides.intra_node", {"fabric", "nvlink_per_link", "nvlink_latency", "pairs", "nvswitch_per_gpu"}},
      {"cluster.overrides.pcie", {"switches", "bandwidth", "latency"}},
      {"cluster.overrides.cpu", {"sockets", "vendor", "interconnect", "memory_bandwidth", "vcpus"}},
      {"cluster.overrides.nic", {"kind", "count", "bandwidth", "latency", "gpudirect", "flow_cap", "flows_per_connection"}},
      {"cluster.overrides.efficiency", {"nvlink", "pcie", "cpu_interconnect", "nic", "nvls", "hbm"}},
      // One entry per degraded link; which keys apply depends on `link` (nic, nvlink, spine_uplink).
      {"cluster.degraded[]", {"link", "node", "nic", "rate", "gpus", "lanes_down", "leaf", "down"}},
      {"model", {"preset", "widths", "layers", "name", "seq_len", "file", "attention", "kernels", "trace", "trace_gpu"}},
      {"model.layers[]", {"name", "params", "fwd_flops", "activations"}},
      {"training",
       {"framework", "distribution", "compare", "batch_per_gpu", "precision", "bucket_cap_mb", "first_bucket_mb",
        "samples", "epochs", "steps", "optimizer", "grad_accum_steps", "global_batch", "comm_hook", "lightning_overhead", "horovod", "apex",
        "gloo_step_overhead", "smddp_fusion_threshold", "gradient_as_bucket_view", "find_unused_parameters", "activation_checkpointing", "memory_format"}},
      {"training.horovod", {"defaults", "fusion_threshold", "cycle_time"}},
      {"training.apex", {"message_size", "gradient_predivide_factor"}},
      {"compute", {"efficiency", "measured_step_s", "speedup", "kernel_overhead", "gpu_spread", "node_slowdown"}},
      {"data", {"workers", "per_sample_cpu_s"}},
      {"communication", {"algorithm", "nccl_algo", "nccl_proto", "tuner", "profile"}},
      {"observed", {"source", "minutes", "rows"}},
      {"observed.rows[]", {"nodes", "gpus_per_node", "framework", "instance", "total", "step_time", "samples_per_s", "source"}},
      {"compiler", {"name", "compute_scale", "memory_scale", "nodes", "batch_per_gpu", "sync"}},
      {"overheads",
       {"interference", "hbm_bytes_per_wire_byte", "comm_ctas", "collective_launch", "optimizer_bytes_per_param",
        "horovod_negotiation", "cooperative_kernels", "node_step_cost"}},
  };
}

}  // namespace

const KeyTable& scenario_key_table()
{
  // The what-ifs' sections (each after the key it names) and keys as each declares them (app/whatifs/).
  static const KeyTable table = [] {
    KeyTable t = fixed_keys();
    std::vector<std::string>& root = t.front().second;
    for (const WhatIfView* v : whatif_views()) {
      auto at = std::find(root.begin(), root.end(), v->section_after);
      at = at == root.end() ? at : at + 1;
      while (at != root.end() && std::any_of(whatif_views().begin(), whatif_views().end(),
                                             [&](const WhatIfView* w) { return w->name == *at; }))
        ++at;  // after the what-ifs placed there already (file-name order)
      root.insert(at, v->name);
    }
    for (const WhatIfView* v : whatif_views()) t.insert(t.end(), v->keys.begin(), v->keys.end());
    return t;
  }();
  return table;
}

const std::vector<std::string>& scenario_keys(const std::string& path)
{
  for (const auto& [p, keys] : scenario_key_table())
    if (p == path) return keys;
  throw InternalError("scenario_keys: no key list for \"" + path + "\"");
}

}  // namespace ddpsim::app
