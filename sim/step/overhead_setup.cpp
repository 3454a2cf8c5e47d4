#include "sim/step/overhead_setup.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {
void apply_overheads(const OverheadSpec& spec, const OverheadContext& ctx, const Topology& topo, IterationSetup& setup)
{
  DDPSIM_CHECK(setup.model, "overheads need the model");
  const GpuSpec& gpu = topo.instance().gpu;
  const int n = topo.gpu_count();
  IterationOverheads& o = setup.overheads;
  if (spec.interference && n > 1) {
    o.hbm = gpu.hbm;
    o.sm_count = gpu.sm_count;
    // NCCL's kernels (pytorch-ddp, lightning, horovod, sharded) take the CTAs NCCL launches;
    // other libraries take what their schedule's channels say.
    if (backend_of(ctx.framework) == "nccl") o.comm_ctas = spec.comm_ctas > 0 ? spec.comm_ctas : gpu.nccl_ctas;
    else if (spec.comm_ctas > 0) o.comm_ctas = spec.comm_ctas;
    // The bytes each collective sends come from its schedule (the step); a reduce-scatter reduces all of them.
    o.hbm_bytes_per_wire_byte = ctx.reduce_scatter ? kReduceHbmBytesPerWireByte : spec.hbm_bytes_per_wire_byte;
  }
  if (n > 1) o.launch = spec.collective_launch;
  if (n > 1 && traits(ctx.framework).bucket_copies && !ctx.gradient_as_bucket_view) o.copy_hbm = gpu.hbm;
  const double per_param = spec.optimizer_bytes_per_param.value_or(optimizer_bytes_per_param(ctx.optimizer, ctx.precision));
  setup.optimizer = transfer_time(per_param * static_cast<double>(setup.model->parameter_count()), gpu.hbm);
  if (traits(ctx.framework).reducer == ReducerKind::horovod_cycle && n > 1) {
    const Time net = topo.nodes() > 1 ? topo.instance().nic.latency : Time{0};
    setup.framework.horovod_negotiation =
        spec.horovod_negotiation.value_or(horovod_small_allreduce(n, net, ctx.tcp_message) * 2);  // AND + OR
  }
}

}  // namespace ddpsim::sim
