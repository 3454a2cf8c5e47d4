// Property tests (rapidcheck): random valid scenarios, built as YAML and loaded by the real
// loader, must give finite non-negative times; a slower NIC never makes a step faster; the flow
// engine (max-min sharing) is never faster than the analytical one (no sharing). Sizes are kept
// small so the whole file runs in a few seconds.
#include <rapidcheck/catch.h>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include "app/input/scenario_loader.hpp"
#include "property.hpp"
#include "support.hpp"

using namespace ddpsim;

namespace {

struct Random {
  std::string instance, model, framework, precision;
  int nodes = 1, batch = 1, accum = 1;
  double nic_gbps = 0;  // 0: the catalog's
};

Random random_scenario(bool with_gloo)
{
  Random s;
  s.instance = *rc::gen::element<std::string>("p3.16xlarge", "p3dn.24xlarge", "p4d.24xlarge", "p5.48xlarge", "p4de.24xlarge");
  s.model = *rc::gen::element<std::string>("resnet18", "resnet50", "bert-base", "gpt2", "vgg16");
  std::vector<std::string> fw{"pytorch-ddp", "lightning", "horovod", "smddp", "parameter-server"};
  if (with_gloo) fw.push_back("gloo");
  s.framework = *rc::gen::elementOf(fw);
  s.precision = *rc::gen::element<std::string>("fp32", "fp16", "bf16");
  s.nodes = *rc::gen::inRange(1, 17);
  s.batch = *rc::gen::inRange(1, 257);
  s.accum = *rc::gen::inRange(1, 9);
  return s;
}

std::string yaml(const Random& s)
{
  std::string nic = s.nic_gbps > 0 ? ", overrides: {nic: {bandwidth: " + std::to_string(s.nic_gbps) + "Gbps}}" : "";
  return "name: prop\ncluster: {instance: " + s.instance + ", nodes: " + std::to_string(s.nodes) + nic +
         "}\nmodel: {preset: " + s.model + "}\ntraining: {framework: " + s.framework +
         ", batch_per_gpu: " + std::to_string(s.batch) + ", precision: " + s.precision +
         ", grad_accum_steps: " + std::to_string(s.accum) + ", samples: 100000}\n";
}

sim::ConfigResult run(const Random& s, sim::EngineKind engine = sim::EngineKind::analytical)
{
  const sim::ScenarioSpec spec = app::parse_scenario("prop.yaml", yaml(s), test::catalog());
  sim::RunOptions o;
  o.engine = engine;
  return sim::run_scenario(spec, o).results.at(0);
}

bool finite_non_negative(double v) { return std::isfinite(v) && v >= 0; }

void property(const char* description, int cases, auto&& testable)
{
  test::property(description, cases, 20261123, std::forward<decltype(testable)>(testable));
}

}  // namespace

TEST_CASE("properties: random valid scenarios give finite, non-negative times", "[property]")
{
  property("times are finite and >= 0", 60, [] {
    const Random s = random_scenario(false);
    const sim::ConfigResult r = run(s);
    for (double v : {r.step_time_s, r.total_time_s, r.compute_s, r.comm_s, r.exposed_comm_s, r.optimizer_s,
                     r.loader_wait_s, r.overhead_s, r.samples_per_s, r.cost_usd})
      RC_ASSERT(finite_non_negative(v));
    RC_ASSERT(r.step_time_s > 0);
    // Horovod's last buffer waits for the next cycle after backward: that wait is exposed too.
    if (s.framework != "horovod") RC_ASSERT(r.exposed_comm_s <= r.comm_s + 1e-12);
  });
}

TEST_CASE("properties: a slower NIC never makes a step faster", "[property]")
{
  property("step(bw / k) >= step(bw)", 40, [] {
    Random s = random_scenario(false);
    s.nodes = *rc::gen::inRange(2, 17);
    s.nic_gbps = *rc::gen::element(25.0, 100.0, 400.0, 1600.0, 3200.0);
    const double fast = run(s).step_time_s;
    s.nic_gbps /= *rc::gen::element(1.5, 2.0, 10.0);
    const double slow = run(s).step_time_s;
    RC_ASSERT(slow >= fast * (1 - 1e-12));
  });
}

TEST_CASE("properties: the flow engine is never faster than the analytical one", "[property]")
{
  // Each flow run forks a SimGrid process: a handful of cases keeps this to a few seconds.
  property("flow step >= analytical step", 8, [] {
    Random s = random_scenario(false);
    s.nodes = *rc::gen::inRange(1, 5);
    s.framework = *rc::gen::element<std::string>("pytorch-ddp", "horovod");
    const sim::ConfigResult a = run(s), f = run(s, sim::EngineKind::flow);
    // SimGrid's max-min solver works to 1e-9 per share; equal within 1e-6 counts as not faster.
    RC_ASSERT(f.comm_s >= a.comm_s * (1 - 1e-6));
    RC_ASSERT(f.step_time_s >= a.step_time_s * (1 - 1e-6));
  });
}
