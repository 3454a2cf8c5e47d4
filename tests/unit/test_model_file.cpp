// Issue 19: model files (app/input/model_file.hpp), buckets in gradient-ready order
// (sim/step/buckets.hpp), and precision, checkpointing and flash attention in memory and
// compute (sim/step/precision.hpp), against hand computations.
#include <catch2/catch.hpp>

#include "app/input/model_file.hpp"
#include "app/input/scenario_loader.hpp"
#include "sim/step/buckets.hpp"
#include "sim/step/memory.hpp"
#include "sim/step/model_zoo.hpp"
#include "sim/step/precision.hpp"
#include "sim/study/scenario.hpp"
#include "support.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

namespace {

const char* kTiny = R"(ddpsim_model: 1
name: tiny
layers:
  - {name: a, fwd_flops: 10, activations: 4, params: [{name: a.w, numel: 300}, {name: a.b, numel: 100}]}
  - {name: b, fwd_flops: 20, activations: 2, saved: 7, saved_mask_bytes: 3,
     params: [{name: b.w, numel: 500}, {name: b.frozen, numel: 50, requires_grad: false, grad: false}]}
grad_order: [2, 0, 1]
)";

std::string where(const std::string& text)
{
  try {
    app::parse_model_file("m.yaml", text);
  } catch (const UserError& e) {
    return e.what();
  }
  return "accepted";
}

MemoryBreakdown memory(const ModelSpec& m, Precision p, bool amp, bool ckpt = false, int batch = 1)
{
  MemoryInput in;
  in.model = &m;
  in.precision = p;
  in.optimizer = Optimizer::adam;
  in.batch_per_gpu = batch;
  in.capacity = Bytes{80 * GiB};
  in.amp = amp;
  in.activation_checkpointing = ckpt;
  return memory_per_gpu(in);
}

}  // namespace

TEST_CASE("a model file gives tensors in registration order and its gradient-ready order", "[model_file]")
{
  const ModelSpec m = app::parse_model_file("m.yaml", kTiny);
  REQUIRE(m.layers.size() == 2);
  CHECK(m.parameter_count() == 950);
  CHECK(m.trainable_count() == 900);
  CHECK_FALSE(m.layers[1].params[1].grad);
  CHECK(m.layers[1].saved_elems_per_sample == 7);
  CHECK(m.layers[0].saved_elems_per_sample == 4);  // absent: the output elements
  const std::vector<TensorRef> order = gradient_ready_order(m);
  REQUIRE(order.size() == 3);  // the frozen tensor is not in it
  CHECK((order[0].layer == 1 && order[0].tensor == 0));
  CHECK((order[1].layer == 0 && order[1].tensor == 0));
  // First cap 1200 B: b.w 2000 B alone; then 1000 B: a.w 1200, then a.b 400 (the rest).
  const auto b = ddp_buckets(m, 4, Bytes{1200}, Bytes{1000});
  REQUIRE(b.size() == 3);
  CHECK(b[0].bytes.n == 2000);
  CHECK(b[1].bytes.n == 1200);
  CHECK(b[2].bytes.n == 400);
}

TEST_CASE("bad model files are refused with the model file's line and field", "[model_file]")
{
  std::string t = kTiny;
  CHECK(where(t) == "accepted");
  CHECK(where(std::string(t).replace(t.find("[2, 0, 1]"), 9, "[2, 0]")).find("misses parameter 1 (a.b)") != std::string::npos);
  CHECK(where(std::string(t).replace(t.find("[2, 0, 1]"), 9, "[2, 0, 1, 1]")).find("m.yaml:7:") == 0);
  CHECK(where(std::string(t).replace(t.find("[2, 0, 1]"), 9, "[3, 2, 0, 1]")).find("does not receive a gradient") != std::string::npos);
  CHECK(where(std::string(t).replace(t.find("numel: 500"), 10, "numel: -1")).find("layers[1].params[0].numel") != std::string::npos);
  CHECK(where(std::string(t).replace(t.find("ddpsim_model: 1"), 15, "ddpsim_model: 2")).find("ddpsim_model") != std::string::npos);
}

TEST_CASE("AMP keeps 4-byte gradients and buckets, pure 16-bit holds 2-byte ones", "[precision]")
{
  CHECK(gradient_bytes(Precision::fp16, true) == 4);
  CHECK(gradient_bytes(Precision::bf16, true) == 4);
  CHECK(gradient_bytes(Precision::bf16, false) == 2);
  CHECK(gradient_bytes(Precision::tf32, false) == 4);
  const ModelSpec m = make_bert_large(128);
  const std::uint64_t p = m.parameter_count();
  const MemoryBreakdown amp = memory(m, Precision::fp16, true);
  CHECK(amp.parameters.n == 4 * p + 2 * p);  // fp32 weights + autocast's fp16 copies
  CHECK(amp.gradients.n == 4 * p);
  CHECK(amp.optimizer.n == 8 * p);  // Adam m, v; the fp32 weights are the master copy
  CHECK(amp.buckets.n == 4 * p);
  const MemoryBreakdown pure = memory(m, Precision::fp16, false);
  CHECK(pure.gradients.n == 2 * p);
  CHECK(pure.optimizer.n == 12 * p);
  CHECK(amp.activations.n == pure.activations.n);  // both keep 16-bit activations
}

TEST_CASE("flash attention drops the heads x seq^2 matrices, checkpointing keeps block inputs", "[precision]")
{
  ModelSpec m = make_gpt2_small(1024);
  const double s = 1024, h = 768, a = 12, layers = 12;
  const MemoryBreakdown eager = memory(m, Precision::bf16, true);
  m.flash_attention = true;
  const MemoryBreakdown flash = memory(m, Precision::bf16, true);
  // Per layer: softmax and dropout outputs 2 a s^2 x 2 B and the mask a s^2 x 1 B go; the
  // log-sum-exp a s x 4 B comes.
  CHECK(static_cast<double>(eager.activations.n - flash.activations.n) == Approx(layers * (5 * a * s * s - 4 * a * s)).epsilon(1e-12));
  // Checkpointing: the 12 blocks h.N keep their input (s h) and one block is live at a time.
  const MemoryBreakdown ckpt = memory(m, Precision::bf16, true, true);
  // What stays is mostly lm_head's: its logits (s x vocab) and the loss's fp32 copies beside them
  // (zoo_transformers.cpp, ~0.7 GB here), which no block checkpoint covers; about half of flash's.
  CHECK(static_cast<double>(ckpt.activations.n) < 0.55 * static_cast<double>(flash.activations.n));
  CHECK(checkpoint_blocks(m)[0] == -1);  // wte
  CHECK(checkpoint_blocks(m)[2] == 0);   // h.0.ln_1
  const double block_in = s * h * 2;     // 2 B each
  CHECK(static_cast<double>(ckpt.activations.n) > layers * block_in);
}

TEST_CASE("checkpointing adds each block's forward to its backward, MFU counts no recomputation", "[precision]")
{
  const GpuSpec& a100 = test::instance("p4d.24xlarge").gpu;
  const ModelSpec m = make_gpt2_small(1024);
  ComputeParams p;
  p.precision = Precision::bf16;
  p.batch_per_gpu = 4;
  const LayerTimes plain = layer_times(m, a100, p);
  p.activation_checkpointing = true;
  const LayerTimes ckpt = layer_times(m, a100, p);
  CHECK(ckpt.forward_total == plain.forward_total);
  const std::vector<int> blocks = checkpoint_blocks(m);
  Time recomputed{0};
  for (std::size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i] >= 0) recomputed += plain.forward[i] - p.kernel_overhead;
  CHECK((ckpt.backward_total - plain.backward_total).seconds() == Approx(recomputed.seconds()).epsilon(1e-6));
  double fwd = 0;
  for (const Layer& l : m.layers) fwd += l.fwd_flops_per_sample;
  CHECK(model_flops_per_sample(m) == Approx(3 * fwd));
}
