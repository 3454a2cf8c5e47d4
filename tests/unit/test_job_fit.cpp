// calibrate job (issue 10): observed rows, the fit through the simulator, its refusals, job
// profiles and what transfers, the Latin hypercube and the prediction intervals. The sanity of
// `calibrate fit` on nccl-tests logs is in test_calibrate.cpp.
#include <catch2/catch.hpp>
#include <cmath>

#include "app/input/job_profile_io.hpp"
#include "app/output/output.hpp"
#include "app/input/scenario_loader.hpp"
#include "calibrate/job_fit.hpp"
#include "sim/study/twin.hpp"
#include "support.hpp"

using namespace ddpsim;
using namespace ddpsim::calibrate;
using namespace ddpsim::sim;

namespace {

// The seed case's shape, small: a 7-layer MLP with Lightning on p3.16xlarge.
const char* kScenario = R"(name: t
cluster: {instance: ml.p3.16xlarge, nodes: [1, 2, 4, 8]}
model: {preset: mlp, widths: [256, 512, 512, 512, 256, 128, 64, 1]}
training: {framework: lightning, batch_per_gpu: 1024, samples: 100000000}
)";

sim::ScenarioSpec scenario(const std::string& extra = "")
{
  return app::parse_scenario("t.yaml", std::string(kScenario) + extra, test::catalog());
}

// Rows observed on `truth` (the scenario with known knob values): what a fit must recover.
sim::ScenarioSpec with_rows_from(const sim::ScenarioSpec& truth, sim::ScenarioSpec s, const std::vector<int>& nodes,
                                 sim::Metric metric = sim::Metric::total_time)
{
  for (int n : nodes) {
    sim::Observation o;
    o.nodes = n;
    o.gpus_per_node = 8;
    o.framework = sim::Framework::lightning;
    o.metric = metric;
    o.where = "t.yaml:" + std::to_string(n) + ":1";
    s.observations.push_back(o);
  }
  const std::vector<double> v = predict_rows(truth, s.observations, {});
  for (std::size_t i = 0; i < v.size(); ++i) s.observations[i].value = v[i];
  return s;
}

std::string thrown(const std::function<void()>& f)
{
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("observed rows: both forms, located errors", "[jobfit]")
{
  const sim::ScenarioSpec s = scenario(R"(observed:
  source: blog
  minutes: {1: 99}
  rows:
    - {nodes: 2, total: 55min}
    - {nodes: 4, step_time: 14.2ms, source: mine}
    - {nodes: 8, samples_per_s: 51000}
)");
  REQUIRE(s.observations.size() == 4);
  CHECK(s.observations[0].value == Approx(99 * 60));
  CHECK(s.observations[1].metric == sim::Metric::total_time);
  CHECK(s.observations[2].value == Approx(0.0142));
  CHECK(s.observations[2].source == "mine");
  CHECK(s.observations[3].source == "blog");
  CHECK(s.observations[1].where == "t.yaml:9:7");
  CHECK(s.observed_minutes.at(2) == Approx(55));
  CHECK(s.observed_minutes.count(4) == 0);  // a step time is not a total
  const std::string dup = thrown([] { scenario("observed:\n  rows:\n    - {nodes: 1, total: 1min}\n    - {nodes: 1, total: 2min}\n"); });
  CHECK(dup.find("t.yaml:8:7: error: observed.rows[1]: duplicate") == 0);
  CHECK(thrown([] { scenario("observed:\n  rows:\n    - {nodes: 3, total: 1min}\n"); }).find("unknown configuration") !=
        std::string::npos);
  CHECK(thrown([] { scenario("observed:\n  rows:\n    - {nodes: 1, step_time: -1ms}\n"); }).find("negative") !=
        std::string::npos);
  CHECK(thrown([] { scenario("observed:\n  rows:\n    - {nodes: 2, samples_per_s: 0}\n"); }).find("must be positive") !=
        std::string::npos);
  CHECK(thrown([] { scenario("observed:\n  rows:\n    - {nodes: 1, total: 1min, step_time: 1ms}\n"); })
            .find("exactly one of") != std::string::npos);
}

TEST_CASE("calibrate job recovers known knobs through the simulator", "[jobfit]")
{
  const sim::ScenarioSpec base = scenario();
  sim::ScenarioSpec truth = base;
  apply("compute_scale", truth, 1.7);
  apply("network_efficiency", truth, 0.35);
  const sim::ScenarioSpec s = with_rows_from(truth, base, {1, 2, 4});
  JobFitOptions opt;
  opt.knobs = {"compute_scale", "network_efficiency"};
  opt.fit_on_nodes = {1, 2};
  const JobFit fit = fit_job(s, opt);
  REQUIRE(fit.knobs.size() == 2);
  CHECK(fit.knobs[0].value == Approx(1.7).epsilon(1e-3));
  CHECK(fit.knobs[1].value == Approx(0.35).epsilon(1e-3));
  CHECK(fit.dof == 0);
  CHECK_FALSE(fit.sigma_from_residuals);
  CHECK(fit.knobs[0].log_se > 0);
  // The held-back 4-node row is predicted by the same physics: error ~0.
  REQUIRE_FALSE(fit.rows[2].fitted);
  CHECK(std::abs(fit.rows[2].error()) < 2e-3);
  CHECK(std::abs(fit.rows[2].uncalibrated / fit.rows[2].obs.value - 1) > 0.1);  // and the fit mattered
}

TEST_CASE("calibrate job: leave-one-out and residual sigma with more rows than knobs", "[jobfit]")
{
  const sim::ScenarioSpec base = scenario();
  sim::ScenarioSpec truth = base;
  apply("compute_scale", truth, 0.8);
  sim::ScenarioSpec s = with_rows_from(truth, base, {1, 2, 4});
  s.observations[1].value *= 1.05;  // a noisy measurement
  JobFitOptions opt;
  opt.knobs = {"compute_scale"};
  const JobFit fit = fit_job(s, opt);
  CHECK(fit.dof == 2);
  CHECK(fit.sigma_from_residuals);
  CHECK(fit.sigma > 0.01);
  for (const RowFit& r : fit.rows) CHECK(r.loo_predicted.has_value());
  // Leaving the noisy row out predicts it at the truth, about 5 % below what was observed.
  CHECK(*fit.rows[1].loo_predicted / fit.rows[1].obs.value - 1 == Approx(1 / 1.05 - 1).margin(5e-3));
}

TEST_CASE("calibrate job refuses what the data cannot determine or what is impossible", "[jobfit]")
{
  const sim::ScenarioSpec base = scenario();
  JobFitOptions opt;
  // Two knobs that both only scale the compute: confounded.
  opt.knobs = {"compute_scale", "measured_step"};
  const sim::ScenarioSpec s = with_rows_from(base, base, {1, 2, 4});
  CHECK(thrown([&] { fit_job(s, opt); }).find("cannot tell") != std::string::npos);
  // A network knob on one-node rows has no effect.
  opt.knobs = {"compute_scale", "network_efficiency"};
  const sim::ScenarioSpec one = with_rows_from(base, base, {1});
  CHECK(thrown([&] { fit_job(with_rows_from(base, base, {1}), {{"network_efficiency"}, {}, 0.02, {}}); })
            .find("no effect") != std::string::npos);
  CHECK(thrown([&] { fit_job(one, opt); }).find("cannot determine") != std::string::npos);
  // Rows from a network twice the catalog's line rate: efficiency > 1 is refused.
  sim::ScenarioSpec fast = base;
  apply("network_efficiency", fast, 2.5);
  const std::string why = thrown([&] { fit_job(with_rows_from(fast, base, {1, 2}), opt); });
  CHECK(why.find("network_efficiency") != std::string::npos);
  CHECK(why.find("physical range") != std::string::npos);
  // Unknown knob.
  CHECK(thrown([&] { fit_job(s, {{"interference"}, {}, 0.02, {}}); }).find("unknown knob") != std::string::npos);
}

TEST_CASE("job profiles round-trip and transfer only where they apply", "[jobfit]")
{
  const sim::ScenarioSpec base = scenario();
  sim::ScenarioSpec truth = base;
  apply("compute_scale", truth, 1.3);
  apply("network_efficiency", truth, 0.5);
  const JobFit fit = fit_job(with_rows_from(truth, base, {1, 2}), {{"compute_scale", "network_efficiency"}, {}, 0.02, {}});
  const std::string path = std::string(DDPSIM_SOURCE_DIR) + "/build/test_job_profile.yaml";
  app::write_output(path, app::job_profile_yaml(fit, "t.yaml"));
  const app::JobProfile p = app::load_job_profile(path);
  REQUIRE(p.knobs == std::vector<std::string>{"compute_scale", "network_efficiency"});
  CHECK(p.values[0] == Approx(fit.knobs[0].value).epsilon(1e-8));
  CHECK(p.cov_log(0, 1) == Approx(fit.cov_log(0, 1)).epsilon(1e-6));
  // What the job ran is written where it is not the default, and read back.
  CHECK(p.context.kernels == "fused");
  CHECK(p.context.attention == "eager");
  CHECK(p.context.memory_format == "contiguous");
  JobFit stated = fit;
  stated.context.kernels = "eager";
  stated.context.attention = "flash";
  stated.context.memory_format = "channels_last";
  const app::JobProfile q = app::parse_job_profile("q.yaml", app::job_profile_yaml(stated, "t.yaml"));
  CHECK(q.context.kernels == "eager");
  CHECK(q.context.attention == "flash");
  CHECK(q.context.memory_format == "channels_last");
  // Same job on other node counts: everything applies.
  sim::ScenarioSpec same = base;
  Uncertainty u;
  CHECK(sim::apply_job_profile(p, same, u).size() == 1);  // the "applied" note only
  CHECK(u.dims.size() == 2);
  // On a p3dn: the compute transfers (same V100 GPU family? no: 32 GB part) -- nothing but the
  // framework knobs would; the network never does.
  sim::ScenarioSpec other = app::parse_scenario(
      "o.yaml",
      "name: o\ncluster: {instance: p4d.24xlarge, nodes: [1, 2]}\nmodel: {preset: mlp, widths: [256, 512, 512, 512, 256, "
      "128, 64, 1]}\ntraining: {framework: lightning, batch_per_gpu: 1024, samples: 1000000}\n",
      test::catalog());
  Uncertainty u2;
  const std::vector<std::string> notes = sim::apply_job_profile(p, other, u2);
  REQUIRE(notes.size() == 2);
  CHECK(notes[0].find("compute_scale not applied: fitted on V100-SXM2-16GB GPUs") != std::string::npos);
  CHECK(notes[1].find("network_efficiency not applied: fitted on p3.16xlarge's network") != std::string::npos);
  CHECK(u2.dims.empty());
}

TEST_CASE("Latin hypercube: one point per stratum, deterministic", "[jobfit]")
{
  const auto a = latin_hypercube(10, 3, 7), b = latin_hypercube(10, 3, 7), c = latin_hypercube(10, 3, 8);
  CHECK(a == b);
  CHECK(a != c);
  for (std::size_t k = 0; k < 3; ++k) {
    std::vector<int> count(10, 0);
    for (const auto& p : a) ++count[static_cast<std::size_t>(p[k] * 10)];
    CHECK(count == std::vector<int>(10, 1));
  }
}

TEST_CASE("prediction intervals: every result gets an ordered band, deterministically", "[jobfit]")
{
  const sim::ScenarioSpec s = scenario();
  const sim::ScenarioReport a = sim::predict(s, {}, 8), b = sim::predict(s, {}, 8);
  for (std::size_t i = 0; i < a.results.size(); ++i) {
    const sim::ConfigResult& r = a.results[i];
    REQUIRE(r.total_band.set);
    CHECK(r.total_band.p10 <= r.total_band.p90);
    CHECK(r.step_band.p10 <= r.step_band.p90);
    CHECK(r.cost_band.p10 <= r.cost_band.p90);
    CHECK(r.total_band.p10 == b.results[i].total_band.p10);
  }
  // Multi-node rows depend on the [assume] NIC latency, so their band has width.
  CHECK(a.results.back().step_band.p90 > a.results.back().step_band.p10);
  // A zero-width uncertainty gives a zero-width band around the nominal.
  Uncertainty u;
  u.dims.push_back(assumed_range("network_latency", start_value("network_latency", s), 1, 1));
  sim::ScenarioReport c = sim::run_scenario(s);
  add_intervals(s, c, u, {}, 4);
  CHECK(c.results.back().total_band.p10 == Approx(c.results.back().total_time_s));
  CHECK(c.results.back().total_band.p90 == Approx(c.results.back().total_time_s));
}

TEST_CASE("calibrate job says when the rows drive a knob to the end of its search", "[jobfit]")
{
  // The 2-node run faster per sample than the model can make it with no per-step cost at all: the fit
  // pushes step_overhead towards zero or below. Refused as such, not as "no effect" nor a number.
  // A fixed global batch: the 2-node step has half the micro-steps of the 1-node one, so a
  // per-step cost and the compute move the two rows differently (identifiable).
  const sim::ScenarioSpec base = app::parse_scenario("t.yaml", R"(name: t
cluster: {instance: ml.p3.16xlarge, nodes: [1, 2]}
model: {preset: mlp, widths: [256, 512, 512, 512, 256, 128, 64, 1]}
training: {framework: lightning, batch_per_gpu: 1024, global_batch: 65536, samples: 100000000}
)", test::catalog());
  sim::ScenarioSpec truth = base;
  apply("step_overhead", truth, 5e-3);
  sim::ScenarioSpec s = with_rows_from(truth, base, {1, 2});
  s.observations[1].value = 0.45 * s.observations[0].value;  // superlinear: 2.2x on twice the GPUs
  JobFitOptions opt;
  opt.knobs = {"compute_scale", "step_overhead"};
  const std::string why = thrown([&] { fit_job(s, opt); });
  INFO(why);
  CHECK(why.find("drive step_overhead to the lower end") != std::string::npos);
  // The same rows without the push fit (compute_scale and step_overhead are both determined).
  const sim::ScenarioSpec fine = with_rows_from(truth, base, {1, 2});
  CHECK(thrown([&] { fit_job(fine, opt); }).empty());
  CHECK(fit_job(fine, opt).knobs.at(1).value == Approx(5e-3).epsilon(0.01));
}
