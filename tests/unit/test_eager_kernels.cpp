// Eager kernels (model.kernels: eager; sim/step/model.hpp ElementwiseTraffic): the zoo's counts
// are the derivation in zoo_vision.cpp / zoo_transformers.cpp, the roofline adds exactly their
// bytes at the HBM's rate, in the precision autocast gives each pass, and the key is off by default.
#include <catch2/catch.hpp>

#include "app/input/job_profile_io.hpp"
#include "app/input/scenario_loader.hpp"
#include "sim/step/compute.hpp"
#include "sim/step/model_zoo.hpp"
#include "sim/study/knobs.hpp"
#include "sim/study/scenario.hpp"
#include "support.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

namespace {

struct Totals {
  ElementwiseTraffic fwd, bwd;
};
Totals totals(const ModelSpec& m)
{
  Totals t;
  for (const Layer& l : m.layers) {
    t.fwd += l.eager_fwd;
    t.bwd += l.eager_bwd;
  }
  return t;
}
// A GPU whose HBM moves 1 GB/s and whose every precision peaks at 1,000 TFLOP/s.
GpuSpec test_gpu()
{
  GpuSpec gpu;
  gpu.name = "test";
  gpu.hbm = Bandwidth{1e9};
  gpu.fp32_tflops = gpu.tf32_tflops = gpu.fp16_tflops = gpu.bf16_tflops = 1000;
  return gpu;
}

// What model.kernels (eager when `eager`) adds over the fused count, forward and backward, in ns
// per sample.
std::pair<double, double> added_ns(ModelSpec& m, const GpuSpec& gpu, const ComputeParams& p, bool eager = true)
{
  m.eager_kernels = false;
  const LayerTimes fused = layer_times(m, gpu, p);
  m.eager_kernels = eager;
  const LayerTimes t = layer_times(m, gpu, p);
  const double per_sample = 1e9 / p.batch_per_gpu;
  return {(t.forward_total - fused.forward_total).seconds() * per_sample,
          (t.backward_total - fused.backward_total).seconds() * per_sample};
}

void check(const ElementwiseTraffic& got, double act, double wide, double cast, double bytes)
{
  CHECK(got.act == Approx(act));
  CHECK(got.wide == Approx(wide));
  CHECK(got.cast == Approx(cast));
  CHECK(got.bytes == Approx(bytes));
}

}  // namespace

TEST_CASE("eager kernels: the transformers' per-token passes are the derivation's", "[zoo][eager]")
{
  const double seq = 128;
  {
    const double h = 1024, layers = 24, per = h * seq * layers;
    const Totals t = totals(make_preset("bert-large", {}, 128));
    check(t.fwd, 14 * per, 4 * per, 4 * per, 2 * per);
    check(t.bwd, 16 * per, 12 * per, 6 * per, 2 * per);
  }
  {
    const double h = 768, layers = 12, per = h * seq * layers, v = 50257;
    const Totals t = totals(make_preset("gpt2", {}, 128));
    // Per layer 22 / 60 / 10 / 2 forward and 40 / 82 / 20 / 2 backward; the LM head and its loss.
    check(t.fwd, 22 * per, 60 * per + 2 * v * seq, 10 * per + (h + v) * seq, 2 * per);
    check(t.bwd, 40 * per, 82 * per + 4 * v * seq, 20 * per + (h + v) * seq, 2 * per);
  }
}

TEST_CASE("eager kernels: ResNet-50's ReLUs, residual adds and summed block-input gradients", "[zoo][eager]")
{
  // Shapes of torchvision's resnet50 (v1.5: the stride on the 3x3 conv), computed apart from the
  // zoo: ReLU after the stem's bn1 and each block's bn1 and bn2; `out += identity` and a ReLU on
  // every block output; every block input's two gradients summed.
  double relu = 64.0 * 112 * 112, outputs = 0, inputs = 0;
  const int blocks[4] = {3, 4, 6, 3};
  double hw = 56, in_channels = 64;
  for (int s = 0; s < 4; ++s) {
    const double w = 64 << s;
    for (int i = 0; i < blocks[s]; ++i) {
      const double out_hw = (s > 0 && i == 0) ? hw / 2 : hw;
      inputs += in_channels * hw * hw;
      relu += w * hw * hw + w * out_hw * out_hw;  // bn1 before the stride, bn2 after
      outputs += 4 * w * out_hw * out_hw;
      hw = out_hw;
      in_channels = 4 * w;
    }
  }
  const Totals t = totals(make_resnet50());
  check(t.fwd, 2 * relu + 5 * outputs, 0, 0, 0);
  check(t.bwd, 3 * relu + 3 * outputs + 3 * inputs, 0, 0, 0);
  // About 4.1 M elements per sample after a batch norm, 5.5 M block outputs.
  CHECK(relu == Approx(4.09e6).epsilon(0.01));
  CHECK(outputs == Approx(5.5e6).epsilon(0.05));
}

TEST_CASE("eager kernels: charged only when stated, at the HBM's rate, in autocast's precisions", "[compute][eager]")
{
  ModelSpec m{"one", {Layer{"l", {{"l.weight", 1}}, 1e12, 0}}};
  m.layers[0].eager_fwd = {1, 1, 1, 1};  // 1 pass of each kind per sample
  m.layers[0].eager_bwd = {2, 0, 0, 0};
  const GpuSpec gpu = test_gpu();
  ComputeParams p;
  p.batch_per_gpu = 1000;
  p.kernel_overhead = Time{0};
  auto extra = [&](Precision prec, bool amp) {
    p.precision = prec;
    p.amp = amp;
    return added_ns(m, gpu, p);
  };
  // Bytes per sample: amp 2 + 4 + 6 + 1; fp32 4 + 4 + 1; bf16 (the model in 16 bits) 2 + 2 + 1.
  CHECK(extra(Precision::fp16, true).first == Approx(13));
  CHECK(extra(Precision::fp32, false).first == Approx(9));
  CHECK(extra(Precision::bf16, false).first == Approx(5));
  CHECK(extra(Precision::fp16, true).second == Approx(4));
  CHECK(extra(Precision::tf32, false).second == Approx(8));
}

TEST_CASE("eager kernels: model.kernels reaches the step, fused by default", "[eager][input]")
{
  const std::string base = "name: t\ncluster: {instance: p5.48xlarge, nodes: [1], gpus_per_node: [1]}\n"
                           "training: {framework: pytorch-ddp, batch_per_gpu: 16, precision: amp-bf16, samples: 1000}\n";
  auto step = [&](const std::string& model) {
    return sim::run_scenario(app::parse_scenario("t.yaml", base + model, test::catalog())).results.at(0).compute_s;
  };
  const double plain = step("model: {preset: gpt2, seq_len: 1024}\n");
  CHECK(step("model: {preset: gpt2, seq_len: 1024, kernels: fused}\n") == plain);
  const double eager = step("model: {preset: gpt2, seq_len: 1024, kernels: eager}\n");
  CHECK(eager > 1.5 * plain);  // GPT-2's fp32 gelu_new and logits: most of an eager step's traffic
  CHECK_THROWS_WITH(app::parse_scenario("t.yaml", base + "model: {preset: gpt2, kernels: lazy}\n", test::catalog()),
                    Catch::Contains("model.kernels"));
  // A model with no counted kernels says so rather than ignoring the key.
  CHECK_THROWS_WITH(app::parse_scenario("t.yaml", base + "model: {preset: mlp, widths: [8, 8], kernels: eager}\n",
                                        test::catalog()),
                    Catch::Contains("model.kernels") && Catch::Contains("defines none"));
}

TEST_CASE("eager kernels: a compute knob fitted with one count does not carry to the other", "[eager][job]")
{
  const std::string base = "name: t\ncluster: {instance: p5.48xlarge, nodes: [1]}\n"
                           "training: {framework: pytorch-ddp, batch_per_gpu: 16, precision: amp-bf16, samples: 1000}\n";
  const JobContext fused = context_of(app::parse_scenario("t.yaml", base + "model: {preset: gpt2}\n", test::catalog()));
  const JobContext eager =
      context_of(app::parse_scenario("t.yaml", base + "model: {preset: gpt2, kernels: eager}\n", test::catalog()));
  CHECK(fused.kernels == "fused");
  CHECK(eager.kernels == "eager");
  CHECK(why_not_transferable("compute_scale", fused, fused).empty());
  CHECK(why_not_transferable("compute_scale", eager, fused) == "fitted with model.kernels: eager, the scenario states fused");
  CHECK(why_not_transferable("compute_efficiency", eager, fused) == "fitted with model.kernels: eager, the scenario states fused");
  CHECK(why_not_transferable("measured_step", eager, fused).empty());       // a measurement of the job
  CHECK(why_not_transferable("network_efficiency", eager, fused).empty());  // the network is not the compute
  // The job profile's context keeps it (absent = fused, as every profile written before), and
  // rejects what is neither.
  const std::string head = "kind: ddpsim-job-profile\ncontext: {instance: p5.48xlarge, gpu: g, fabric: f, framework: "
                           "pytorch-ddp, model: gpt2, parameters: 1, batch_per_gpu: 16, precision: amp-bf16";
  const std::string tail = "}\nsigma: 0.02\nknobs:\n  - {name: compute_scale, value: 1}\ncovariance_ln: [[0]]\n";
  CHECK(app::parse_job_profile("p.yaml", head + tail).context.kernels == "fused");
  CHECK(app::parse_job_profile("p.yaml", head + ", kernels: eager" + tail).context.kernels == "eager");
  CHECK_THROWS_WITH(app::parse_job_profile("p.yaml", head + ", kernels: lazy" + tail), Catch::Contains("kernels"));
}

TEST_CASE("eager kernels: NCHW convolutions on tensor cores pay cuDNN's layout conversions", "[compute][eager]")
{
  // ResNet-50's 53 convolutions, numel of input and output per sample from torchvision's shapes
  // (tests/pytorch/eager_kernels.py measures the same with hooks): 10,662,400 + 11,113,984; the
  // stem reads the 3 x 224 x 224 image and writes 64 x 112 x 112, and computes no input gradient.
  const ModelSpec r50 = make_resnet50();
  const double in_out = 10662400.0 + 11113984.0, stem = 150528.0 + 802816.0;
  CHECK(r50.nchw_transposes(false) == Approx(2 * in_out));
  CHECK(r50.nchw_transposes(true) == Approx(4 * in_out - 2 * stem));
  CHECK(make_preset("bert-large", {}, 128).nchw_transposes(false) == 0);  // no convolutions

  ModelSpec m{"one", {Layer{"l", {{"l.weight", 1}}, 1e12, 0}}};
  m.layers[0].nchw_transposes_fwd = 1;
  m.layers[0].nchw_transposes_bwd = 2;
  GpuSpec gpu = test_gpu();
  gpu.fp32_tflops = 10;
  ComputeParams p;
  p.batch_per_gpu = 1000;
  p.kernel_overhead = Time{0};
  auto extra = [&](Precision prec, bool channels_last, bool eager) {
    p.precision = prec;
    p.amp = prec == Precision::fp16 || prec == Precision::bf16;
    p.channels_last = channels_last;
    return added_ns(m, gpu, p, eager);
  };
  CHECK(extra(Precision::fp16, false, true).first == Approx(2));   // 1 pass x 2 bytes per sample
  CHECK(extra(Precision::bf16, false, true).second == Approx(4));  // 2 passes x 2 bytes
  CHECK(extra(Precision::tf32, false, true).second == Approx(8));  // tf32 keeps 4-byte tensors
  CHECK(extra(Precision::fp16, true, true).first == 0);            // channels_last: none
  CHECK(extra(Precision::fp32, false, true).first == 0);           // no tensor cores: NCHW kernels
  CHECK(extra(Precision::fp16, false, false).first == 0);          // fused: a compiler picks NHWC
  gpu.tf32_tflops = 0;  // a GPU without tf32 (V100) runs tf32 as fp32
  CHECK(extra(Precision::tf32, false, true).first == 0);
  gpu.fp16_tflops = gpu.fp32_tflops;  // nor 16 bits without tensor cores
  CHECK(extra(Precision::fp16, false, true).first == 0);
}

TEST_CASE("job profiles: attention and memory format are the job's, and a compute knob does not cross them", "[eager][job]")
{
  const std::string cluster = "name: t\ncluster: {instance: p5.48xlarge, nodes: [1], gpus_per_node: [1]}\n";
  auto spec = [&](const std::string& model, const std::string& training_extra) {
    return app::parse_scenario("t.yaml",
                               cluster + "model: " + model + "\ntraining: {framework: pytorch-ddp, batch_per_gpu: 64, "
                                   "precision: amp-fp16, samples: 1000" + training_extra + "}\n",
                               test::catalog());
  };
  // The step knows both: the eager NCHW ResNet-50 pays cuDNN's conversions, channels_last does not.
  const ScenarioSpec nchw = spec("{preset: resnet50, kernels: eager}", "");
  const ScenarioSpec nhwc = spec("{preset: resnet50, kernels: eager}", ", memory_format: channels_last");
  const double conversions_s = make_resnet50().nchw_transposes(false) * 2 * 64 / nchw.cluster.instance.gpu.hbm.bytes_per_s;
  CHECK(run_scenario(nchw).results.at(0).compute_s - run_scenario(nhwc).results.at(0).compute_s >= conversions_s);

  const JobContext a = context_of(nchw), b = context_of(nhwc);
  CHECK(a.memory_format == "contiguous");
  CHECK(b.memory_format == "channels_last");
  for (const char* knob : {"compute_scale", "compute_efficiency", "measured_step"})
    CHECK(why_not_transferable(knob, a, b) == "fitted with training.memory_format: contiguous, the scenario states channels_last");
  const JobContext eager = context_of(spec("{preset: bert-large}", "")), flash = context_of(spec("{preset: bert-large, attention: flash}", ""));
  CHECK(eager.attention == "eager");
  CHECK(flash.attention == "flash");
  CHECK(why_not_transferable("measured_step", flash, eager) == "fitted with model.attention: flash, the scenario states eager");
  CHECK(why_not_transferable("network_efficiency", flash, eager).empty());

  // A profile states them when not the default; absent means the default (profiles written before).
  const std::string head = "kind: ddpsim-job-profile\ncontext: {instance: p5.48xlarge, gpu: g, fabric: f, framework: "
                           "pytorch-ddp, model: m, parameters: 1, batch_per_gpu: 16, precision: amp-bf16";
  const std::string tail = "}\nsigma: 0.02\nknobs:\n  - {name: compute_scale, value: 1}\ncovariance_ln: [[0]]\n";
  const JobProfile old = app::parse_job_profile("p.yaml", head + tail);
  CHECK(old.context.attention == "eager");
  CHECK(old.context.memory_format == "contiguous");
  const JobProfile stated = app::parse_job_profile("p.yaml", head + ", attention: flash, memory_format: channels_last" + tail);
  CHECK(stated.context.attention == "flash");
  CHECK(stated.context.memory_format == "channels_last");
  CHECK_THROWS_WITH(app::parse_job_profile("p.yaml", head + ", memory_format: nhwc" + tail), Catch::Contains("memory_format"));
}

TEST_CASE("eager kernels: bf16 batch norm runs PyTorch's own kernels, one more read each way", "[compute][eager]")
{
  // Every convolution of ResNet-50 feeds a batch norm: its elements are the convolutions' outputs.
  double bn = 0;
  for (const Layer& l : make_resnet50().layers)
    if (l.batch_norm) bn += l.activation_elems_per_sample;
  CHECK(bn == Approx(11113984.0));

  ModelSpec m{"one", {Layer{"bn", {{"bn.weight", 1}}, 0, 1000}}};
  m.layers[0].batch_norm = true;
  const GpuSpec gpu = test_gpu();
  ComputeParams p;
  p.batch_per_gpu = 1;
  p.kernel_overhead = Time{0};
  p.channels_last = true;
  auto extra_us = [&](Precision prec, bool eager, bool amp = true) {
    p.precision = prec;
    p.amp = amp;
    const auto [f, b] = added_ns(m, gpu, p, eager);
    return std::pair{f / 1000, b / 1000};
  };
  // 1,000 elements x 2 bytes at 1 GB/s: 2 us each way.
  CHECK(extra_us(Precision::bf16, true).first == Approx(2));
  CHECK(extra_us(Precision::bf16, true).second == Approx(2));
  CHECK(extra_us(Precision::fp16, true).first == 0);   // cuDNN's kernels: the roofline's count
  CHECK(extra_us(Precision::bf16, true, false).second == Approx(2));  // a bf16 model: no cuDNN either
  CHECK(extra_us(Precision::fp16, true, false).first == Approx(2));   // an fp16 model: fp16 weights, no cuDNN
  CHECK(extra_us(Precision::tf32, true).first == 0);
  CHECK(extra_us(Precision::bf16, false).first == 0);  // fused: the count as it was
}
