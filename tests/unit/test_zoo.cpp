// The model zoo against published facts: parameter totals (torchvision and Hugging Face model
// cards), tensor counts and names in registration order, and forward FLOPs against torchvision's
// documented GFLOPS (which are multiply-adds: our FLOPs / 2).
#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "sim/step/model_zoo.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

TEST_CASE("zoo: parameter totals match the published ones")
{
  CHECK(make_preset("resnet18").parameter_count() == 11'689'512);
  CHECK(make_preset("resnet50").parameter_count() == 25'557'032);
  CHECK(make_preset("resnet101").parameter_count() == 44'549'160);
  CHECK(make_preset("vgg16").parameter_count() == 138'357'544);
  CHECK(make_preset("bert-base").parameter_count() == 109'482'240);
  CHECK(make_preset("bert-large").parameter_count() == 335'141'888);  // "about 335M"
  CHECK(make_preset("gpt2").parameter_count() == 124'439'808);        // tied LM head counted once
  CHECK(make_preset("gpt2-xl").parameter_count() == 1'557'611'200);
  // The sequence length changes FLOPs, never parameters.
  CHECK(make_preset("bert-large", {}, 512).parameter_count() == 335'141'888);
}

TEST_CASE("zoo: tensors in registration order, as model.parameters() lists them")
{
  const ModelSpec r50 = make_resnet50();
  CHECK(r50.tensor_count() == 161);
  CHECK(r50.layers.front().params.front().name == "conv1.weight");
  CHECK(r50.layers.back().params.back().name == "fc.bias");
  CHECK(make_resnet18().tensor_count() == 62);
  const ModelSpec vgg = make_vgg16();
  CHECK(vgg.tensor_count() == 32);
  CHECK(vgg.layers[2].name == "features.5");  // conv, ReLU, conv, ReLU, pool: the third conv is index 5
  const ModelSpec bert = make_bert_base();
  CHECK(bert.tensor_count() == 199);
  CHECK(bert.layers.front().params.front().name == "embeddings.word_embeddings.weight");
  CHECK(bert.layers.back().params.back().name == "pooler.dense.bias");
  const ModelSpec gpt = make_gpt2_small();
  CHECK(gpt.tensor_count() == 148);
  CHECK(gpt.layers.back().name == "lm_head");
  CHECK(gpt.layers.back().params.empty());  // tied to wte
}

TEST_CASE("zoo: forward FLOPs match torchvision's documented GFLOPS (multiply-adds)")
{
  // torchvision model docs, "GFLOPS" column (ImageNet weights, 224x224).
  CHECK(make_resnet18().fwd_flops_per_sample() / 2e9 == Approx(1.81).epsilon(0.02));
  CHECK(make_resnet50().fwd_flops_per_sample() / 2e9 == Approx(4.09).epsilon(0.02));
  CHECK(make_resnet101().fwd_flops_per_sample() / 2e9 == Approx(7.80).epsilon(0.02));
  CHECK(make_vgg16().fwd_flops_per_sample() / 2e9 == Approx(15.47).epsilon(0.02));
  // Transformers: about 2 x parameters x tokens (Kaplan et al. 2020), plus attention and the LM head.
  const double n = 124'439'808.0, seq = 1024;
  const double f = make_gpt2_small().fwd_flops_per_sample();
  CHECK(f > 2 * (n - 50257.0 * 768 - 1024.0 * 768) * seq);
  CHECK(f < 2 * (n + 50257.0 * 768) * seq + 4 * seq * seq * 768 * 12 * 1.01);
  CHECK_THROWS_AS(make_preset("gpt2", {}, 4096), UserError);
  CHECK_THROWS_WITH(make_preset("resnet51"), Catch::Contains("resnet50"));
}
