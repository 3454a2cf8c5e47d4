#include "sim/step/overhead_setup.hpp"

#include "core/error.hpp"
#include "sim/step/framework_comm.hpp"

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
    // A ring all-reduce sends 2(n-1)/n of the bytes per rank, a reduce-scatter (n-1)/n, all of it reduced.
    o.wire_bytes_per_byte = (ctx.reduce_scatter ? 1.0 : 2.0) * (n - 1) / n;
    o.hbm_bytes_per_wire_byte = ctx.reduce_scatter ? kReduceHbmBytesPerWireByte : spec.hbm_bytes_per_wire_byte;
  }
  if (n > 1) o.launch = spec.collective_launch;
  // A cooperative launch needs its whole grid resident at once, so it waits until no other
  // kernel holds an SM, and a collective's kernel holds its CTAs until the collective ends.
  // PyTorch's channels_last batch norm in fp16, tf32 or fp32 runs cuDNN's NHWC kernels as
  // cooperative launches (cudaLaunchCooperativeKernel, batchnorm_*_nhwc_semiPersist); in bf16 it
  // runs its own kernels. Measured on an H100 (validation/device/h100_20261125, PyTorch 2.11,
  // cuDNN 9.19): one 512-thread block beside ResNet-50's step serialises it (3.35x), in bf16 or
  // NCHW it does not (docs/model.md "Cooperative kernels").
  const bool cudnn_nhwc_bn = ctx.channels_last && setup.model->batch_norm && ctx.precision != Precision::bf16;
  if (n > 1) o.serialized = spec.cooperative_kernels.value_or(cudnn_nhwc_bn);
  const bool apex = ctx.framework == Framework::apex_ddp;
  if (n > 1 && traits(ctx.framework).path == GradientPath::ddp_buckets && !ctx.gradient_as_bucket_view && !apex) o.copy_hbm = gpu.hbm;
  // fp16 compression of 4-byte gradients runs casts the collective does not: DDP's
  // fp16_compress_hook (torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py) runs
  // `bucket.buffer().to(torch.float16).div_(world_size)` (read 4 + write 2, then read 2 + write 2)
  // in the hook and `copy_` back (read 2 + write 4) in the future's callback, after each bucket's
  // collective (iteration.cpp passes_after); Horovod's
  // FP16Compressor (horovod/torch/compression.py) casts each gradient to fp16 in its hook (4 + 2)
  // and back in synchronize() (2 + 4). On 2-byte gradients the casts are no copies, and DDP's hook
  // still divides in place (read 2 + write 2; without a hook the Reducer folds the division into
  // its copy into the bucket).
  const GradientPath path = traits(ctx.framework).path;
  const bool wide = setup.framework.bytes_per_element > 2;
  if (n > 1 && apex) {
    // apex's DistributedDataParallel (apex/parallel/distributed.py, allreduce_bucket, 2019-2020):
    // `flatten(bucket)` on the compute stream when the bucket ships (read + write), then on the
    // bucket's stream `mul_(1/gradient_predivide_factor)` unless it is 1, the all-reduce,
    // `mul_(gradient_predivide_factor/world_size)` (gradient_average) and the copy back into the
    // gradients (multi_tensor_scale): read + write each, with the collective.
    o.grad_pass_hbm = gpu.hbm;
    o.grad_pass_in_bytes = 2.0 * setup.framework.bytes_per_element;
    o.fusion_copy_hbm = gpu.hbm;
    o.fusion_copy_bytes_per_byte = ctx.apex_predivide ? 6 : 4;
    o.fusion_copy_single = true;
  } else if (n > 1 && setup.framework.fp16_compress &&
      (path == GradientPath::ddp_buckets || (path == GradientPath::horovod_fusion && wide))) {
    o.grad_pass_hbm = gpu.hbm;
    o.grad_pass_in_bytes = path == GradientPath::horovod_fusion ? 6 : wide ? 10 : 4;
    o.grad_pass_out_bytes = wide ? 6 : 0;
    o.grad_pass_out_per_bucket = path == GradientPath::ddp_buckets;  // the hook's callback; Horovod's synchronize()
  } else if (n > 1 && path == GradientPath::ddp_buckets && ctx.gradient_as_bucket_view) {
    // Bucket views save DDP's copies, not its averaging: with no hook the Reducer divides each
    // gradient in place where it would have divided while copying (reducer.cpp
    // mark_variable_ready_dense: `bucket_view.div_(div_factor_)` when grad is an alias of the
    // bucket view): read + write, on the compute stream.
    o.grad_pass_hbm = gpu.hbm;
    o.grad_pass_in_bytes = 2.0 * setup.framework.bytes_per_element;
  }
  const double per_param = spec.optimizer_bytes_per_param.value_or(optimizer_bytes_per_param(ctx.optimizer, ctx.precision));
  setup.optimizer = transfer_time(per_param * static_cast<double>(setup.model->parameter_count()), gpu.hbm);
  if (traits(ctx.framework).path == GradientPath::horovod_fusion && n > 1) {
    o.fusion_copy_hbm = gpu.hbm;
    const std::size_t tensors = setup.model->trainable_tensor_count();  // Horovod caches one response per gradient tensor
    setup.framework.horovod_negotiation =
        spec.horovod_negotiation ? *spec.horovod_negotiation : horovod_negotiation(topo, tensors, ctx.tcp_message);
  }
}

}  // namespace ddpsim::sim
