// Precision and activation memory as the frameworks do them (issue 19).
//
// Precision (training.precision):
//   fp32, tf32   4-byte parameters, gradients and activations (tf32: tensor-core matmuls).
//   fp16, bf16   the model in 16 bits: 2-byte parameters, gradients (so DDP buckets) and
//                activations, fp32 master weights in the optimizer (Megatron/DeepSpeed style;
//                ZeRO paper, arXiv 1910.02054, section 3.1: 2 + 2 + 12 bytes per parameter).
//   amp-fp16, amp-bf16  torch.autocast (torch.cuda.amp, Lightning "16-mixed", Hugging Face
//                fp16=True): parameters, gradients (so DDP's buckets: 4-byte) and optimizer state
//                stay fp32 and are the master copy; matmuls and convolutions run and keep their
//                activations in 16 bits. Autocast caches the 16-bit copy of each weight it casts
//                for the forward and autograd keeps it for backward (torch.autocast,
//                cache_enabled): 2 bytes per parameter more.
// Activation checkpointing (training.activation_checkpointing: true): each repeated block (the
// layers whose names share the prefix up to the first numeric component, e.g. "h.3." or
// "encoder.layer.3.", i.e. one element of an nn.ModuleList / nn.Sequential, as
// torch.utils.checkpoint is applied per block by Hugging Face's gradient_checkpointing_enable and
// checkpoint_sequential) keeps only its input; in backward each block's forward runs again and
// holds that block's saved activations while its backward runs. Layers outside any block keep
// theirs. Compute: each checkpointed layer's backward is longer by its forward.
// Flash attention (model.attention: flash): an attention core keeps Q, K, V and the output (its
// successor saves that) and a 4-byte log-sum-exp per head and row, not the softmax output, the
// dropout output or the dropout mask (heads x seq^2 each); its backward recomputes the scores:
// 2.5 x the forward's FLOPs instead of 2 x (5 matmuls against 2: Dao, "FlashAttention-2",
// arXiv 2307.08691, section 4.1).
#pragma once

#include <vector>

#include "sim/step/model.hpp"
#include "topology/instance.hpp"

namespace ddpsim::sim {

// Bytes of one gradient element, so of DDP's buckets: 4 under AMP, else the precision's.
int gradient_bytes(Precision p, bool amp);

// Checkpoint block of every layer (registration order), -1 for a layer in no block.
std::vector<int> checkpoint_blocks(const ModelSpec& model);

// Backward FLOPs of `layer` over its forward: flash attention cores 2.5, others the model's.
double backward_factor(const ModelSpec& model, const Layer& layer);

// Saved for backward per sample: `elems` in the activation precision, `fp32_elems` in fp32
// under autocast (else the activation precision) and `mask_bytes`.
struct Saved {
  double elems = 0, mask_bytes = 0, fp32_elems = 0;
};
Saved saved_per_sample(const ModelSpec& model, const Layer& layer);

// Peak activation bytes per micro-batch of `batch` samples with `elem`-byte activations
// (`autocast`: the fp32 elements are 4 bytes, else `elem`).
double activation_bytes(const ModelSpec& model, int elem, int batch, bool checkpointing, bool autocast = false);

// Model FLOPs per sample of one training step: forward + backward, no recomputation (the MFU
// convention: Chowdhery et al., PaLM, arXiv 2204.02311, appendix B).
double model_flops_per_sample(const ModelSpec& model);

}  // namespace ddpsim::sim
