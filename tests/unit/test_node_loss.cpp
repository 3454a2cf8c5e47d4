// Issue 18: the one-node loss. 21 public 8-GPU nodes reached 84-100% of 8x their one-GPU row where
// the model gives ~100%; no modelled mechanism explains it, so it is a knob (node_slowdown, fitted
// by calibrate job) and a one-sided band on every prediction that has not calibrated it
// (sim/study/model_error.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "support.hpp"

#include "app/input/scenario_loader.hpp"
#include "calibrate/plausibility.hpp"
#include "sim/step/compute.hpp"
#include "sim/study/knobs.hpp"
#include "sim/study/scenario.hpp"
#include "sim/study/twin.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

namespace {

ScenarioSpec bert(int gpus_per_node, const std::string& extra = "compute: {measured_step_s: 0.2}\n")
{
  return app::parse_scenario("s.yaml",
                             "name: t\ncluster: {instance: p5.48xlarge, nodes: [1, 2], gpus_per_node: " +
                                 std::to_string(gpus_per_node) +
                                 "}\nmodel: {preset: bert-large, seq_len: 128}\n"
                                 "training: {framework: pytorch-ddp, batch_per_gpu: 32, precision: bf16, samples: 100000, "
                                 "optimizer: adam}\n" +
                                 extra,
                             test::catalog());
}

bool said(const ScenarioReport& r)
{
  for (const std::string& n : r.notes)
    if (n.find("on rows with more than one GPU per node") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("node_slowdown slows each GPU's compute only where a node runs more than one GPU")
{
  for (const int g : {1, 8}) {
    ScenarioSpec s = bert(g);
    CHECK(start_value("node_slowdown", s) == 1.0);
    const ScenarioReport before = run_scenario(s, RunOptions{});
    apply("node_slowdown", s, 1.2);
    const ScenarioReport after = run_scenario(s, RunOptions{});
    REQUIRE(after.results.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      const double f = g > 1 ? 1.2 : 1.0;
      CHECK(after.results[i].compute_s == Approx(f * before.results[i].compute_s).epsilon(1e-9));
      if (g > 1) CHECK(after.results[i].samples_per_s < before.results[i].samples_per_s);
    }
  }
  // It transfers between scenarios on the same instance and model only.
  JobContext a = context_of(bert(8)), b = a;
  CHECK(why_not_transferable("node_slowdown", a, b).empty());
  b.instance = "p4d.24xlarge";
  CHECK(why_not_transferable("node_slowdown", a, b) == "fitted on p5.48xlarge nodes, the scenario uses p4d.24xlarge");
}

TEST_CASE("the one-node loss is a band, absent with one GPU per node")
{
  // A measured single-GPU step on 8-GPU nodes: nothing else is uncertain but the catalog's [assume]
  // latencies, which barely move a BERT step; the band is the rest of the loss, on both sides of
  // the central value (the slowest GPU is in the central value; the residual has both signs).
  const ScenarioReport shared = predict(bert(8), RunOptions{}, kDefaultSamples);
  CHECK(said(shared));
  for (const ConfigResult& r : shared.results) {
    REQUIRE(r.step_band.set);
    CHECK(r.step_band.p10 < 0.97 * r.step_time_s);  // p10 of N(0, 0.054) in ln: x0.933 on compute
    CHECK(r.step_band.p10 > 0.90 * r.step_time_s);
    CHECK(r.step_band.p90 > 1.04 * r.step_time_s);  // p90: x1.072 on compute
    CHECK(r.step_band.p90 < 1.10 * r.step_time_s);
    CHECK(r.samples_band.p90 > 1.03 * r.samples_per_s);
  }
  // The central value is the model's: the band does not move it.
  CHECK(predict(bert(8), RunOptions{}, 0).results[0].step_time_s == shared.results[0].step_time_s);
  // One GPU per node: no loss to carry (on one node; two nodes carry the loss across nodes, below).
  const ScenarioReport alone = predict(bert(1), RunOptions{}, kDefaultSamples);
  CHECK_FALSE(said(alone));
  for (const ConfigResult& r : alone.results)
    if (r.step_band.set && r.nodes == 1) CHECK(r.step_band.p90 < 1.01 * r.step_time_s);
}

// The same loss as a cost per optimizer step (node_step_cost): the form in which NVIDIA's ResNet-50
// nodes' loss carries from one precision to the other (docs/validation.md, scripts/validate_node_loss.sh).
TEST_CASE("node_step_cost adds a cost to each optimizer step only where a node runs more than one GPU")
{
  for (const int g : {1, 8}) {
    ScenarioSpec s = bert(g);
    CHECK(start_value("node_step_cost", s) == 1e-3);  // none written: the fit starts from 1 ms
    const ScenarioReport before = run_scenario(s, RunOptions{});
    apply("node_step_cost", s, 0.05);
    CHECK(start_value("node_step_cost", s) == Approx(0.05));
    const ScenarioReport after = run_scenario(s, RunOptions{});
    REQUIRE(after.results.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      CHECK(after.results[i].compute_s == Approx(before.results[i].compute_s).epsilon(1e-12));  // not a compute factor
      CHECK(after.results[i].step_time_s == Approx(before.results[i].step_time_s + (g > 1 ? 0.05 : 0.0)).epsilon(1e-9));
    }
  }
  // Stated as a scenario key it is the same cost, and it replaces the one-node band (a measurement).
  const ScenarioReport keyed = predict(bert(8, "compute: {measured_step_s: 0.2}\noverheads: {node_step_cost: 50ms}\n"),
                                       RunOptions{}, kDefaultSamples);
  CHECK_FALSE(said(keyed));
  ScenarioSpec applied = bert(8);
  apply("node_step_cost", applied, 0.05);
  CHECK(keyed.results[0].step_time_s == Approx(run_scenario(applied, RunOptions{}).results[0].step_time_s).epsilon(1e-12));
  CHECK_FALSE(said(predict(bert(8, "compute: {measured_step_s: 0.2, node_slowdown: 1.1}\n"), RunOptions{}, kDefaultSamples)));
  CHECK_THROWS_WITH(bert(8, "overheads: {node_step_cost: -1ms}\n"), Catch::Contains("overheads.node_step_cost"));
  CHECK_THROWS_WITH(bert(8, "compute: {node_slowdown: 0}\n"), Catch::Contains("compute.node_slowdown"));
  // It transfers with the instance, the framework and the model (a framework's own per-step cost).
  JobContext a = context_of(bert(8)), b = a;
  CHECK(why_not_transferable("node_step_cost", a, b).empty());
  b.precision = "amp-fp16";
  CHECK(why_not_transferable("node_step_cost", a, b).empty());  // across precisions: what it is for
  b.framework = "horovod";
  CHECK(why_not_transferable("node_step_cost", a, b) == "fitted with pytorch-ddp, the scenario runs horovod");
  CHECK(calibrate::knob_warning("node_step_cost", 0.02, 1e-3).empty());
  CHECK_THAT(calibrate::knob_warning("node_step_cost", 0.5, 1e-3), Catch::Contains("beyond the plausible 0.1 s"));
}

TEST_CASE("a fitted node_slowdown outside the public range warns")
{
  CHECK(calibrate::knob_warning("node_slowdown", 1.1, 1.0).empty());
  CHECK(calibrate::knob_warning("node_slowdown", 1.0, 1.0).empty());
  CHECK_THAT(calibrate::knob_warning("node_slowdown", 1.6, 1.0), Catch::Contains("outside the plausible 0.95-1.3"));
  CHECK_FALSE(calibrate::knob_warning("node_slowdown", 0.8, 1.0).empty());
}

// Issue 18, what real steps pay: a synchronous step runs at the slowest of its GPUs
// (compute.hpp slowest_gpu_factor; Sinha et al. SC22 for the spread).
TEST_CASE("the slowest of n GPUs: Blom's order statistic against a Monte Carlo of the maximum")
{
  CHECK(slowest_gpu_factor(1, 0.015) == 1.0);
  CHECK(slowest_gpu_factor(256, 0.0) == 1.0);
  CHECK_THROWS(slowest_gpu_factor(0, 0.015));
  CHECK_THROWS(slowest_gpu_factor(8, -0.01));
  std::mt19937_64 rng(42);
  std::normal_distribution<double> z;
  double previous = 1.0;
  for (const int n : {2, 8, 64, 256}) {
    const double f = slowest_gpu_factor(n, 1.0);  // sigma 1: ln f is the expected maximum itself
    double sum = 0;
    const int trials = 20000;
    for (int t = 0; t < trials; ++t) {
      double m = -1e300;
      for (int i = 0; i < n; ++i) m = std::max(m, z(rng));
      sum += m;
    }
    CHECK(std::log(f) == Approx(sum / trials).margin(0.03));  // Blom is within 0.01 of the exact value here
    CHECK(f > previous);                                       // more GPUs, a slower slowest
    previous = f;
  }
  // The default spread: an 8-GPU node loses 2.2%, 256 GPUs 4.3%.
  CHECK(slowest_gpu_factor(8, kGpuSpreadSigma) == Approx(1.0218).epsilon(1e-3));
  CHECK(slowest_gpu_factor(256, kGpuSpreadSigma) == Approx(1.0429).epsilon(1e-3));
}

TEST_CASE("a step's compute is its slowest GPU's: x the factor of its row's GPU count, none with gpu_spread 0")
{
  for (const int g : {1, 8}) {
    const ScenarioReport spread = run_scenario(bert(g), RunOptions{});
    const ScenarioReport alike = run_scenario(bert(g, "compute: {measured_step_s: 0.2, gpu_spread: 0}\n"), RunOptions{});
    REQUIRE(spread.results.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      const int gpus = g * static_cast<int>(i + 1);  // nodes 1 and 2
      CHECK(spread.results[i].compute_s == Approx(slowest_gpu_factor(gpus, kGpuSpreadSigma) * alike.results[i].compute_s).epsilon(1e-9));
    }
  }
  CHECK_THROWS_WITH(bert(8, "compute: {gpu_spread: -0.1}\n"), Catch::Contains("compute.gpu_spread"));
}

// Issue 18: the loss across nodes. 43 public multi-node rows lost more of their own node's
// efficiency than the model gives; per doubling of the nodes ln(predicted / measured) has an RMS
// of 0.0255, so it is a knob (doubling_slowdown) and a band that grows with the nodes.
namespace {

ScenarioSpec bert_nodes(const std::string& nodes)
{
  return app::parse_scenario("s.yaml",
                             "name: t\ncluster: {instance: p5.48xlarge, nodes: " + nodes +
                                 "}\nmodel: {preset: bert-large, seq_len: 128}\n"
                                 "training: {framework: pytorch-ddp, batch_per_gpu: 32, precision: bf16, samples: 1000000, "
                                 "optimizer: adam, grad_accum_steps: 16}\ncompute: {measured_step_s: 0.2}\n",
                             test::catalog());
}

bool said_doubling(const ScenarioReport& r)
{
  for (const std::string& n : r.notes)
    if (n.find("per doubling of the nodes beyond one") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("doubling_slowdown slows each GPU's compute by s^log2(nodes), not on one node")
{
  ScenarioSpec s = bert_nodes("[1, 4, 32]");
  CHECK(start_value("doubling_slowdown", s) == 1.0);
  const ScenarioReport before = run_scenario(s, RunOptions{});
  apply("doubling_slowdown", s, 1.1);
  const ScenarioReport after = run_scenario(s, RunOptions{});
  REQUIRE(after.results.size() == 3);
  const double factor[] = {1.0, 1.1 * 1.1, std::pow(1.1, 5)};
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(after.results[i].compute_s == Approx(factor[i] * before.results[i].compute_s).epsilon(1e-9));
  // It transfers with the instance, the framework and the model.
  JobContext a = context_of(bert_nodes("[1, 2]")), b = a;
  CHECK(why_not_transferable("doubling_slowdown", a, b).empty());
  b.framework = "horovod";
  CHECK(why_not_transferable("doubling_slowdown", a, b) == "fitted with pytorch-ddp, the scenario runs horovod");
  CHECK(calibrate::knob_warning("doubling_slowdown", 1.03, 1.0).empty());
  CHECK_THAT(calibrate::knob_warning("doubling_slowdown", 1.3, 1.0), Catch::Contains("outside the plausible 0.95-1.15"));
  CHECK_FALSE(calibrate::knob_warning("doubling_slowdown", 0.9, 1.0).empty());
}

TEST_CASE("the loss across nodes is a band that widens with the nodes, absent on one node")
{
  const ScenarioReport r = predict(bert_nodes("[1, 4, 32]"), RunOptions{}, kDefaultSamples);
  CHECK(said_doubling(r));
  REQUIRE(r.results.size() == 3);
  const auto width = [](const ConfigResult& c) { return (c.step_band.p90 - c.step_band.p10) / c.step_time_s; };
  for (const ConfigResult& c : r.results) REQUIRE(c.step_band.set);
  // One node: the one-node band alone (x0.933-1.072 on compute); 4 nodes two doublings (sd 0.051
  // on top); 32 nodes five (sd 0.128): p10-p90 about x0.85-1.18 on compute.
  CHECK(width(r.results[1]) > width(r.results[0]));
  CHECK(width(r.results[2]) > width(r.results[1]) + 0.1);
  CHECK(r.results[2].step_band.p90 > 1.12 * r.results[2].step_time_s);
  CHECK(r.results[2].step_band.p10 < 0.90 * r.results[2].step_time_s);
  // The central value is the model's.
  CHECK(predict(bert_nodes("[1, 4, 32]"), RunOptions{}, 0).results[2].step_time_s == r.results[2].step_time_s);
  CHECK_FALSE(said_doubling(predict(bert_nodes("[1]"), RunOptions{}, kDefaultSamples)));
}

// Round 4 session 20: a job profile fitted on rows of one node only measured nothing across nodes
// (its forward fits had no row above the smallest node count), so the public rows' loss across
// nodes stands beyond it; a profile fitted on several node counts, or with a measured
// extrapolation, calibrates it and replaces it.
TEST_CASE("a job profile fitted on one node only keeps the loss across nodes beyond it")
{
  const auto with_profile = [](std::vector<JobProfile::Role> roles, double extrapolation) {
    ScenarioSpec s = bert_nodes("[1, 4, 32]");
    auto p = std::make_shared<JobProfile>();
    p->file = "job.yaml";
    p->context = context_of(s);
    p->knobs = {"compute_scale"};
    p->values = {1.0};
    p->cov_log = Eigen::MatrixXd::Constant(1, 1, 1e-4);
    p->sigma = 0.02;
    p->roles = std::move(roles);
    p->extrapolation_ln_sd = extrapolation;
    p->extrapolation_beyond_nodes = extrapolation > 0 ? 2 : 0;
    s.job_profile = p;
    return predict(s, RunOptions{}, kDefaultSamples);
  };
  const JobProfile::Role one{1, "pytorch-ddp", "fitted"}, two{2, "pytorch-ddp", "fitted"}, held{4, "pytorch-ddp", "held back"};
  const ScenarioReport r = with_profile({one, one, held}, 0);
  CHECK(said_doubling(r));
  bool noted = false;
  for (const std::string& n : r.notes) noted |= n.find("fitted on one node only") != std::string::npos;
  CHECK(noted);
  REQUIRE(r.results.size() == 3);
  CHECK(r.results[2].step_band.p90 > 1.10 * r.results[2].step_time_s);  // 32 nodes: five doublings of 0.0255
  CHECK_FALSE(said_doubling(with_profile({one, two, held}, 0)));
  CHECK_FALSE(said_doubling(with_profile({one, two}, 0.03)));
  CHECK_FALSE(said_doubling(with_profile({}, 0)));  // a profile that does not say which rows it fitted
}
